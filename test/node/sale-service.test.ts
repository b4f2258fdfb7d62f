// The sale at the counter through the app host's API (the methods the cashier's screens call): the catalogue in the
// store's books, the cart kept across a restart, figures recomputed on the server, the sale written with its gateway
// order before the request leaves, completed when the order is paid, voided when it is cancelled. Real parts: the app
// host in training mode (its embedded sandbox over HTTP on 127.0.0.1), real SQLite files; the drawer's shift is an
// in-memory ledger (the shifts' own is built elsewhere).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import type { Cart } from '../../src-main/common/sale';
import { lineOfProduct } from '../../src-main/common/sale';
import { MemoryCashLedger } from './helpers/memory-cash-ledger';
import { AuditLog } from '../../src-main/core/audit/audit-log';
import { tempDir } from './helpers/loket';

let dir: ReturnType<typeof tempDir>;
let host: AppHost;
let ledger: MemoryCashLedger;

async function start(): Promise<AppHost> {
  return startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {}, cashLedger: () => ledger });
}

beforeEach(async () => {
  dir = tempDir('loket-sale-');
  ledger = new MemoryCashLedger();
  host = await start();
});
afterEach(async () => {
  await host.close();
  dir.remove();
});

async function cartOf(...codes: [string, number][]): Promise<Cart> {
  const lines = [];
  for (const [code, qty] of codes) {
    const product = await host.app.productByCode({ code });
    if (!product) throw new Error(`no product ${code}`);
    lines.push(lineOfProduct(product, `l${lines.length + 1}`, qty));
  }
  return { lines, saleDiscount: null };
}

describe('the sale at the counter', () => {
  it("finds today's quick items as products, by SKU in any case and by name", async () => {
    expect(await host.app.productByCode({ code: 'kopi-susu' })).toMatchObject({ name: 'Kopi susu', price: 18_000 });
    expect(await host.app.productByCode({ code: 'NOPE' })).toBeNull();
    expect((await host.app.searchProducts({ text: 'GORENG' })).map((p) => p.sku)).toEqual(['NASI-GORENG']);
  });

  it('keeps the cart being rung up across a restart', async () => {
    const cart = await cartOf(['KOPI-SUSU', 2]);
    await host.app.saveCart({ cart });
    await host.close();
    host = await start();
    expect(await host.app.currentCart()).toEqual(cart);
  });

  it("quotes at the catalogue's price whatever the caller sent, and names a bad field and its rule", async () => {
    const cart = await cartOf(['KOPI-SUSU', 2]);
    cart.lines[0]!.unitPrice = 1;
    const quote = await host.app.quoteSale({ cart });
    expect(quote).toMatchObject({ ok: true, itemName: 'Kopi susu', figures: { subtotal: 36_000, total: 36_000 } });
    // PPN 12% × 11/12 inside the price (docs/tax.md, "PPN: the rate times the printed DPP"): the largest price without
    // tax that fits in 36,000 is 32,432 (DPP 29,729, PPN round(3,567.48) = 3,567, 35,999 in all; 32,433 would make
    // 36,001), so PPN 3,567 on DPP 29,729 and the rupiah over in the net. (36,000 × 11/111 = 3,567.57 rounds to 3,568,
    // which is not 12% of any DPP the struk could print beside it.)
    expect(quote.ok && quote.figures).toMatchObject({ ppn: 3_567, dpp: 29_729, net: 32_433 });
    const bad = await host.app.quoteSale({
      cart: {
        lines: [
          {
            lineId: 'x',
            name: 'Es',
            unitPrice: 5_000,
            qty: 1,
            taxCategory: 'ppn',
            discount: { kind: 'amount', value: 6_000 },
          },
        ],
      },
    });
    expect(bad).toMatchObject({ ok: false, issues: [{ field: 'lines[0].discount', rule: 'discount' }] });
  });

  it('charges a sale: its order is logged with the sale, amount = total and item_name from the lines; paid → completed', async () => {
    const cart = await cartOf(['KOPI-SUSU', 2], ['ES-TEH', 1]);
    await host.app.saveCart({ cart });
    const result = await host.app.chargeSale({ cart, methodId: 'qris_dynamic' });
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(result.order).toMatchObject({ amount: 44_000, itemName: 'Kopi susu +1', state: 'awaiting_payment' });
    expect(result.order?.itemId).toBeUndefined();
    expect(result.sale).toMatchObject({
      state: 'tendering',
      total: 44_000,
      lines: [
        { lineNo: 1, name: 'Kopi susu', qty: 2, gross: 36_000 },
        { lineNo: 2, name: 'Es teh manis', qty: 1 },
      ],
      tenders: [{ kind: 'gateway', state: 'pending', orderId: result.order!.id, amount: 44_000 }],
    });
    expect(await host.app.currentCart()).toEqual({ lines: [], saleDiscount: null });
    expect((await host.app.saleOf({ orderId: result.order!.id }))?.id).toBe(result.saleId);

    await host.app.simulatePayment(result.order!.id);
    const paid = await host.app.sale({ saleId: result.saleId });
    expect(paid).toMatchObject({ state: 'completed', paid: 44_000, tenders: [{ state: 'paid' }] });
    // Every sale event has its outbox row, in the same database as the order's.
    const db = host.loket.db;
    const events = db.prepare('SELECT count(*) FROM sale_events WHERE sale_id = ?').pluck().get(result.saleId);
    const outbox = db
      .prepare("SELECT type FROM outbox WHERE stream = 'sale' AND stream_id = ? ORDER BY seq")
      .pluck()
      .all(result.saleId);
    expect(outbox).toHaveLength(events as number);
    expect(outbox).toEqual(['created', 'tender_added', 'state_changed', 'tender_paid', 'state_changed']);
  });

  it('sends item_id only for one fixed-denomination line paid whole', async () => {
    const one = await host.app.chargeSale({ cart: await cartOf(['PULSA-50', 1]), methodId: 'qris_dynamic' });
    expect(one.ok && one.order?.itemId).toBe('PULSA-50');
    await host.app.parkSale(one.ok ? one.order!.id : '');
    const two = await host.app.chargeSale({ cart: await cartOf(['PULSA-50', 2]), methodId: 'qris_dynamic' });
    expect(two.ok && two.order?.itemId).toBeUndefined();
    await host.app.parkSale(two.ok ? two.order!.id : '');
    // A typed line cannot carry an item_id of its own: only the catalogue's products have one.
    const typed = await host.app.chargeSale({
      cart: {
        lines: [
          {
            lineId: 't',
            name: 'Pulsa',
            unitPrice: 5_000,
            qty: 1,
            taxCategory: 'exempt',
            fixedDenomination: { itemId: 'X' },
          },
        ],
      },
      methodId: 'qris_dynamic',
    });
    expect(typed.ok && typed.order?.itemId).toBeUndefined();
  });

  it('refuses a discount over the limit without a manager PIN (nothing sent); with one it is charged and audited', async () => {
    const cart = await cartOf(['NASI-GORENG', 1]);
    cart.saleDiscount = { kind: 'percent', valueBp: 2_000 };
    const before = host.loket.sandbox!.orders.all().length;
    const refused = await host.app.chargeSale({ cart, methodId: 'qris_dynamic' });
    expect(refused).toMatchObject({
      ok: false,
      saleId: null,
      issues: [{ field: 'saleDiscount', rule: 'manager_pin_required' }],
    });
    expect(host.loket.sandbox!.orders.all().length).toBe(before);
    const { staff } = await host.store.access.setupFirstManager('Sri', '4826');
    const wrong = await host.app.chargeSale({
      cart,
      methodId: 'qris_dynamic',
      managerPin: { staffId: staff.id, pin: '1111' },
    });
    expect(wrong).toMatchObject({ ok: false, issues: [{ field: 'managerPin', rule: 'wrong_pin' }] });
    const ok = await host.app.chargeSale({
      cart,
      methodId: 'qris_dynamic',
      managerPin: { staffId: staff.id, pin: '4826' },
    });
    expect(ok).toMatchObject({ ok: true, order: { amount: 28_000 }, sale: { discounts: 7_000 } });
    // Audited in the sale's own database (training: the training log), in the sale's transaction.
    const audit = new AuditLog(host.loket.db).list({ limit: 5 }).find((e) => e.action === 'discount.approved');
    expect(audit).toMatchObject({ actor: { name: 'Sri' }, detail: { saleId: ok.saleId } });
  });

  it('splits cash and QRIS: the cash goes to the shift, QRIS takes the rest; no shift open refuses cash', async () => {
    const cart = await cartOf(['NASI-GORENG', 1], ['ES-TEH', 1]); // 43,000
    ledger.shiftId = null;
    const noShift = await host.app.chargeSale({
      cart,
      tenders: [
        { kind: 'cash', handed: 20_000 },
        { kind: 'gateway', methodId: 'qris_dynamic' },
      ],
    });
    expect(noShift).toMatchObject({ ok: false, issues: [{ field: 'tenders', rule: 'no_open_shift' }] });
    ledger.shiftId = 'SHIFT-7';
    const split = await host.app.chargeSale({
      cart,
      tenders: [
        { kind: 'cash', handed: 20_000 },
        { kind: 'gateway', methodId: 'qris_dynamic' },
      ],
    });
    if (!split.ok) throw new Error(JSON.stringify(split));
    expect(split.order).toMatchObject({ amount: 23_000 });
    expect(split.sale.tenders).toMatchObject([
      { kind: 'cash', state: 'paid', amount: 20_000, handed: 20_000, change: 0 },
      { kind: 'gateway', state: 'pending', amount: 23_000 },
    ]);
    expect(ledger.movements).toMatchObject([
      { type: 'cash_tender', handed: 20_000, change: 0, shiftId: 'SHIFT-7', documentId: split.saleId },
    ]);
    // Voiding the sale cancels its pending order; the cash taken goes back (a refund movement of the shift).
    const voided = await host.app.voidSale({ saleId: split.saleId, reason: 'customer left' });
    expect(voided.state).toBe('voided');
    expect((await host.app.getOrder(split.order!.id))?.state).toBe('cancelled');
    // The cash given back is written by the order log with the cancel, into the till's own shift book (this test's
    // drawer is an in-memory ledger, which took the tender): one-counter.test.ts follows it into a real shift.
    expect(ledger.movements).toHaveLength(1);
  });

  it('a cash-only sale with rounding off gives change and completes at once; other needs its reference', async () => {
    const cart = await cartOf(['KOPI-SUSU', 1]);
    const cash = await host.app.chargeSale({ cart, tenders: [{ kind: 'cash', handed: 50_000 }] });
    expect(cash).toMatchObject({ ok: true, order: null, sale: { state: 'completed', change: 32_000, paid: 18_000 } });
    const other = await host.app.chargeSale({ cart, tenders: [{ kind: 'other', reference: ' ', amount: 18_000 }] });
    expect(other).toMatchObject({ ok: false, issues: [{ field: 'tenders[0].reference', rule: 'reference' }] });
    const over = await host.app.chargeSale({
      cart,
      tenders: [{ kind: 'gateway', methodId: 'qris_dynamic', amount: 20_000 }],
    });
    expect(over).toMatchObject({ ok: false, issues: [{ field: 'tenders[0].amount', rule: 'over_due' }] });
  });
});
