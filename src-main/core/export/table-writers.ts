import type { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { writeCsvRows, type CsvOptions } from './csv-writer';

/**
 * What the sale lines, refunds and tenders files share (docs/export.md): a table of named columns written as CSV
 * (RFC 4180, CRLF, read only as fast as the destination takes it) or as a streamed workbook's sheet (its header
 * frozen, amounts in the workbook's rupiah format, the times' columns naming the store's zone). Each file keeps its
 * own columns and its own cells; only the writing is here, once.
 */

export interface TableColumn {
  readonly name: string;
  readonly width: number;
  readonly kind: string;
}

export type TableCell = string | number | null;

/** The rows as CSV into `out` (the one CSV writer, csv-writer.ts): how many, and how many bytes. */
export function writeTableCsv<R>(
  rows: Iterable<R>,
  columns: readonly TableColumn[],
  cells: (row: R) => TableCell[],
  options: CsvOptions,
  out: Writable,
): Promise<{ rows: number; bytes: number }> {
  return writeCsvRows(
    rows,
    columns.map((c) => c.name),
    cells,
    options,
    out,
  );
}

/** The rows as a sheet of a streamed workbook; `timeColumns` are headed with the store's zone. How many rows. */
export function addTableSheet<R>(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  sheetName: string,
  columns: readonly TableColumn[],
  options: { timeColumns: readonly string[]; timeZone: string; amountFormat: string },
  rows: Iterable<R>,
  cells: (row: R) => TableCell[],
): number {
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({
    header: options.timeColumns.includes(c.name) ? `${c.name} (${options.timeZone})` : c.name,
    key: c.name,
    width: c.width,
    ...(c.kind === 'amount' ? { style: { numFmt: options.amountFormat } } : {}),
  }));
  let count = 0;
  for (const r of rows) {
    sheet.addRow(cells(r).map((v) => (v === null ? undefined : v))).commit();
    count++;
  }
  sheet.commit();
  return count;
}
