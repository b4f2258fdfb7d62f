// `report --store` and `export --store` (docs/cli.md, docs/store-book.md): the store's figures and orders from the
// store book, all terminals, read with this terminal's own role (its SELECT on the store's views).
import { resolve } from 'node:path';
import type { Lang } from '../common/app-info';
import { dayIn, formatGatewayDate } from '../common/gateway-time';
import { formatRupiah } from '../common/money';
import { ExportFileExistsError, writeFileAtomically } from '../core/export/export-file';
import { EXPORT_FORMATS, exportRange, ExportOptionsError, type ExportFormat } from '../core/export/order-export';
import { formatBytes } from '../core/payments/disk-space';
import { systemClock } from '../core/ports';
import { NotEnrolledError, storeConnection, STORE_URL_VARIABLE, type StoreSecrets } from '../store-book/credentials';
import { StoreUrlError } from '../store-book/pg-url';
import { LocalBook } from '../store-book/local-book';
import { closeQuietly, connectStore, describePgError, type PgClient } from '../store-book/pg-connect';
import { exportStore } from '../store-book/store-export';
import { storeDayReport, type StoreDayReport } from '../store-book/store-report';
import { KeychainStoreSecrets } from '../adapters/store-book-keychain';
import { readBooks, type Books, type ReportCommandOptions } from './books';
import type { Io } from './cli-support';
import { EXIT, UsageError } from './exit-codes';

export type StoreReportOptions = ReportCommandOptions & { storeSecrets?: StoreSecrets };

/** The store book with this terminal's own connection, beside the till's books (its settings and catalogue). */
async function withStoreBook<T>(
  options: StoreReportOptions,
  io: Io,
  fn: (books: Books, client: PgClient) => Promise<T>,
): Promise<T | number> {
  const env = options.env ?? process.env;
  return readBooks(options, async (books) => {
    const local = LocalBook.open(books.store.dataDir);
    let client: PgClient | undefined;
    try {
      const secrets = env[STORE_URL_VARIABLE] ? undefined : (options.storeSecrets ?? new KeychainStoreSecrets());
      let connection;
      try {
        connection = await storeConnection(env, local.link(), secrets);
      } catch (err) {
        if (err instanceof NotEnrolledError || err instanceof StoreUrlError)
          throw new UsageError(`--store: ${err.message}`);
        throw err;
      }
      try {
        client = await connectStore(connection.url);
      } catch (err) {
        io.err(`loket: the store book cannot be reached: ${describePgError(err)}\n`);
        return EXIT.NOT_SENT_OR_UNKNOWN;
      }
      return await fn(books, client);
    } finally {
      await closeQuietly(client);
      local.close();
    }
  });
}

export async function runStoreReport(
  values: { date?: string; json?: boolean; lang?: string },
  options: StoreReportOptions,
  io: Io,
): Promise<number> {
  if (values.lang !== undefined && values.lang !== 'id' && values.lang !== 'en')
    throw new UsageError(`--lang: id or en (got ${JSON.stringify(values.lang)})`);
  const result = await withStoreBook(options, io, async (books, client) => {
    const lang = (values.lang as Lang | undefined) ?? books.settings.lang;
    const day = values.date ?? dayIn((options.clock ?? systemClock).now(), books.settings.timeZone);
    const report = await storeDayReport(client, day, { methods: books.methods, lang });
    if (values.json) io.out(JSON.stringify(storeReportJson(report), null, 2) + '\n');
    else io.out(storeReportLines(report).join('\n') + '\n');
    return EXIT.OK;
  });
  return result;
}

/** The JSON of `report --store --json` (docs/cli.md): the store's figures at the top, then each terminal's. */
export function storeReportJson(r: StoreDayReport): Record<string, unknown> {
  return {
    date: r.date,
    timeZone: r.timeZone,
    store: r.store,
    complete: r.complete,
    notes: r.notes,
    paid: r.figures.paid,
    orders: r.figures.orders,
    byMethod: r.figures.byMethod,
    byState: r.figures.byState,
    byStaff: r.figures.byStaff,
    terminals: r.terminals.map((t) => ({ terminalId: t.terminalId, ...t.figures, backlog: t.backlog })),
    asOf: r.asOf,
  };
}

const pad = (text: string, n: number) => (text.length >= n ? `${text} ` : text.padEnd(n));
const money = (n: number) => formatRupiah(n).padStart(16);

function storeReportLines(r: StoreDayReport): string[] {
  const f = r.figures;
  const time = (iso: string | null) => (iso ? formatGatewayDate(new Date(iso), r.timeZone).slice(0, 16) : 'never');
  const lines = [
    `Store day report ${r.date} (${r.timeZone}) — store ${r.store.code}, ${r.store.name}; as of ${time(r.asOf)}`,
    r.complete
      ? "Every terminal's events known to the store book are in these figures"
      : 'INCOMPLETE: the store book lacks events of some terminals (below)',
    '',
    `${pad('Paid', 24)}${String(f.paid.count).padStart(7)} ${money(f.paid.amount)}`,
    `${pad('All orders', 24)}${String(f.orders.count).padStart(7)} ${money(f.orders.amount)}`,
    '',
    'By method                  orders           amount    paid      paid amount',
    ...f.byMethod.map(
      (m) =>
        `  ${pad(m.label, 22)}${String(m.count).padStart(7)} ${money(m.amount)} ${String(m.paid.count).padStart(7)} ${money(m.paid.amount)}`,
    ),
    'By state',
    ...f.byState.map((s) => `  ${pad(s.state, 22)}${String(s.count).padStart(7)} ${money(s.amount)}`),
    'By terminal                orders           amount    paid      paid amount   store book',
    ...r.terminals.map((t) => {
      const b = t.backlog;
      const book = b.waiting === null ? 'never reported' : b.waiting === 0 ? 'all in' : `${b.waiting} event(s) waiting`;
      return (
        `  ${pad(t.terminalId, 22)}${String(t.figures.orders.count).padStart(7)} ${money(t.figures.orders.amount)} ` +
        `${String(t.figures.paid.count).padStart(7)} ${money(t.figures.paid.amount)}   ${book}` +
        (b.conflicts ? `, ${b.conflicts} CONFLICT(S)` : '') +
        (b.skewFlagged ? ', clock off by more than 2 min' : '')
      );
    }),
  ];
  if (r.notes.length) lines.push('', ...r.notes);
  return lines;
}

/** Errors of the file system that mean "this --out cannot be written" (as export-commands.ts). */
const OUT_PROBLEMS = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS']);

export async function runStoreExport(
  values: {
    date: string;
    to?: string;
    format: ExportFormat;
    delimiter: ',' | ';';
    bom?: boolean;
    out: string;
    force?: boolean;
    json?: boolean;
  },
  options: StoreReportOptions,
  io: Io,
): Promise<number> {
  if (!EXPORT_FORMATS.includes(values.format)) throw new UsageError('--format: must be csv or xlsx');
  const from = values.date;
  const to = values.to ?? from;
  const out = resolve(values.out);
  return withStoreBook(options, io, async (books, client) => {
    // The store's days are in the store book's zone (its report's), which the terminals' settings should share.
    const timeZone = (
      await client.query<{ time_zone: string }>('SELECT time_zone FROM loket.stores WHERE code = loket.store_code()')
    ).rows[0]?.time_zone;
    if (!timeZone) throw new UsageError('--store: the store book names no store of its own (a head office book?)');
    try {
      exportRange(from, to, timeZone);
    } catch (err) {
      if (err instanceof ExportOptionsError) throw new UsageError(`--date/--to: ${err.message}`);
      throw err;
    }
    const lang = books.settings.lang;
    const summary =
      values.format === 'xlsx'
        ? (await storeDayReport(client, from, { methods: books.methods, lang, to })).figures
        : undefined;
    try {
      const result = await writeFileAtomically(
        out,
        (file) =>
          exportStore(
            client,
            {
              from,
              to,
              timeZone,
              format: values.format,
              delimiter: values.delimiter,
              bom: values.bom ?? false,
              methods: books.methods,
              lang,
              ...(summary ? { summary } : {}),
            },
            file,
          ),
        { force: values.force ?? false },
      );
      const days = from === to ? from : `${from} to ${to}`;
      if (values.json)
        io.out(
          JSON.stringify({
            path: out,
            store: true,
            format: values.format,
            from,
            to,
            timeZone,
            rows: result.rows,
            bytes: result.bytes,
          }) + '\n',
        );
      else
        io.out(
          `${result.rows} order(s) of ${days} (${timeZone}), every terminal's in the store book, written to ${out} ` +
            `(${values.format.toUpperCase()}, ${formatBytes(result.bytes ?? 0)})\n`,
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
