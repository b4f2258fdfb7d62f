// Refunds and the books close to the rupiah: a property over random days — a shift with a random float, random carts,
// discounts and tax settings, split tenders (cash with change, "other"), cash rounding, pay-ins and pay-outs, and
// random partial and whole refunds in cash or outside Loket — each written through SaleService, RefundService and the
// shift's ledger on a real SQLite file. It checks that refunds never give back more than was paid (per line and in
// money, and exactly what was paid once a sale is refunded in full, its tax too), that the shift's expected cash is
// float + cash in − change − cash refunds − pay-outs + pay-ins, and that the day report's refund figures and the
// export's refunds (CSV and the workbook's sheet) agree to the rupiah, as do the report's tender figures (by kind, by
// method, cash handed and change, the rounding) and the export's tenders (export --tenders and the Tenders sheet).
// And the money taken (docs/end-of-day.md, "Money taken"), with random orders made before every charge was a sale
// (paid, unpaid, paid late) beside the sales: the day report's, its closing's, the workbook summary's, the Takings
// sheet's and the takings CSV's all equal an oracle that adds up the sales' tenders and the old paid orders itself,
// by tender and in all, to the rupiah.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { CASH_ROUNDINGS, DEFAULT_CASH_SETTINGS, type CashRounding } from '../../src-main/common/cash';
import { dayIn, dayRange } from '../../src-main/common/gateway-time';
import { computeSale, DEFAULT_DISCOUNT_LIMITS } from '../../src-main/common/sale-totals';
import type { TaxSettings } from '../../src-main/common/tax';
import { cliActor } from '../../src-main/core/audit/audit-log';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { exportBooks } from '../../src-main/core/export/export-file';
import { OrderLog } from '../../src-main/core/orders/order-log';
import { ProductStore } from '../../src-main/core/products/product-store';
import { closeDay, dayReport, dayReportJson } from '../../src-main/core/reports/day-report';
import type { OrderState } from '../../src-main/common/order';
import { oldOrder } from './helpers/old-orders';
import { RefundService } from '../../src-main/core/sales/refund-service';
import { RefundStore } from '../../src-main/core/sales/refund-store';
import { SaleService } from '../../src-main/core/sales/sale-service';
import { SaleStore } from '../../src-main/core/sales/sale-store';
import { NO_DRAWER } from '../../src-main/core/shifts/drawer';
import { ShiftBook } from '../../src-main/core/shifts/shift-book';
import { ShiftService } from '../../src-main/core/shifts/shift-service';
import { openDatabase, type Database } from '../../src-main/db/open';
import { FakeClock } from './helpers/fake-clock';
import { tempDir } from './helpers/loket';
import { propertyParams } from './helpers/property';
import { counterOf, counterPort } from './helpers/counter';
import { cartArb, saleDiscountArb, saleDiscountFor, taxSettingsArb, toLines } from './helpers/sale-arbitraries';

const TZ = 'Asia/Jakarta';
const TILL = { name: 'Ani', source: 'app' as const };
const dir = tempDir('loket-refund-books-');
const clock = new FakeClock('2026-01-01T01:00:00.000Z');
let db: Database;
let settings: { tax: TaxSettings; rounding: CashRounding };
let shifts: ShiftService;
let sales: SaleService;
let refunds: RefundService;
let refundStore: RefundStore;
/** Across the runs: the property must have refunded something, in part and in full. */
let refundsMade = 0;
/** Across the runs: old orders paid must have been counted in the money taken. */
let oldPaidCounted = 0;
let oldOrders = 0;
const OLD_METHODS = ['qris_dynamic', 'va_bca', 'ewallet_ovo'] as const;

beforeAll(() => {
  db = openDatabase(join(dir.path, 'loket.db'));
  const saleSettings = () => ({
    tax: settings.tax,
    cash: { ...DEFAULT_CASH_SETTINGS, rounding: settings.rounding },
    discounts: { ...DEFAULT_DISCOUNT_LIMITS, lineBp: 10_000, saleBp: 10_000 },
  });
  shifts = new ShiftService({
    book: new ShiftBook(db),
    clock,
    terminalId: () => 'T01',
    timeZone: () => TZ,
    cash: () => ({ rounding: settings.rounding, payOutLimit: 10_000_000 }),
    drawer: NO_DRAWER,
  });
  const saleStore = new SaleStore(db, clock);
  sales = new SaleService({
    sales: saleStore,
    products: new ProductStore(db, clock),
    log: new OrderLog(db, clock),
    counter: counterPort(counterOf({ db, clock, settings: saleSettings, cashLedger: shifts.ledger, sales: saleStore })),
    settings: saleSettings,
    terminalId: () => 'T01',
    training: false,
    clock,
  });
  refundStore = new RefundStore(db);
  refunds = new RefundService({
    sales: saleStore,
    refunds: refundStore,
    settings: saleSettings,
    terminalId: () => 'T01',
    training: false,
    clock,
    cashLedger: shifts.ledger,
  });
});
afterAll(() => {
  db.close();
  dir.remove();
});

async function exported(
  day: string,
  format: 'csv' | 'xlsx',
  csvOf: 'refunds' | 'tenders' | 'takings' = 'refunds',
): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await exportBooks(
    join(dir.path, 'loket.db'),
    {
      from: day,
      to: day,
      timeZone: TZ,
      format,
      methods: loadPaymentCatalogue(),
      staffNames: [],
      training: false,
      ...(format === 'csv' ? { [csvOf]: true } : {}),
    },
    out,
  );
  return Buffer.concat(chunks);
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

const saleArb = fc.record({
  drafts: cartArb,
  discount: saleDiscountArb,
  otherShare: fc.integer({ min: 0, max: 100 }),
  extra: fc.integer({ min: 0, max: 50_000 }),
  refunds: fc.array(
    fc.record({
      whole: fc.boolean(),
      picks: fc.array(fc.nat({ max: 10_000 }), { minLength: 1, maxLength: 4 }),
      cash: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
});

describe('refunds and the books close to the rupiah', () => {
  it('property: refunds never exceed what was paid; expected cash = float + in − change − refunds − out + in; report = export', async () => {
    await fc.assert(
      fc.asyncProperty(
        taxSettingsArb,
        fc.constantFrom(...CASH_ROUNDINGS),
        fc.integer({ min: 0, max: 500_000 }),
        fc.array(saleArb, { minLength: 1, maxLength: 3 }),
        fc.array(fc.record({ out: fc.boolean(), amount: fc.integer({ min: 1, max: 100_000 }) }), { maxLength: 3 }),
        // Orders made before every charge was a sale: an order alone, in some state (a late payment on one given up).
        fc.array(
          fc.record({
            methodId: fc.constantFrom(...OLD_METHODS),
            amount: fc.integer({ min: 1_000, max: 2_000_000 }),
            state: fc.constantFrom<OrderState>('paid', 'paid', 'awaiting_payment', 'cancelled', 'expired'),
            late: fc.boolean(),
          }),
          { maxLength: 3 },
        ),
        async (tax, rounding, float, day, moves, olds) => {
          clock.advance(24 * 3600_000); // a day of its own for each case
          settings = { tax, rounding };
          await shifts.open({ float }, TILL);
          let payIns = 0;
          let payOuts = 0;
          const move = async (m: { out: boolean; amount: number }) => {
            if (m.out && m.amount > shifts.current()!.cash.expected) return;
            await shifts.movement(
              { type: m.out ? 'pay_out' : 'pay_in', amount: m.amount, reason: 'float top-up' },
              TILL,
            );
            if (m.out) payOuts += m.amount;
            else payIns += m.amount;
          };
          let handed = 0;
          let change = 0;
          let cashBack = 0;
          for (const [i, s] of day.entries()) {
            const lines = toLines(s.drafts);
            const first = computeSale(lines, undefined, tax);
            if (!first.ok) continue;
            const saleDiscount = saleDiscountFor(s.discount, first.sale.subtotal - first.sale.lineDiscounts) ?? null;
            const figures = computeSale(lines, saleDiscount, tax);
            if (!figures.ok || figures.sale.total === 0 || figures.sale.total > 1e11) continue;
            const total = figures.sale.total;
            const other = Math.floor((total * s.otherShare) / 100);
            const tenders = [
              ...(other > 0 ? [{ kind: 'other' as const, amount: other, reference: 'EDC-1' }] : []),
              ...(other < total ? [{ kind: 'cash' as const, handed: total - other + s.extra }] : []),
            ];
            const charged = await sales.chargeSale({ cart: { lines, saleDiscount }, tenders });
            if (!charged.ok) throw new Error(JSON.stringify(charged.issues ?? charged.failure));
            const sale = charged.sale;
            for (const t of sale.tenders.filter((x) => x.kind === 'cash')) {
              handed += t.handed;
              change += t.change;
            }
            if (moves[i]) await move(moves[i]);

            for (const r of s.refunds) {
              const left = refunds.refundableOf({ saleId: sale.id })!;
              const open = left.lines.filter((l) => l.qtyLeft > 0);
              if (open.length === 0) break;
              const picked = new Map<string, number>();
              for (const p of r.picks) {
                const line = open[p % open.length]!;
                if (!picked.has(line.lineId)) picked.set(line.lineId, 1 + (p % line.qtyLeft));
              }
              const how = r.cash || !left.hows.includes('outside') ? 'cash' : 'outside';
              const before = db.prepare('SELECT count(*) FROM refunds').pluck().get();
              const done = await refunds.refundSale(
                {
                  saleId: sale.id,
                  ...(r.whole ? {} : { lines: [...picked].map(([lineId, qty]) => ({ lineId, qty })) }),
                  reason: 'customer returned it',
                  how,
                },
                cliActor('test'),
              );
              if (!done.ok) {
                // Only the drawer may refuse a valid refund (it cannot pay it): nothing was written then.
                expect(done.issues).toEqual([expect.objectContaining({ field: 'how', rule: 'drawer' })]);
                expect(db.prepare('SELECT count(*) FROM refunds').pluck().get()).toBe(before);
                continue;
              }
              if (how === 'cash') cashBack += done.refund.paidBack;
              refundsMade++;
              expect(done.refund.paidBack).toBeGreaterThanOrEqual(0);
              const t = done.refund.tax;
              expect(t.net + t.ppn + t.pbjt + t.service).toBe(done.refund.amount);
            }
            // Never more than was paid: per line, in money, in tax; exactly what was paid when refunded in full.
            const all = refundStore.ofSale(sale.id);
            const paid = sale.total + sale.rounding;
            const money = sum(all.map((x) => x.money));
            expect(money).toBeLessThanOrEqual(paid);
            expect(sum(all.map((x) => x.paidBack))).toBeLessThanOrEqual(paid);
            for (const line of sale.lines) {
              const given = all.flatMap((x) => x.lines.filter((l) => l.lineId === line.lineId));
              expect(sum(given.map((l) => l.qty))).toBeLessThanOrEqual(line.qty);
              expect(sum(given.map((l) => l.amount))).toBeLessThanOrEqual(line.total);
            }
            expect(sum(all.map((x) => x.tax.ppn))).toBeLessThanOrEqual(sale.ppn);
            if (all.some((x) => x.complete)) {
              expect(money).toBe(paid);
              expect(sum(all.map((x) => x.amount))).toBe(sale.total);
              expect(sum(all.map((x) => x.tax.ppn))).toBe(sale.ppn);
              expect(sum(all.map((x) => x.tax.dpp))).toBe(sale.dpp);
              expect(sum(all.map((x) => x.tax.pbjt))).toBe(sale.pbjt);
              expect(sum(all.map((x) => x.tax.service))).toBe(sale.service);
            }
            // The sale itself is never changed by its refunds.
            expect(sales.sale({ saleId: sale.id })).toEqual(sale);
          }
          const shift = shifts.current()!;
          expect(shift.cash.expected).toBe(float + handed - change - cashBack - payOuts + payIns);
          await shifts.close({ counted: shift.cash.expected }, TILL);
          // The old orders of the day, beside its sales.
          const methods = loadPaymentCatalogue();
          const oldPaid: { methodId: string; amount: number }[] = [];
          for (const o of olds) {
            const late = o.late && (o.state === 'cancelled' || o.state === 'expired');
            oldOrder(new OrderLog(db, clock), methods, {
              id: `T01-OLD-${++oldOrders}`,
              methodId: o.methodId,
              amount: o.amount,
              state: o.state,
              training: false,
              latePayment: late,
            });
            if (o.state === 'paid') oldPaid.push(o);
          }
          oldPaidCounted += oldPaid.length;

          // The day report's refunds and the export's, to the rupiah.
          const date = dayIn(clock.now(), TZ);
          const report = dayReport(db, date, {
            timeZone: TZ,
            methods: loadPaymentCatalogue(),
            staffNames: [],
            now: clock.now(),
          });
          const figures = report.refunds!;
          expect(dayReportJson(report).refunds).toEqual(figures);
          const made = refundStore.list(dayRange(date, TZ)!.from, dayRange(date, TZ)!.to);
          expect(figures.count).toBe(made.length);
          expect(figures.paidBack).toBe(sum(made.map((x) => x.paidBack)));
          expect(figures.byHow.find((h) => h.how === 'cash')?.paidBack ?? 0).toBe(cashBack);
          const csv = parse((await exported(date, 'csv')).toString('utf8'), { columns: true }) as Record<
            string,
            string
          >[];
          expect(csv).toHaveLength(figures.count);
          const col = (name: string) => sum(csv.map((r) => Number(r[name])));
          expect([col('amount'), col('money'), col('paid_back'), col('net'), col('dpp'), col('ppn')]).toEqual([
            figures.amount,
            figures.money,
            figures.paidBack,
            figures.tax.net,
            figures.tax.dpp,
            figures.tax.ppn,
          ]);
          const xlsx = await exported(date, 'xlsx');
          const book = new ExcelJS.Workbook();
          await book.xlsx.load(xlsx as unknown as ArrayBuffer);
          const sheet = book.getWorksheet('Refunds')!;
          const rows = (sheet.getSheetValues().filter(Boolean) as unknown[][]).slice(1);
          expect(rows).toHaveLength(figures.count);
          // getSheetValues is 1-based: column 12 is paid_back.
          expect(sum(rows.map((r) => Number(r[12])))).toBe(figures.paidBack);

          // The day report's tenders and the export's, to the rupiah: the rows of completed sales (all of them here)
          // summed by kind and by gateway method; cash handed and change; the rounding lines.
          const daySales = report.sales!;
          const tenderCsv = parse((await exported(date, 'csv', 'tenders')).toString('utf8'), {
            columns: true,
          }) as Record<string, string>[];
          expect(tenderCsv).toHaveLength(sum(daySales.tenders.byKind.map((k) => k.count)));
          const done = tenderCsv.filter((r) => r.sale_state === 'completed');
          expect(done).toHaveLength(tenderCsv.length);
          // (A day whose every cart came to nothing has no tender at all.)
          expect(new Set(done.map((r) => r.business_day))).toEqual(new Set(done.length > 0 ? [date] : []));
          const byKind = new Map<string, { count: number; amount: number }>();
          for (const r of done) {
            const k = byKind.get(r.kind!) ?? { count: 0, amount: 0 };
            byKind.set(r.kind!, { count: k.count + 1, amount: k.amount + Number(r.amount) });
          }
          expect(Object.fromEntries(byKind)).toEqual(
            Object.fromEntries(daySales.tenders.byKind.map((k) => [k.kind, { count: k.count, amount: k.amount }])),
          );
          const cashRows = done.filter((r) => r.kind === 'cash');
          expect(sum(cashRows.map((r) => Number(r.cash_handed)))).toBe(daySales.tenders.cashHanded);
          expect(sum(cashRows.map((r) => Number(r.change)))).toBe(daySales.tenders.change);
          expect(daySales.tenders.cashHanded).toBe(handed);
          expect(sum(done.map((r) => Number(r.rounding)))).toBe(daySales.rounding);
          // Every sale's tenders pay its total and its rounding line.
          expect(sum(done.map((r) => Number(r.amount)))).toBe(daySales.total + daySales.rounding);
          const tenderSheet = book.getWorksheet('Tenders')!;
          const tenderCells = (tenderSheet.getSheetValues().filter(Boolean) as unknown[][]).slice(1);
          expect(tenderCells).toHaveLength(tenderCsv.length);
          // 1-based: column 11 is amount, 12 cash_handed, 13 change, 14 rounding.
          expect([11, 12, 13, 14].map((c) => sum(tenderCells.map((r) => Number(r[c] ?? 0))))).toEqual([
            daySales.total + daySales.rounding,
            daySales.tenders.cashHanded,
            daySales.tenders.change,
            daySales.rounding,
          ]);

          // The money taken, to the rupiah, everywhere: the oracle adds up the sales' tenders as charged (all are
          // completed here) and the old orders that were paid, by tender.
          const oracle = new Map<string, { count: number; amount: number }>();
          const take = (key: string, amount: number) => {
            const t = oracle.get(key) ?? { count: 0, amount: 0 };
            oracle.set(key, { count: t.count + 1, amount: t.amount + amount });
          };
          for (const r of done) take(r.kind === 'gateway' ? r.method_id! : r.kind!, Number(r.amount));
          for (const o of oldPaid) take(o.methodId, o.amount);
          const oracleAmount = sum([...oracle.values()].map((t) => t.amount));
          const charged = new Set(done.map((r) => r.sale_id)).size;
          const byTender = (t: { byTender: { kind: string; methodId?: string; count: number; amount: number }[] }) =>
            new Map(
              t.byTender.map((x) => [
                x.kind === 'gateway' ? x.methodId! : x.kind,
                { count: x.count, amount: x.amount },
              ]),
            );
          const taken = daySales.taken!;
          expect([taken.amount, taken.count]).toEqual([oracleAmount, charged + oldPaid.length]);
          expect(byTender(taken)).toEqual(oracle);
          expect(taken.withoutSale).toEqual({ count: oldPaid.length, amount: sum(oldPaid.map((o) => o.amount)) });
          expect(sum(taken.byStaff.map((x) => x.amount))).toBe(oracleAmount);
          // report --json's top-level paid.
          expect(dayReportJson(report).paid).toEqual({ count: taken.count, amount: taken.amount });
          // The closing keeps it as it is.
          const closing = closeDay(db, date, {
            timeZone: TZ,
            now: clock.now(),
            by: { name: 'cli:test' },
            methods,
            staffNames: [],
          });
          expect(closing.sales!.taken).toEqual(taken);
          // The workbook's summary (first) and its Takings sheet; the takings CSV.
          const summary = book.worksheets[0]!;
          const takenRow = summary.getRows(1, summary.rowCount)!.find((r) => r.getCell(1).value === 'Diterima')!;
          expect([takenRow.getCell(3).value, takenRow.getCell(4).value]).toEqual([taken.count, taken.amount]);
          for (const [key, t] of oracle) {
            const row = summary.getRows(1, summary.rowCount)!.find((r) => r.getCell(1).value === key)!;
            expect([row.getCell(3).value, row.getCell(4).value], key).toEqual([t.count, t.amount]);
          }
          const takingCells = (book.getWorksheet('Takings')!.getSheetValues().filter(Boolean) as unknown[][]).slice(1);
          // 1-based: column 10 is amount.
          expect(sum(takingCells.map((r) => Number(r[10])))).toBe(oracleAmount);
          const takingCsv = parse((await exported(date, 'csv', 'takings')).toString('utf8'), {
            columns: true,
          }) as Record<string, string>[];
          const csvTaken = new Map<string, { count: number; amount: number }>();
          for (const r of takingCsv) {
            const key = r.kind === 'gateway' ? r.method_id! : r.kind!;
            const t = csvTaken.get(key) ?? { count: 0, amount: 0 };
            csvTaken.set(key, { count: t.count + 1, amount: t.amount + Number(r.amount) });
          }
          expect(csvTaken).toEqual(oracle);
          expect(takingCsv.filter((r) => r.without_sale === 'true')).toHaveLength(oldPaid.length);
        },
      ),
      propertyParams(15),
    );
    expect(refundsMade).toBeGreaterThan(0);
    expect(oldPaidCounted).toBeGreaterThan(0);
  }, 180_000);
});
