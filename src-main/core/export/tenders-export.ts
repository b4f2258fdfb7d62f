import type { Writable } from 'node:stream';
import type { Database } from 'better-sqlite3';
import type ExcelJS from 'exceljs';
import { neutralise } from './columns';
import { addTableSheet, writeTableCsv, type TableColumn, type TableCell } from './table-writers';
import type { ZoneClock } from './zone-time';

/**
 * The tenders of the books (docs/export.md, "Tenders"): one row per tender of every sale created in the export's days,
 * oldest sale first and its tenders in their order, as `export --tenders` (CSV) and the workbook's "Tenders" sheet
 * write them. Every sale is there, whatever its state (a voided sale's pending QRIS tender too), so the file shows
 * what happened at the counter; the rows whose sale_state is `completed` are the ones the day report counts, and
 * their amount, cash_handed and change columns add up to the report's tender figures (by kind, by gateway method) to
 * the rupiah: the report sums the same stored figures (core/reports/sales-figures.ts). The rounding column is the
 * sale's cash rounding line, on the cash tender that carries it; its sum over completed sales is the report's rounding.
 */

export const TENDERS_SHEET = 'Tenders';

export const TENDER_COLUMNS = [
  { name: 'sale_id', width: 38, kind: 'text' },
  { name: 'terminal_id', width: 10, kind: 'text' },
  { name: 'business_day', width: 12, kind: 'day' },
  { name: 'sale_time', width: 20, kind: 'time' },
  { name: 'tender_time', width: 20, kind: 'time' },
  { name: 'tender_no', width: 8, kind: 'number' },
  { name: 'kind', width: 9, kind: 'text' },
  { name: 'method_id', width: 16, kind: 'text' },
  { name: 'method_label', width: 20, kind: 'text' },
  { name: 'order_id', width: 38, kind: 'text' },
  { name: 'amount', width: 14, kind: 'amount' },
  { name: 'cash_handed', width: 14, kind: 'amount' },
  { name: 'change', width: 12, kind: 'amount' },
  { name: 'rounding', width: 10, kind: 'amount' },
  { name: 'reference', width: 24, kind: 'text' },
  { name: 'tender_state', width: 12, kind: 'text' },
  { name: 'sale_state', width: 11, kind: 'text' },
  { name: 'staff_name', width: 16, kind: 'text' },
] as const satisfies readonly TableColumn[];

/** A tender as the query reads it: the columns above less business_day and method_label (derived in cells()). */
type Row = [
  string, // sale_id
  string, // terminal_id
  string, // sale created_at (UTC)
  string, // tender updated_at (UTC)
  number, // tender_no
  string, // kind
  string | null, // method_id
  string | null, // order_id
  number, // amount
  number, // handed
  number, // change
  number, // rounding
  string | null, // reference
  string, // state
  string, // sale state
  string | null, // staff
];

/** The tenders of the sales created in [from, to) (UTC), read as they are written (a statement's iterator). */
export function tenderRows(db: Database, range: { from: Date; to: Date }, training: boolean): IterableIterator<Row> {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sale_tenders'").get();
  if (exists === undefined) return [][Symbol.iterator]() as IterableIterator<Row>;
  return db
    .prepare<unknown[], Row>(
      `SELECT s.id, s.terminal_id, s.created_at, t.updated_at, t.tender_no, t.kind, t.method_id, t.order_id, t.amount,
         t.handed, t.change, t.rounding, t.reference, t.state, s.state, s.staff_name
       FROM sales s JOIN sale_tenders t ON t.sale_id = s.id
       WHERE s.created_at >= ? AND s.created_at < ? AND s.training = ?
       ORDER BY s.created_at, s.id, t.tender_no`,
    )
    .raw()
    .iterate(range.from.toISOString(), range.to.toISOString(), training ? 1 : 0) as IterableIterator<Row>;
}

/** The gateway methods' names in the export's language, by id. */
export type MethodLabels = ReadonlyMap<string, string>;

function cells(r: Row, labels: MethodLabels): TableCell[] {
  const text = (v: string | null) => (v === null ? null : neutralise(v));
  return [
    r[0],
    text(r[1]),
    // The store day the sale belongs to (the report's day): the date of its time in the store's zone.
    r[2],
    r[2],
    r[3],
    r[4],
    r[5],
    text(r[6]),
    r[6] === null ? null : text(labels.get(r[6]) ?? null),
    text(r[7]),
    r[8],
    r[9],
    r[10],
    r[11],
    text(r[12]),
    r[13],
    r[14],
    text(r[15]),
  ];
}

/** The tenders as CSV (RFC 4180, CRLF) into `out`, read only as fast as `out` takes them. */
export function writeTendersCsv(
  rows: Iterable<Row>,
  zone: ZoneClock,
  labels: MethodLabels,
  options: { delimiter: ',' | ';'; bom: boolean },
  out: Writable,
): Promise<{ rows: number; bytes: number }> {
  return writeTableCsv(rows, TENDER_COLUMNS, (row) => cells(row, labels), zone, options, out);
}

/** The "Tenders" sheet of a streamed workbook (xlsx-export.ts), after the refunds. */
export function addTendersSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  rows: Iterable<Row>,
  zone: ZoneClock,
  labels: MethodLabels,
): number {
  return addTableSheet(workbook, TENDERS_SHEET, TENDER_COLUMNS, zone, rows, (r) => cells(r, labels));
}
