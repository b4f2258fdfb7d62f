import { expect, test } from '@playwright/test';
import { bridgeNames, type LoketBridge } from '../../../src-main/common/api';
import { executablePath, launchLoket, NO_ELECTRON } from './electron-app';

test('the Electron shell shows Loket in sandbox mode, with the API bridged and Node kept out', async () => {
  if (executablePath === null) {
    test.skip(true, NO_ELECTRON);
    return;
  }

  const loket = await launchLoket();
  try {
    const page = loket.cashier;
    // The screens come from the app's own scheme, never as file:// pages (docs/desktop.md).
    expect(page.url()).toMatch(/^app:\/\/loket\/index\.html/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Loket');
    await expect(page.getByTestId('mode-badge')).toHaveText('SANDBOX');

    // Every bridged call answers the envelope, over IPC as in browser mode.
    const info = await page.evaluate(() => (window as Window & { loket?: LoketBridge }).loket?.appInfo());
    expect(info).toMatchObject({ ok: true, result: { name: 'Loket', mode: 'sandbox' } });

    // With contextIsolation and nodeIntegration off, nothing of Node reaches the page.
    expect(await page.evaluate(() => typeof require)).toBe('undefined');
    expect(await page.evaluate(() => typeof process)).toBe('undefined');
    // The preload exposes the API's methods and the contract's extras (the events, the desktop's save), nothing else.
    const exposed = await page.evaluate(() => Object.keys((window as Window & { loket?: object }).loket ?? {}).sort());
    expect(exposed).toEqual([...bridgeNames].sort());
  } finally {
    await loket.close();
  }
});
