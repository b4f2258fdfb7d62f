import type { Writable } from 'node:stream';
import type { Database } from 'better-sqlite3';
import type ExcelJS from 'exceljs';
import { neutralise } from './columns';
import { addTableSheet, writeTableCsv, type TableColumn, type TableCell } from './table-writers';
import type { ZoneClock } from './zone-time';

/**
 * The refunds of the books (docs/export.md, "Refunds"): one row per refund made in the export's days, oldest first,
 * as `export --refunds` (CSV) and the workbook's "Refunds" sheet write them. Their amount, paid_back and tax columns
 * add up to the day report's refund figures to the rupiah (the report sums the same stored figures:
 * core/reports/refund-figures.ts). `lines` names the sale's lines given back, `LINE×QTY` separated by spaces.
 */

export const REFUNDS_SHEET = 'Refunds';

export const REFUND_COLUMNS = [
  { name: 'refund_id', width: 38, kind: 'text' },
  { name: 'refund_time', width: 20, kind: 'time' },
  { name: 'sale_id', width: 38, kind: 'text' },
  { name: 'how', width: 10, kind: 'text' },
  { name: 'method_id', width: 16, kind: 'text' },
  { name: 'shift_id', width: 14, kind: 'text' },
  { name: 'lines', width: 16, kind: 'text' },
  { name: 'amount', width: 14, kind: 'amount' },
  { name: 'rounding', width: 10, kind: 'amount' },
  { name: 'money', width: 14, kind: 'amount' },
  { name: 'cash_rounding', width: 10, kind: 'amount' },
  { name: 'paid_back', width: 14, kind: 'amount' },
  // Before tax (amount = net + ppn + pbjt + service), as the report's net.
  { name: 'net', width: 14, kind: 'amount' },
  { name: 'dpp', width: 14, kind: 'amount' },
  { name: 'ppn', width: 14, kind: 'amount' },
  { name: 'pbjt', width: 14, kind: 'amount' },
  { name: 'service', width: 14, kind: 'amount' },
  { name: 'reason', width: 32, kind: 'text' },
  { name: 'approved_by', width: 16, kind: 'text' },
  { name: 'staff_name', width: 16, kind: 'text' },
] as const satisfies readonly TableColumn[];

type Row = [
  string,
  string,
  string,
  string,
  string | null,
  string | null,
  string,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  string,
  string,
  string | null,
];

/** The refunds of [from, to) (UTC), read as they are written (a statement's iterator). */
export function refundRows(db: Database, range: { from: Date; to: Date }, training: boolean): IterableIterator<Row> {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'refunds'").get();
  if (exists === undefined) return [][Symbol.iterator]() as IterableIterator<Row>;
  return db
    .prepare<unknown[], Row>(
      `SELECT r.id, r.created_at, r.sale_id, r.how, r.method_id, r.shift_id,
         (SELECT group_concat(l.sale_line_no || '×' || l.qty, ' ') FROM
            (SELECT sale_line_no, qty FROM refund_lines WHERE refund_id = r.id ORDER BY line_no) l),
         r.amount, r.rounding, r.money, r.cash_rounding, r.paid_back, r.net, r.dpp, r.ppn, r.pbjt, r.service, r.reason,
         r.approved_by, r.staff_name
       FROM refunds r WHERE r.created_at >= ? AND r.created_at < ? AND r.training = ?
       ORDER BY r.created_at, r.rowid`,
    )
    .raw()
    .iterate(range.from.toISOString(), range.to.toISOString(), training ? 1 : 0) as IterableIterator<Row>;
}

function cells(r: Row): TableCell[] {
  const text = (v: string | null) => (v === null ? null : neutralise(v));
  return [
    r[0],
    r[1],
    r[2],
    r[3],
    text(r[4]),
    text(r[5]),
    r[6],
    ...r.slice(7, 17),
    text(r[17]),
    text(r[18]),
    text(r[19]),
  ] as TableCell[];
}

/** The refunds as CSV (RFC 4180, CRLF) into `out`, read only as fast as `out` takes them. */
export function writeRefundsCsv(
  rows: Iterable<Row>,
  zone: ZoneClock,
  options: { delimiter: ',' | ';'; bom: boolean },
  out: Writable,
): Promise<{ rows: number; bytes: number }> {
  return writeTableCsv(rows, REFUND_COLUMNS, cells, zone, options, out);
}

/** The "Refunds" sheet of a streamed workbook (xlsx-export.ts), after the sale lines. */
export function addRefundsSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  rows: Iterable<Row>,
  zone: ZoneClock,
): number {
  return addTableSheet(workbook, REFUNDS_SHEET, REFUND_COLUMNS, zone, rows, cells);
}
