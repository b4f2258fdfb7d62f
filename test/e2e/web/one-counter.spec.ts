// One counter on the cashier's screen (issue 26), for real (browser mode, the embedded sandbox, Debian's chromium):
// the cashier double-clicks Pay on a cash sale and one sale is made, with its cash once in the shift; while a QRIS
// charge's outcome is unknown the cash button takes nothing and says why, in the screen's words; a typed amount is a
// one-line sale.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { expect, test } from './fixtures';

test('a double click on Pay makes one cash sale; the shift holds its cash once', async ({ cashier, loket }) => {
  await loket.call('openShift', { float: 100_000 });
  await cashier.locator('#sale-amount').fill('18000');
  await cashier.getByLabel('Nama barang').fill('Kopi susu');
  await cashier.getByTestId('tender-cash').click();
  await cashier.getByTestId('quick-exact').click();
  await cashier.getByTestId('tender-confirm').dblclick();
  await expect(cashier.getByTestId('sale-done')).toBeVisible();
  // The books, read from the till's own file (training mode: training/loket.db).
  const db = new Database(join(loket.dataDir, 'training', 'loket.db'), { readonly: true });
  try {
    expect(db.prepare('SELECT COUNT(*) FROM sales').pluck().get()).toBe(1);
    expect(db.prepare("SELECT COUNT(*) FROM shift_events WHERE type = 'cash_tender'").pluck().get()).toBe(1);
  } finally {
    db.close();
  }
});

test('a typed amount charged by QRIS is a one-line sale', async ({ cashier, loket }) => {
  await cashier.locator('#sale-amount').fill('25000');
  await cashier.getByLabel('Nama barang').fill('Nasi goreng');
  await cashier.keyboard.press('Enter');
  const panel = cashier.getByTestId('payment-panel');
  await expect(panel).toHaveAttribute('data-state', 'awaiting_payment');
  const current = (await loket.call('currentSale')) as { order: { id: string } };
  const sale = (await loket.call('saleOf', { orderId: current.order.id })) as {
    lines: { name: string; unitPrice: number }[];
    state: string;
  };
  expect(sale).toMatchObject({ state: 'tendering', lines: [{ name: 'Nasi goreng', unitPrice: 25_000 }] });
});

test('while a QRIS charge is unknown, Cash takes nothing and says why', async ({ cashier, loket }) => {
  await loket.call('openShift', { float: 0 });
  await loket.setFaults({ drop_after_store: true, count: 2 });
  await cashier.locator('#sale-amount').fill('25000');
  await cashier.getByLabel('Nama barang').fill('Kopi');
  await cashier.keyboard.press('Enter');
  await expect(cashier.getByTestId('charge-problem')).toBeVisible();
  const held = (await loket.call('currentSale')) as { order: { id: string; state: string } };
  expect(held.order.state).toBe('unknown');
  // Even with the display cleared (what "Close message" does), cash over it is refused at the server: nothing taken.
  await loket.call('showOnDisplay', null);
  await expect(
    loket.call('chargeSale', {
      cart: {
        lines: [{ lineId: 'l1', name: 'Teh', unitPrice: 5_000, qty: 1, taxCategory: 'ppn' }],
        saleDiscount: null,
        saleKey: 'e2e-held-cash-0001',
      },
      tenders: [{ kind: 'cash', handed: 5_000 }],
    }),
  ).rejects.toThrow(/HTTP 409: The outcome of order \S+ is still unknown/);
  await expect(cashier.getByTestId('charge-problem')).toContainText(held.order.id);
});
