// Refunds as documents of their own (docs/tenders.md, "Refunds"): whole or by lines and quantities, a reason and a
// manager's PIN (audited), cash from the drawer through the shift's ledger or recorded outside Loket, never more
// than was paid across several refunds, the sale never changed, every event with its outbox row, one transaction.
// Real parts: a real SQLite file, the sale and shift services, AccessControl's PINs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DEFAULT_CASH_SETTINGS, type CashRounding } from '../../src-main/common/cash';
import { DEFAULT_DISCOUNT_LIMITS } from '../../src-main/common/sale-totals';
import { DEFAULT_TAX_SETTINGS, type TaxSettings } from '../../src-main/common/tax';
import type { SaleLine } from '../../src-main/common/sale-line';
import { AuditLog, cliActor } from '../../src-main/core/audit/audit-log';
import { OrderLog } from '../../src-main/core/orders/order-log';
import { ProductStore } from '../../src-main/core/products/product-store';
import { RefundService } from '../../src-main/core/sales/refund-service';
import { RefundStore } from '../../src-main/core/sales/refund-store';
import { SaleService } from '../../src-main/core/sales/sale-service';
import { SaleStore } from '../../src-main/core/sales/sale-store';
import { NO_DRAWER, type DrawerCause } from '../../src-main/core/shifts/drawer';
import { ShiftBook } from '../../src-main/core/shifts/shift-book';
import { ShiftService } from '../../src-main/core/shifts/shift-service';
import { AccessControl } from '../../src-main/core/staff/access';
import { openDatabase, type Database } from '../../src-main/db/open';
import { FakeClock } from './helpers/fake-clock';
import { counterOf, counterPort } from './helpers/counter';
import { tempDir } from './helpers/loket';

let dir: ReturnType<typeof tempDir>;
let db: Database;
let clock: FakeClock;
let shifts: ShiftService;
let sales: SaleService;
let saleStore: SaleStore;
let refunds: RefundService;
let access: AccessControl;
let audit: AuditLog;
let manager: { id: number; name: string };
let opened: DrawerCause[];
let rounding: CashRounding;
let tax: TaxSettings;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

beforeEach(async () => {
  dir = tempDir('loket-refunds-');
  db = openDatabase(join(dir.path, 'loket.db'));
  clock = new FakeClock('2026-11-25T03:00:00.000Z');
  opened = [];
  rounding = 'off';
  tax = DEFAULT_TAX_SETTINGS;
  access = new AccessControl(db, { clock });
  audit = new AuditLog(db, clock);
  ({ staff: manager } = await access.setupFirstManager('Sri', '4821'));
  const drawer = { open: (cause: DrawerCause) => (opened.push(cause), NO_DRAWER.open(cause)) };
  shifts = new ShiftService({
    book: new ShiftBook(db),
    clock,
    terminalId: () => 'T01',
    timeZone: () => 'Asia/Jakarta',
    cash: () => ({ rounding, payOutLimit: 100_000 }),
    drawer,
  });
  saleStore = new SaleStore(db, clock);
  const settings = () => ({
    tax,
    cash: { ...DEFAULT_CASH_SETTINGS, rounding },
    discounts: { ...DEFAULT_DISCOUNT_LIMITS, lineBp: 10_000, saleBp: 10_000 },
  });
  sales = new SaleService({
    sales: saleStore,
    products: new ProductStore(db, clock),
    log: new OrderLog(db, clock),
    counter: counterPort(counterOf({ db, clock, settings, cashLedger: shifts.ledger, sales: saleStore, drawer })),
    settings,
    terminalId: () => 'T01',
    training: false,
    clock,
  });
  refunds = new RefundService({
    sales: saleStore,
    refunds: new RefundStore(db),
    settings,
    terminalId: () => 'T01',
    training: false,
    clock,
    approveAsManager: (id, pin) => access.approveAsManager(id, pin),
    audit,
    cashLedger: shifts.ledger,
    drawer,
  });
});
afterEach(() => {
  if (db.open) db.close();
  dir.remove();
});

const kopi = (qty: number): SaleLine => ({
  lineId: 'a',
  name: 'Kopi susu',
  unitPrice: 10_000,
  qty,
  taxCategory: 'ppn',
});
const roti = (qty: number): SaleLine => ({ lineId: 'b', name: 'Roti', unitPrice: 7_001, qty, taxCategory: 'exempt' });

async function cashSale(lines: SaleLine[], handed: number): Promise<string> {
  const r = await sales.chargeSale({ cart: { lines, saleDiscount: null }, tenders: [{ kind: 'cash', handed }] });
  if (!r.ok) throw new Error(JSON.stringify(r.issues ?? r.failure));
  return r.saleId;
}

const pin = () => ({ staffId: manager.id, pin: '4821' });

describe('a refund of a paid sale', () => {
  it('refunds one line in cash from the drawer: its own document, events and outbox rows; the sale unchanged', async () => {
    await shifts.open({ float: 100_000 }, { name: 'Ani', source: 'app' });
    const saleId = await cashSale([kopi(3), roti(1)], 50_000);
    const before = sales.sale({ saleId });
    const saleEvents = saleStore.events(saleId).length;
    await nextTurn();
    opened.length = 0;

    const r = await refunds.refundSale({
      saleId,
      lines: [{ lineId: 'a', qty: 1 }],
      reason: 'spilt at the table',
      how: 'cash',
      managerPin: pin(),
    });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    // A line of 3 for Rp30.000: one unit is Rp10.000; PPN 11/111 of it, cumulatively from the sale's PPN line.
    expect(r.refund).toMatchObject({
      saleId,
      how: 'cash',
      lines: [{ saleLineNo: 1, lineId: 'a', name: 'Kopi susu', qty: 1, amount: 10_000 }],
      amount: 10_000,
      money: 10_000,
      paidBack: 10_000,
      complete: false,
      approvedBy: { staffId: manager.id, name: 'Sri' },
      reason: 'spilt at the table',
    });
    expect(r.refund.tax.ppn).toBe(991);
    expect(r.refund.tax.net + r.refund.tax.ppn + r.refund.tax.pbjt + r.refund.tax.service).toBe(10_000);
    expect(r.refund.shiftId).toBe(shifts.current()!.id);
    expect(r.refundable.lines.map((l) => l.qtyLeft)).toEqual([2, 1]);
    // The drawer: the shift's expected cash is float + the sale − the refund, and the drawer opened for it.
    expect(shifts.current()!.cash.expected).toBe(100_000 + 37_001 - 10_000);
    await nextTurn();
    expect(opened).toEqual(['cash_refund']);
    // The sale and its events are as they were; the refund has its own, each with its outbox row.
    expect(sales.sale({ saleId })).toEqual(before);
    expect(saleStore.events(saleId)).toHaveLength(saleEvents);
    const outbox = db
      .prepare("SELECT type FROM outbox WHERE stream = 'refund' AND stream_id = ? ORDER BY seq")
      .pluck()
      .all(r.refund.id);
    expect(outbox).toEqual(['created', 'paid_back']);
    expect(audit.list({ limit: 5 }).map((e) => e.action)).toContain('refund.approved');
    // Nothing changes a refund afterwards.
    expect(() => db.prepare('UPDATE refunds SET amount = 1').run()).toThrow(/never changed/);
    expect(() => db.prepare('DELETE FROM refund_lines').run()).toThrow(/never changed/);
  });

  it('never gives back more than was paid: per line, across several refunds, then nothing is left', async () => {
    await shifts.open({ float: 100_000 }, { name: 'Ani', source: 'app' });
    const saleId = await cashSale([kopi(3), roti(1)], 40_000);
    const over = await refunds.refundSale({
      saleId,
      lines: [{ lineId: 'a', qty: 4 }],
      reason: 'wrong order',
      how: 'cash',
      managerPin: pin(),
    });
    expect(over).toMatchObject({
      ok: false,
      issues: [{ field: 'lines[0].qty', rule: 'qty', params: { position: 1, left: 3, asked: 4 } }],
    });
    const unknown = await refunds.refundSale({
      saleId,
      lines: [{ lineId: 'zz', qty: 1 }],
      reason: 'wrong order',
      how: 'cash',
      managerPin: pin(),
    });
    expect(unknown).toMatchObject({ ok: false, issues: [{ field: 'lines[0].lineId', rule: 'line_id' }] });
    const noReason = await refunds.refundSale({ saleId, reason: ' x ', how: 'cash', managerPin: pin() });
    expect(noReason).toMatchObject({ ok: false, issues: [{ field: 'reason', rule: 'reason' }] });

    const parts = [];
    for (let i = 0; i < 3; i++) {
      const r = await refunds.refundSale({
        saleId,
        lines: [{ lineId: 'a', qty: 1 }],
        reason: 'one at a time',
        how: 'cash',
        managerPin: pin(),
      });
      if (!r.ok) throw new Error(JSON.stringify(r.issues));
      parts.push(r.refund.amount);
    }
    expect(parts).toEqual([10_000, 10_000, 10_000]);
    const again = await refunds.refundSale({
      saleId,
      lines: [{ lineId: 'a', qty: 1 }],
      reason: 'one more',
      how: 'cash',
      managerPin: pin(),
    });
    expect(again).toMatchObject({ ok: false, issues: [{ field: 'lines[0].qty', rule: 'nothing_left' }] });
    const rest = await refunds.refundSale({ saleId, reason: 'the rest', how: 'cash', managerPin: pin() });
    if (!rest.ok) throw new Error(JSON.stringify(rest.issues));
    expect(rest.refund).toMatchObject({ amount: 7_001, complete: true });
    const all = refunds.refundableOf({ saleId })!;
    expect(all).toMatchObject({ refundable: false, moneyLeft: 0, moneyRefunded: 37_001 });
    expect(all.refunds.reduce((a, r) => a + r.paidBack, 0)).toBe(37_001);
    // The tax given back is the sale's, to the rupiah.
    const sale = sales.sale({ saleId })!;
    expect(all.refunds.reduce((a, r) => a + r.tax.ppn, 0)).toBe(sale.ppn);
    expect(all.refunds.reduce((a, r) => a + r.tax.dpp, 0)).toBe(sale.dpp);
    const whole = await refunds.refundSale({ saleId, reason: 'again', how: 'cash', managerPin: pin() });
    expect(whole).toMatchObject({ ok: false, issues: [{ field: 'sale', rule: 'nothing_left' }] });
  });

  it("asks for a manager's PIN (a wrong one refused, nothing written); at the command line the account approves", async () => {
    await shifts.open({ float: 100_000 }, { name: 'Ani', source: 'app' });
    const saleId = await cashSale([kopi(1)], 10_000);
    const none = await refunds.refundSale({ saleId, reason: 'wrong order', how: 'cash' });
    expect(none).toMatchObject({ ok: false, issues: [{ field: 'managerPin', rule: 'pin_required' }] });
    const wrong = await refunds.refundSale({
      saleId,
      reason: 'wrong order',
      how: 'cash',
      managerPin: { staffId: manager.id, pin: '0000' },
    });
    expect(wrong).toMatchObject({ ok: false, issues: [{ field: 'managerPin', rule: 'wrong_pin' }] });
    expect(db.prepare('SELECT count(*) FROM refunds').pluck().get()).toBe(0);
    const cli = await refunds.refundSale({ saleId, reason: 'wrong order', how: 'cash' }, cliActor('ops'));
    expect(cli).toMatchObject({ ok: true, refund: { approvedBy: { name: 'cli:ops' } } });
  });

  it('needs an open shift for cash, and a drawer that holds it; the whole refund rolls back otherwise', async () => {
    await shifts.open({ float: 0 }, { name: 'Ani', source: 'app' });
    const saleId = await cashSale([kopi(1)], 10_000);
    await shifts.movement({ type: 'pay_out', amount: 5_000, reason: 'bought ice' }, { name: 'Ani', source: 'app' });
    const short = await refunds.refundSale({ saleId, reason: 'wrong order', how: 'cash', managerPin: pin() });
    expect(short).toMatchObject({ ok: false, issues: [{ field: 'how', rule: 'drawer' }] });
    await shifts.close({ counted: 5_000 }, { name: 'Ani', source: 'app' });
    const closed = await refunds.refundSale({ saleId, reason: 'wrong order', how: 'cash', managerPin: pin() });
    expect(closed).toMatchObject({ ok: false, issues: [{ field: 'how', rule: 'no_open_shift' }] });
    // Nothing of either was written: no refund, no event, no outbox row.
    expect(db.prepare('SELECT count(*) FROM refunds').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM refund_events').pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM outbox WHERE stream = 'refund'").pluck().get()).toBe(0);
    // Outside is only for a sale a digital or other tender paid.
    const outside = await refunds.refundSale({ saleId, reason: 'wrong order', how: 'outside', managerPin: pin() });
    expect(outside).toMatchObject({ ok: false, issues: [{ field: 'how', rule: 'outside_needs_digital' }] });
  });

  it('records a refund outside Loket for a split sale, without the drawer; with cash rounding a cash refund rounds down', async () => {
    rounding = 'down';
    await shifts.open({ float: 50_000 }, { name: 'Ani', source: 'app' });
    // 3 × 10.000 + 7.001 = 37.001: Rp20.000 by card, the rest (17.001) in cash, rounded down to 17.000.
    const r = await sales.chargeSale({
      cart: { lines: [kopi(3), roti(1)], saleDiscount: null },
      tenders: [
        { kind: 'other', amount: 20_000, reference: 'EDC-7' },
        { kind: 'cash', handed: 20_000 },
      ],
    });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.sale.rounding).toBe(-1);
    const view = refunds.refundableOf({ saleId: r.saleId })!;
    expect(view).toMatchObject({ hows: ['cash', 'outside'], defaultHow: 'cash', paid: 37_000 });
    const out = await refunds.refundSale({
      saleId: r.saleId,
      lines: [{ lineId: 'b', qty: 1 }],
      reason: 'stale bread',
      how: 'outside',
      managerPin: pin(),
    });
    if (!out.ok) throw new Error(JSON.stringify(out.issues));
    expect(out.refund).toMatchObject({ how: 'outside', amount: 7_001, paidBack: 7_001, cashRounding: 0 });
    expect(out.refund.shiftId).toBeUndefined();
    const expected = shifts.current()!.cash.expected;
    const cash = await refunds.refundSale({ saleId: r.saleId, reason: 'the rest', how: 'cash', managerPin: pin() });
    if (!cash.ok) throw new Error(JSON.stringify(cash.issues));
    // The rest: 30.000 of line amounts, money 30.000 − 1 (the sale's rounding), handed back rounded down: 29.900.
    expect(cash.refund).toMatchObject({ amount: 30_000, rounding: -1, money: 29_999, paidBack: 29_900 });
    expect(shifts.current()!.cash.expected).toBe(expected - 29_900);
    expect(out.refund.money + cash.refund.money).toBe(37_000);
  });
});
