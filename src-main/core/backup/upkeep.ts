import { checkDatabase, damaged, type Database } from '../../db/open';
import { systemClock, type Clock } from '../ports';
import type { BackupReason, BackupResult, Backups } from './backups';

/** Backups every few hours while Loket is open, besides the one at start and the one after closing the day. */
export const BACKUP_EVERY_MS = 4 * 3600_000;
/** SQLite's full integrity check, once a day, at a quiet moment. */
export const INTEGRITY_EVERY_MS = 24 * 3600_000;
/** Quiet: no order open, and no call for this long. */
export const QUIET_MS = 10 * 60_000;
const TICK_MS = 5 * 60_000;

export interface UpkeepTimers {
  every(fn: () => void, ms: number): { cancel(): void };
}

const realTimers: UpkeepTimers = {
  every: (fn, ms) => {
    const t = setInterval(fn, ms);
    t.unref();
    return { cancel: () => clearInterval(t) };
  },
};

export interface UpkeepOptions {
  backups: Backups;
  /** The store's books: what is backed up. */
  storeDb: Database;
  /** Every database the full check covers (the store's, and the training log when in use). */
  checked: () => { path: string; db: Database }[];
  /** The second folder backups are copied to (settings), read at each backup. */
  copyTo: () => string | null;
  /** Whether anything is going on: open orders, or a call in the last QUIET_MS. */
  busy: () => boolean;
  /** A database failed the full check: payments must stop. */
  onDamaged: (message: string) => void;
  log: (line: string) => void;
  clock?: Clock;
  timers?: UpkeepTimers;
}

/**
 * What keeps the store's books safe while Loket runs: a backup at start and every few hours, and SQLite's full
 * integrity check once a day when the till is quiet (docs/when-things-break.md).
 */
export class Upkeep {
  private lastBackupAt = 0;
  private lastCheckAt: number;
  private timer: { cancel(): void } | undefined;
  private readonly clock: Clock;

  constructor(private readonly options: UpkeepOptions) {
    this.clock = options.clock ?? systemClock;
    // The quick check ran at open; the first full one waits for a quiet moment a day later.
    this.lastCheckAt = this.clock.now().getTime();
  }

  start(): void {
    void this.backup('start');
    this.timer = (this.options.timers ?? realTimers).every(() => void this.tick(), TICK_MS);
  }

  /** Stops the timers and waits for a backup in progress: the database must not close under it. */
  async stop(): Promise<void> {
    this.timer?.cancel();
    this.timer = undefined;
    await this.running;
  }

  async backup(reason: BackupReason): Promise<BackupResult | undefined> {
    const run = this.backupNow(reason);
    this.running = run.then(() => undefined);
    return run;
  }

  private running: Promise<void> = Promise.resolve();

  private async backupNow(reason: BackupReason): Promise<BackupResult | undefined> {
    this.lastBackupAt = this.clock.now().getTime();
    try {
      const result = await this.options.backups.create(this.options.storeDb, reason, this.options.copyTo());
      this.options.log(`backup (${reason}): ${result.path}${result.copyError ? `; ${result.copyError}` : ''}`);
      return result;
    } catch (err) {
      this.options.log(`backup (${reason}) failed: ${(err as Error).message}`);
      return undefined;
    }
  }

  /** Runs the full check now; returns the problems found (empty: all fine). */
  check(): string[] {
    this.lastCheckAt = this.clock.now().getTime();
    for (const { path, db } of this.options.checked()) {
      let problems: string[];
      try {
        problems = checkDatabase(db, 'full');
      } catch (err) {
        problems = [(err as Error).message];
      }
      if (problems.length > 0) {
        const message = damaged(path, problems).message;
        this.options.log(message);
        this.options.onDamaged(message);
        return problems;
      }
    }
    return [];
  }

  /** What a timer tick does; public so a test can step it on an injected clock. */
  async tick(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now - this.lastBackupAt >= BACKUP_EVERY_MS) await this.backup('periodic');
    if (now - this.lastCheckAt >= INTEGRITY_EVERY_MS && !this.options.busy()) this.check();
  }
}
