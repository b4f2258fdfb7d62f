import type { StoreLinkView } from '../common/store-book';
import type { Clock } from '../core/ports';
import type { BackoffPolicy } from './backoff';
import { NotEnrolledError, storeConnection, STORE_URL_VARIABLE, type StoreSecrets } from './credentials';
import { LocalBook } from './local-book';
import { connectStore, type PgClient } from './pg-connect';
import { SyncWorker, type Scheduler, type SyncStatus } from './sync-worker';

/**
 * The store book's sync in the app (browser mode and the desktop app; docs/store-book.md, "The sync"): when this
 * data folder is enrolled (or LOKET_STORE_URL names its terminal), a SyncWorker runs in the background for as long
 * as the host runs — in live and training mode alike, since it sends only the store's own books (loket.db), never
 * the training log. The host kicks it when the order log changes; between kicks it runs on its idle and backoff
 * timers. A sale never waits for it: kick() only schedules a pass, on the worker's own SQLite and PostgreSQL
 * connections.
 *
 * Its status, as the cashier's header shows it, is `link()`; `onLink` tells of each change (not of every pass).
 */

export interface AppSyncOptions {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  /** The OS keychain (adapters/store-book-keychain.ts); LOKET_STORE_URL in `env` wins. */
  secrets?: StoreSecrets;
  log?: (line: string) => void;
  /** Tests: the worker's timers, jitter, pacing. */
  scheduler?: Scheduler;
  random?: () => number;
  backoff?: BackoffPolicy;
  idleMs?: number;
  batchSize?: number;
}

const NOT_ENROLLED: StoreLinkView = { state: 'not_enrolled', waiting: 0 };

export class AppSync {
  private readonly listeners = new Set<(link: StoreLinkView) => void>();
  private last: StoreLinkView;
  private lastError: string | undefined;

  private constructor(
    private readonly worker: SyncWorker | undefined,
    private readonly local: LocalBook | undefined,
    private readonly options: AppSyncOptions,
    private readonly log: (line: string) => void,
  ) {
    this.last = worker ? linkOf(worker.status()) : NOT_ENROLLED;
    worker?.onStatus((status) => this.changed(status));
  }

  /** Starts the worker when this data folder is enrolled in a store book; otherwise an idle one (not_enrolled). */
  static start(options: AppSyncOptions): AppSync {
    const log = options.log ?? (() => undefined);
    let local: LocalBook;
    try {
      local = LocalBook.open(options.dataDir);
    } catch (err) {
      // The till's own books come first: a store book that cannot be read here never stops the till from opening.
      log(`store book: cannot read this folder's books for the sync: ${(err as Error).message}`);
      return new AppSync(undefined, undefined, options, log);
    }
    if (!local.link() && !options.env[STORE_URL_VARIABLE]) {
      local.close();
      return new AppSync(undefined, undefined, options, log);
    }
    const worker = new SyncWorker({
      local,
      env: options.env,
      clock: options.clock,
      ...(options.env[STORE_URL_VARIABLE] ? {} : options.secrets ? { secrets: options.secrets } : {}),
      ...(options.scheduler ? { scheduler: options.scheduler } : {}),
      ...(options.random ? { random: options.random } : {}),
      ...(options.backoff ? { backoff: options.backoff } : {}),
      ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
      ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    });
    const sync = new AppSync(worker, local, options, log);
    worker.start();
    log(`store book: syncing as terminal ${worker.status().terminalId ?? '(from LOKET_STORE_URL)'}`);
    return sync;
  }

  get enrolled(): boolean {
    return this.worker !== undefined;
  }

  /** The link as the cashier's header shows it. */
  link(): StoreLinkView {
    return { ...this.last };
  }

  /** Calls `listener` when the link's view changes; returns the unsubscribe. */
  onLink(listener: (link: StoreLinkView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A connection of this terminal's own role to the store book, for the manager's reads of the whole store (its
   * SELECT on the store's views); the caller ends it. Not enrolled: NotEnrolledError.
   */
  async connect(): Promise<PgClient> {
    if (!this.local) throw new NotEnrolledError('this terminal is not enrolled in a store book');
    const { env, secrets } = this.options;
    const connection = await storeConnection(env, this.local.link(), env[STORE_URL_VARIABLE] ? undefined : secrets);
    return connectStore(connection.url);
  }

  /** The till wrote something: a pass soon (unless one is under way, or the link is in backoff). */
  kick(): void {
    this.worker?.kick();
  }

  /** Stops the worker (its batch under way commits or rolls back first) and closes its connections. */
  async stop(): Promise<void> {
    if (!this.worker) return;
    await this.worker.stop();
    this.listeners.clear();
    this.local?.close();
  }

  private changed(status: SyncStatus): void {
    // The log hears of a new failure once, not at every retry (the words never hold a password).
    if (status.lastError !== this.lastError) {
      this.lastError = status.lastError;
      if (status.lastError) this.log(`store book: ${status.state}: ${status.lastError}`);
      else this.log(`store book: ${status.state}`);
    }
    const next = linkOf(status);
    if (JSON.stringify(next) === JSON.stringify(this.last)) return;
    this.last = next;
    for (const listener of this.listeners) {
      try {
        listener({ ...next });
      } catch {
        // A broken listener must not stop the sync.
      }
    }
  }
}

/** The worker's status as the header shows it: its own states, fewer of them. */
export function linkOf(status: SyncStatus): StoreLinkView {
  const base = { waiting: status.waiting, ...(status.lastSyncAt ? { lastSyncAt: status.lastSyncAt } : {}) };
  switch (status.state) {
    case 'not_enrolled':
      // A worker runs only where a store book is set up: its password is missing here (enrol again).
      return { state: 'refused', ...base };
    case 'offline':
      return { state: 'offline', ...base, ...(status.offlineSince ? { since: status.offlineSince } : {}) };
    case 'conflict':
      return { state: 'conflict', ...base };
    case 'refused':
    case 'keychain':
      return { state: 'refused', ...base };
    case 'synced':
    case 'waiting':
    case 'stopped':
      // Before the first pass (stopped), the till's own cursor tells what waits.
      return { state: status.waiting === 0 ? 'synced' : 'waiting', ...base };
  }
}
