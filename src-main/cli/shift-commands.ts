import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatGatewayDate } from '../common/gateway-time';
import { CASH_RANGE, PAYMENT_RANGE } from '../common/cash';
import { formatRupiah } from '../common/money';
import { OrderRuleError } from '../common/order-policy';
import type { LoketSettings } from '../common/settings';
import type { DrawerResult, ShiftReport, ShiftView } from '../common/shifts';
import { readWholeRupiah, rupiahMessage, rupiahRule, type RupiahRange } from '../common/whole-rupiah';
import { sendToNetworkPrinter } from '../adapters/tcp-printer';
import { renderReportEscPos } from '../core/reports/report-escpos';
import { renderReportHtml } from '../core/reports/report-html';
import { AuditLog } from '../core/audit/audit-log';
import { printerDrawer, type DrawerPrinter } from '../core/shifts/drawer';
import { ShiftBook } from '../core/shifts/shift-book';
import { SaleShiftTenders } from '../core/sales/shift-tenders';
import { SalesBeingPaid } from '../core/sales/sales-being-paid';
import { buildShiftReportDoc } from '../core/shifts/shift-report-doc';
import { cashSettingsOf, ShiftService, type CloseInput } from '../core/shifts/shift-service';
import { PRIVATE_FILE_MODE } from '../db/open';
import { readBooks, withBooks, type Books, type ReportCommandOptions } from './books';
import { cliUser, defaultIo, type Io } from './cli-support';
import { EXIT, UsageError } from './exit-codes';

export const SHIFT_USAGE = `Shifts and the cash drawer (docs/tenders.md, "Shifts"; docs/cli.md):

  shift open --float AMOUNT [--json]        open this till's shift with the cash in the drawer (one open shift per
                                            till); the drawer opens
  shift pay-in --amount A --reason R [--json]
  shift pay-out --amount A --reason R [--json]
                                            cash put into or taken out of the drawer, with why (3 to 200
                                            characters). A pay-out over the manager's limit is approved by this
                                            computer's account, as every manager action at the command line is
                                            (audited as cli:<user>)
  shift no-sale --reason R [--json]         open the drawer without a sale (a manager's action; audited)
  shift close --counted AMOUNT [--json]     the blind count: the cash counted in the drawer, as one total; or
  shift close --count note50000=3,coin500=4 [--json]
                                            the count by denomination. Only then are the expected cash and the
                                            difference shown; the shift closes with them (the Z report)
  shift report [--shift ID] [--json] [--lang id|en] [--html FILE] [--escpos FILE] [--paper 58|80]
                                            the open shift's X report, or the last shift's Z report (or --shift's):
                                            sales by tender, refunds, pay-ins and pay-outs, rounding, expected and
                                            counted cash. --html writes the A4 page, --escpos the receipt printer's
                                            bytes

AMOUNT is a whole number of rupiah (100000, not 100.000): a float or a count from 0, a pay-in or pay-out from 1, to
100000000000000. Shifts are kept with the orders: the store's books when Loket is live, the training log in training
mode. Denominations: note100000 note50000 note20000 note10000 note5000 note2000 note1000 coin1000 coin500 coin200
coin100.

Exit codes: 0 ok, 2 invalid input (naming the field and the rule) or refused (no open shift, one already open),
6 the order log cannot be used, 7 while the app or serve runs on the data folder (all but report, which only
reads).
`;

/**
 * A whole number of rupiah as typed, judged as digits (never rounded through a number first) against the range of
 * its field (a float or a count: 0 or more; a pay-in or pay-out: more than 0); else the rule with its numbers.
 */
function amountOf(text: string | undefined, flag: string, range: RupiahRange): number {
  if (text === undefined) throw new UsageError(`${flag}: is required (${rupiahRule(range)})`);
  const read = readWholeRupiah(text, range);
  if (!read.ok) throw new UsageError(rupiahMessage(flag, range, text));
  return read.value;
}

/** note50000=3,coin500=4 */
function countsOf(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of text.split(',')) {
    const m = /^\s*([a-z0-9]+)\s*=\s*(\S*)\s*$/.exec(part);
    if (!m) throw new UsageError(`--count: DENOMINATION=COUNT, separated by commas (got ${JSON.stringify(part)})`);
    out[m[1]!] = /^\d{1,9}$/.test(m[2]!) ? Number(m[2]) : m[2];
  }
  return out;
}

/** The receipt printer as the drawer needs it: the network printer of the settings, else none (or the OS's). */
export function drawerPrinterOf(settings: LoketSettings): DrawerPrinter {
  const p = settings.printer;
  if (p.kind === 'network' && p.host && p.port) {
    const label = `${p.host}:${p.port}`;
    return { kind: 'network', label, send: (bytes) => sendToNetworkPrinter(bytes, { host: p.host!, port: p.port }) };
  }
  return p.kind === 'system' ? { kind: 'system' } : { kind: 'none' };
}

function serviceOf(books: Books, env: NodeJS.ProcessEnv): ShiftService {
  const { settings } = books;
  return new ShiftService({
    book: new ShiftBook(books.db),
    clock: books.clock,
    terminalId: () => env.LOKET_TERMINAL_ID ?? settings.terminalId,
    timeZone: () => settings.timeZone,
    cash: () => cashSettingsOf(settings),
    drawer: printerDrawer(() => drawerPrinterOf(settings)),
    approver: books.store.access,
    // On the order log's connection (the training log in training, with stand-ins for the store's staff), so each
    // change and its audit entry commit together.
    audit: books.training ? new AuditLog(books.db, books.clock, { standInStaff: true }) : books.store.audit,
    staffName: (id) => books.staffNames.find((s) => s.id === id)?.name,
    // The X/Z report's gateway and other tenders, from the sales of the shift.
    tenders: new SaleShiftTenders(books.db),
    // The close waits for the till's sales still being paid.
    salesBeingPaid: new SalesBeingPaid(books.db),
  });
}

const time = (iso: string, tz: string) => formatGatewayDate(new Date(iso), tz).slice(0, 16);

export async function runShiftCommand(
  argv: string[],
  options: ReportCommandOptions = {},
  io: Io = defaultIo,
): Promise<number> {
  const [sub, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: {
      float: { type: 'string' },
      amount: { type: 'string' },
      reason: { type: 'string' },
      counted: { type: 'string' },
      count: { type: 'string' },
      shift: { type: 'string' },
      json: { type: 'boolean' },
      lang: { type: 'string' },
      html: { type: 'string' },
      escpos: { type: 'string' },
      paper: { type: 'string' },
    },
  });
  const allowed: Record<string, string[]> = {
    open: ['float', 'json'],
    'pay-in': ['amount', 'reason', 'json'],
    'pay-out': ['amount', 'reason', 'json'],
    'no-sale': ['reason', 'json'],
    close: ['counted', 'count', 'json'],
    report: ['shift', 'json', 'lang', 'html', 'escpos', 'paper'],
  };
  if (sub === undefined || !Object.hasOwn(allowed, sub))
    throw new UsageError(`shift: one of ${Object.keys(allowed).join(', ')} (npm run cli -- shift --help)`);
  for (const key of Object.keys(values))
    if (!allowed[sub]!.includes(key)) throw new UsageError(`shift ${sub}: --${key} does not apply here`);
  if (values.lang !== undefined && values.lang !== 'id' && values.lang !== 'en')
    throw new UsageError(`--lang: id or en (got ${JSON.stringify(values.lang)})`);
  if (values.paper !== undefined && values.paper !== '58' && values.paper !== '80')
    throw new UsageError(`--paper: 58 or 80 (got ${JSON.stringify(values.paper)})`);
  let close: CloseInput | undefined;
  if (sub === 'close') {
    if ((values.counted === undefined) === (values.count === undefined))
      throw new UsageError('shift close: give the count as --counted AMOUNT or --count DENOMINATION=COUNT,…');
    close =
      values.count !== undefined
        ? { denominations: countsOf(values.count) }
        : { counted: amountOf(values.counted, '--counted', CASH_RANGE) };
  }
  const float = sub === 'open' ? amountOf(values.float, '--float', CASH_RANGE) : undefined;
  const amount = sub === 'pay-in' || sub === 'pay-out' ? amountOf(values.amount, '--amount', PAYMENT_RANGE) : undefined;
  if ((sub === 'pay-in' || sub === 'pay-out' || sub === 'no-sale') && values.reason === undefined)
    throw new UsageError('--reason: is required (say why, in 3 to 200 characters)');

  const env = options.env ?? process.env;
  const actor = cliUser(env);
  // The report only reads: it works beside the app or serve (docs/cli.md, "Who writes the data folder").
  const open = sub === 'report' ? readBooks : withBooks;
  return open(options, async (books) => {
    const shifts = serviceOf(books, env);
    const tz = books.settings.timeZone;
    const mark = books.training ? ' [SANDBOX: the training log]' : '';
    const drawerLine = (d: DrawerResult) => (d.ok ? '' : `drawer: ${d.message}\n`);
    try {
      switch (sub) {
        case 'open': {
          const r = await shifts.open({ float }, actor);
          if (values.json) io.out(JSON.stringify({ ...r, training: books.training }, null, 2) + '\n');
          else io.out(`shift ${r.shift.id} opened with a float of ${formatRupiah(r.shift.float)}${mark}\n`);
          io.err(drawerLine(r.drawer));
          return EXIT.OK;
        }
        case 'pay-in':
        case 'pay-out': {
          const type = sub === 'pay-in' ? 'pay_in' : 'pay_out';
          const r = await shifts.movement({ type, amount, reason: values.reason }, actor);
          if (values.json) io.out(JSON.stringify({ ...r, training: books.training }, null, 2) + '\n');
          else
            io.out(
              `${sub} of ${formatRupiah(r.event.amount)} recorded in shift ${r.shift.id}` +
                `${r.event.approvedBy ? ` (approved by ${r.event.approvedBy.name})` : ''}${mark}\n`,
            );
          io.err(drawerLine(r.drawer));
          return EXIT.OK;
        }
        case 'no-sale': {
          const r = await shifts.noSale({ reason: values.reason }, actor);
          if (values.json) io.out(JSON.stringify({ ...r, training: books.training }, null, 2) + '\n');
          else io.out(`no sale recorded in shift ${r.shift.id}${mark}\n`);
          io.err(drawerLine(r.drawer));
          return EXIT.OK;
        }
        case 'close': {
          const r = await shifts.close(close!, actor);
          if (values.json)
            io.out(
              JSON.stringify(
                {
                  shiftId: r.shift.id,
                  expected: r.expected,
                  counted: r.counted,
                  difference: r.difference,
                  status: r.status,
                  shift: r.shift,
                  report: r.report,
                  drawer: r.drawer,
                  training: books.training,
                },
                null,
                2,
              ) + '\n',
            );
          else
            io.out(
              `shift ${r.shift.id} closed${mark}\n` +
                `  expected    ${formatRupiah(r.expected)}\n` +
                `  counted     ${formatRupiah(r.counted)}\n` +
                `  difference  ${formatRupiah(r.difference)} (${r.status})\n`,
            );
          io.err(drawerLine(r.drawer));
          return EXIT.OK;
        }
        default: {
          const report = shifts.report(values.shift);
          const lang = (values.lang as 'id' | 'en' | undefined) ?? books.settings.lang;
          const doc = () =>
            buildShiftReportDoc(report, {
              storeName: books.settings.storeName,
              ...(books.settings.storeAddress ? { storeAddress: books.settings.storeAddress } : {}),
              lang,
              printedAt: books.clock.now(),
              training: books.training,
              methods: books.methods,
            });
          if (values.html !== undefined)
            writeFileSync(values.html, renderReportHtml(doc()), { mode: PRIVATE_FILE_MODE });
          if (values.escpos !== undefined)
            writeFileSync(
              values.escpos,
              renderReportEscPos(doc(), { paper: values.paper === '80' ? 80 : books.settings.printer.paper }),
              { mode: PRIVATE_FILE_MODE },
            );
          if (values.json) io.out(JSON.stringify({ ...report, training: books.training }, null, 2) + '\n');
          else io.out(reportLines(report, tz, mark).join('\n') + '\n');
          return EXIT.OK;
        }
      }
    } catch (err) {
      if (err instanceof OrderRuleError) {
        io.err(`${err.message}\n`);
        return EXIT.INVALID_INPUT;
      }
      throw err;
    }
  });
}

function reportLines(r: ShiftReport, tz: string, mark: string): string[] {
  const s: ShiftView = r.shift;
  const money = (n: number) => formatRupiah(n).padStart(18);
  const line = (label: string, n: number) => `  ${label.padEnd(22)}${money(n)}`;
  const c = s.cash;
  const out = [
    `${r.kind} report of shift ${s.id} (${s.terminalId}, business day ${s.businessDay})${mark}`,
    `  opened ${time(s.openedAt, tz)} by ${s.openedBy.name}` +
      (s.closedAt ? `; closed ${time(s.closedAt, tz)} by ${s.closedBy?.name ?? ''}` : '; still open'),
    'sales by tender:',
    ...r.tenders.map((t) => line(`${t.tender}${t.methodId ? ` ${t.methodId}` : ''} (${t.count})`, t.amount)),
    'cash:',
    line('float', c.float),
    line('handed over', c.cashIn),
    line('change', -c.change),
    ...(r.voided.count > 0 ? [line(`voided sales (${r.voided.count})`, -r.voided.amount)] : []),
    line(`refunds (${r.refunds.count})`, -c.cashRefunds),
    line(`pay-ins (${r.payIns.length})`, c.payIns),
    line(`pay-outs (${r.payOuts.length})`, -c.payOuts),
    line('rounding (in sales)', r.rounding),
    line('expected', r.expected),
  ];
  for (const e of [...r.payIns, ...r.payOuts, ...r.noSales].sort((a, b) => a.seq - b.seq))
    out.push(
      `  ${time(e.at, tz)} ${e.type.replace('_', '-')} ${e.type === 'no_sale' ? '' : formatRupiah(e.amount) + ' '}` +
        `"${e.reason ?? ''}" by ${e.by?.name ?? '?'}${e.approvedBy ? `, approved by ${e.approvedBy.name}` : ''}`,
    );
  if (r.count)
    out.push(
      'blind count:',
      line('counted', r.count.counted),
      `  ${'difference'.padEnd(22)}${money(r.count.difference)} (${r.count.status})`,
    );
  return out;
}
