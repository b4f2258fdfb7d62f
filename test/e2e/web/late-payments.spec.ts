// A virtual account or store code cancelled in Loket stays payable at the gateway (the interface has no cancel
// call): the cancel dialog says so, with the deadline, in either language. When such a payment comes in, the till
// shows it at once on whatever screen the cashier is — serving the next customer, with a sale parked, on Today —
// until the cashier has seen it, and the day's figures count it as paid late. Real parts: `serve` in a child
// process with its embedded sandbox (which calls Loket back), Debian's chromium.
import type { Page } from '@playwright/test';
import { dayIn } from '../../../src-main/common/gateway-time';
import { chargeToPanel, expect, fillSale, test, type LoketServer } from './fixtures';

async function payAtGateway(loket: LoketServer, id: string): Promise<void> {
  const response = await fetch(`${loket.sandboxUrl}/sandbox/orders/${encodeURIComponent(id)}/pay`, { method: 'POST' });
  expect(response.status, 'pay at the sandbox').toBe(200);
}

async function cancelOnPanel(page: Page, reason: string): Promise<void> {
  await page.locator('#cancel-reason').fill(reason);
  await page
    .getByTestId('cancel-dialog')
    .getByRole('button', { name: /^(Ya, batalkan|Yes, cancel)$/ })
    .click();
  await expect(page.getByTestId('payment-panel')).toHaveAttribute('data-state', 'cancelled');
}

test('a virtual account: the cancel dialog says it stays payable until its deadline, in both languages', async ({
  cashier,
}) => {
  await fillSale(cashier, { amount: 150000, item: 'Beras 5 kg', method: 'va_bni' });
  const id = await chargeToPanel(cashier);
  await cashier.getByRole('button', { name: 'Batalkan pesanan' }).click();
  const text = cashier.getByTestId('cancel-text');
  await expect(text).toContainText('hanya dibatalkan di Loket');
  await expect(text).toContainText('pelanggan masih bisa membayarnya sampai');
  await expect(text).toContainText(/sampai \d{2}\/\d{2}\/\d{4} \d{2}\.\d{2} WIB/);
  await expect(text).not.toContainText('tidak bisa membayarnya lagi');
  await cashier.keyboard.press('Escape');

  await cashier.getByLabel('Bahasa').selectOption('en');
  await cashier.getByRole('button', { name: 'Cancel order' }).click();
  await expect(text).toContainText('is cancelled in Loket only');
  await expect(text).toContainText(/the customer can still pay it until \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} WIB/);
  await cancelOnPanel(cashier, 'customer changed their mind');
  await expect(cashier.getByTestId('still-payable')).toContainText(
    'The gateway still takes payment of this code until',
  );
  expect(id).toMatch(/^T01-/);
});

test('a QRIS order: the dialog no longer promises the customer cannot pay; a payment anyway is recorded', async ({
  cashier,
}) => {
  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  await chargeToPanel(cashier);
  await cashier.getByRole('button', { name: 'Batalkan pesanan' }).click();
  await expect(cashier.getByTestId('cancel-text')).toHaveText(
    'Pesanan Kopi susu sebesar Rp25.000 akan dibatalkan dan hilang dari layar pelanggan. Jika pelanggan tetap ' +
      'membayarnya (misalnya sudah memindai), Loket mencatatnya sebagai pembayaran terlambat dan menampilkannya di sini.',
  );
});

test('a late payment shows at the till at once, on every screen, until seen; the day counts it as paid late', async ({
  cashier,
  loket,
}) => {
  // The first customer's virtual account, cancelled.
  await fillSale(cashier, { amount: 150000, item: 'Beras 5 kg', method: 'va_bni' });
  const cancelled = await chargeToPanel(cashier);
  await cashier.getByRole('button', { name: 'Batalkan pesanan' }).click();
  await cancelOnPanel(cashier, 'pelanggan batal');

  // The next customer is being served: their sale waits for payment on the panel.
  await cashier.getByRole('button', { name: /^Penjualan baru/ }).click();
  // The new sale's form is ready once it has the focus (the display was sent back to its welcome first).
  await expect(cashier.getByRole('textbox', { name: /^Jumlah/ })).toBeFocused();
  await fillSale(cashier, { amount: 12000, item: 'Teh manis', method: 'qris_dynamic' });
  const next = await chargeToPanel(cashier);
  const alert = cashier.getByTestId('late-payments');
  await expect(alert).toHaveCount(0);

  // The first customer pays the code at the bank after all.
  await payAtGateway(loket, cancelled);
  await expect(alert).toBeVisible();
  const item = alert.locator(`[data-testid="late-payment"][data-order-id="${cancelled}"]`);
  await expect(item).toContainText('Rp150.000 · Beras 5 kg — dibayar setelah dibatalkan');
  await expect(alert).toContainText('Jangan tagih lagi untuk penjualan ini');
  // The sale being served is untouched.
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-order-id', next);

  // With that sale parked, on the form; and on Today: still there.
  await cashier.getByTestId('park-sale').click();
  await expect(cashier.getByRole('textbox', { name: /^Jumlah/ })).toBeVisible();
  await expect(item).toBeVisible();
  await cashier.getByRole('tab', { name: /Hari ini/ }).click();
  await expect(cashier.getByTestId('today-table')).toBeVisible();
  await expect(item).toBeVisible();
  // A reload shows it again: it is kept until seen.
  await cashier.reload();
  await expect(item).toBeVisible();

  // Seen: it goes, and stays gone; the manager's attention item and the day's figure stay.
  await item.getByRole('button', { name: `Sudah dilihat: ${cancelled}` }).click();
  await expect(alert).toHaveCount(0);
  await cashier.reload();
  await expect(cashier.getByRole('button', { name: /^Tagih/ })).toBeVisible();
  await expect(alert).toHaveCount(0);

  const manager = await loket.call('setupManager', { name: 'Bu Sri', pin: '97531864' });
  const report = await loket.call('dayReport', manager.token, dayIn(new Date(), 'Asia/Jakarta'));
  expect(report.figures.latePaid).toEqual({ count: 1, amount: 150000 });
  expect(report.figures.paid).toEqual({ count: 0, amount: 0 });
  expect(report.attention.filter((i) => i.orderId === cancelled).map((i) => i.kind)).toEqual(['late_payment']);
  // The gateway's expiry of a cancelled order is never an attention item (here: none came; the one queued is the money).
  expect(report.attention.map((i) => i.kind)).toEqual(['late_payment']);
});
