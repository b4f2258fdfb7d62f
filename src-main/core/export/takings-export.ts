import type { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { takingRows, type TakingRow } from '../reports/takings';
import type { StaffNames } from '../reports/staff-names';
import { neutralise } from './columns';
import { addTableSheet, writeTableCsv, type TableCell, type TableColumn } from './table-writers';
import type { ZoneClock } from './zone-time';

/**
 * The money taken, row by row (docs/export.md, "Takings"): one row per paid tender of each completed sale created in
 * the export's days, and one per paid gateway order of those days without a sale (`without_sale`: made before every
 * charge was a sale), oldest first — what the manager's CSV, `export --takings` and the workbook's Takings sheet hold.
 * The rows are core/reports/takings.ts's own (the one definition of money taken), so their `amount` adds up to the day
 * report's money taken, by `kind` and `method_id` to its tenders, by `staff_id` to its staff lines, to the rupiah. The
 * gateway orders are their detail: a gateway row names its order (the Orders sheet's row).
 */

export const TAKINGS_SHEET = 'Takings';

export const TAKINGS_COLUMNS = [
  { name: 'business_day', width: 12, kind: 'day' },
  { name: 'sale_time', width: 20, kind: 'time' },
  { name: 'sale_id', width: 38, kind: 'text' },
  { name: 'order_id', width: 30, kind: 'text' },
  { name: 'terminal_id', width: 10, kind: 'text' },
  { name: 'tender_no', width: 8, kind: 'number' },
  { name: 'kind', width: 9, kind: 'text' },
  { name: 'method_id', width: 16, kind: 'text' },
  { name: 'method_label', width: 22, kind: 'text' },
  { name: 'amount', width: 14, kind: 'amount' },
  { name: 'staff_id', width: 9, kind: 'text' },
  { name: 'staff_name', width: 16, kind: 'text' },
  { name: 'without_sale', width: 12, kind: 'flag' },
] as const satisfies readonly TableColumn[];

export { takingRows };

/** What the cells are named with: the methods' names in the export's language, and the store's staff. */
export interface TakingNames {
  labels: ReadonlyMap<string, string>;
  staffNames?: StaffNames;
}

function cellsOf(names: TakingNames): (r: TakingRow) => TableCell[] {
  const staff = names.staffNames && new Map(names.staffNames.map((s) => [s.id, s.name]));
  const text = (v: string | null | undefined) => (v === null || v === undefined ? null : neutralise(v));
  return (r) => {
    const [withoutSale, saleId, orderId, at, tenderNo, kind, methodId, amount, staffId, staffName, terminalId] = r;
    return [
      // The store day and the time of the sale (for an old order without a sale: the order's).
      at,
      at,
      saleId,
      text(orderId),
      text(terminalId),
      tenderNo,
      kind,
      text(methodId),
      methodId === null ? null : text(names.labels.get(methodId)),
      amount,
      staffId === null ? null : String(staffId),
      text((staffId === null ? undefined : staff?.get(staffId)) ?? staffName),
      withoutSale,
    ];
  };
}

/** The takings as CSV (the one CSV writer) into `out`, read only as fast as `out` takes them. */
export function writeTakingsCsv(
  rows: Iterable<TakingRow>,
  zone: ZoneClock,
  names: TakingNames,
  options: { delimiter: ',' | ';'; bom: boolean },
  out: Writable,
): Promise<{ rows: number; bytes: number }> {
  return writeTableCsv(rows, TAKINGS_COLUMNS, cellsOf(names), zone, options, out);
}

/** The "Takings" sheet of a streamed workbook (xlsx-export.ts), after the summary. */
export function addTakingsSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  rows: Iterable<TakingRow>,
  zone: ZoneClock,
  names: TakingNames,
): number {
  return addTableSheet(workbook, TAKINGS_SHEET, TAKINGS_COLUMNS, zone, rows, cellsOf(names));
}
