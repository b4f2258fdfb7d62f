import type { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { AMOUNT_FORMAT, DAY_FORMAT, TIME_FORMAT } from './columns';
import { writeCsvRows, type CsvCell, type CsvOptions } from './csv-writer';
import type { ZoneClock } from './zone-time';

/**
 * What the takings, sale lines, refunds and tenders files share (docs/export.md): a table of named columns written as
 * CSV (the one CSV writer, csv-writer.ts) or as a streamed workbook's sheet (its header frozen). Each file keeps its own
 * columns and its own cells; how a kind of column is written is here, once, for both formats — as the orders' are:
 *
 * - `time`: an instant, given as stored (UTC ISO-8601). CSV: the store's time with its offset
 *   (`2026-11-23T08:15:02.123+07:00`); XLSX: a date cell of the store's wall time (`yyyy-mm-dd hh:mm:ss`), the
 *   header naming the zone.
 * - `day`: the store day an instant falls on (given as the instant). CSV: `2026-11-23`; XLSX: a date cell
 *   (`yyyy-mm-dd`).
 * - `amount`: whole rupiah, a number cell formatted `#,##0`; `number`: a count, a number cell.
 * - `flag`: given as 0 or 1. CSV: `true` / `false`; XLSX: a boolean cell.
 * - `text`: text as the file's cells give it (they guard it against formulas).
 */

export type TableColumnKind = 'text' | 'number' | 'amount' | 'time' | 'day' | 'flag';

export interface TableColumn {
  readonly name: string;
  readonly width: number;
  readonly kind: TableColumnKind;
}

/** A cell as a file gives it: text, a number, or (a time or day column) the stored UTC instant; null for none. */
export type TableCell = string | number | null;

type XlsxCell = string | number | boolean | Date | undefined;

/** The store day of a stored instant, as a date cell: midnight of that date (a spreadsheet has no zones). */
function dayCell(zone: ZoneClock, iso: string): Date | string {
  const day = zone.withOffset(iso).slice(0, 10);
  const ms = Date.parse(`${day}T00:00:00.000Z`);
  return Number.isNaN(ms) ? iso : new Date(ms);
}

function csvCells(columns: readonly TableColumn[], zone: ZoneClock): (cells: readonly TableCell[]) => CsvCell[] {
  const kinds = columns.map((c) => c.kind);
  return (cells) =>
    cells.map((v, i) => {
      if (kinds[i] === 'flag' && v !== null) return v === 1 ? 'true' : 'false';
      if (v === null || typeof v === 'number') return v;
      if (kinds[i] === 'time') return zone.withOffset(v);
      if (kinds[i] === 'day') return zone.withOffset(v).slice(0, 10);
      return v;
    });
}

function xlsxCells(columns: readonly TableColumn[], zone: ZoneClock): (cells: readonly TableCell[]) => XlsxCell[] {
  const kinds = columns.map((c) => c.kind);
  return (cells) =>
    cells.map((v, i) => {
      // exceljs makes no cell at all for undefined (a null would still get one, written as nothing).
      if (v === null) return undefined;
      if (kinds[i] === 'flag') return v === 1;
      if (typeof v === 'number') return v;
      if (kinds[i] === 'time') return zone.wallDate(v);
      if (kinds[i] === 'day') return dayCell(zone, v);
      return v;
    });
}

/** The rows as CSV into `out` (the one CSV writer, csv-writer.ts): how many, and how many bytes. */
export function writeTableCsv<R>(
  rows: Iterable<R>,
  columns: readonly TableColumn[],
  cells: (row: R) => TableCell[],
  zone: ZoneClock,
  options: CsvOptions,
  out: Writable,
): Promise<{ rows: number; bytes: number }> {
  const toCsv = csvCells(columns, zone);
  return writeCsvRows(
    rows,
    columns.map((c) => c.name),
    (row) => toCsv(cells(row)),
    options,
    out,
  );
}

/** The rows as a sheet of a streamed workbook; time columns are headed with the store's zone. How many rows. */
export function addTableSheet<R>(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  sheetName: string,
  columns: readonly TableColumn[],
  zone: ZoneClock,
  rows: Iterable<R>,
  cells: (row: R) => TableCell[],
): number {
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({
    // Excel has no time zones: the cells hold the store's wall time, and the header names the zone.
    header: c.kind === 'time' ? `${c.name} (${zone.timeZone})` : c.name,
    key: c.name,
    width: c.width,
    ...(c.kind === 'amount' ? { style: { numFmt: AMOUNT_FORMAT } } : {}),
    ...(c.kind === 'time' ? { style: { numFmt: TIME_FORMAT } } : {}),
    ...(c.kind === 'day' ? { style: { numFmt: DAY_FORMAT } } : {}),
  }));
  const toXlsx = xlsxCells(columns, zone);
  let count = 0;
  for (const r of rows) {
    sheet.addRow(toXlsx(cells(r))).commit();
    count++;
  }
  sheet.commit();
  return count;
}
