import { SecretStoreUnavailableError, type Clock } from '../core/ports';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
import { NotEnrolledError, storeConnection, type StoreSecrets } from './credentials';
import type { LocalBook, SyncConflict } from './local-book';
import { classifyPgError, closeQuietly, connectStore, describePgError, type PgClient } from './pg-connect';
import { StoreUrlError } from './pg-url';
import { StoreRefusedError, syncPass, type PassResult } from './sync';

/**
 * The store book's background worker (docs/store-book.md, "The sync"): sends this data folder's events to the
 * store's PostgreSQL, pass after pass, on a connection and an SQLite connection of its own, so no sale ever waits
 * for it. Its status is what the cashier's header and the manager's screens show:
 *
 * - `synced`: everything written has been acknowledged by the store book;
 * - `waiting`: N events are still to send (a pass is under way, or the next one is due);
 * - `offline`: the store book cannot be reached since `offlineSince`; attempts continue with exponential backoff
 *   and jitter (`nextAttemptAt`), the till keeps selling;
 * - `conflict`: the store book holds another event under one of this terminal's numbers (or this data folder is
 *   not the one enrolled): nothing more is sent until a manager resolves it; the till keeps selling;
 * - `refused`: the store book refused this terminal (its password, its role): retried slowly, needs enrolment;
 * - `keychain`: the OS keychain that holds the password cannot be used now (locked, absent): retried;
 * - `not_enrolled`: no store book is set up for this data folder;
 * - `stopped`: not running.
 *
 * `start()` runs passes until `stop()`: after a pass that sent everything, the next comes after `idleMs` (or at
 * `kick()`, when the till wrote something); after a failure, after the backoff. `syncNow()` runs one pass (the
 * CLI's `store sync`).
 */

export type SyncState =
  'synced' | 'waiting' | 'offline' | 'conflict' | 'refused' | 'keychain' | 'not_enrolled' | 'stopped';

export interface SyncStatus {
  state: SyncState;
  /** The terminal this data folder sends as (when known). */
  terminalId?: string;
  /** Events written and not yet acknowledged by the store book. */
  waiting: number;
  /** The last time the store book acknowledged everything (or a batch). */
  lastSyncAt?: string;
  /** Since when the store book cannot be reached (state offline). */
  offlineSince?: string;
  /** When the next attempt is due (after a failure). */
  nextAttemptAt?: string;
  /** Why the last attempt failed, in words (never a password). */
  lastError?: string;
  conflict?: SyncConflict;
}

/** A timer source: the Clock's companion (the sandbox's clocks and test/node/helpers/fake-clock.ts have it). */
export interface Scheduler {
  schedule(fn: () => void, ms: number): { cancel(): void };
}

export const realScheduler: Scheduler = {
  schedule(fn, ms) {
    const timer = setTimeout(fn, ms);
    return { cancel: () => clearTimeout(timer) };
  },
};

export interface SyncWorkerOptions {
  /** The data folder's own books (LocalBook.open(dataDir)); the worker does not close it. */
  local: LocalBook;
  env?: NodeJS.ProcessEnv;
  /** Where the password is kept (the OS keychain); LOKET_STORE_URL in `env` wins. */
  secrets?: StoreSecrets;
  clock: Clock;
  scheduler?: Scheduler;
  /** [0, 1): the backoff's jitter. */
  random?: () => number;
  batchSize?: number;
  /** Batches per pass, so a long catch-up yields between passes (and its status moves). */
  batchesPerPass?: number;
  /** After a pass that sent everything, the next one after this long (or at kick()). */
  idleMs?: number;
  backoff?: BackoffPolicy;
  /** Tests: after PostgreSQL committed a batch, before the cursor moves. */
  afterCommit?: (lastSeq: number) => void | Promise<void>;
}

export const DEFAULT_BATCH_SIZE = 500;
export const DEFAULT_IDLE_MS = 5_000;

export class SyncWorker {
  private readonly listeners = new Set<(status: SyncStatus) => void>();
  private current: SyncStatus = { state: 'stopped', waiting: 0 };
  private client: PgClient | undefined;
  private running = false;
  private timer: { cancel(): void } | undefined;
  private pass: Promise<PassResult | undefined> | undefined;
  private failures = 0;
  /** After a failed pass of the running worker: how long until the next attempt. */
  private retryDelay: number | undefined;
  private readonly env: NodeJS.ProcessEnv;
  private readonly scheduler: Scheduler;
  private readonly random: () => number;

  constructor(private readonly options: SyncWorkerOptions) {
    this.env = options.env ?? process.env;
    this.scheduler = options.scheduler ?? realScheduler;
    this.random = options.random ?? Math.random;
    this.refreshIdle();
  }

  status(): SyncStatus {
    return { ...this.current };
  }

  /** Calls `listener` with each new status; returns the unsubscribe. */
  onStatus(listener: (status: SyncStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops the passes: waits for the one under way (its batch commits or rolls back), closes the connection. */
  async stop(): Promise<void> {
    this.running = false;
    this.timer?.cancel();
    this.timer = undefined;
    await this.pass?.catch(() => undefined);
    await closeQuietly(this.client);
    this.client = undefined;
    this.set({ ...this.current, state: this.current.state === 'conflict' ? 'conflict' : 'stopped' });
  }

  /** The till wrote something: a pass soon, unless one is under way or the link is in backoff. */
  kick(): void {
    if (!this.running || this.pass || this.failures > 0) return;
    this.schedule(0);
  }

  /** One pass now (the CLI's `store sync`); resolves with its result, or undefined when it failed (see status()). */
  async syncNow(): Promise<PassResult | undefined> {
    if (this.pass) await this.pass.catch(() => undefined);
    this.pass = this.runPass();
    try {
      return await this.pass;
    } finally {
      this.pass = undefined;
    }
  }

  private schedule(ms: number): void {
    this.timer?.cancel();
    this.timer = this.scheduler.schedule(() => {
      this.timer = undefined;
      void this.loop();
    }, ms);
  }

  private async loop(): Promise<void> {
    if (!this.running || this.pass) return;
    const result = await this.syncNow();
    if (!this.running) return;
    if (result === undefined) this.schedule(this.retryDelay ?? 0);
    else if (result.outcome === 'more') this.schedule(0);
    else if (result.outcome === 'synced') this.schedule(this.options.idleMs ?? DEFAULT_IDLE_MS);
    // A conflict: no more passes until a manager resolves it (and the worker is started again).
  }

  private async runPass(): Promise<PassResult | undefined> {
    const { local, clock } = this.options;
    let terminalId = this.current.terminalId;
    try {
      const link = local.link();
      if (!this.client) {
        const connection = await storeConnection(this.env, link, this.options.secrets);
        this.client = await connectStore(connection.url);
      }
      if (!terminalId) {
        terminalId = link?.terminalId ?? (await this.roleTerminal(this.client));
      }
      const result = await syncPass(local, this.client, {
        terminalId,
        instanceId: local.instanceId(),
        clock,
        batchSize: this.options.batchSize ?? DEFAULT_BATCH_SIZE,
        ...(this.options.batchesPerPass ? { maxBatches: this.options.batchesPerPass } : {}),
        ...(this.options.afterCommit ? { afterCommit: this.options.afterCommit } : {}),
      });
      this.failures = 0;
      const waiting = this.waitingOf(terminalId);
      const now = clock.now().toISOString();
      if (result.outcome === 'conflict') {
        this.set({ state: 'conflict', terminalId, waiting, conflict: result.conflict, ...this.lastSync() });
      } else {
        this.set({
          state: waiting === 0 ? 'synced' : 'waiting',
          terminalId,
          waiting,
          lastSyncAt: now,
        });
      }
      return result;
    } catch (err) {
      this.failures++;
      await closeQuietly(this.client);
      this.client = undefined;
      const waiting = terminalId ? this.waitingOf(terminalId) : this.current.waiting;
      this.retryDelay = this.running
        ? backoffDelay(this.failures, this.random(), this.options.backoff ?? DEFAULT_BACKOFF)
        : undefined;
      const base = {
        ...(terminalId ? { terminalId } : {}),
        waiting,
        ...this.lastSync(),
        ...(this.retryDelay !== undefined
          ? { nextAttemptAt: new Date(clock.now().getTime() + this.retryDelay).toISOString() }
          : {}),
      };
      if (err instanceof NotEnrolledError || err instanceof StoreUrlError) {
        this.set({ ...base, state: 'not_enrolled', lastError: err.message });
      } else if (err instanceof SecretStoreUnavailableError) {
        this.set({ ...base, state: 'keychain', lastError: err.message });
      } else if (err instanceof StoreRefusedError || classifyPgError(err) === 'auth') {
        this.set({ ...base, state: 'refused', lastError: err instanceof Error ? describePgError(err) : String(err) });
      } else {
        this.set({
          ...base,
          state: 'offline',
          offlineSince: this.current.offlineSince ?? clock.now().toISOString(),
          lastError: describePgError(err),
        });
      }
      return undefined;
    }
  }

  /** With LOKET_STORE_URL and no enrolment here: the terminal the store book knows this role as. */
  private async roleTerminal(client: PgClient): Promise<string> {
    const r = await client.query<{ t: string | null }>('SELECT loket.terminal_of(current_user::text) AS t');
    const t = r.rows[0]?.t;
    if (!t)
      throw new StoreRefusedError(
        'the store book does not know this connection’s role as one of its terminals: enrol this terminal',
      );
    return t;
  }

  private waitingOf(terminalId: string): number {
    const { local } = this.options;
    return Math.max(local.head(terminalId) - local.cursor(terminalId).ackedSeq, 0);
  }

  private lastSync(): { lastSyncAt?: string } {
    return this.current.lastSyncAt ? { lastSyncAt: this.current.lastSyncAt } : {};
  }

  /** The status before the first pass, from the till's own books (no connection needed). */
  private refreshIdle(): void {
    const link = this.options.local.link();
    const terminalId = link?.terminalId;
    if (!terminalId) return;
    const cursor = this.options.local.cursor(terminalId);
    this.current = {
      state: cursor.conflict ? 'conflict' : 'stopped',
      terminalId,
      waiting: this.waitingOf(terminalId),
      ...(cursor.ackedAt ? { lastSyncAt: cursor.ackedAt } : {}),
      ...(cursor.conflict ? { conflict: cursor.conflict } : {}),
    };
  }

  private set(status: SyncStatus): void {
    this.current = status;
    for (const listener of this.listeners) {
      try {
        listener({ ...status });
      } catch {
        // A broken listener must not stop the sync.
      }
    }
  }
}
