// The payment slip: a customer paying by bank virtual account or at a convenience store takes the code away to an
// ATM or a store. A button on the payment panel prints it (the browser's print here; the network printer in
// network-printer.spec.ts); it says what to pay, where, how and until when.
import type { Order } from '../../../src-main/common/order';
import { chargeToPanel, expect, fillSale, prints, test } from './fixtures';

test('a VA waiting for payment: one click prints its slip — the number grouped, the bank, the steps, the deadline', async ({
  cashier,
  loket,
}) => {
  await fillSale(cashier, { amount: 150000, item: 'Beras premium 5 kg', method: 'va_bni' });
  const id = await chargeToPanel(cashier);
  const order = (await loket.call('getOrder', id)) as Order;
  const va = (order.instruction as { va: string }).va;

  const button = cashier.getByRole('button', { name: 'Cetak slip pembayaran' });
  await expect(button).toBeVisible();
  await button.click();
  await expect.poll(() => prints(cashier)).toHaveLength(1);
  const [slip] = await prints(cashier);
  expect(slip).toContain('SLIP PEMBAYARAN');
  expect(slip).toContain(va.replace(/(.{4})(?=.)/g, '$1 '));
  expect(slip).toContain('Bank');
  expect(slip).toContain('BNI');
  expect(slip).toContain('Rp150.000');
  expect(slip).toContain('Cara membayar');
  expect(slip).toMatch(/Batas bayar\s+\d{2}\/\d{2}\/\d{4} \d{2}\.\d{2} WIB/);
  expect(slip).toContain('Bukan bukti pembayaran.');
  expect(slip).toContain('SANDBOX');
  // The sale goes on: still waiting, still on the panel, and its receipt is still to be printed as the original.
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');
  await expect(cashier.getByRole('dialog')).toHaveCount(0);

  await cashier.getByRole('button', { name: /Simulasikan pembayaran/ }).click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'paid');
  // Paid: no slip any more (its code must not be paid into twice); the receipt is the original.
  await expect(button).toHaveCount(0);
  await cashier.getByRole('button', { name: 'Cetak struk' }).click();
  await expect.poll(() => prints(cashier)).toHaveLength(2);
  expect((await prints(cashier))[1]).not.toContain('SALINAN');
});

test('a store code in English: "Print payment slip", the store and its steps; none for a QRIS sale', async ({
  cashier,
}) => {
  await cashier.getByLabel('Bahasa').selectOption('en');
  await cashier.getByRole('textbox', { name: /^Amount/ }).fill('60000');
  await cashier.getByLabel('Item name').fill('Token listrik');
  await cashier.locator('input[type=radio][data-method="va_indomaret"]').check();
  await cashier.getByRole('button', { name: /^Charge/ }).click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');
  await cashier.getByRole('button', { name: 'Print payment slip' }).click();
  await expect.poll(() => prints(cashier)).toHaveLength(1);
  const [slip] = await prints(cashier);
  // The slip is in the store's language (Indonesian here), as receipts are.
  expect(slip).toContain('SLIP PEMBAYARAN');
  expect(slip).toContain('Bayar di');
  expect(slip).toContain('Indomaret');
  expect(slip).toContain('Datang ke kasir Indomaret mana saja.');

  await cashier.getByRole('button', { name: 'Park' }).click();
  await cashier.getByRole('textbox', { name: /^Amount/ }).fill('25000');
  await cashier.getByLabel('Item name').fill('Kopi susu');
  await cashier.locator('input[type=radio][data-method="qris_dynamic"]').check();
  await cashier.getByRole('button', { name: /^Charge/ }).click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');
  await expect(cashier.getByTestId('print-slip')).toHaveCount(0);
});
