import { KeychainUnavailableError } from './adapters/keychain-secret-store';
import { LogFile } from './adapters/log-file';
import { defaultDataDir } from './core/data-dir';
import { describeArgsError } from './cli/args';
import { stuckKeychainCalls } from './cli/cli-support';
import { CONFIG_USAGE, runConfigCommand } from './cli/config-commands';
import { EXIT, UsageError } from './cli/exit-codes';
import { ORDER_USAGE, runOrderCommand, runOrdersCommand, runReconcileCommand } from './cli/order-commands';
import { runAuditCommand, runPinCommand, runStaffCommand, STAFF_USAGE } from './cli/staff-commands';
import { LiveUnavailableError } from './runtime';
import { DatabaseProblem } from './db/open';
import { FolderBusyError } from './db/folder-lock';
import { BACKUP_USAGE, runBackupCommand, runRestoreCommand } from './cli/backup-commands';
import { CATALOGUE_USAGE, REFUND_USAGE, SALE_USAGE } from './cli/sale-usage';
import { EXPORT_USAGE, runExportCommand } from './cli/export-commands';
import { REPORT_USAGE, runAttentionCommand, runCloseDayCommand, runReportCommand } from './cli/report-commands';
import { runSandboxCommand, SANDBOX_USAGE } from './sandbox/command';
import { STORE_USAGE } from './cli/store-usage';
import { runShiftCommand, SHIFT_USAGE } from './cli/shift-commands';
import { runServeCommand, SERVE_USAGE } from './web/command';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  sandbox    start the sandbox payment gateway (docs/sandbox.md)
  serve      browser mode: the cashier screen and the customer display (npm run serve)
  order      create, show, pay or cancel one order
  orders     list a day's orders
  reconcile  resolve orders whose outcome is unknown
  export     the order log of a day or of days, as CSV or XLSX (docs/export.md)
  report     a day's figures, attention items, closing and changes after it (also as an A4 page)
  close-day  close a store day: its figures are kept for good, then a backup
  shift      open a shift with its float, pay-ins and pay-outs, close it with a blind count, its X/Z report
  attention  what needs a manager, and acting on it (attention resolve)
  config     settings, the gateway and its secrets, payment methods, training and live
  staff      list, add or remove staff
  pin        a new PIN for a member of staff (the recovery for a forgotten PIN)
  audit      the audit log
  backup     back up the order log now, or list the backups
  restore    put a backup in place of the order log
  store      the store book: set up the store's PostgreSQL, enrol this terminal, sync, status
  catalogue  import, export or list the catalogue of products
  sale       ring up a sale of several lines and charge it (cash, a gateway payment, other, split)
  refund     refund a paid sale, whole or by lines and quantities, in cash or outside Loket
  help       show this text

${ORDER_USAGE}
${EXPORT_USAGE}
${REPORT_USAGE}
${SHIFT_USAGE}
${CONFIG_USAGE}
${STAFF_USAGE}
${BACKUP_USAGE}
${STORE_USAGE}
${CATALOGUE_USAGE}
${SALE_USAGE}
${REFUND_USAGE}`;

/** One command: its name, the usage its --help prints, and what it runs. */
interface Command {
  name: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

/** Every command; a new one is one entry here (and a line in USAGE). */
const COMMANDS: readonly Command[] = [
  { name: 'sandbox', usage: SANDBOX_USAGE, run: runSandboxCommand },
  { name: 'serve', usage: SERVE_USAGE, run: runServeCommand },
  { name: 'order', usage: ORDER_USAGE, run: runOrderCommand },
  { name: 'orders', usage: ORDER_USAGE, run: runOrdersCommand },
  { name: 'reconcile', usage: ORDER_USAGE, run: runReconcileCommand },
  { name: 'report', usage: REPORT_USAGE, run: runReportCommand },
  { name: 'close-day', usage: REPORT_USAGE, run: runCloseDayCommand },
  { name: 'attention', usage: REPORT_USAGE, run: runAttentionCommand },
  { name: 'export', usage: EXPORT_USAGE, run: runExportCommand },
  { name: 'config', usage: CONFIG_USAGE, run: (argv) => runConfigCommand(argv) },
  { name: 'staff', usage: STAFF_USAGE, run: runStaffCommand },
  { name: 'pin', usage: STAFF_USAGE, run: runPinCommand },
  { name: 'audit', usage: STAFF_USAGE, run: runAuditCommand },
  { name: 'backup', usage: BACKUP_USAGE, run: runBackupCommand },
  { name: 'restore', usage: BACKUP_USAGE, run: runRestoreCommand },
  { name: 'shift', usage: SHIFT_USAGE, run: runShiftCommand },
  // Loaded when used, as store is: the other commands start without the sale's modules.
  {
    name: 'sale',
    usage: SALE_USAGE,
    run: async (argv) => (await import('./cli/sale-commands')).runSaleCommand(argv),
  },
  {
    name: 'refund',
    usage: REFUND_USAGE,
    run: async (argv) => (await import('./cli/refund-commands')).runRefundCommand(argv),
  },
  {
    name: 'catalogue',
    usage: CATALOGUE_USAGE,
    run: async (argv) => (await import('./cli/catalogue-commands')).runCatalogueCommand(argv),
  },
  // Loaded when used: the other commands start without the PostgreSQL driver.
  {
    name: 'store',
    usage: STORE_USAGE,
    run: async (argv) => (await import('./cli/store-commands')).runStoreCommand(argv),
  },
];

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(USAGE);
    return name === undefined ? EXIT.INVALID_INPUT : EXIT.OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`unknown command ${JSON.stringify(name)}\n\n${USAGE}`);
    return EXIT.INVALID_INPUT;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.usage);
    return EXIT.OK;
  }
  return command.run(rest);
}

/**
 * Ends with `code` once all the output has left: a pipe takes only what its reader has room for (64 KiB on Linux),
 * Node keeps the rest in memory, and process.exit would drop it — `orders list --json | wc -c` got 64 KiB of a 1 MB
 * answer. First says so when a keychain call that never answered will hold the exit up.
 */
async function exit(code: number): Promise<never> {
  if (stuckKeychainCalls() > 0)
    process.stderr.write(
      'loket: waiting for the keychain to let go of a request it never answered (up to about 50 s in all); ' +
        `nothing more will be done, the exit code will be ${code}. Ctrl-C ends it now.\n`,
    );
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

/**
 * An unexpected error, whole (its stack), in the data folder's log file; what to add to the one-line message: where
 * the details are, or nothing when the log cannot be written. Only the command's name is logged, not its arguments.
 */
function logUnexpected(err: unknown): string {
  const log = new LogFile(defaultDataDir(), { warn: () => undefined });
  const command = process.argv[2] ?? '(none)';
  log.write(`[cli] ${command} failed: ${(err as Error)?.stack ?? String(err)}`);
  log.close();
  return log.writable ? ` (the log has the details: ${log.path})` : '';
}

/** Resolves once what was written to `stream` before is written out (or the reader went away: `| head`). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    // Writes complete in order: the callback of this empty one runs after every earlier one has.
    stream.once('error', () => resolve());
    stream.write('', () => resolve());
  });
}

main(process.argv.slice(2)).then(
  (code) => exit(code),
  (err: unknown) => {
    const parse = (err as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS') === true;
    const usage = err instanceof UsageError || parse;
    // Live mode set but its secrets unreadable, or the keychain itself: exit 5, with what to install or unlock.
    const keychain = err instanceof LiveUnavailableError || err instanceof KeychainUnavailableError;
    // The order log cannot be used (damaged, empty, missing over backups, unwritable): exit 6, nothing sent.
    const storage = err instanceof DatabaseProblem;
    // Another process holds the data folder (the app, serve, another command that changes the books): exit 7.
    const busy = err instanceof FolderBusyError;
    // Messages only: a stack trace helps no cashier, and must never carry request data. parseArgs' own words
    // are rephrased: they can repeat what was typed, and that may be a secret.
    const message = parse ? describeArgsError(err as Error) : ((err as Error)?.message ?? String(err));
    const unexpected = !keychain && !storage && !usage && !busy;
    process.stderr.write(`loket: ${message}${unexpected ? logUnexpected(err) : ''}\n`);
    return exit(
      keychain
        ? EXIT.KEYCHAIN
        : storage
          ? EXIT.STORAGE
          : busy
            ? EXIT.FOLDER_IN_USE
            : usage
              ? EXIT.INVALID_INPUT
              : EXIT.UNEXPECTED,
    );
  },
);
