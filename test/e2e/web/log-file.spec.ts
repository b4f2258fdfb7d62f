// "The log has the details": an unexpected error on the screen names the log file, in both languages. The server's
// answer is the real envelope of an internal error (common/api.ts internalError), served for one call by the route
// below because nothing in a healthy Loket fails that way on purpose.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

async function failSetupInternally(page: Page, logFile: string): Promise<void> {
  await page.route('**/api/call/setupManager', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({
        ok: false,
        error: { code: 'internal', message: `Internal error in Loket; the log has the details: ${logFile}`, logFile },
      }),
    }),
  );
}

async function setUpManager(page: Page, labels: { name: string; pin: string; again: string }): Promise<void> {
  await page.keyboard.press('F8');
  const setup = page.getByTestId('manager-setup');
  await setup.getByLabel(labels.name, { exact: true }).fill('Bu Sri');
  await setup.getByLabel(labels.pin).fill('97531864');
  await setup.getByLabel(labels.again).fill('97531864');
  await page.getByTestId('setup-submit').click();
}

test('an internal error says, in the screen’s language, that the log has the details, and where it is', async ({
  cashier,
  loket,
}) => {
  const logFile = join(loket.dataDir, 'loket.log');
  await failSetupInternally(cashier, logFile);
  await setUpManager(cashier, { name: 'Nama', pin: 'PIN (4–8 angka)', again: 'Ulangi PIN' });
  const error = cashier.getByTestId('manager-setup').getByRole('alert');
  await expect(error).toContainText('Terjadi kesalahan di dalam Loket; rinciannya tercatat di log.');
  await expect(error).toContainText(logFile);

  await cashier.getByLabel('Bahasa').selectOption('en');
  await cashier.getByTestId('setup-submit').click();
  await expect(error).toContainText('Something went wrong inside Loket; the log has the details.');
  await expect(error).toContainText(logFile);
});
