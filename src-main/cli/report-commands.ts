import { dayHeadline, takenOf } from '../common/reports';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Lang } from '../common/app-info';
import { dayIn, formatGatewayDate } from '../common/gateway-time';
import { formatRupiah } from '../common/money';
import { OrderRuleError, REASON_RULE, reasonSchema } from '../common/order-policy';
import type { AttentionAction, AttentionItem, DayReport } from '../common/reports';
import type { LoketSettings } from '../common/settings';
import { Backups } from '../core/backup/backups';
import { ATTENTION_ACTIONS, attention, resolveAttention } from '../core/reports/attention';
import { closeDay, dayReport, dayReportJson } from '../core/reports/day-report';
import { buildReportDoc } from '../core/reports/report-model';
import { renderReportEscPos } from '../core/reports/report-escpos';
import { renderReportHtml } from '../core/reports/report-html';
import { PRIVATE_FILE_MODE } from '../db/open';
import { openLoket } from '../runtime';
import { readBooks, withBooks, type ReportCommandOptions } from './books';

export type { ReportCommandOptions } from './books';
import { cliUser, defaultIo, type Io } from './cli-support';
import { EXIT, UsageError } from './exit-codes';

export const REPORT_USAGE = `The day's books: report, closing, attention (docs/end-of-day.md):

  report [--date YYYY-MM-DD] [--json] [--lang id|en] [--html FILE] [--escpos FILE] [--paper 58|80]
                                   a store day's figures (by method, state and staff), what needs attention,
                                   and, once closed, its closing and the changes after it. --html writes the
                                   A4 page (print it, or save it as PDF); --escpos the receipt printer's bytes
  report --store [--date YYYY-MM-DD] [--json] [--lang id|en]
                                   the whole store's figures from the store book (every terminal's, each
                                   with its backlog: a day with events not yet in the store book says so)
  close-day --date YYYY-MM-DD [--json]
                                   close the day: its figures are kept as they are now, for good (a second
                                   close is refused); open attention items are counted, not blocking.
                                   Then a backup of the store's books
  attention [--json] [--lang id|en]
                                   what needs a manager: outcomes unknown, late payments, orders overdue,
                                   callbacks that could not be applied
  attention resolve ID --action check|mark_paid|cancel|acknowledge|set_aside --reason TEXT [--json]
                                   ID: an order id, or a callback problem's number (#12 or 12)

The day is a calendar day in the store's time zone (default: today). The books are the store's (loket.db)
when Loket is live, the training log (training/loket.db) in training mode; a training report says so.

Exit codes: 0 ok, 2 invalid input or refused (a day already closed or still to come, an action that does not
fit the item, a reason that breaks the rule), 4 attention resolve: the item is still open after the check,
5 attention resolve: live mode is set but the keychain cannot be used, 6 the order log cannot be used, or
close-day: the day is closed but its backup failed, 7 close-day or attention resolve while the app or serve
runs on the data folder (report and attention only read, and work beside it).
`;

function langOf(value: string | undefined, settings: LoketSettings): Lang {
  if (value === undefined) return settings.lang;
  if (value !== 'id' && value !== 'en') throw new UsageError(`--lang: id or en (got ${JSON.stringify(value)})`);
  return value;
}

function checkDay(value: string | undefined, flag = '--date'): string | undefined {
  if (value !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(value))
    throw new UsageError(`${flag}: a store day YYYY-MM-DD (got ${JSON.stringify(value)})`);
  return value;
}

/** A broken rule of the books (a day already closed, an action that does not fit): exit 2 with its words. */
function refusal(io: Io, err: unknown): number {
  if (err instanceof OrderRuleError) {
    io.err(`${err.message}\n`);
    return EXIT.INVALID_INPUT;
  }
  throw err;
}

// ---------------------------------------------------------------- report

export async function runReportCommand(
  argv: string[],
  options: ReportCommandOptions = {},
  io: Io = defaultIo,
): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      date: { type: 'string' },
      json: { type: 'boolean' },
      lang: { type: 'string' },
      html: { type: 'string' },
      escpos: { type: 'string' },
      paper: { type: 'string' },
      store: { type: 'boolean' },
    },
  });
  checkDay(values.date);
  if (values.store) {
    if (values.html !== undefined || values.escpos !== undefined || values.paper !== undefined)
      throw new UsageError(
        "--store: with --json or as text; --html, --escpos and --paper print a terminal's own report",
      );
    return (await import('./store-report-commands')).runStoreReport(values, options, io);
  }
  if (values.paper !== undefined && values.paper !== '58' && values.paper !== '80')
    throw new UsageError(`--paper: 58 or 80 (got ${JSON.stringify(values.paper)})`);
  return readBooks(options, async (books) => {
    const { settings } = books;
    const lang = langOf(values.lang, settings);
    const now = books.clock.now();
    const day = values.date ?? dayIn(now, settings.timeZone);
    let report: DayReport;
    try {
      report = dayReport(books.db, day, {
        timeZone: settings.timeZone,
        now,
        methods: books.methods,
        staffNames: books.staffNames,
        training: books.training,
        lang,
      });
    } catch (err) {
      return refusal(io, err);
    }
    if (values.html !== undefined || values.escpos !== undefined) {
      const doc = buildReportDoc(report, {
        storeName: settings.storeName,
        ...(settings.storeAddress ? { storeAddress: settings.storeAddress } : {}),
        lang,
        printedAt: now,
      });
      if (values.html !== undefined) writeFileSync(values.html, renderReportHtml(doc), { mode: PRIVATE_FILE_MODE });
      if (values.escpos !== undefined) {
        const paper = values.paper === undefined ? settings.printer.paper : (Number(values.paper) as 58 | 80);
        writeFileSync(values.escpos, renderReportEscPos(doc, { paper }), { mode: PRIVATE_FILE_MODE });
      }
    }
    if (values.json) io.out(JSON.stringify(dayReportJson(report), null, 2) + '\n');
    else io.out(reportLines(report, settings.storeName).join('\n') + '\n');
    if (values.html !== undefined) io.err(`the A4 page is in ${values.html}\n`);
    if (values.escpos !== undefined) io.err(`the receipt printer's bytes are in ${values.escpos}\n`);
    return EXIT.OK;
  });
}

function time(iso: string, timeZone: string): string {
  return formatGatewayDate(new Date(iso), timeZone).slice(0, 16);
}

const pad = (text: string, n: number) => (text.length >= n ? `${text} ` : text.padEnd(n));
const money = (n: number) => formatRupiah(n).padStart(16);

/** Late payments (money that reached the gateway after the order was given up on), when there are any. */
function lateLine(f: DayReport['figures']): string[] {
  const late = (f as Partial<DayReport['figures']>).latePaid;
  return late && late.count > 0
    ? [`${pad('Paid late (not in paid)', 24)}${String(late.count).padStart(7)} ${money(late.amount)}`]
    : [];
}

function reportLines(report: DayReport, storeName: string): string[] {
  const tz = report.timeZone;
  const official = report.closing?.figures ?? report.figures;
  const lines = [
    `Day report ${report.date} (${tz}) — ${storeName}${report.training ? '  [SANDBOX: the training log]' : ''}`,
    report.closing
      ? `Closed ${time(report.closing.closedAt, tz)} by ${report.closing.closedBy.name}` +
        ` (${report.closing.openAttention} attention item(s) were open); the figures are those of the closing`
      : 'Not closed: the figures may still change',
    '',
    ...takenLines(report),
    '',
    'Gateway orders (the detail)',
    `${pad('Paid', 24)}${String(official.paid.count).padStart(7)} ${money(official.paid.amount)}`,
    ...lateLine(official),
    `${pad('All orders', 24)}${String(official.orders.count).padStart(7)} ${money(official.orders.amount)}`,
    '',
    'By method                  orders           amount    paid      paid amount',
    ...official.byMethod.map(
      (m) =>
        `  ${pad(m.label, 22)}${String(m.count).padStart(7)} ${money(m.amount)} ${String(m.paid.count).padStart(7)} ${money(m.paid.amount)}`,
    ),
    'By state',
    ...official.byState.map((s) => `  ${pad(s.state, 22)}${String(s.count).padStart(7)} ${money(s.amount)}`),
    'By staff                   orders                     paid      paid amount',
    ...official.byStaff.map(
      (s) =>
        `  ${pad(s.name, 22)}${String(s.count).padStart(7)} ${' '.repeat(16)} ${String(s.paid.count).padStart(7)} ${money(s.paid.amount)}`,
    ),
    '',
    ...salesLines(report.sales),
    ...refundLines(report.refunds),
    ...attentionLines(report.attention, tz),
  ];
  if (report.closing) {
    lines.push('', `Changes after closing (${report.afterClosing.length}), not in the figures above:`);
    for (const c of report.afterClosing) {
      const change = c.to ? `${c.from ?? '∅'} → ${c.to}` : c.type;
      lines.push(
        `  ${time(c.at, tz)}  ${c.orderId}  ${change}  (${c.source}${c.actor ? `, ${c.actor}` : ''})${c.reason ? `  ${c.reason}` : ''}`,
      );
    }
  }
  return lines;
}

/**
 * What the store took leads (docs/end-of-day.md, "Money taken"): the closing's once the day is closed, by every
 * tender and by staff, and the old orders without a sale counted in it.
 */
function takenLines(report: DayReport): string[] {
  const of = takenOf(report);
  if (!of) return [];
  const { taken } = of;
  const row = (label: string, amount: number, count = '') => `${pad(label, 24)}${count.padStart(7)} ${money(amount)}`;
  return [
    row(`Money taken${of.atClosing ? ' (at closing)' : ''}`, taken.amount, String(taken.count)),
    ...taken.byTender.map((t) =>
      row(`  ${t.kind === 'gateway' ? (t.methodId ?? 'gateway') : t.kind}`, t.amount, String(t.count)),
    ),
    ...(taken.withoutSale.count > 0
      ? [row('  of which orders without a sale', taken.withoutSale.amount, String(taken.withoutSale.count))]
      : []),
    'Money taken by staff       sales',
    ...taken.byStaff.map((s) => row(`  ${s.name}`, s.amount, String(s.count))),
  ];
}

/** The day's sales (completed): tax summary, rounding, cash handed and change, by category, top sellers. */
function salesLines(sales: DayReport['sales']): string[] {
  if (!sales || sales.completed.count + sales.voided.count + sales.open.count === 0) return [];
  const row = (label: string, amount: number, count = '') => `${pad(label, 24)}${count.padStart(7)} ${money(amount)}`;
  return [
    row('Sales completed', sales.completed.amount, String(sales.completed.count)),
    ...(sales.voided.count > 0 ? [row('Sales voided', sales.voided.amount, String(sales.voided.count))] : []),
    ...(sales.open.count > 0 ? [row('Sales being paid', sales.open.amount, String(sales.open.count))] : []),
    row('  Subtotal', sales.subtotal),
    row('  Discounts', -sales.discounts),
    row('  DPP', sales.tax.dpp),
    row('  PPN', sales.tax.ppn),
    row('  PBJT', sales.tax.pbjt),
    row('  Service', sales.tax.service),
    row('  Total', sales.total),
    row('  Cash rounding', sales.rounding),
    row('  Cash handed over', sales.tenders.cashHanded),
    row('  Change given', sales.tenders.change),
    'By category                qty',
    ...sales.byCategory.map((c) => row(`  ${c.category || '(none)'}`, c.total, String(c.qty))),
    'Top sellers                qty',
    ...sales.byProduct.map((p) => row(`  ${p.name}`, p.total, String(p.qty))),
    '',
  ];
}

/** The day's refunds: what went back, by how, and the tax given back; nothing when none. */
function refundLines(refunds: DayReport['refunds']): string[] {
  if (!refunds || refunds.count === 0) return [];
  const row = (label: string, amount: number, count = '') => `${pad(label, 24)}${count.padStart(7)} ${money(amount)}`;
  return [
    row('Refunds (paid back)', refunds.paidBack, String(refunds.count)),
    ...refunds.byHow.map((h) =>
      row(`  ${h.how === 'cash' ? 'cash from the drawer' : 'outside Loket'}`, h.paidBack, String(h.count)),
    ),
    ...refunds.outsideByMethod.map((m) => row(`    ${m.methodId || 'other'}`, m.paidBack, String(m.count))),
    row('  Amount (line shares)', refunds.amount),
    row('  Cash rounding', refunds.rounding + refunds.cashRounding),
    row('  PPN given back', refunds.tax.ppn),
    row('  DPP given back', refunds.tax.dpp),
    row('  PBJT given back', refunds.tax.pbjt),
    row('  Service given back', refunds.tax.service),
    '',
  ];
}

function attentionLines(items: readonly AttentionItem[], timeZone: string): string[] {
  if (items.length === 0) return ['Nothing needs attention.'];
  const lines = [`${items.length} item(s) need attention:`];
  for (const item of items) {
    const id = item.issueId === undefined ? item.orderId : `#${item.issueId} (order ${item.orderId})`;
    lines.push(`  ${pad(item.kind, 17)}${id}  since ${time(item.since, timeZone)}`);
    lines.push(`  ${' '.repeat(17)}${item.summary}`);
    lines.push(`  ${' '.repeat(17)}actions: ${item.actions.join(', ')}`);
  }
  return lines;
}

// ---------------------------------------------------------------- close-day

export async function runCloseDayCommand(
  argv: string[],
  options: ReportCommandOptions = {},
  io: Io = defaultIo,
): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { date: { type: 'string' }, json: { type: 'boolean' } },
  });
  // Closing is for good, so the day is always named, never taken from the clock.
  const day = checkDay(values.date);
  if (day === undefined) throw new UsageError('--date: is required (the store day to close, YYYY-MM-DD)');
  return withBooks(options, async (books) => {
    const { settings } = books;
    const actor = cliUser(options.env ?? process.env);
    let closing;
    try {
      closing = closeDay(books.db, day, {
        timeZone: settings.timeZone,
        now: books.clock.now(),
        by: { name: actor.name },
        methods: books.methods,
        staffNames: books.staffNames,
        training: books.training,
        lang: settings.lang,
      });
    } catch (err) {
      return refusal(io, err);
    }
    // "Automatic backups … after closing the day" (docs/when-things-break.md): of the store's books.
    let backup: Awaited<ReturnType<Backups['create']>> | undefined;
    let backupError: string | undefined;
    try {
      backup = await new Backups(books.store.dataDir, books.clock).create(
        books.store.db,
        'close-day',
        settings.backup.copyTo,
      );
    } catch (err) {
      backupError = (err as Error).message;
    }
    if (values.json) {
      io.out(
        JSON.stringify(
          { closing, training: books.training, backup: backup ?? null, ...(backupError ? { backupError } : {}) },
          null,
          2,
        ) + '\n',
      );
    } else {
      // What the store took leads, by tender; then the gateway orders: what was received, and what waits and what
      // was not paid apart, never added to it (common/reports.ts).
      const taken = closing.sales?.taken;
      const h = dayHeadline(closing.figures);
      const part = (c: { count: number; amount: number }) => `${c.count} order(s) ${formatRupiah(c.amount)}`;
      const tenders = (taken?.byTender ?? [])
        .map((t) => `${t.kind === 'gateway' ? t.methodId : t.kind} ${formatRupiah(t.amount)}`)
        .join(', ');
      io.out(
        `closed ${closing.day} (${closing.timeZone}) at ${time(closing.closedAt, closing.timeZone)} by ${closing.closedBy.name}` +
          `${books.training ? ' [SANDBOX: the training log]' : ''}\n` +
          (taken
            ? `  money taken ${formatRupiah(taken.amount)} (${taken.count} sale(s)${tenders ? `: ${tenders}` : ''})\n`
            : '') +
          `  gateway orders: received ${part(h.received)}; still waiting ${part(h.waiting)}; not paid ${part(h.notPaid)}; ` +
          `${h.orders} order(s) in all\n`,
      );
      if (closing.openAttention > 0)
        io.out(
          `  ${closing.openAttention} attention item(s) were still open; their count is kept with the closing ` +
            '(npm run cli -- attention)\n',
        );
      if (backup) io.out(`backed up to ${backup.path}${backup.copiedTo ? ` and ${backup.copiedTo}` : ''}\n`);
    }
    if (backup?.copyError) io.err(`${backup.copyError}\n`);
    if (backupError) io.err(`the day is closed, but the backup after it failed: ${backupError}\n`);
    return backupError || backup?.copyError ? EXIT.STORAGE : EXIT.OK;
  });
}

// ---------------------------------------------------------------- attention

export async function runAttentionCommand(
  argv: string[],
  options: ReportCommandOptions = {},
  io: Io = defaultIo,
): Promise<number> {
  if (argv[0] === 'resolve') return resolve(argv.slice(1), options, io);
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { json: { type: 'boolean' }, lang: { type: 'string' } },
  });
  return readBooks(options, async (books) => {
    const lang = langOf(values.lang, books.settings);
    const items = attention(books.db, books.clock.now(), { lang, methods: books.methods });
    if (values.json) io.out(JSON.stringify(items, null, 2) + '\n');
    else io.out(attentionLines(items, books.settings.timeZone).join('\n') + '\n');
    return EXIT.OK;
  });
}

async function resolve(argv: string[], options: ReportCommandOptions, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { action: { type: 'string' }, reason: { type: 'string' }, json: { type: 'boolean' } },
  });
  const id = positionals[0];
  if (!id || positionals.length > 1)
    throw new UsageError('attention resolve: give one order id, or a callback problem as #N');
  const action = values.action as AttentionAction | undefined;
  if (action === undefined || !ATTENTION_ACTIONS.includes(action))
    throw new UsageError(`--action: one of ${ATTENTION_ACTIONS.join(', ')}`);
  const reason = reasonSchema.safeParse(values.reason ?? '');
  if (!reason.success) throw new UsageError(`--${REASON_RULE}`);
  const issue = /^#?(\d{1,15})$/.exec(id);
  const target = issue ? Number(issue[1]) : id;
  const loket = await openLoket({ ...options, whenLiveUnavailable: 'fail' });
  try {
    const outcome = await resolveAttention(
      { log: loket.log, orders: loket.orders, client: loket.client },
      target,
      action,
      { reason: reason.data, actor: { name: cliUser(options.env ?? process.env).name } },
    );
    if (values.json) io.out(JSON.stringify(outcome, null, 2) + '\n');
    else io.out(`${outcome.message}${outcome.resolved ? '' : ' (the item stays in the queue)'}\n`);
    return outcome.resolved ? EXIT.OK : EXIT.NOT_SENT_OR_UNKNOWN;
  } catch (err) {
    return refusal(io, err);
  } finally {
    await loket.close();
  }
}
