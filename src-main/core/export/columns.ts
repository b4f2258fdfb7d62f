import { showHiddenCharacters } from '../../common/visible-text';

/**
 * The columns of an order export (docs/export.md), in their fixed order. The names are a contract: scripts
 * and spreadsheets read them, so a column is only ever added at the end, never renamed or moved.
 */

/**
 * How a column's values are written. `text` and `id`: strings (XLSX text cells, so "0012" keeps its zeros;
 * `id` only says it is an identifier); `time`: an instant (CSV: ISO-8601 with the store's offset; XLSX: a date
 * cell showing the store's wall time); `amount`: whole rupiah (CSV: digits; XLSX: a number cell); `flag`:
 * true/false (XLSX: a boolean cell).
 */
export type ColumnKind = 'text' | 'id' | 'time' | 'amount' | 'flag';

/** The workbook's formats: whole rupiah with thousands marks; a time on the store's clock; a store day. */
export const AMOUNT_FORMAT = '#,##0';
export const TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
export const DAY_FORMAT = 'yyyy-mm-dd';

export interface ExportColumn {
  readonly name: string;
  readonly kind: ColumnKind;
  /** Width in the XLSX, in characters. */
  readonly width: number;
}

export const EXPORT_COLUMNS = [
  { name: 'order_id', kind: 'id', width: 30 },
  { name: 'created_at', kind: 'time', width: 20 },
  { name: 'paid_at', kind: 'time', width: 20 },
  { name: 'last_change_at', kind: 'time', width: 20 },
  { name: 'item_name', kind: 'text', width: 26 },
  { name: 'item_id', kind: 'id', width: 14 },
  { name: 'amount', kind: 'amount', width: 14 },
  { name: 'method_id', kind: 'text', width: 18 },
  { name: 'method_label', kind: 'text', width: 22 },
  { name: 'state', kind: 'text', width: 17 },
  { name: 'late_payment', kind: 'flag', width: 12 },
  { name: 'gateway_transaction_id', kind: 'id', width: 24 },
  { name: 'va_number', kind: 'id', width: 20 },
  { name: 'retcode', kind: 'id', width: 9 },
  { name: 'message', kind: 'text', width: 30 },
  { name: 'staff_id', kind: 'id', width: 9 },
  { name: 'staff_name', kind: 'text', width: 16 },
  { name: 'last_change_source', kind: 'text', width: 18 },
  { name: 'last_change_by', kind: 'text', width: 16 },
  { name: 'last_change_reason', kind: 'text', width: 30 },
  { name: 'training', kind: 'flag', width: 9 },
  { name: 'changed_after_closing', kind: 'flag', width: 12 },
] as const satisfies readonly ExportColumn[];

export type ColumnName = (typeof EXPORT_COLUMNS)[number]['name'];

export const COLUMN_NAMES: readonly ColumnName[] = EXPORT_COLUMNS.map((c) => c.name);

/** = + - @ (ASCII and full-width), tab, CR, LF, and any blank (space, no-break space, the Unicode spaces). */
const FORMULA_START = /^[=+\-@\uff1d\uff0b\uff0d\uff20\t\r\n\s]/u;

/**
 * Spreadsheet formula injection (OWASP, "CSV Injection"): a text cell that starts with `=`, `+`, `-`, `@`, a
 * tab or a carriage return may be read as a formula by Excel, LibreOffice or Google Sheets. So may one that starts
 * with their full-width forms (`＝`, `＋`, `－`, `＠`, which some spreadsheets and input methods turn into the ASCII
 * ones) or with a space, a non-breaking space or another blank that an import may trim before it looks (` =1`).
 * Such a cell gets a leading `'`, which they show as text. Only text is touched: amounts are numbers and never
 * start so, and a number is never changed. The same rule holds in both formats, so a CSV and an XLSX of the same
 * day agree.
 *
 * Invisible and text-direction characters (a right-to-left override that makes a name read backwards) are written
 * as visible markers, `<U+202E>` (common/visible-text.ts): entry refuses them, but an older log or a gateway's
 * message may hold them.
 */
export function neutralise(text: string): string {
  const shown = showHiddenCharacters(text);
  return FORMULA_START.test(shown) ? `'${shown}` : shown;
}
