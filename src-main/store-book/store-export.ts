import type { Writable } from 'node:stream';
import type { Lang } from '../common/app-info';
import { codeKindsSql } from '../common/payment-kinds';
import type { PaymentMethod } from '../common/payment-methods';
import type { ReportFigures } from '../common/reports';
import { COLUMN_NAMES } from '../core/export/columns';
import { writeCsvRows } from '../core/export/csv-writer';
import {
  EXPORT_FORMATS,
  exportRange,
  ExportOptionsError,
  type ExportFormat,
  type ExportResult,
} from '../core/export/order-export';
import type { ExportRow } from '../core/export/order-query';
import { RowCells } from '../core/export/row-cells';
import { writeXlsx } from '../core/export/xlsx-export';
import { ZoneClock } from '../core/export/zone-time';
import type { PgClient } from './pg-connect';

/**
 * The store's export (docs/store-book.md, docs/export.md): every terminal's orders created in the store days, from
 * the store book's projection, in the columns and formats of a terminal's own export (core/export/: the same cells,
 * the same CSV and XLSX writers), oldest first — so the store's file is the union of the terminals' files, row for
 * row. The rows of the days are read in one query and held while the file is written (a store's month is tens of
 * thousands of rows); the XLSX's summary sheet holds the store's figures.
 */

export interface StoreExportOptions {
  from: string;
  to: string;
  timeZone: string;
  format: ExportFormat;
  delimiter?: ',' | ';';
  bom?: boolean;
  methods: readonly PaymentMethod[];
  lang?: Lang;
  summary?: ReportFigures;
}

/** EXPORT_SQL's columns (core/export/order-query.ts), from loket.orders: times as the terminals wrote them. */
const STORE_EXPORT_SQL = `SELECT order_id, snapshot->>'created_at' AS created_at, snapshot->>'paid_at' AS paid_at,
    to_char(last_change_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_change_at,
    item_name, item_id, amount, method_id, state, late_payment, gateway_transaction_id,
    CASE WHEN kind IN (${codeKindsSql()}) THEN instruction->>'va' END AS va,
    rejection_retcode, rejection_message, staff_id, staff_name, last_change_source, last_change_by,
    last_change_reason, training
  FROM loket.orders
  WHERE store_code = loket.store_code() AND created_at >= $1 AND created_at < $2
  ORDER BY snapshot->>'created_at' COLLATE "C", order_id COLLATE "C"`;

interface Row {
  order_id: string;
  created_at: string;
  paid_at: string | null;
  last_change_at: string | null;
  item_name: string;
  item_id: string | null;
  amount: string;
  method_id: string;
  state: string;
  late_payment: boolean;
  gateway_transaction_id: string | null;
  va: string | null;
  rejection_retcode: string | null;
  rejection_message: string | null;
  staff_id: string | null;
  staff_name: string | null;
  last_change_source: string | null;
  last_change_by: string | null;
  last_change_reason: string | null;
  training: boolean;
}

export async function storeExportRows(
  client: PgClient,
  from: string,
  to: string,
  timeZone: string,
): Promise<ExportRow[]> {
  const range = exportRange(from, to, timeZone);
  const rows = (await client.query<Row>(STORE_EXPORT_SQL, [range.from.toISOString(), range.to.toISOString()])).rows;
  return rows.map((r) => [
    r.order_id,
    r.created_at,
    r.paid_at,
    r.last_change_at,
    r.item_name,
    r.item_id,
    Number(r.amount),
    r.method_id,
    r.state,
    r.late_payment ? 1 : 0,
    r.gateway_transaction_id,
    r.va,
    r.rejection_retcode,
    r.rejection_message,
    r.staff_id === null ? null : Number(r.staff_id),
    r.staff_name,
    r.last_change_source,
    r.last_change_by,
    r.last_change_reason,
    r.training ? 1 : 0,
    // Closing a day is each terminal's own record and is not replicated: the store's export marks nothing as
    // changed after closing (docs/store-book.md says so).
    0,
  ]);
}

/** Writes the store's export of the days to `out` (and ends it). */
export async function exportStore(client: PgClient, options: StoreExportOptions, out: Writable): Promise<ExportResult> {
  if (!EXPORT_FORMATS.includes(options.format))
    throw new ExportOptionsError(`the format must be csv or xlsx (got ${JSON.stringify(options.format)})`);
  const rows = await storeExportRows(client, options.from, options.to, options.timeZone);
  const lang = options.lang ?? 'en';
  const cells = new RowCells(options.methods, lang, new ZoneClock(options.timeZone));
  return options.format === 'csv'
    ? writeCsvRows(
        rows,
        COLUMN_NAMES,
        (row) => cells.csv(row),
        { delimiter: options.delimiter ?? ',', bom: options.bom ?? false },
        out,
      )
    : writeXlsx(
        rows,
        cells,
        // The store book holds the terminals' orders: its summary is their figures alone.
        { timeZone: options.timeZone, lang, ...(options.summary ? { summary: { figures: options.summary } } : {}) },
        out,
      );
}
