// The store's books opened for reading and closing, without the gateway: shared by report, close-day, attention,
// export, orders list and order show, so that they all read the same log.
import { join } from 'node:path';
import type { PaymentMethod } from '../common/payment-methods';
import type { LoketSettings } from '../common/settings';
import { loadPaymentCatalogue } from '../core/catalogue';
import { systemClock, type Clock } from '../core/ports';
import type { StaffNames } from '../core/reports/day-report';
import { StaffStore } from '../core/staff/staff-store';
import { openDatabase, openDatabaseReadOnly, type Database } from '../db/open';
import { openStoreBooks, type OpenOptions, type StoreBooks } from '../runtime';

/**
 * Where the commands read and write; tests pass their own data folder, environment and clock. `store`: the store's
 * books already open in this process, which then holds the data folder (a host running a command in-process); the
 * command uses them and leaves them open.
 */
export type ReportCommandOptions = Pick<OpenOptions, 'env' | 'dataDir' | 'clock' | 'secrets' | 'store'>;

export interface Books {
  store: StoreBooks;
  /** The order log's database: the store's books when live, the training log otherwise. */
  db: Database;
  training: boolean;
  settings: LoketSettings;
  methods: PaymentMethod[];
  staffNames: StaffNames;
  clock: Clock;
}

/**
 * The books a report is of, without the gateway: the store's (loket.db) when Loket would run live — a gateway in
 * the environment (LOKET_GATEWAY_URL), or live mode with a configured gateway in settings — else the training log
 * (training/loket.db). Reading them needs no keychain: a report works while the keychain is locked.
 *
 * withBooks is for a command that changes them (close-day): it takes the data folder's lock, and is refused
 * (FolderBusyError, exit 7) while the app, serve or another command holds it. readBooks opens them read-only, beside
 * a running Loket (report, export, the attention list, orders list, order show): docs/cli.md, "Who writes the data
 * folder".
 */
export function withBooks<T>(options: ReportCommandOptions, fn: (books: Books) => Promise<T>): Promise<T> {
  return openBooks(options, fn, false);
}

export function readBooks<T>(options: ReportCommandOptions, fn: (books: Books) => Promise<T>): Promise<T> {
  return openBooks(options, fn, true);
}

async function openBooks<T>(
  options: ReportCommandOptions,
  fn: (books: Books) => Promise<T>,
  readOnly: boolean,
): Promise<T> {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  const store =
    options.store ??
    openStoreBooks({
      env,
      clock,
      readOnly,
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.secrets ? { secrets: options.secrets } : {}),
    });
  let training: Database | undefined;
  try {
    const settings = store.settings.load();
    const live = Boolean(env.LOKET_GATEWAY_URL) || (settings.mode === 'live' && settings.gateway !== null);
    const trainingPath = join(store.dataDir, 'training', 'loket.db');
    if (!live) training = readOnly ? openDatabaseReadOnly(trainingPath) : openDatabase(trainingPath);
    return await fn({
      store,
      db: training ?? store.db,
      training: !live,
      settings,
      methods: settings.paymentMethods ?? loadPaymentCatalogue(env.LOKET_CATALOGUE),
      staffNames: new StaffStore(store.db).list({ includeInactive: true }),
      clock,
    });
  } finally {
    training?.close();
    if (store !== options.store) store.close();
  }
}
