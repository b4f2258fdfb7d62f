import { PassThrough, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type ExcelJS from 'exceljs';
import type { Lang } from '../../common/app-info';
import { AMOUNT_FORMAT, EXPORT_COLUMNS, TIME_FORMAT } from './columns';
import type { ExportRow } from './order-query';
import type { RowCells } from './row-cells';
import { DrainWaiter, settled } from './streams';
import { addSummarySheet, type BooksSummary, type ClosingNow } from './summary-sheet';
import { addTakingsSheet, type TakingNames, type takingRows } from './takings-export';
import { addSaleLinesSheet, type saleLineRows } from './sale-lines-export';
import { addRefundsSheet, type refundRows } from './refunds-export';
import { addTendersSheet, type MethodLabels, type tenderRows } from './tenders-export';
import type { ZoneClock } from './zone-time';

export interface XlsxOptions {
  timeZone: string;
  lang: Lang;
  /** The books of the same days, for the summary sheet (first). */
  summary?: BooksSummary;
  closings?: readonly ClosingNow[];
  /** The money taken of the same days, for the "Takings" sheet (after the summary, before the orders). */
  takings?: { rows: ReturnType<typeof takingRows>; zone: ZoneClock; names: TakingNames };
  /** The sale lines of the same days, for the "Sale lines" sheet (after the orders). */
  saleLines?: { rows: ReturnType<typeof saleLineRows>; zone: ZoneClock };
  /** The refunds of the same days, for the "Refunds" sheet (after the sale lines). */
  refunds?: { rows: ReturnType<typeof refundRows>; zone: ZoneClock };
  /** The tenders of the same days' sales, for the "Tenders" sheet (after the refunds). */
  tenders?: { rows: ReturnType<typeof tenderRows>; zone: ZoneClock; labels: MethodLabels };
}

/** The orders sheet's name: the same in both languages, so scripts can find it. */
export const ORDERS_SHEET = 'Orders';

/** How often (in rows) the loop looks at exceljs's sheet buffer. */
const CHECK_EVERY = 32;

/**
 * A real workbook through exceljs's streaming writer: the sheet's XML is zipped and written as rows are added,
 * never held whole, and rows are read only as fast as `out` takes the zip. Inline strings (no shared-strings
 * table, which would keep every distinct string in memory), styles for the number and date formats. The summary
 * sheet first when figures are given (what the store took leads), the takings, then the orders and the sales' sheets.
 */
export async function writeXlsx(
  rows: Iterable<ExportRow>,
  cells: RowCells,
  options: XlsxOptions,
  out: Writable,
): Promise<{ rows: number; bytes: number }> {
  // Loaded on the first spreadsheet, not at every start: exceljs alone took about a third of the CLI's and browser
  // mode's start (docs/benchmarks.md, (f)).
  const { default: Excel } = await import('exceljs');
  // The zip goes through a counter on its way to `out`; `done` also fails when `out` does.
  const counter = new PassThrough();
  let bytes = 0;
  counter.on('data', (chunk: Buffer) => (bytes += chunk.length));
  const done = settled(pipeline(counter, out));
  const drain = new DrainWaiter(done);
  let count = 0;
  try {
    const workbook = new Excel.stream.xlsx.WorkbookWriter({
      stream: counter,
      useStyles: true,
      useSharedStrings: false,
    });
    workbook.creator = 'Loket';
    if (options.summary)
      addSummarySheet(workbook, options.summary, options.lang, options.closings ?? [], options.timeZone);
    if (options.takings) addTakingsSheet(workbook, options.takings.rows, options.takings.zone, options.takings.names);
    const sheet = workbook.addWorksheet(ORDERS_SHEET, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = EXPORT_COLUMNS.map((c) => ({
      // Excel has no time zones: the cells hold the store's wall time, and the header names the zone.
      header: c.kind === 'time' ? `${c.name} (${options.timeZone})` : c.name,
      key: c.name,
      width: c.width,
      ...(c.kind === 'amount' ? { style: { numFmt: AMOUNT_FORMAT } } : {}),
      ...(c.kind === 'time' ? { style: { numFmt: TIME_FORMAT } } : {}),
    }));
    const input = sheetInput(sheet);
    for (const row of rows) {
      sheet.addRow(cells.xlsx(row)).commit();
      count++;
      if (count % CHECK_EVERY === 0) {
        // Two places to wait: the zip's input (exceljs would pile up XML there), and the zip's way out (archiver
        // keeps compressing into its own buffer while `out` takes nothing, so a slow download would pile up there).
        if (input.needsDrain()) await drain.wait(input.stream);
        if (counter.writableNeedDrain) await drain.wait(counter);
      }
    }
    sheet.commit();
    if (options.saleLines) addSaleLinesSheet(workbook, options.saleLines.rows, options.saleLines.zone);
    if (options.refunds) addRefundsSheet(workbook, options.refunds.rows, options.refunds.zone);
    if (options.tenders) addTendersSheet(workbook, options.tenders.rows, options.tenders.zone, options.tenders.labels);
    await Promise.race([workbook.commit(), done]);
  } catch (err) {
    counter.destroy(err as Error);
    await done.catch(() => undefined);
    throw err;
  }
  await done;
  return { rows: count, bytes };
}

interface SheetInput {
  stream: PassThrough;
  needsDrain(): boolean;
}

/**
 * Where exceljs's sheet XML waits to be zipped. Its worksheet stream (a StreamBuf) hands every 64 KiB of XML to
 * archiver's input stream without looking at the answer of write(), so nothing stops a fast loop from piling up
 * the whole sheet there while zlib and the disk catch up (about 1.2 KB a row: 1.2 GB for a million orders). The
 * loop therefore waits on that input stream itself whenever it asks for a drain. This reads two internals
 * (`stream.pipes` of exceljs 4's WorksheetWriter, `_writableState` of readable-stream); test/node/export.test.ts
 * fails if a new exceljs lacks them, rather than letting the memory bound go quietly.
 */
export function sheetInput(sheet: ExcelJS.Worksheet): SheetInput {
  const pipes = (sheet as unknown as { stream?: { pipes?: unknown[] } }).stream?.pipes;
  const stream = pipes?.[0] as (PassThrough & { _writableState?: { needDrain?: boolean } }) | undefined;
  if (!stream || typeof stream.once !== 'function' || typeof stream._writableState?.needDrain !== 'boolean')
    throw new Error('exceljs: the worksheet stream is not what this export knows (see sheetInput in xlsx-export.ts)');
  return { stream, needsDrain: () => stream._writableState?.needDrain === true };
}
