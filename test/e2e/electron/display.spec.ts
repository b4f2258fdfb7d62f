// The desktop app end to end: a QRIS sale on the cashier's window against the embedded sandbox, and the customer
// display window showing a QR a phone can read, through its own read-only bridge.
import { expect, test } from '@playwright/test';
import { bridgeNames, DISPLAY_BRIDGE_NAMES } from '../../../src-main/common/api';
import { decodeQr, executablePath, launchLoket, NO_ELECTRON, type DesktopLoket } from './electron-app';

test('a QRIS sale: the display window shows the QR, paid on both screens; the display can only read', async () => {
  if (executablePath === null) {
    test.skip(true, NO_ELECTRON);
    return;
  }
  const loket: DesktopLoket = await launchLoket();
  try {
    const { app, cashier, display } = loket;
    await expect(cashier.getByTestId('mode-badge')).toHaveText('SANDBOX');
    await expect(display.getByTestId('display-idle')).toBeVisible();

    // Node is kept out of both windows (context isolation, sandbox, no Node integration).
    for (const page of [cashier, display]) {
      expect(await page.evaluate(() => typeof require)).toBe('undefined');
      expect(await page.evaluate(() => typeof process)).toBe('undefined');
    }

    // The display's bridge: the two names the display reads, nothing of the cashier's.
    type Bridge = Record<string, (...args: unknown[]) => Promise<unknown>>;
    const exposed = await display.evaluate(() => Object.keys((window as unknown as { loket: object }).loket).sort());
    expect(exposed).toEqual([...DISPLAY_BRIDGE_NAMES].sort());
    expect(await display.evaluate(() => (window as unknown as { loket: Bridge }).loket.displayState!())).toMatchObject({
      ok: true,
      result: { mode: 'sandbox' },
    });
    const cashierBridge = await cashier.evaluate(() =>
      Object.keys((window as unknown as { loket: object }).loket).sort(),
    );
    expect(cashierBridge).toEqual([...bridgeNames].sort());

    // The sale, as a cashier makes it (Indonesian screen).
    await cashier.getByRole('textbox', { name: /^Jumlah/ }).fill('25000');
    await cashier.getByLabel('Nama barang').fill('Kopi susu');
    await cashier.locator('input[type=radio][data-method="qris_dynamic"]').check();
    await cashier.getByRole('button', { name: /^Tagih/ }).click();
    await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');

    await expect(display.getByTestId('display-amount')).toHaveText('Rp25.000');
    const qr = display.getByTestId('display-qr');
    await expect(qr).toBeVisible();
    const text = await qr.getAttribute('data-qr-text');
    expect(text).toMatch(/^000201/);
    expect(decodeQr(await qr.screenshot())).toBe(text);

    await cashier.getByRole('button', { name: 'Simulasikan pembayaran' }).click();
    await expect(cashier.getByTestId('payment-state')).toHaveText('✓ Lunas');
    await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'paid');

    // The display cannot be closed from its side; the shortcut on the cashier's window hides and shows it.
    const visible = () =>
      app.evaluate(({ BrowserWindow }) =>
        BrowserWindow.getAllWindows()
          .filter((w) => w.webContents.getURL().endsWith('#/display'))
          .map((w) => w.isVisible()),
      );
    expect(await visible()).toEqual([true]);
    await cashier.keyboard.press('Control+Shift+D');
    await expect.poll(visible).toEqual([false]);
    await cashier.keyboard.press('Control+Shift+D');
    await expect.poll(visible).toEqual([true]);
  } finally {
    await loket.close();
  }
});
