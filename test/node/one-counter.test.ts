// One counter (issue 26; docs/sale.md "One counter"): every charge is a sale written in one transaction under one
// guard, and a sale follows its order inside the order's own transaction. Real parts: the app host in training mode
// with its embedded sandbox (real HTTP on 127.0.0.1, its fault switches and callbacks), a real SQLite file.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import type { TenderInput } from '../../src-main/common/cash';
import type { Cart, ChargeSaleInput, ChargeSaleResult } from '../../src-main/common/sale';
import { tempDir } from './helpers/loket';
import { waitFor } from './helpers/wait-for';
import { printerStandIn } from './helpers/printer-stand-in';
import { DRAWER_PULSE } from '../../src-main/core/shifts/drawer';

const hosts: AppHost[] = [];
const printers: { close(): Promise<void> }[] = [];
const dirs: { remove(): void }[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  for (const d of dirs.splice(0)) d.remove();
  for (const p of printers.splice(0)) await p.close();
});

async function host(printerPort?: number): Promise<AppHost> {
  const dir = tempDir('loket-one-counter-');
  dirs.push(dir);
  const h = await startAppHost({
    version: 't',
    dataDir: dir.path,
    env: {},
    ...(printerPort ? { printer: { host: '127.0.0.1', port: printerPort, paper: 58 as const } } : {}),
  });
  hosts.push(h);
  return h;
}

const kopi = (price = 18_000): Cart['lines'][number] => ({
  lineId: 'l1',
  name: 'Kopi susu',
  unitPrice: price,
  qty: 1,
  taxCategory: 'ppn',
});
const cart = (price = 18_000, key: string | undefined = randomUUID()): Cart => ({
  lines: [kopi(price)],
  saleDiscount: null,
  ...(key !== undefined ? { saleKey: key } : {}),
});

const count = (h: AppHost, sql: string, ...params: unknown[]) =>
  h.loket.db
    .prepare(sql)
    .pluck()
    .get(...params) as number;
const sales = (h: AppHost) => count(h, 'SELECT COUNT(*) FROM sales');
const saleState = (h: AppHost, id: string) =>
  h.loket.db.prepare<[string], string>('SELECT state FROM sales WHERE id = ?').pluck().get(id);
const cashEvents = (h: AppHost, type: string) => count(h, 'SELECT COUNT(*) FROM shift_events WHERE type = ?', type);
const expected = (h: AppHost) => h.shifts.report().expected;

describe('a double submit of every tender kind makes one sale (20 of 20 pairs)', () => {
  const kinds: { name: string; tenders: (price: number) => TenderInput[] }[] = [
    { name: 'cash', tenders: (price) => [{ kind: 'cash', handed: price + 2_000 }] },
    { name: 'other (a card slip)', tenders: () => [{ kind: 'other', reference: 'EDC 000123' }] },
    { name: 'QRIS', tenders: () => [{ kind: 'gateway', methodId: 'qris_dynamic' }] },
    {
      name: 'split cash + QRIS',
      tenders: () => [
        { kind: 'cash', handed: 5_000 },
        { kind: 'gateway', methodId: 'qris_dynamic' },
      ],
    },
  ];
  for (const kind of kinds)
    it(`${kind.name}: the same charge twice at the same moment is one sale, one order, one cash movement`, async () => {
      const h = await host();
      await h.app.openShift({ float: 100_000 });
      let cashIn = 0;
      for (let pair = 0; pair < 20; pair++) {
        const price = 18_000 + pair * 100;
        const input: ChargeSaleInput = { cart: cart(price), tenders: kind.tenders(price) };
        const [a, b] = await Promise.all([h.app.chargeSale(input), h.app.chargeSale(structuredClone(input))]);
        expect(a.ok, `pair ${pair}`).toBe(true);
        expect(b.ok, `pair ${pair}`).toBe(true);
        expect(b.saleId).toBe(a.saleId);
        expect([a.replayed, b.replayed].filter(Boolean)).toHaveLength(1);
        expect(b.order?.id ?? null).toBe(a.order?.id ?? null);
        expect(sales(h)).toBe(pair + 1);
        if (a.order) {
          // The order on the display is paid before the next pair (one sale at a time on the customer's screen).
          await h.app.simulatePayment(a.order.id);
          await waitFor(() => saleState(h, a.saleId!) === 'completed', 'the sale completed');
        }
        const cash = input.tenders!.find((t) => t.kind === 'cash');
        if (cash?.kind === 'cash') cashIn += cash.handed;
      }
      expect(count(h, 'SELECT COUNT(*) FROM orders')).toBe(kind.tenders(0).some((t) => t.kind === 'gateway') ? 20 : 0);
      expect(h.loket.sandbox!.orders.all()).toHaveLength(count(h, 'SELECT COUNT(*) FROM orders'));
      expect(cashEvents(h, 'cash_tender')).toBe(kind.tenders(0).some((t) => t.kind === 'cash') ? 20 : 0);
      // The drawer holds the float and each sale's cash once (handed less change).
      const sold = h.loket.db
        .prepare<[], { a: number }>("SELECT COALESCE(SUM(amount), 0) AS a FROM sale_tenders WHERE kind = 'cash'")
        .get()!.a;
      expect(expected(h)).toBe(100_000 + sold);
      expect(cashIn).toBeGreaterThanOrEqual(sold);
      expect(count(h, "SELECT COUNT(*) FROM sales WHERE state <> 'completed'")).toBe(0);
    });
});

describe('one guard: an order whose outcome is unknown holds every tender', () => {
  it('while a QRIS charge is unknown, cash and a card slip are refused; once it is settled they go through', async () => {
    const h = await host();
    await h.app.openShift({ float: 50_000 });
    h.loket.sandbox!.faults.set({ drop_after_store: true, count: 2 });
    const qris = await h.app.chargeSale({ cart: cart(), methodId: 'qris_dynamic' });
    expect(qris).toMatchObject({ ok: false, failure: { class: 'unknown', retry: 'may_exist' } });
    const orderId = qris.order!.id;
    await h.app.showOnDisplay(null);
    for (const tenders of [[{ kind: 'cash', handed: 20_000 }], [{ kind: 'other', reference: 'EDC 77' }]] as const)
      await expect(h.app.chargeSale({ cart: cart(), tenders: [...tenders] })).rejects.toMatchObject({
        code: 'conflict',
        reason: { key: 'sale.held', params: { orderId } },
      });
    expect(sales(h)).toBe(1);
    expect(cashEvents(h, 'cash_tender')).toBe(0);
    expect(expected(h)).toBe(50_000);
    // Check again finds it waiting: the till sells again, and the held QRIS is one sale, not two.
    const checked = await h.app.retryOrder(orderId);
    expect(checked).toMatchObject({ ok: true, order: { state: 'awaiting_payment' } });
    await h.app.parkSale(orderId);
    const cash = await h.app.chargeSale({ cart: cart(), tenders: [{ kind: 'cash', handed: 20_000 }] });
    expect(cash.ok).toBe(true);
    expect(sales(h)).toBe(2);
  });

  it('a charge being sent holds the till: a cash sale at the same moment is refused, never taken beside it', async () => {
    const h = await host();
    await h.app.openShift({ float: 0 });
    h.loket.sandbox!.faults.set({ latency_ms: 300, count: 1 });
    const qris = h.app.chargeSale({ cart: cart(), methodId: 'qris_dynamic' });
    await waitFor(() => count(h, "SELECT COUNT(*) FROM orders WHERE state = 'creating'") === 1, 'the order sent');
    await expect(h.app.chargeSale({ cart: cart(), tenders: [{ kind: 'cash', handed: 20_000 }] })).rejects.toMatchObject(
      { code: 'conflict' },
    );
    expect((await qris).ok).toBe(true);
    expect(sales(h)).toBe(1);
  });
});

describe("a sale's later changes are written with its order's", () => {
  async function splitSale(h: AppHost): Promise<ChargeSaleResult & { ok: true }> {
    const result = await h.app.chargeSale({
      cart: cart(25_000),
      tenders: [
        { kind: 'cash', handed: 10_000 },
        { kind: 'gateway', methodId: 'qris_dynamic' },
      ],
    });
    if (!result.ok || !result.order) throw new Error('the split sale was not charged');
    return result;
  }

  it('a split sale voided after its QRIS part failed gives its cash back in the same transaction', async () => {
    const printer = await printerStandIn();
    printers.push(printer);
    const h = await host(printer.port);
    await h.app.openShift({ float: 100_000 });
    const split = await splitSale(h);
    expect(expected(h)).toBe(110_000);
    h.loket.sandbox!.settle(split.order!.id, 'FAILED');
    await waitFor(() => saleState(h, split.saleId) === 'voided', 'the sale voided');
    // The void and the cash back commit together: the drawer's expected cash is the float again.
    expect(cashEvents(h, 'cash_void')).toBe(1);
    expect(expected(h)).toBe(100_000);
    const voidEvent = h.loket.db
      .prepare<[string], { amount: number }>(
        "SELECT amount FROM shift_events WHERE type = 'cash_void' AND document_id = ?",
      )
      .get(split.saleId);
    expect(voidEvent).toEqual({ amount: 10_000 });
    // The drawer opened for the float, the sale's cash, and once the void committed, for the cash handed back.
    await waitFor(() => printer.jobs.filter((j) => j.equals(DRAWER_PULSE)).length === 3, 'three drawer pulses');
  });

  it("a cashier's void cancels the order and returns the cash, audited, in one transaction", async () => {
    const h = await host();
    await h.app.openShift({ float: 20_000 });
    const split = await splitSale(h);
    await h.app.showOnDisplay(null);
    const voided = await h.app.voidSale({ saleId: split.saleId, reason: 'customer changed their mind' });
    expect(voided.state).toBe('voided');
    expect(h.loket.log.get(split.order!.id)?.state).toBe('cancelled');
    expect(expected(h)).toBe(20_000);
  });

  it('a QRIS part paid after its sale was voided is a late payment of the sale, the sale staying voided', async () => {
    const h = await host();
    await h.app.openShift({ float: 0 });
    const split = await splitSale(h);
    await h.app.voidSale({ saleId: split.saleId, reason: 'customer walked away' });
    // The customer pays the QR after all: the gateway calls back PAID for a cancelled order.
    h.loket.sandbox!.settle(split.order!.id, 'PAID');
    await waitFor(() => h.loket.log.get(split.order!.id)?.latePayment === true, 'the late payment');
    const sale = (await h.app.sale({ saleId: split.saleId }))!;
    expect(sale.state).toBe('voided');
    expect(sale.tenders.find((t) => t.kind === 'gateway')).toMatchObject({ state: 'failed', latePayment: true });
    expect(h.loket.db.prepare('SELECT type FROM sale_events WHERE sale_id = ?').pluck().all(split.saleId)).toContain(
      'late_payment',
    );
  });
});
