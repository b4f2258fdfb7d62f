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
import { CATALOGUE_USAGE, SALE_USAGE } from './cli/sale-usage';
import { EXPORT_USAGE, runExportCommand } from './cli/export-commands';
import { REPORT_USAGE, runAttentionCommand, runCloseDayCommand, runReportCommand } from './cli/report-commands';
import { runSandboxCommand, SANDBOX_USAGE } from './sandbox/command';
import { STORE_USAGE } from './cli/store-usage';
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
  help       show this text

${ORDER_USAGE}
${EXPORT_USAGE}
${REPORT_USAGE}
${CONFIG_USAGE}
${STAFF_USAGE}
${BACKUP_USAGE}
${STORE_USAGE}
${CATALOGUE_USAGE}
${SALE_USAGE}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const wantsHelp = rest.includes('--help') || rest.includes('-h');
  switch (command) {
    case 'sandbox':
      if (wantsHelp) {
        process.stdout.write(SANDBOX_USAGE);
        return EXIT.OK;
      }
      return runSandboxCommand(rest);
    case 'serve':
      if (wantsHelp) {
        process.stdout.write(SERVE_USAGE);
        return EXIT.OK;
      }
      return runServeCommand(rest);
    case 'order':
    case 'orders':
    case 'reconcile':
      if (wantsHelp) {
        process.stdout.write(ORDER_USAGE);
        return EXIT.OK;
      }
      return command === 'order'
        ? runOrderCommand(rest)
        : command === 'orders'
          ? runOrdersCommand(rest)
          : runReconcileCommand(rest);
    case 'report':
    case 'close-day':
    case 'attention':
      if (wantsHelp) {
        process.stdout.write(REPORT_USAGE);
        return EXIT.OK;
      }
      return command === 'report'
        ? runReportCommand(rest)
        : command === 'close-day'
          ? runCloseDayCommand(rest)
          : runAttentionCommand(rest);
    case 'export':
      if (wantsHelp) {
        process.stdout.write(EXPORT_USAGE);
        return EXIT.OK;
      }
      return runExportCommand(rest);
    case 'config':
      if (wantsHelp) {
        process.stdout.write(CONFIG_USAGE);
        return EXIT.OK;
      }
      return runConfigCommand(rest);
    case 'staff':
    case 'pin':
    case 'audit':
      if (wantsHelp) {
        process.stdout.write(STAFF_USAGE);
        return EXIT.OK;
      }
      return command === 'staff'
        ? runStaffCommand(rest)
        : command === 'pin'
          ? runPinCommand(rest)
          : runAuditCommand(rest);
    case 'backup':
    case 'restore':
      if (wantsHelp) {
        process.stdout.write(BACKUP_USAGE);
        return EXIT.OK;
      }
      return command === 'backup' ? runBackupCommand(rest) : runRestoreCommand(rest);
    case 'store':
      if (wantsHelp) {
        process.stdout.write(STORE_USAGE);
        return EXIT.OK;
      }
      // Loaded when used: the other commands start without the PostgreSQL driver.
      return (await import('./cli/store-commands')).runStoreCommand(rest);
    case 'sale':
      if (wantsHelp) {
        process.stdout.write(SALE_USAGE);
        return EXIT.OK;
      }
      // Loaded when used, as store is: the other commands start without the sale's modules.
      return (await import('./cli/sale-commands')).runSaleCommand(rest);
    case 'catalogue':
      if (wantsHelp) {
        process.stdout.write(CATALOGUE_USAGE);
        return EXIT.OK;
      }
      return (await import('./cli/catalogue-commands')).runCatalogueCommand(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? EXIT.INVALID_INPUT : EXIT.OK;
    default:
      process.stderr.write(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
      return EXIT.INVALID_INPUT;
  }
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
