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

/** Where the commands read and write; tests pass their own data folder, environment and clock. */
export type ReportCommandOptions = Pick<OpenOptions, 'env' | 'dataDir' | 'clock' | 'secrets'>;

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
 */
export async function withBooks<T>(
  options: ReportCommandOptions,
  fn: (books: Books) => Promise<T>,
  /**
   * `read` (report, export, the attention list, orders list, order show): opened read-only, beside a running Loket;
   * `write` (close-day): the data folder's lock is taken, or the command is refused while another process holds it.
   */
  access: 'read' | 'write',
): Promise<T> {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  const readOnly = access === 'read';
  const store = openStoreBooks({
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
    store.close();
  }
}
