import type { Writable } from 'node:stream';
import type { Database } from 'better-sqlite3';
import type ExcelJS from 'exceljs';
import { neutralise } from './columns';
import { addTableSheet, writeTableCsv, type TableColumn, type TableCell } from './table-writers';
import type { ZoneClock } from './zone-time';

/**
 * The sale lines of the books (docs/export.md, "Sale lines"): one row per line of each completed sale created in the
 * export's days, oldest sale first, as `export --lines` (CSV) and the workbook's "Sale lines" sheet write them. Their
 * gross, discounts, net and total columns add up to the day report's sales figures to the rupiah (the report sums the
 * same stored figures: core/reports/sales-figures.ts). A voided sale, or one still being paid, has no rows. The sale's
 * time is a date cell in the workbook (table-writers.ts).
 */

export const SALE_LINES_SHEET = 'Sale lines';

export const SALE_LINE_COLUMNS = [
  { name: 'sale_id', width: 38, kind: 'text' },
  { name: 'sale_time', width: 20, kind: 'time' },
  { name: 'line_no', width: 8, kind: 'number' },
  { name: 'sku', width: 16, kind: 'text' },
  { name: 'barcode', width: 16, kind: 'text' },
  { name: 'item_name', width: 32, kind: 'text' },
  { name: 'category', width: 16, kind: 'text' },
  { name: 'tax_category', width: 12, kind: 'text' },
  { name: 'unit_price', width: 14, kind: 'amount' },
  { name: 'qty', width: 8, kind: 'number' },
  { name: 'gross', width: 14, kind: 'amount' },
  { name: 'line_discount', width: 14, kind: 'amount' },
  { name: 'sale_discount', width: 14, kind: 'amount' },
  // gross − line_discount − sale_discount, at shelf price: taxes included when prices include them (not `net`, which
  // is before tax wherever it is written: the refunds' and the report's).
  { name: 'after_discounts', width: 14, kind: 'amount' },
  { name: 'total', width: 14, kind: 'amount' },
  { name: 'staff_name', width: 16, kind: 'text' },
] as const satisfies readonly TableColumn[];

type Row = [
  string,
  string,
  number,
  string | null,
  string | null,
  string,
  string,
  string,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  string | null,
];

/** The rows of the sale lines of [from, to) (UTC), read as they are written (a statement's iterator). */
export function saleLineRows(db: Database, range: { from: Date; to: Date }, training: boolean): IterableIterator<Row> {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sale_lines'").get();
  if (exists === undefined) return [][Symbol.iterator]() as IterableIterator<Row>;
  return db
    .prepare<unknown[], Row>(
      `SELECT s.id, s.created_at, l.line_no, l.sku, l.barcode, l.name, l.category, l.tax_category, l.unit_price, l.qty,
         l.gross, l.line_discount, l.sale_discount, l.net, l.total, s.staff_name
       FROM sales s JOIN sale_lines l ON l.sale_id = s.id
       WHERE s.created_at >= ? AND s.created_at < ? AND s.training = ? AND s.state = 'completed'
       ORDER BY s.created_at, s.id, l.line_no`,
    )
    .raw()
    .iterate(range.from.toISOString(), range.to.toISOString(), training ? 1 : 0) as IterableIterator<Row>;
}

const texts = (r: Row) => [r[3], r[4], r[5], r[6], r[7], r[15]].map((v) => (v === null ? null : neutralise(v)));

function cells(r: Row): TableCell[] {
  const [sku, barcode, name, category, tax, staff] = texts(r);
  return [
    r[0],
    r[1],
    r[2],
    sku!,
    barcode!,
    name!,
    category!,
    tax!,
    r[8],
    r[9],
    r[10],
    r[11],
    r[12],
    r[13],
    r[14],
    staff!,
  ];
}

/** The sale lines as CSV (RFC 4180, CRLF) into `out`, read only as fast as `out` takes them. */
export function writeSaleLinesCsv(
  rows: Iterable<Row>,
  zone: ZoneClock,
  options: { delimiter: ',' | ';'; bom: boolean },
  out: Writable,
): Promise<{ rows: number; bytes: number }> {
  return writeTableCsv(rows, SALE_LINE_COLUMNS, cells, zone, options, out);
}

/** The "Sale lines" sheet of a streamed workbook (xlsx-export.ts), after the orders. */
export function addSaleLinesSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  rows: Iterable<Row>,
  zone: ZoneClock,
): number {
  return addTableSheet(workbook, SALE_LINES_SHEET, SALE_LINE_COLUMNS, zone, rows, cells);
}
