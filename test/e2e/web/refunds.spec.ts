// The refund screen (docs/tenders.md, "The refund screen") in a real browser against `serve`: a cash sale of two lines
// made through the API with a shift open; the cashier finds it by its number from today's orders, refunds one line in
// cash with the manager's PIN, sees the receipt; what is left shrinks; a refund over what is left is refused in the
// cashier's language.
import type { Page } from '@playwright/test';
import { expect, prints, stubPrint, test, type LoketServer } from './fixtures';

const PIN = '97531864';

async function cashSale(loket: LoketServer): Promise<string> {
  await loket.call('openShift', { float: 200_000 });
  const sold = await loket.call('chargeSale', {
    cart: {
      lines: [
        { lineId: 'kopi', name: 'Kopi susu', unitPrice: 18_000, qty: 2, taxCategory: 'exempt' },
        { lineId: 'roti', name: 'Roti bakar', unitPrice: 12_000, qty: 1, taxCategory: 'exempt' },
      ],
      saleDiscount: null,
    },
    tenders: [{ kind: 'cash', handed: 50_000 }],
  });
  if (!sold.ok) throw new Error(`the sale was not made: ${JSON.stringify(sold)}`);
  return sold.saleId;
}

async function openRefund(page: Page, saleId: string): Promise<void> {
  await page.locator('#tab-today').click();
  await page.getByRole('button', { name: /^(Refund penjualan|Refund a sale)$/ }).click();
  const dialog = page.getByTestId('refund-dialog');
  await expect(dialog).toBeVisible();
  // Keyboard only: the number is typed into the focused field and Enter finds the sale.
  await expect(page.getByTestId('refund-sale-number')).toBeFocused();
  await page.keyboard.type(saleId);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('refund-sale')).toContainText(saleId);
}

test('a cash refund of one line with the manager PIN; what is left shrinks; too much is refused in words', async ({
  page,
  loket,
}) => {
  const manager = await loket.call('setupManager', { name: 'Bu Sri', pin: PIN });
  const saleId = await cashSale(loket);
  await page.setViewportSize({ width: 1366, height: 768 });
  await stubPrint(page);
  await page.goto(loket.cashierUrl);
  await expect(page.getByTestId('cashier')).toBeVisible();

  await openRefund(page, saleId);
  const dialog = page.getByTestId('refund-dialog');
  await expect(dialog.locator('li[data-line-id]')).toHaveCount(2);

  // Nothing picked, no reason, no PIN: the screen says what is missing, in Indonesian (the till's default), and
  // nothing reaches the server.
  await page.getByTestId('refund-submit').click();
  await expect(dialog.getByTestId('refund-line-issue')).toHaveText('Pilih minimal satu barang untuk direfund.');
  expect((await loket.call('refundableOf', { saleId }))!.refunds).toHaveLength(0);

  // Roti bakar, in full; the amount shown large is what goes back.
  await dialog.getByRole('checkbox', { name: 'Refund Roti bakar' }).check();
  await expect(page.getByTestId('refund-amount')).toHaveText('Rp12.000');
  await page.getByTestId('refund-reason').fill('Roti gosong');
  await expect(page.getByTestId('refund-manager')).toHaveValue(String(manager.staff.id));
  await page.getByTestId('refund-pin-input').fill(PIN);
  await page.getByTestId('refund-pin-input').press('Enter');

  await expect(page.getByTestId('refund-done')).toBeVisible();
  await expect(page.getByTestId('refund-paid-back')).toHaveText('Rp12.000');
  const receipt = page.frameLocator('[data-testid="refund-receipt"]');
  await expect(receipt.locator('body')).toContainText('Roti gosong');
  await expect(receipt.locator('body')).toContainText('12.000');
  await page.getByTestId('refund-print').click();
  await expect.poll(async () => (await prints(page)).length).toBe(1);
  expect((await prints(page))[0]).toContain('Roti gosong');

  // What is left shrank: the bread is gone, the coffee is all there.
  const left = (await loket.call('refundableOf', { saleId }))!;
  expect(left.lines.map((l) => [l.lineId, l.qtyLeft])).toEqual([
    ['kopi', 2],
    ['roti', 0],
  ]);
  expect(left.moneyLeft).toBe(left.paid - 12_000);

  // Closed with Escape; in English, opened again it shows the bread refunded (nothing left of it to tick).
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.locator('#ui-lang').selectOption('en');
  await openRefund(page, saleId);
  await expect(dialog.getByRole('checkbox', { name: 'Refund Roti bakar' })).toBeDisabled();

  // Meanwhile one coffee is refunded elsewhere (the command line, another till): the cashier's two are one too
  // many, and the server's refusal is worded from its rule and numbers, in English once the screen is.
  await dialog.getByRole('checkbox', { name: /Refund Kopi susu/ }).check();
  await expect(dialog.getByLabel('Quantity of Kopi susu to refund')).toHaveValue('2');
  const elsewhere = await loket.call('refundSale', {
    saleId,
    lines: [{ lineId: 'kopi', qty: 1 }],
    reason: 'Tumpah',
    how: 'cash',
    managerPin: { staffId: manager.staff.id, pin: PIN },
  });
  expect(elsewhere.ok).toBe(true);
  await page.getByTestId('refund-reason').fill('Salah pesan');
  await page.getByTestId('refund-pin-input').fill(PIN);
  await page.getByTestId('refund-submit').click();
  await expect(dialog.getByTestId('refund-line-issue')).toHaveText('Line 1: only 1 left to refund (asked 2).');
  await expect(dialog).not.toContainText('lines[0]');
  // Nothing more was refunded.
  expect((await loket.call('refundableOf', { saleId }))!.refunds).toHaveLength(2);
});

test('a cash refund with no shift open says so plainly', async ({ page, loket }) => {
  const manager = await loket.call('setupManager', { name: 'Bu Sri', pin: PIN });
  const saleId = await cashSale(loket);
  await loket.call('closeShift', { counted: 230_000 });
  await page.setViewportSize({ width: 1024, height: 600 });
  await stubPrint(page);
  await page.goto(loket.cashierUrl);
  await expect(page.getByTestId('cashier')).toBeVisible();
  await openRefund(page, saleId);
  await page.getByTestId('refund-whole').click();
  await page.getByTestId('refund-reason').fill('Pelanggan batal');
  await expect(page.getByTestId('refund-manager')).toHaveValue(String(manager.staff.id));
  await page.getByTestId('refund-pin-input').fill(PIN);
  await page.getByTestId('refund-submit').click();
  await expect(page.getByTestId('refund-how-error')).toHaveText(
    'Tidak ada shift yang buka di kasir ini: buka shift dulu untuk refund tunai.',
  );
  expect((await loket.call('refundableOf', { saleId }))!.refunds).toHaveLength(0);
});
