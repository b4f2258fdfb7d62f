// Tenders on the cashier's screen, for real (browser mode, the embedded sandbox, a real browser): a cash sale with
// its change shown large on the screen and on the customer display; a split of cash and QRIS paid by "Simulate
// payment", the display showing what was paid and what is left; a card slip ("other") with its reference; cash
// refused without an open shift, with the way to the shift screen; and the struk printed with its lines and tenders.
import type { Page } from '@playwright/test';
import { expect, prints, test } from './fixtures';

/** Rings up one typed line (amount and item) and opens the tender screen on Cash or Card / transfer. */
async function toTenders(page: Page, amount: number, item: string, entry: 'cash' | 'other'): Promise<void> {
  await page.locator('#sale-amount').fill(String(amount));
  await page.getByLabel('Nama barang').fill(item);
  // Cash by its button; a card slip by its key (F7), as a keyboard-only cashier does.
  if (entry === 'cash') await page.getByTestId('tender-cash').click();
  else await page.keyboard.press('F7');
  await expect(page.getByTestId('tender-panel')).toBeVisible();
}

test('a cash sale: the change before charging and after, large on the display; the struk has the line and the cash', async ({
  cashier,
  display,
  loket,
}) => {
  await loket.call('openShift', { float: 200_000 });
  await toTenders(cashier, 44_000, 'Kopi susu', 'cash');
  await expect(cashier.getByTestId('tender-total')).toHaveText('Rp44.000');
  // The exact amount and the notes at or above it; none below.
  await expect(cashier.getByTestId('quick-exact')).toContainText('Rp44.000');
  await expect(cashier.getByTestId('quick-50000')).toBeVisible();
  await expect(cashier.getByTestId('quick-20000')).toHaveCount(0);
  await cashier.getByTestId('quick-50000').click();
  await expect(cashier.getByTestId('tender-change')).toContainText('Rp6.000');
  // Keyboard: the cursor in the amount field, Enter confirms.
  await cashier.getByTestId('tender-handed').focus();
  await cashier.keyboard.press('Enter');

  const done = cashier.getByTestId('sale-done');
  await expect(done).toBeVisible();
  await expect(cashier.getByTestId('sale-change')).toContainText('Rp6.000');
  await expect(display.getByTestId('display')).toHaveAttribute('data-screen', 'change');
  await expect(display.getByTestId('display-change')).toHaveText('Rp6.000');

  await cashier.getByTestId('print-receipt').click();
  await expect.poll(() => prints(cashier)).toHaveLength(1);
  const [struk] = await prints(cashier);
  expect(struk).toContain('STRUK PENJUALAN');
  expect(struk).toContain('Kopi susu');
  expect(struk).toContain('Tunai');
  expect(struk).toContain('Rp50.000');
  expect(struk).toContain('KEMBALIAN');
  expect(struk).toContain('Rp6.000');
  await expect(cashier.getByTestId('print-receipt')).toHaveText(/salinan/i);

  // A new sale (F2): the display leaves the change for its welcome screen.
  await cashier.keyboard.press('F2');
  await expect(cashier.getByTestId('sale-form')).toBeVisible();
  await expect(display.getByTestId('display')).toHaveAttribute('data-screen', 'idle');
});

test('a split: Rp50.000 in cash, the rest by QRIS paid by "Simulate payment"; the struk lists both', async ({
  cashier,
  display,
  loket,
}) => {
  await loket.call('openShift', { float: 100_000 });
  await toTenders(cashier, 68_050, 'Beras 5 kg', 'cash');
  await cashier.getByTestId('tender-handed').fill('50000');
  await expect(cashier.getByTestId('tender-part-note')).toContainText('Rp18.050');
  await cashier.keyboard.press('Enter');
  await expect(cashier.getByTestId('tender-parts')).toContainText('Rp50.000');
  await expect(cashier.getByTestId('tender-due')).toContainText('Rp18.050');

  await cashier.locator('input[name=tender-entry][data-entry=gateway]').check();
  await cashier.locator('input[type=radio][data-method="qris_dynamic"]').check();
  await expect(cashier.getByTestId('tender-confirm')).toContainText('Rp18.050');
  await cashier.getByTestId('tender-confirm').click();

  const panel = cashier.getByTestId('payment-panel');
  await expect(panel).toHaveAttribute('data-state', 'awaiting_payment');
  await expect(cashier.getByTestId('payment-amount')).toHaveText('Rp18.050');
  await expect(cashier.getByTestId('payment-split')).toContainText('Rp50.000');
  await expect(display.getByTestId('display-split-paid')).toContainText('Rp50.000');
  await expect(display.getByTestId('display-amount')).toHaveText('Rp18.050');

  await cashier.getByRole('button', { name: /Simulasikan pembayaran/ }).click();
  await expect(panel).toHaveAttribute('data-state', 'paid');
  await cashier.getByTestId('print-receipt').click();
  await expect.poll(() => prints(cashier)).toHaveLength(1);
  const [struk] = await prints(cashier);
  expect(struk).toContain('STRUK PENJUALAN');
  expect(struk).toContain('Beras 5 kg');
  expect(struk).toContain('Tunai');
  expect(struk).toContain('QRIS');
  expect(struk).toContain('Rp50.000');
  expect(struk).toContain('Rp18.050');
  expect(struk).toContain('LUNAS');
});

test('a card slip ("other") with its reference, printed on A4', async ({ cashier }) => {
  await toTenders(cashier, 125_000, 'Sepatu', 'other');
  await expect(cashier.getByTestId('tender-total')).toHaveText('Rp125.000');
  // Enter without a reference: its rule, in the screen's language; nothing is sent.
  await cashier.getByTestId('tender-reference').focus();
  await cashier.keyboard.press('Enter');
  await expect(cashier.getByTestId('tender-issues')).toContainText('Referensi');
  await cashier.getByTestId('tender-reference').fill('EDC 778899');
  await expect(cashier.getByTestId('tender-confirm')).toHaveText('Bayar');
  await cashier.keyboard.press('Enter');
  await expect(cashier.getByTestId('sale-done')).toBeVisible();
  await expect(cashier.getByTestId('sale-change')).toHaveCount(0);
  await cashier.getByTestId('print-a4').click();
  await expect.poll(() => prints(cashier)).toHaveLength(1);
  const [struk] = await prints(cashier);
  expect(struk).toContain('Sepatu');
  expect(struk).toContain('EDC 778899');
  expect(struk).toContain('Rp125.000');
});

test('cash without an open shift: said at once, with the way to the shift screen; Esc goes back to the cart', async ({
  cashier,
  loket,
}) => {
  await toTenders(cashier, 10_000, 'Teh', 'cash');
  await expect(cashier.getByTestId('tender-no-shift')).toBeVisible();
  await expect(cashier.getByTestId('tender-open-shift')).toBeVisible();
  await cashier.getByTestId('tender-handed').fill('10000');
  await cashier.keyboard.press('Enter');
  await expect(cashier.getByTestId('tender-panel')).toBeVisible();
  await expect(cashier.getByTestId('tender-no-shift')).toBeVisible();
  expect(await loket.call('currentShift')).toBeNull();
  await cashier.keyboard.press('Escape');
  await expect(cashier.getByTestId('sale-form')).toBeVisible();
  await expect(cashier.getByTestId('cart-line')).toHaveCount(1);
});

test("Open a shift on the tender screen opens the shift's own dialog; once open, the cash is taken", async ({
  cashier,
  loket,
}) => {
  await toTenders(cashier, 10_000, 'Teh', 'cash');
  await expect(cashier.getByTestId('tender-no-shift')).toBeVisible();
  await cashier.getByTestId('tender-open-shift').click();
  await expect(cashier.locator('#shift-float')).toBeFocused();
  await cashier.locator('#shift-float').fill('100.000');
  await cashier.keyboard.press('Enter');
  await expect(cashier.getByTestId('shift-done-button')).toBeFocused();
  await cashier.keyboard.press('Enter');
  await expect(cashier.getByTestId('shift-dialog')).not.toBeVisible();
  expect(await loket.call('currentShift')).toMatchObject({ float: 100_000, state: 'open' });
  // Back on the tender screen, which takes cash again.
  await expect(cashier.getByTestId('tender-panel')).toBeVisible();
  await expect(cashier.getByTestId('tender-no-shift')).not.toBeVisible();
  await cashier.getByTestId('tender-handed').fill('20000');
  await cashier.keyboard.press('Enter');
  await expect(cashier.getByTestId('sale-done')).toBeVisible();
  await expect(cashier.getByTestId('sale-done')).toContainText('Rp10.000');
});
