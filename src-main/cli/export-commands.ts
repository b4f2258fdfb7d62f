import { parseArgs } from 'node:util';
import { extname, resolve } from 'node:path';
import { formatBytes } from '../core/payments/disk-space';
import { exportBooks, ExportFileExistsError, writeFileAtomically } from '../core/export/export-file';
import { EXPORT_FORMATS, ExportOptionsError, exportRange, type ExportFormat } from '../core/export/order-export';
import { readBooks, type ReportCommandOptions } from './books';
import { defaultIo, type Io } from './cli-support';
import { EXIT, UsageError } from './exit-codes';

export const EXPORT_USAGE = `Export of the order log (docs/export.md):

  export --date YYYY-MM-DD [--to YYYY-MM-DD] [--format csv|xlsx] [--delimiter ,|;] [--bom]
         --out FILE [--force] [--json]
      the orders created in the store days --date to --to (the store's time zone), oldest first, from the
      same log as report (the live log; in training mode, the training log); it needs no keychain.
      --format: csv (the default, or xlsx when FILE ends in .xlsx): RFC 4180, UTF-8; --delimiter ';' for Excel
      in Indonesian, --bom so that Excel reads it as UTF-8. xlsx: a workbook, the days' summary first (the
      money taken by tender and by staff, the refunds, the sales and their tax, the shifts, then the orders),
      then the money taken (a "Takings" sheet), the orders, the sale lines ("Sale lines"), the refunds
      ("Refunds") and the sales' tenders ("Tenders").
      FILE is written as FILE.part and renamed once complete; an existing FILE is kept unless --force.
  export --date YYYY-MM-DD [--to YYYY-MM-DD] --takings --out FILE [--delimiter ,|;] [--bom] [--force] [--json]
      the money taken in those days as CSV, one row per paid tender of a completed sale (and per paid order
      without a sale): its sums are report's money taken, by tender and by staff (the app's CSV holds it).
  export --date YYYY-MM-DD [--to YYYY-MM-DD] --lines --out FILE [--delimiter ,|;] [--bom] [--force] [--json]
      the lines of the completed sales of those days as CSV: their totals add up to report's sales figures.
  export --date YYYY-MM-DD [--to YYYY-MM-DD] --refunds --out FILE [--delimiter ,|;] [--bom] [--force] [--json]
      the refunds made in those days as CSV, one a row: their sums are report's refund figures.
  export --date YYYY-MM-DD [--to YYYY-MM-DD] --tenders --out FILE [--delimiter ,|;] [--bom] [--force] [--json]
      the tenders of the sales of those days as CSV, one a row: those of completed sales sum to report's tenders.
  export --store --date YYYY-MM-DD [--to YYYY-MM-DD] [--format csv|xlsx] … --out FILE
      the same, of every terminal of the store, from the store book (docs/store-book.md): the union of the
      terminals' exports, row for row.

Exit codes: 0 ok, 2 invalid input, FILE exists or cannot be written, 6 the order log cannot be used.
`;

type Tables = Partial<Record<'takings' | 'lines' | 'refunds' | 'tenders', boolean | undefined>>;

/** What the rows of the file are: money taken, sale lines, refunds, tenders or orders. */
const rowsAre = (v: Tables) =>
  v.takings
    ? 'money taken row(s)'
    : v.lines
      ? 'sale line(s)'
      : v.refunds
        ? 'refund(s)'
        : v.tenders
          ? 'tender(s)'
          : 'order(s)';

/** Errors of the file system that mean "this --out cannot be written": the caller's to fix. */
const OUT_PROBLEMS = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS']);

export async function runExportCommand(
  argv: string[],
  options: ReportCommandOptions = {},
  io: Io = defaultIo,
): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      date: { type: 'string' },
      to: { type: 'string' },
      format: { type: 'string' },
      delimiter: { type: 'string' },
      bom: { type: 'boolean' },
      out: { type: 'string' },
      force: { type: 'boolean' },
      json: { type: 'boolean' },
      store: { type: 'boolean' },
      lines: { type: 'boolean' },
      refunds: { type: 'boolean' },
      tenders: { type: 'boolean' },
      takings: { type: 'boolean' },
    },
  });
  if (!values.date) throw new UsageError('--date: is required (the first store day, YYYY-MM-DD)');
  if (!values.out) throw new UsageError('--out: is required (the file to write)');
  const format = (values.format ?? (extname(values.out).toLowerCase() === '.xlsx' ? 'xlsx' : 'csv')) as ExportFormat;
  if (!EXPORT_FORMATS.includes(format))
    throw new UsageError(`--format: must be csv or xlsx (got ${JSON.stringify(values.format)})`);
  const delimiter = values.delimiter ?? ',';
  if (delimiter !== ',' && delimiter !== ';')
    throw new UsageError(`--delimiter: must be , or ; (got ${JSON.stringify(values.delimiter)})`);
  if (format === 'xlsx' && (values.delimiter !== undefined || values.bom))
    throw new UsageError('--delimiter and --bom: are for CSV only (an XLSX workbook has neither)');
  if (values.takings && format !== 'csv')
    throw new UsageError('--takings: a CSV of the money taken (an XLSX workbook has it on its "Takings" sheet)');
  if (values.takings && (values.store || values.lines || values.refunds || values.tenders))
    throw new UsageError(
      '--takings: of this terminal only, and not with --lines, --refunds or --tenders (one CSV, one kind of row)',
    );
  if (values.lines && format !== 'csv')
    throw new UsageError('--lines: a CSV of the sale lines (an XLSX workbook has them on its "Sale lines" sheet)');
  if (values.lines && values.store) throw new UsageError('--lines: of this terminal only (not with --store)');
  if (values.refunds && format !== 'csv')
    throw new UsageError('--refunds: a CSV of the refunds (an XLSX workbook has them on its "Refunds" sheet)');
  if (values.refunds && (values.store || values.lines))
    throw new UsageError('--refunds: of this terminal only, and not with --lines (one CSV, one kind of row)');
  if (values.tenders && format !== 'csv')
    throw new UsageError('--tenders: a CSV of the tenders (an XLSX workbook has them on its "Tenders" sheet)');
  if (values.tenders && (values.store || values.lines || values.refunds))
    throw new UsageError(
      '--tenders: of this terminal only, and not with --lines or --refunds (one CSV, one kind of row)',
    );
  const from = values.date;
  const to = values.to ?? from;
  const out = resolve(values.out);
  if (values.store)
    return (await import('./store-report-commands')).runStoreExport(
      { ...values, date: from, out, format, delimiter },
      options,
      io,
    );

  // The books only, as report reads them: no gateway, no keychain, and no start-up work on the order log (an
  // export while the app is charging must not touch its orders).
  return readBooks(options, async (books) => {
    const timeZone = books.settings.timeZone;
    try {
      exportRange(from, to, timeZone);
    } catch (err) {
      if (err instanceof ExportOptionsError) throw new UsageError(`--date/--to: ${err.message}`);
      throw err;
    }
    try {
      const result = await writeFileAtomically(
        out,
        (file) =>
          exportBooks(
            books.db.name,
            {
              from,
              to,
              timeZone,
              format,
              delimiter,
              bom: values.bom ?? false,
              methods: books.methods,
              lang: books.settings.lang,
              staffNames: books.staffNames,
              training: books.training,
              ...(values.lines ? { saleLines: true } : {}),
              ...(values.refunds ? { refunds: true } : {}),
              ...(values.tenders ? { tenders: true } : {}),
              ...(values.takings ? { takings: true } : {}),
            },
            file,
          ),
        { force: values.force ?? false },
      );
      const days = from === to ? from : `${from} to ${to}`;
      if (values.json)
        io.out(
          JSON.stringify({ path: out, format, from, to, timeZone, rows: result.rows, bytes: result.bytes }) + '\n',
        );
      else
        io.out(
          `${result.rows} ${rowsAre(values)} of ${days} (${timeZone}${books.training ? ', training log' : ''}) written to ` +
            `${out} (${format.toUpperCase()}, ${formatBytes(result.bytes ?? 0)})\n`,
        );
      return EXIT.OK;
    } catch (err) {
      if (err instanceof ExportFileExistsError) {
        io.err(`loket: ${err.message}\n`);
        return EXIT.INVALID_INPUT;
      }
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== undefined && OUT_PROBLEMS.has(code)) {
        io.err(`loket: cannot write ${out}: ${(err as Error).message}\n`);
        return EXIT.INVALID_INPUT;
      }
      throw err;
    }
  });
}
