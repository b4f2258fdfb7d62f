import type { Writable } from 'node:stream';
import type { Database } from 'better-sqlite3';
import type { Lang } from '../../common/app-info';
import { dayRange } from '../../common/gateway-time';
import type { PaymentMethod } from '../../common/payment-methods';
import type { BooksSummary, ClosingNow } from './summary-sheet';
import type { StaffNames } from '../reports/day-report';
import { COLUMN_NAMES } from './columns';
import { writeCsvRows } from './csv-writer';
import { prepareExportQuery } from './order-query';
import { RowCells, type ClosedDay } from './row-cells';
import { writeXlsx } from './xlsx-export';
import { saleLineRows, writeSaleLinesCsv } from './sale-lines-export';
import { refundRows, writeRefundsCsv } from './refunds-export';
import { tenderRows, writeTendersCsv } from './tenders-export';
import { takingRows, writeTakingsCsv } from './takings-export';
import { ZoneClock } from './zone-time';

export type ExportFormat = 'csv' | 'xlsx';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'xlsx'];

export interface ExportOptions {
  /** The first and last store day, YYYY-MM-DD, inclusive (one day: from = to). */
  from: string;
  to: string;
  /** The store's zone: what a day is, and how times are shown. */
  timeZone: string;
  format: ExportFormat;
  /** CSV only: `,` (the default) or `;` (Excel set to Indonesian, where `,` is the decimal mark). */
  delimiter?: ',' | ';';
  /** CSV only: start with a UTF-8 byte-order mark, so Excel reads the file as UTF-8. */
  bom?: boolean;
  /** The payment methods in effect, for the method labels. */
  methods: readonly PaymentMethod[];
  /** XLSX only: the books of the same days (the reports module's figures), for the summary sheet, first. */
  summary?: BooksSummary;
  /** The language of the method labels and the summary sheet; default `en`. */
  lang?: Lang;
  /**
   * The store's staff, former members too, to name who sold each order: the training log keeps none of them (its
   * orders point at stand-ins). Absent: the names the log itself holds.
   */
  staffNames?: StaffNames;
  /** The closed days among those exported: their orders changed since are marked (`changed_after_closing`). */
  closedDays?: readonly ClosedDay[];
  /** XLSX only: each closed day's figures at closing and now, for the summary sheet to set side by side. */
  closings?: readonly ClosingNow[];
  /**
   * CSV: the money taken instead of the orders (`export --takings`, the manager's CSV); XLSX: the "Takings" sheet
   * after the summary (takings-export.ts).
   */
  takings?: boolean;
  /**
   * CSV: the sale lines instead of the orders (`export --lines`); XLSX: the "Sale lines" sheet beside the orders
   * (sale-lines-export.ts). Of the training log's sales when `training`.
   */
  saleLines?: boolean;
  /** CSV: the refunds instead of the orders (`export --refunds`); XLSX: the "Refunds" sheet (refunds-export.ts). */
  refunds?: boolean;
  /** CSV: the sales' tenders instead of the orders (`export --tenders`); XLSX: the "Tenders" sheet (tenders-export.ts). */
  tenders?: boolean;
  training?: boolean;
}

export interface ExportResult {
  rows: number;
  /** Bytes written to `out`. */
  bytes?: number;
}

/** The options ask for something that cannot be exported: no real range of days, an unknown format. */
export class ExportOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportOptionsError';
  }
}

/** The UTC instants [from, to) of the store days `from`…`to`, inclusive. */
export function exportRange(from: string, to: string, timeZone: string): { from: Date; to: Date } {
  const first = dayRange(from, timeZone);
  if (!first) throw new ExportOptionsError(`the first day must be a date YYYY-MM-DD (got ${JSON.stringify(from)})`);
  const last = dayRange(to, timeZone);
  if (!last) throw new ExportOptionsError(`the last day must be a date YYYY-MM-DD (got ${JSON.stringify(to)})`);
  if (last.to <= first.from) throw new ExportOptionsError(`the last day (${to}) is before the first (${from})`);
  return { from: first.from, to: last.to };
}

/**
 * Writes the orders created in the store days [from, to] to `out` as CSV or XLSX (docs/export.md), oldest
 * first, and ends `out`; resolves once `out` has finished, with the number of orders written.
 *
 * One streaming query (better-sqlite3's iterate()): rows are read only as fast as `out` takes them, so a year of
 * orders is exported in bounded memory. The iterator keeps `db` busy until the export ends — a connection
 * used for anything else meanwhile (the till's order log) would refuse its statements — so give it a connection
 * of its own, read-only (openExportConnection), which also reads one consistent snapshot of the log.
 *
 * If the export fails (the disk is full, `out` is closed), `out` is destroyed and the promise rejects; what was
 * written is incomplete, and the caller removes it (exportToFile writes to FILE.part and renames at the end).
 */
export async function exportOrders(db: Database, options: ExportOptions, out: Writable): Promise<ExportResult> {
  if (!EXPORT_FORMATS.includes(options.format))
    throw new ExportOptionsError(`the format must be csv or xlsx (got ${JSON.stringify(options.format)})`);
  const range = exportRange(options.from, options.to, options.timeZone);
  const zone = new ZoneClock(options.timeZone);
  const lang = options.lang ?? 'en';
  const cells = new RowCells(options.methods, lang, zone, options.staffNames, options.closedDays);
  // The gateway methods' names in the export's language, for the tenders' method column.
  const labels = new Map(options.methods.map((m) => [m.id, m.label[lang]]));
  const names = { labels, ...(options.staffNames ? { staffNames: options.staffNames } : {}) };
  if (options.takings && options.format === 'csv') {
    const takings = takingRows(db, range, options.training ?? false);
    try {
      return await writeTakingsCsv(
        takings,
        zone,
        names,
        { delimiter: options.delimiter ?? ',', bom: options.bom ?? false },
        out,
      );
    } finally {
      takings.return?.();
    }
  }
  if (options.tenders && options.format === 'csv') {
    const tenders = tenderRows(db, range, options.training ?? false);
    try {
      return await writeTendersCsv(
        tenders,
        zone,
        labels,
        { delimiter: options.delimiter ?? ',', bom: options.bom ?? false },
        out,
      );
    } finally {
      tenders.return?.();
    }
  }
  if (options.refunds && options.format === 'csv') {
    const refunds = refundRows(db, range, options.training ?? false);
    try {
      return await writeRefundsCsv(
        refunds,
        zone,
        { delimiter: options.delimiter ?? ',', bom: options.bom ?? false },
        out,
      );
    } finally {
      refunds.return?.();
    }
  }
  if (options.saleLines && options.format === 'csv') {
    const lines = saleLineRows(db, range, options.training ?? false);
    try {
      return await writeSaleLinesCsv(
        lines,
        zone,
        { delimiter: options.delimiter ?? ',', bom: options.bom ?? false },
        out,
      );
    } finally {
      lines.return?.();
    }
  }
  const rows = prepareExportQuery(db).iterate(range.from.toISOString(), range.to.toISOString());
  const saleLines = options.saleLines ? saleLineRows(db, range, options.training ?? false) : undefined;
  const refunds = options.refunds ? refundRows(db, range, options.training ?? false) : undefined;
  const tenders = options.tenders ? tenderRows(db, range, options.training ?? false) : undefined;
  const takings = options.takings ? takingRows(db, range, options.training ?? false) : undefined;
  try {
    return options.format === 'csv'
      ? await writeCsvRows(
          rows,
          COLUMN_NAMES,
          (row) => cells.csv(row),
          { delimiter: options.delimiter ?? ',', bom: options.bom ?? false },
          out,
        )
      : await writeXlsx(
          rows,
          cells,
          {
            timeZone: options.timeZone,
            lang,
            ...(options.summary ? { summary: options.summary } : {}),
            ...(options.closings ? { closings: options.closings } : {}),
            ...(saleLines ? { saleLines: { rows: saleLines, zone } } : {}),
            ...(refunds ? { refunds: { rows: refunds, zone } } : {}),
            ...(tenders ? { tenders: { rows: tenders, zone, labels } } : {}),
            ...(takings ? { takings: { rows: takings, zone, names } } : {}),
          },
          out,
        );
  } finally {
    // Frees the connection whatever happened (a no-op when every row was read).
    rows.return?.();
    saleLines?.return?.();
    refunds?.return?.();
    tenders?.return?.();
    takings?.return?.();
  }
}
