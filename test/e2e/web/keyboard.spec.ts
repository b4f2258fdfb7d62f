// The cashier's whole job by keyboard alone: page.keyboard only, no clicks.
import type { Locator, Page } from '@playwright/test';
import { expect, prints, test } from './fixtures';

/** Presses Tab until `target` has the focus; fails if that takes more than `max` presses. Returns the count. */
async function tabTo(page: Page, target: Locator, max = 12): Promise<number> {
  for (let presses = 1; presses <= max; presses++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return presses;
  }
  throw new Error(`Tab did not reach ${target} in ${max} presses`);
}

test('a whole sale by keyboard: amount, item, method, Enter, simulate, receipt, new sale', async ({
  cashier,
  display,
}) => {
  const amount = cashier.getByRole('textbox', { name: /^Jumlah/ });
  await expect(amount).toBeFocused();
  await cashier.keyboard.type('25000');
  await expect(amount).toHaveValue('25.000');

  await cashier.keyboard.press('Tab');
  await expect(cashier.getByRole('textbox', { name: 'Nama barang' })).toBeFocused();
  await cashier.keyboard.type('Kopi susu');

  // Add to cart, the quick items (one Tab stop) and the cart's search field, then the method radio group.
  const qris = cashier.getByRole('radio', { name: 'QRIS (semua aplikasi)' });
  expect(await tabTo(cashier, qris)).toBe(4);
  await expect(qris).toBeChecked();
  await cashier.keyboard.press('ArrowDown');
  const ovo = cashier.getByRole('radio', { name: 'OVO' });
  await expect(ovo).toBeFocused();
  await expect(ovo).toBeChecked();

  await cashier.keyboard.press('Enter');
  const panel = cashier.getByTestId('payment-panel');
  await expect(panel).toHaveAttribute('data-state', 'awaiting_payment');
  await expect(cashier.getByRole('heading', { name: 'Pembayaran' })).toBeFocused();
  await expect(display.getByTestId('display-qr')).toBeVisible();

  const simulate = cashier.getByRole('button', { name: /Simulasikan pembayaran/ });
  expect(await tabTo(cashier, simulate)).toBe(1);
  await cashier.keyboard.press('Enter');
  await expect(cashier.getByTestId('payment-state')).toHaveText('✓ Lunas');
  await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'paid');

  // The focus moves to the next thing to do; Enter prints the receipt once, with no dialog in between.
  const print = cashier.getByTestId('print-receipt');
  await expect(print).toHaveText('Cetak struk');
  await expect(print).toBeFocused();
  await cashier.keyboard.press('Enter');
  await expect.poll(() => prints(cashier)).toHaveLength(1);
  expect((await prints(cashier))[0]).toContain('LUNAS');
  await expect(cashier.getByRole('dialog')).toHaveCount(0);
  // The focus stays on the button, which now prints a copy.
  await expect(print).toBeFocused();
  await expect(print).toHaveText('Cetak salinan');

  await tabTo(cashier, cashier.getByRole('button', { name: /Penjualan baru/ }));
  await cashier.keyboard.press('Enter');
  await expect(amount).toBeFocused();
  await expect(amount).toHaveValue('');
  await expect(cashier.getByRole('textbox', { name: 'Nama barang' })).toHaveValue('');
  await expect(display.getByTestId('display')).toHaveAttribute('data-screen', 'idle');
});

test('cancel by keyboard: the dialog asks a reason, traps the focus, Escape closes it and the focus returns', async ({
  cashier,
  display,
}) => {
  await expect(cashier.locator('#sale-amount')).toBeFocused();
  await cashier.keyboard.type('18000');
  await cashier.keyboard.press('Tab');
  await cashier.keyboard.type('Kopi susu');
  await cashier.keyboard.press('Enter');
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');

  const cancel = cashier.getByRole('button', { name: 'Batalkan pesanan' });
  await tabTo(cashier, cancel);
  await cashier.keyboard.press('Enter');
  const dialog = cashier.getByRole('dialog', { name: 'Batalkan pesanan?' });
  await expect(dialog).toBeVisible();
  const reason = dialog.getByRole('textbox', { name: 'Alasan pembatalan' });
  await expect(reason).toBeFocused();
  // The focus stays in the dialog.
  for (let i = 0; i < 6; i++) {
    await cashier.keyboard.press('Tab');
    expect(await cashier.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
  }
  await cashier.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(cancel).toBeFocused();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');

  await cashier.keyboard.press('Enter');
  await expect(reason).toBeFocused();
  await cashier.keyboard.type('no');
  await cashier.keyboard.press('Enter');
  await expect(dialog.getByRole('alert')).toHaveText(/Tulis alasan minimal 3 karakter\./);
  await expect(reason).toHaveAttribute('aria-invalid', 'true');
  await cashier.keyboard.type('t today');
  await cashier.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(cashier.getByTestId('payment-state')).toHaveText('Dibatalkan');
  await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'cancelled');
  await expect(cashier.getByRole('button', { name: /Penjualan baru/ })).toBeFocused();
});

test('shortcuts: F9 simulates the payment (training mode), F2 starts a new sale, F4 switches to today', async ({
  cashier,
}) => {
  await expect(cashier.getByText('F9', { exact: true }).first()).toBeVisible();
  // The cashier types once the cursor is in the amount field (the screen puts it there when it has loaded).
  await expect(cashier.locator('#sale-amount')).toBeFocused();
  await cashier.keyboard.type('8000');
  await cashier.keyboard.press('Tab');
  await cashier.keyboard.type('Es teh manis');
  await cashier.keyboard.press('Enter');
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');
  // A new sale cannot start while the customer may still pay.
  await cashier.keyboard.press('F2');
  await expect(cashier.getByTestId('payment-panel')).toBeVisible();

  await cashier.keyboard.press('F9');
  await expect(cashier.getByTestId('payment-state')).toHaveText('✓ Lunas');
  await cashier.keyboard.press('F4');
  await expect(cashier.getByRole('tab', { name: /Hari ini/ })).toHaveAttribute('aria-selected', 'true');
  await expect(cashier.getByTestId('today-table').locator('tbody tr')).toHaveCount(1);
  await cashier.keyboard.press('F2');
  await expect(cashier.getByRole('tab', { name: /Penjualan/ })).toHaveAttribute('aria-selected', 'true');
  await expect(cashier.getByRole('textbox', { name: /^Jumlah/ })).toBeFocused();
  await expect(cashier.getByTestId('payment-panel')).toHaveCount(0);
});
