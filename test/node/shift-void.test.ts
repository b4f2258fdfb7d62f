// A sale voided after it took cash (a split sale whose QRIS part failed): its cash goes back out of the shift that
// took it as a `cash_void` event (docs/tenders.md, "The shift's cash"), which is no refund and is never refused for a
// drawer that looks short. The X/Z report counts the sale neither as a cash sale nor as a refund, so the Z report's
// cash sales are the day report's cash tenders of the shift's completed sales: a property over random days checks
// that against the day's sales figures (an independent SQL sum over the sale tables), and the expected cash against
// a model.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { shiftCash } from '../../src-main/common/cash';
import { dayIn, dayRange } from '../../src-main/common/gateway-time';
import type { SaleTender } from '../../src-main/common/sale';
import { DEFAULT_TAX_SETTINGS } from '../../src-main/common/tax';
import type { AuditActor } from '../../src-main/core/audit/audit-log';
import { salesFigures } from '../../src-main/core/reports/sales-figures';
import { SaleStore, type NewSale } from '../../src-main/core/sales/sale-store';
import { NoOpenShiftError } from '../../src-main/core/shifts/cash-ledger';
import { NO_DRAWER, type DrawerCause } from '../../src-main/core/shifts/drawer';
import { ShiftBook } from '../../src-main/core/shifts/shift-book';
import { LedgerOutsideTransactionError } from '../../src-main/core/shifts/shift-ledger';
import { ShiftService } from '../../src-main/core/shifts/shift-service';
import { openDatabase, type Database } from '../../src-main/db/open';
import { FakeClock } from './helpers/fake-clock';
import { tempDir } from './helpers/loket';
import { propertyParams } from './helpers/property';

const TZ = 'Asia/Jakarta';
const TILL: AuditActor = { name: 'Ani', source: 'app' };

let dir: { path: string; remove: () => void };
let db: Database;
let clock: FakeClock;
let sales: SaleStore;
let shifts: ShiftService;
let opened: DrawerCause[];
let n = 0;

function open(): void {
  db = openDatabase(join(dir.path, 'loket.db'));
  sales = new SaleStore(db, clock);
  shifts = new ShiftService({
    book: new ShiftBook(db),
    clock,
    terminalId: () => 'T01',
    timeZone: () => TZ,
    cash: () => ({ rounding: 'off', payOutLimit: Number.MAX_SAFE_INTEGER }),
    drawer: {
      open: (cause) => {
        opened.push(cause);
        return NO_DRAWER.open(cause);
      },
    },
  });
}

beforeEach(() => {
  dir = tempDir('loket-shift-void-');
  clock = new FakeClock('2026-11-25T02:00:00.000Z');
  opened = [];
  open();
});

afterEach(() => {
  if (db.open) db.close();
  dir.remove();
});

type Tender = Omit<SaleTender, 'no'>;
const cash = (handed: number, change = 0): Tender => ({
  kind: 'cash',
  state: 'paid',
  amount: handed - change,
  handed,
  change,
  rounding: 0,
});
const qris = (amount: number, orderId: string): Tender => ({
  kind: 'gateway',
  state: 'pending',
  methodId: 'qris_dynamic',
  orderId,
  amount,
  handed: 0,
  change: 0,
  rounding: 0,
});
const other = (amount: number): Tender => ({
  kind: 'other',
  state: 'paid',
  reference: 'EDC 0042',
  amount,
  handed: 0,
  change: 0,
  rounding: 0,
});

/** A one-line sale of `total` with `tenders`, and its cash tenders' movements, in one transaction (as the sale does). */
function sell(total: number, tenders: Tender[]): string {
  n += 1;
  const id = `SALE-${String(n).padStart(4, '0')}`;
  const sale: NewSale = {
    id,
    terminalId: 'T01',
    training: false,
    saleDiscount: null,
    taxSettings: DEFAULT_TAX_SETTINGS,
    figures: {
      subtotal: total,
      lineDiscounts: 0,
      saleDiscount: 0,
      discounts: 0,
      net: total,
      dpp: total,
      ppn: 0,
      pbjt: 0,
      service: 0,
      total,
      categories: [],
    },
    lines: [
      {
        lineId: 'l1',
        name: 'Kopi',
        category: '',
        unitPrice: total,
        qty: 1,
        taxCategory: 'exempt',
        gross: total,
        lineDiscount: 0,
        saleDiscount: 0,
        net: total,
        total,
      },
    ],
    tenders,
  };
  db.transaction(() => {
    sales.create(sale, { actor: 'Ani' });
    const shiftId = shifts.ledger.openShiftId();
    for (const t of tenders.filter((x) => x.kind === 'cash'))
      shifts.ledger.record({
        type: 'cash_tender',
        handed: t.handed,
        change: t.change,
        shiftId,
        documentId: id,
        at: clock.now().toISOString(),
        staffId: null,
      });
  }).immediate();
  clock.advance(60_000);
  return id;
}

/** The gateway part failed: the sale is voided and its cash goes back out of the shift that took it, together. */
function voidSale(orderId: string): void {
  db.transaction(() => {
    const sale = sales.settleTender(orderId, 'failed', { actor: 'system' })!;
    const taken = shifts.ledger.cashTakenFor(sale.id);
    if (taken && taken.amount > 0)
      shifts.ledger.record({
        type: 'cash_void',
        amount: taken.amount,
        shiftId: taken.shiftId,
        documentId: sale.id,
        at: clock.now().toISOString(),
        staffId: null,
      });
  }).immediate();
  clock.advance(60_000);
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("a voided sale's cash (cash_void)", () => {
  it('is counted in shiftCash: the expected cash goes down by it', () => {
    const cashOf = shiftCash([
      { type: 'float', amount: 100_000 },
      { type: 'cash_tender', handed: 50_000, change: 0 },
      { type: 'cash_void', amount: 50_000 },
    ]);
    expect(cashOf).toMatchObject({ cashSales: 50_000, cashVoids: 50_000, cashRefunds: 0, expected: 100_000 });
  });

  it('goes back out of the shift that took it; the report counts it neither as a sale nor as a refund', async () => {
    await shifts.open({ float: 100_000 }, TILL);
    sell(48_050, [cash(50_000, 1_950)]);
    const split = sell(68_050, [cash(50_000), qris(18_050, 'T01-Q1')]);
    expect(shifts.ledger.cashTakenFor(split)).toEqual({ shiftId: 'T01-S0001', amount: 50_000 });
    sell(38_050, [cash(20_000), other(18_050)]);
    await nextTurn();
    opened = [];
    voidSale('T01-Q1');
    await nextTurn();
    // The ledger only writes: the host opens the drawer for the cash given back once the void has committed
    // (host/order-runtime.ts; test/node/one-counter.test.ts).
    expect(opened).toEqual([]);
    // Nothing is left to give back.
    expect(shifts.ledger.cashTakenFor(split)).toEqual({ shiftId: 'T01-S0001', amount: 0 });

    const x = shifts.report();
    expect(x.shift.cash).toMatchObject({ cashSales: 118_050, cashVoids: 50_000, cashRefunds: 0, expected: 168_050 });
    expect(x.tenders[0]).toEqual({ tender: 'cash', count: 2, amount: 68_050 });
    expect(x.voided).toEqual({ count: 1, amount: 50_000 });
    expect(x.refunds).toEqual({ count: 0, amount: 0 });
    expect(x.cashTenders).toEqual({ count: 3, handed: 120_000, change: 1_950, net: 118_050 });

    const z = (await shifts.close({ counted: 168_050 }, TILL)).report;
    expect(z).toMatchObject({ kind: 'Z', expected: 168_050, count: { difference: 0 } });
    // The Z report's cash sales are the day report's cash tenders of the completed sales.
    const day = salesFigures(db, dayRange(dayIn(clock.now(), TZ), TZ)!, false);
    expect(day.voided.count).toBe(1);
    expect(day.tenders.byKind.find((k) => k.kind === 'cash')).toEqual({ kind: 'cash', count: 2, amount: 68_050 });
    expect(z.tenders[0]).toEqual({ tender: 'cash', count: 2, amount: 68_050 });
  });

  it('is never refused for a drawer that looks short: the cash was just taken', async () => {
    await shifts.open({ float: 0 }, TILL);
    sell(60_000, [cash(40_000), qris(20_000, 'T01-Q2')]);
    // The drawer's cash paid out meanwhile: it looks empty.
    await shifts.movement({ type: 'pay_out', amount: 40_000, reason: 'the supplier' }, TILL);
    expect(shifts.current()!.cash.expected).toBe(0);
    voidSale('T01-Q2');
    expect(shifts.current()!.cash).toMatchObject({ cashVoids: 40_000, expected: -40_000 });
  });

  it('is refused outside a transaction, from a shift that did not take it, for more than it took, or once closed', async () => {
    await shifts.open({ float: 10_000 }, TILL);
    const id = sell(30_000, [cash(25_000), qris(5_000, 'T01-Q3')]);
    const back = (amount: number, shiftId = 'T01-S0001') => ({
      type: 'cash_void' as const,
      amount,
      shiftId,
      documentId: id,
      at: clock.now().toISOString(),
      staffId: null,
    });
    expect(() => shifts.ledger.record(back(25_000))).toThrow(LedgerOutsideTransactionError);
    expect(() => db.transaction(() => shifts.ledger.record(back(25_001)))()).toThrow(
      /sale SALE-\d+ put Rp25\.000 in shift T01-S0001, so Rp25\.001 cannot go back out of T01-S0001/,
    );
    expect(() => db.transaction(() => shifts.ledger.record(back(0)))()).toThrow(RangeError);
    expect(() => db.transaction(() => shifts.ledger.record({ ...back(5), documentId: 'SALE-NONE' }))()).toThrow(
      /put no cash/,
    );
    expect(() => db.transaction(() => shifts.ledger.record(back(5, 'T01-S0099')))()).toThrow(NoOpenShiftError);
    db.transaction(() => shifts.ledger.record(back(5_000)))();
    expect(shifts.ledger.cashTakenFor(id)).toEqual({ shiftId: 'T01-S0001', amount: 20_000 });
    // A shift closed (before a shift with a sale being paid could not be): its cash is found, and cannot go back.
    db.prepare('UPDATE sales SET state = ? WHERE id = ?').run('completed', id);
    await shifts.close({ counted: 0 }, TILL);
    expect(shifts.ledger.cashTakenFor(id)).toEqual({ shiftId: 'T01-S0001', amount: 20_000 });
    expect(() => db.transaction(() => shifts.ledger.record(back(1)))()).toThrow(
      /shift T01-S0001, which took the cash of sale SALE-\d+, is closed/,
    );
    expect(shifts.ledger.cashTakenFor('SALE-NONE')).toBeUndefined();
  });

  it('the database takes cash_void only with its sale', async () => {
    await shifts.open({ float: 0 }, TILL);
    const insert = (documentId: string | null) =>
      db
        .prepare(
          `INSERT INTO shift_events (shift_id, at, type, amount, document_id)
           VALUES ('T01-S0001', '2026-11-25T02:00:00.000Z', 'cash_void', 100, ?)`,
        )
        .run(documentId);
    expect(() => insert(null)).toThrow(/CHECK constraint failed/);
    expect(() => insert('SALE-1')).not.toThrow();
  });
});

describe('the Z report and the day report (property)', () => {
  it("agree on the cash sales over random days of cash and split sales, some voided; expected is the model's", async () => {
    const step = fc.oneof(
      fc
        .tuple(fc.integer({ min: 1, max: 2_000_000 }), fc.integer({ min: 0, max: 100_000 }))
        .map(([due, change]) => ({ kind: 'cash' as const, due, change })),
      fc
        .tuple(fc.integer({ min: 1, max: 2_000_000 }), fc.integer({ min: 1, max: 2_000_000 }), fc.boolean())
        .map(([cashPart, rest, paid]) => ({ kind: 'split' as const, cashPart, rest, paid })),
      fc
        .tuple(fc.integer({ min: 1, max: 2_000_000 }), fc.integer({ min: 1, max: 2_000_000 }))
        .map(([cashPart, rest]) => ({ kind: 'other' as const, cashPart, rest })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.array(step, { maxLength: 20 }),
        async (float, steps) => {
          db.close();
          dir.remove();
          dir = tempDir('loket-shift-void-');
          clock = new FakeClock('2026-11-25T02:00:00.000Z');
          open();
          await shifts.open({ float }, TILL);
          let model = float;
          let k = 0;
          for (const s of steps) {
            k += 1;
            if (s.kind === 'cash') {
              sell(s.due, [cash(s.due + s.change, s.change)]);
              model += s.due;
            } else if (s.kind === 'other') {
              sell(s.cashPart + s.rest, [cash(s.cashPart), other(s.rest)]);
              model += s.cashPart;
            } else {
              const orderId = `T01-Q${k}`;
              sell(s.cashPart + s.rest, [cash(s.cashPart), qris(s.rest, orderId)]);
              if (s.paid) {
                sales.settleTender(orderId, 'paid', { actor: 'system' });
                model += s.cashPart;
              } else voidSale(orderId);
            }
          }
          const z = (await shifts.close({ counted: model }, TILL)).report;
          expect(z.expected).toBe(model);
          expect(z.count?.difference).toBe(0);
          const day = salesFigures(db, dayRange(dayIn(clock.now(), TZ), TZ)!, false);
          const dayCash = day.tenders.byKind.find((x) => x.kind === 'cash') ?? { count: 0, amount: 0 };
          expect({ count: z.tenders[0]!.count, amount: z.tenders[0]!.amount }).toEqual({
            count: dayCash.count,
            amount: dayCash.amount,
          });
          expect(z.voided.count).toBe(day.voided.count);
          expect(z.refunds).toEqual({ count: 0, amount: 0 });
          expect(z.expected).toBe(float + z.tenders[0]!.amount);
        },
      ),
      propertyParams(30),
    );
  });
});
