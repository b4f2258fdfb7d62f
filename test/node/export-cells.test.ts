// The export's cells and names (docs/export.md): on a real SQLite file written by the app host's own sale path
// (training mode: its embedded sandbox over HTTP on 127.0.0.1 pays the QRIS part), a day of sales with PPN included
// in the prices and a discount, and a refund. The workbook the manager downloads is read back with exceljs:
// - every time and day of every sheet is a date cell in the store's zone (the Orders sheet's were; the Sale lines,
//   Refunds and Tenders sheets' were text; the Takings sheet is new), the same instant the CSV writes with its offset;
// - one name per meaning in every file: each column name is in docs/export.md's list of names once, and a name used
//   by two files holds the same value for the same thing (a sale's time, its staff, a method's label).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { dayIn } from '../../src-main/common/gateway-time';
import type { Cart } from '../../src-main/common/sale';
import { EXPORT_COLUMNS } from '../../src-main/core/export/columns';
import { exportBooks } from '../../src-main/core/export/export-file';
import { REFUND_COLUMNS } from '../../src-main/core/export/refunds-export';
import { SALE_LINE_COLUMNS } from '../../src-main/core/export/sale-lines-export';
import { TAKINGS_COLUMNS } from '../../src-main/core/export/takings-export';
import { TENDER_COLUMNS } from '../../src-main/core/export/tenders-export';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { MemoryCashLedger } from './helpers/memory-cash-ledger';
import { tempDir } from './helpers/loket';

const TZ = 'Asia/Jakarta';
const PIN = '97531864';
const dir = tempDir('loket-export-cells-');
let host: AppHost;
let token: string;
let managerId: number;
let day: string;
let book: ExcelJS.Workbook;

/** Every file of the export with its columns: the names a manager's script reads. */
const FILES = {
  Takings: TAKINGS_COLUMNS,
  Orders: EXPORT_COLUMNS,
  'Sale lines': SALE_LINE_COLUMNS,
  Refunds: REFUND_COLUMNS,
  Tenders: TENDER_COLUMNS,
} as const;
type SheetName = keyof typeof FILES;
/** A column's kind; an id is text (the orders' columns say which text is an identifier, the tables' do not). */
const kindOf = (sheet: SheetName, name: string) => {
  const kind = FILES[sheet].find((c) => c.name === name)!.kind as string;
  return kind === 'id' ? 'text' : kind;
};

async function download(format: 'csv' | 'xlsx'): Promise<Buffer> {
  const ticket = await host.app.prepareExport(token, { from: day, to: day, format });
  const file = host.app.takeDownload(ticket.downloadId)!;
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await file.write(out);
  return Buffer.concat(chunks);
}

/** A table's CSV (export --lines, --refunds, --tenders), as the CLI writes it from the same log. */
async function csvOf(kind: 'takings' | 'saleLines' | 'refunds' | 'tenders'): Promise<Record<string, string>[]> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await exportBooks(
    join(dir.path, 'data', 'training', 'loket.db'),
    {
      from: day,
      to: day,
      timeZone: TZ,
      format: 'csv',
      methods: loadPaymentCatalogue(),
      staffNames: [],
      training: true,
      lang: 'id',
      [kind]: true,
    },
    out,
  );
  return parse(Buffer.concat(chunks).toString('utf8'), { columns: true }) as Record<string, string>[];
}

/** A sheet's rows by column name (the header's zone taken off), and the cells themselves. */
function sheetRows(name: SheetName): { values: Record<string, unknown>[]; cells: Record<string, ExcelJS.Cell>[] } {
  const sheet = book.getWorksheet(name)!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map((h) => String(h).replace(/ \(.*\)$/, ''));
  const values: Record<string, unknown>[] = [];
  const cells: Record<string, ExcelJS.Cell>[] = [];
  sheet.eachRow((row, n) => {
    if (n === 1) return;
    values.push(Object.fromEntries(header.map((h, i) => [h, row.getCell(i + 1).value ?? undefined])));
    cells.push(Object.fromEntries(header.map((h, i) => [h, row.getCell(i + 1)])));
  });
  return { values, cells };
}

/** The store's wall time a date cell shows, as the CSV writes it without its offset (to the millisecond). */
const wall = (d: unknown) => (d as Date).toISOString().slice(0, 23);

beforeAll(async () => {
  const ledger = new MemoryCashLedger();
  host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {}, cashLedger: () => ledger });
  const session = await host.app.setupManager({ name: 'Bu Sri', pin: PIN });
  token = session.token;
  managerId = session.staff.id;
  const set = await host.app.updateSaleSettings(token, { cash: { rounding: 'nearest' } });
  if (!set.ok) throw new Error(JSON.stringify(set.issues));
  // Prices include PPN (the default): a line after its discounts is not its net (before tax).
  const split: Cart = {
    lines: [
      {
        lineId: 'a',
        name: 'Kopi bubuk',
        unitPrice: 23_450,
        qty: 2,
        taxCategory: 'ppn',
        discount: { kind: 'percent', valueBp: 500 },
      },
      { lineId: 'b', name: 'Gula', unitPrice: 15_000, qty: 1, taxCategory: 'ppn' },
    ],
    saleDiscount: { kind: 'amount', value: 1_000 },
  };
  const first = await host.app.chargeSale({
    cart: split,
    tenders: [
      { kind: 'cash', handed: 20_000 },
      { kind: 'gateway', methodId: 'qris_dynamic' },
    ],
  });
  if (!first.ok) throw new Error(JSON.stringify(first));
  await host.app.simulatePayment(first.order!.id);
  const second = await host.app.chargeSale({
    cart: { lines: [{ lineId: 'a', name: 'Teh', unitPrice: 12_345, qty: 1, taxCategory: 'ppn' }], saleDiscount: null },
    tenders: [{ kind: 'cash', handed: 20_000 }],
  });
  if (!second.ok) throw new Error(JSON.stringify(second));
  const refund = await host.app.refundSale({
    saleId: second.saleId,
    reason: 'salah ambil barang',
    how: 'cash',
    managerPin: { staffId: managerId, pin: PIN },
  });
  if (!refund.ok) throw new Error(JSON.stringify(refund));
  day = dayIn(new Date(), TZ);
  book = new ExcelJS.Workbook();
  await book.xlsx.load((await download('xlsx')) as unknown as ArrayBuffer);
});
afterAll(async () => {
  await host.close();
  dir.remove();
});

describe("the export's cells and names", () => {
  it('every time and day on every sheet is a date cell of the store’s wall time, the instant the CSV names', async () => {
    const csv = {
      'Sale lines': await csvOf('saleLines'),
      Refunds: await csvOf('refunds'),
      Tenders: await csvOf('tenders'),
    };
    for (const name of ['Orders', 'Sale lines', 'Refunds', 'Tenders'] as const) {
      const { values, cells } = sheetRows(name);
      expect(values.length, name).toBeGreaterThan(0);
      const dated = FILES[name].filter((c) => c.kind === 'time' || (c.kind as string) === 'day');
      expect(dated.length, `${name}: its times and days`).toBeGreaterThan(0);
      values.forEach((row, i) => {
        for (const c of dated) {
          if (row[c.name] === undefined) continue; // a time not there (an order not paid)
          const cell = cells[i]![c.name]!;
          expect(cell.type, `${name} row ${i + 2}: ${c.name} is a date cell`).toBe(ExcelJS.ValueType.Date);
          expect(cell.numFmt, `${name}: ${c.name}'s format`).toBe(
            c.kind === 'time' ? 'yyyy-mm-dd hh:mm:ss' : 'yyyy-mm-dd',
          );
          if (name === 'Orders') continue;
          // The CSV's text of the same cell: the store's time with its offset (+07:00), or the store day.
          const text = csv[name][i]![c.name]!;
          if (c.kind === 'time') {
            expect(text, `${name}: ${c.name} in the CSV`).toMatch(/\+07:00$/);
            expect(wall(row[c.name])).toBe(text.slice(0, 23));
          } else {
            expect(text).toBe(day);
            expect(row[c.name]).toEqual(new Date(`${day}T00:00:00.000Z`));
          }
        }
      });
      // The zone is named in the header of each time column.
      const header = (book.getWorksheet(name)!.getRow(1).values as unknown[]).slice(1).map(String);
      for (const c of FILES[name].filter((x) => x.kind === 'time')) expect(header).toContain(`${c.name} (${TZ})`);
    }
    // Amounts stay number cells.
    for (const r of sheetRows('Tenders').values) expect(typeof r.amount).toBe('number');
  });

  it('one name per meaning: each name in docs/export.md once; a name two files share holds the same value', () => {
    // The list of names (docs/export.md, "One name, one meaning"): `name` | meaning.
    const text = readFileSync(join(import.meta.dirname, '../../docs/export.md'), 'utf8');
    const section = text.slice(text.indexOf('## One name, one meaning'));
    const listed = [...section.slice(0, section.indexOf('\n## ', 3)).matchAll(/^\| `([a-z_]+)` +\|/gm)].map(
      (m) => m[1],
    );
    const used = [...new Set(Object.values(FILES).flatMap((cols) => cols.map((c) => c.name)))].sort();
    expect([...listed].sort()).toEqual(used);
    expect(new Set(listed).size, 'a name listed twice').toBe(listed.length);
    // The kind of a name is the same wherever it is used (a time is a time in every file).
    for (const n of used) {
      const kinds = new Set(
        (Object.keys(FILES) as SheetName[]).filter((f) => FILES[f].some((c) => c.name === n)).map((f) => kindOf(f, n)),
      );
      expect(kinds.size, `${n}: ${[...kinds].join(', ')}`).toBe(1);
    }

    // `net` is before tax wherever it is written; what a line sells for after its discounts is `after_discounts`.
    const lines = sheetRows('Sale lines').values;
    for (const l of lines) {
      expect(l.net).toBeUndefined();
      expect(l.after_discounts).toBe(Number(l.gross) - Number(l.line_discount) - Number(l.sale_discount));
    }
    const refunds = sheetRows('Refunds').values;
    expect(refunds).toHaveLength(1);
    for (const r of refunds) expect(r.amount).toBe(Number(r.net) + Number(r.ppn) + Number(r.pbjt) + Number(r.service));
    // PPN is in the prices: the refunded line's net (before tax) is less than what it sold for after discounts.
    const teh = lines.find((l) => l.item_name === 'Teh')!;
    expect(Number(refunds[0]!.net)).toBeLessThan(Number(teh.after_discounts));

    // The same name, the same value: a sale's time and its staff on its lines and its tenders; the QRIS tender's
    // method label and staff on its order's row.
    const tenders = sheetRows('Tenders').values;
    const orders = sheetRows('Orders').values;
    for (const l of lines) {
      const t = tenders.find((x) => x.sale_id === l.sale_id)!;
      expect([wall(l.sale_time), l.staff_name]).toEqual([wall(t.sale_time), t.staff_name]);
    }
    const qris = tenders.find((t) => t.kind === 'gateway')!;
    const order = orders.find((o) => o.order_id === qris.order_id)!;
    expect(qris.method_label).toBe(order.method_label);
    expect(qris.method_label).toMatch(/^QRIS/);
    expect(qris.staff_name).toBe(order.staff_name);
    expect(qris.tender_state).toBe('paid');
    expect(order.state).toBe('paid');
  });
});
