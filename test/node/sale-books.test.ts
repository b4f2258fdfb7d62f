// A stored sale's figures, its tenders and the books close to the rupiah: a property over random carts, discounts,
// tax settings, cash rounding and split tenders (cash and "other"), each sale charged through SaleService onto a real
// SQLite file, then read back, summed by the day's sales figures and exported as sale lines (CSV and the workbook's
// sheet). The gateway is not needed here (cash and other only): its tenders are tested against the sandbox elsewhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { CASH_ROUNDINGS } from '../../src-main/common/cash';
import { dayIn, dayRange } from '../../src-main/common/gateway-time';
import { computeSale, DEFAULT_DISCOUNT_LIMITS } from '../../src-main/common/sale-totals';
import type { TaxSettings } from '../../src-main/common/tax';
import { exportBooks } from '../../src-main/core/export/export-file';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { OrderLog } from '../../src-main/core/orders/order-log';
import { ProductStore } from '../../src-main/core/products/product-store';
import { salesFigures } from '../../src-main/core/reports/sales-figures';
import { dayReport, dayReportJson } from '../../src-main/core/reports/day-report';
import { SaleService } from '../../src-main/core/sales/sale-service';
import { SaleStore } from '../../src-main/core/sales/sale-store';
import { DEFAULT_CASH_SETTINGS, type CashRounding } from '../../src-main/common/cash';
import { openDatabase, type Database } from '../../src-main/db/open';
import { FakeClock } from './helpers/fake-clock';
import { tempDir } from './helpers/loket';
import { MemoryCashLedger } from './helpers/memory-cash-ledger';
import { propertyParams } from './helpers/property';
import { cartArb, saleDiscountArb, saleDiscountFor, taxSettingsArb, toLines } from './helpers/sale-arbitraries';

const TZ = 'Asia/Jakarta';
const dir = tempDir('loket-sale-books-');
const clock = new FakeClock('2026-01-01T03:00:00.000Z');
let db: Database;
let settings: { tax: TaxSettings; rounding: CashRounding };
let sales: SaleService;
const ledger = new MemoryCashLedger('SHIFT-P');

beforeAll(() => {
  db = openDatabase(join(dir.path, 'loket.db'));
  const store = new SaleStore(db, clock);
  sales = new SaleService({
    sales: store,
    products: new ProductStore(db, clock),
    log: new OrderLog(db, clock),
    counter: {
      chargeOrder: () => Promise.reject(new Error('no gateway tender in this test')),
      cancelOrder: () => {
        throw new Error('no gateway tender in this test');
      },
    },
    // No PIN needed: the limits are the manager's matter, tested elsewhere.
    settings: () => ({
      tax: settings.tax,
      cash: { ...DEFAULT_CASH_SETTINGS, rounding: settings.rounding },
      discounts: { ...DEFAULT_DISCOUNT_LIMITS, lineBp: 10_000, saleBp: 10_000 },
    }),
    terminalId: () => 'T01',
    training: false,
    clock,
    cashLedger: ledger,
  });
});
afterAll(() => {
  sales.close();
  db.close();
  dir.remove();
});

/** The sale lines of `day` as export --lines writes them, parsed back. */
async function exportedLines(day: string): Promise<Record<string, string>[]> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await exportBooks(
    join(dir.path, 'loket.db'),
    {
      from: day,
      to: day,
      timeZone: TZ,
      format: 'csv',
      methods: loadPaymentCatalogue(),
      staffNames: [],
      training: false,
      saleLines: true,
    },
    out,
  );
  return parse(Buffer.concat(chunks).toString('utf8'), { columns: true }) as Record<string, string>[];
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

describe('a sale, its tenders and the books close to the rupiah', () => {
  it('property: stored figures = computeSale; tenders pay total + rounding; change ≥ 0; report and export agree', async () => {
    await fc.assert(
      fc.asyncProperty(
        cartArb,
        saleDiscountArb,
        taxSettingsArb,
        fc.constantFrom(...CASH_ROUNDINGS),
        fc.record({ otherShare: fc.integer({ min: 0, max: 100 }), extra: fc.integer({ min: 0, max: 100_000 }) }),
        async (drafts, discountShape, tax, rounding, split) => {
          clock.advance(24 * 3600_000); // a day of its own for each case
          settings = { tax, rounding };
          const lines = toLines(drafts);
          const first = computeSale(lines, undefined, tax);
          fc.pre(first.ok);
          const saleDiscount =
            saleDiscountFor(discountShape, first.ok ? first.sale.subtotal - first.sale.lineDiscounts : 0) ?? null;
          const expected = computeSale(lines, saleDiscount, tax);
          fc.pre(expected.ok && expected.sale.total > 0 && expected.sale.total < 1e12);
          if (!expected.ok) return;
          const total = expected.sale.total;
          // "other" pays a share; cash the rest, handed with some extra (change).
          const other = Math.floor((total * split.otherShare) / 100);
          const tenders = [
            ...(other > 0 ? [{ kind: 'other' as const, amount: other, reference: 'EDC-1' }] : []),
            ...(other < total ? [{ kind: 'cash' as const, handed: total - other + 100 + split.extra }] : []),
          ];
          const result = await sales.chargeSale({ cart: { lines, saleDiscount }, tenders });
          if (!result.ok) throw new Error(JSON.stringify(result.issues ?? result.failure));
          const sale = sales.sale({ saleId: result.saleId })!;
          expect(sale.state).toBe('completed');
          expect(sale.total).toBe(total);
          expect([sale.subtotal, sale.discounts, sale.net, sale.ppn, sale.pbjt, sale.service]).toEqual([
            expected.sale.subtotal,
            expected.sale.discounts,
            expected.sale.net,
            expected.sale.ppn,
            expected.sale.pbjt,
            expected.sale.service,
          ]);
          expect(sum(sale.lines.map((l) => l.total))).toBe(total);
          expect(sale.net + sale.ppn + sale.pbjt + sale.service).toBe(total);
          expect(sum(sale.tenders.map((t) => t.amount))).toBe(total + sale.rounding);
          expect(sale.paid).toBe(total + sale.rounding);
          for (const t of sale.tenders) {
            expect(t.change).toBeGreaterThanOrEqual(0);
            if (t.kind === 'cash') expect(t.handed).toBe(t.amount + t.change);
          }
          // The books of the day: the report's sales figures and the exported lines.
          const day = dayIn(clock.now(), TZ);
          const books = salesFigures(db, dayRange(day, TZ)!, false);
          expect(books.completed).toEqual({ count: 1, amount: total });
          expect([books.total, books.net, books.tax.ppn, books.rounding]).toEqual([
            total,
            sale.net,
            sale.ppn,
            sale.rounding,
          ]);
          expect(sum(books.byCategory.map((c) => c.total))).toBe(total);
          expect(sum(books.byCategory.map((c) => c.net))).toBe(sale.subtotal - sale.discounts);
          expect(sum(books.tenders.byKind.map((k) => k.amount))).toBe(total + sale.rounding);
          const exported = await exportedLines(day);
          expect(exported).toHaveLength(lines.length);
          expect(sum(exported.map((r) => Number(r.total)))).toBe(total);
          expect(sum(exported.map((r) => Number(r.gross)))).toBe(books.subtotal);
          expect(sum(exported.map((r) => Number(r.line_discount) + Number(r.sale_discount)))).toBe(books.discounts);
        },
      ),
      propertyParams(25),
    );
  });

  it("the workbook's Sale lines sheet holds the same lines as export --lines", async () => {
    clock.advance(24 * 3600_000);
    settings = { tax: (await import('../../src-main/common/tax')).DEFAULT_TAX_SETTINGS, rounding: 'off' };
    const cart = {
      lines: [
        { lineId: 'a', name: '=SUM(A1)', unitPrice: 18_000, qty: 2, taxCategory: 'ppn' as const },
        { lineId: 'b', name: 'Es teh', unitPrice: 8_000, qty: 1, taxCategory: 'exempt' as const },
      ],
      saleDiscount: null,
    };
    const r = await sales.chargeSale({ cart, tenders: [{ kind: 'cash', handed: 50_000 }] });
    expect(r.ok).toBe(true);
    const day = dayIn(clock.now(), TZ);
    const csv = await exportedLines(day);
    // A name a spreadsheet would read as a formula is written as text.
    expect(csv.map((l) => [l.name, l.qty, l.total])).toEqual([
      ["'=SUM(A1)", '2', '36000'],
      ['Es teh', '1', '8000'],
    ]);
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await exportBooks(
      join(dir.path, 'loket.db'),
      {
        from: day,
        to: day,
        timeZone: TZ,
        format: 'xlsx',
        methods: loadPaymentCatalogue(),
        staffNames: [],
        training: false,
      },
      out,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Orders', 'Sale lines', 'Refunds', 'Tenders', 'Summary']);
    const rows = (book.getWorksheet('Sale lines')!.getSheetValues().filter(Boolean) as unknown[][]).slice(1);
    expect(rows.map((row) => [row[6], row[10], row[15]])).toEqual([
      ["'=SUM(A1)", 2, 36_000],
      ['Es teh', 1, 8_000],
    ]);
    expect(salesFigures(db, dayRange(day, TZ)!, false).total).toBe(44_000);
    // report --date D --json: the sales, the tenders by kind and method, and the rounding.
    const json = dayReportJson(
      dayReport(db, day, { timeZone: TZ, now: clock.now(), methods: loadPaymentCatalogue(), staffNames: [] }),
    );
    expect(json).toMatchObject({
      // 2 × 18,000 with PPN included: DPP 29,729 and PPN 12% of it, 3,567 (docs/tax.md's rounding rule).
      sales: { completed: { count: 1, amount: 44_000 }, tax: { ppn: 3_567, dpp: 29_729 } },
      tenders: {
        byKind: [{ kind: 'cash', count: 1, amount: 44_000 }],
        byMethod: [],
        cashHanded: 50_000,
        change: 6_000,
      },
      rounding: 0,
    });
  });
});
