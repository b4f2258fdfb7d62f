import { checkDatabase, damaged, type Database } from '../../db/open';
import { systemClock, type Clock } from '../ports';
import type { BackupReason, Backups, CopyResult, TakenBackup } from './backups';

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
  /** The charges in flight: no backup starts, and a copy starts no further chunk, while there is one. */
  charges?: { readonly active: boolean; whenNone(): Promise<void> };
  /** A database failed the full check: payments must stop. */
  onDamaged: (message: string) => void;
  log: (line: string) => void;
  clock?: Clock;
  timers?: UpkeepTimers;
}

/** A backup taken by the upkeep; its copy to the second folder (when one is set) goes on after it. */
export interface UpkeepBackup extends TakenBackup {
  /** The copy to the second folder, off the main thread and never during a charge: how it ended (never rejects). */
  copy?: Promise<CopyResult>;
}

/**
 * What keeps the store's books safe while Loket runs: a backup at start and every few hours, and SQLite's full
 * integrity check once a day when the till is quiet (docs/when-things-break.md). Neither a backup nor its copy to
 * the second folder starts while a charge is in flight; the copy never blocks the main thread.
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

  /**
   * Stops the timers, waits for a backup in progress (the database must not close under it) and stops a copy in
   * progress at its next chunk: a stuck USB stick must not keep Loket from closing.
   */
  async stop(): Promise<void> {
    this.timer?.cancel();
    this.timer = undefined;
    this.copies.abort();
    await this.running;
  }

  /** A backup now, once no charge is in flight; resolves when it is taken, with its copy (if any) still going. */
  async backup(reason: BackupReason): Promise<UpkeepBackup | undefined> {
    const run = this.backupNow(reason);
    this.running = run.then(() => undefined);
    return run;
  }

  private running: Promise<void> = Promise.resolve();
  private readonly copies = new AbortController();
  /** One copy at a time: two would only share the stick's slowness. */
  private copying: Promise<unknown> = Promise.resolve();

  private async backupNow(reason: BackupReason): Promise<UpkeepBackup | undefined> {
    this.lastBackupAt = this.clock.now().getTime();
    await this.noCharge(`backup (${reason})`);
    let taken: TakenBackup;
    try {
      taken = await this.options.backups.take(this.options.storeDb, reason);
    } catch (err) {
      this.options.log(`backup (${reason}) failed: ${(err as Error).message}`);
      return undefined;
    }
    this.options.log(`backup (${reason}): ${taken.path}`);
    const folder = this.options.copyTo();
    if (!folder) return taken;
    const copy = this.copying.then(() =>
      this.options.backups.copy(taken.path, folder, {
        beforeWrite: () => this.noCharge(`backup (${reason}): the copy to ${folder}`),
        signal: this.copies.signal,
      }),
    );
    this.copying = copy;
    void copy.then((result) =>
      this.options.log(
        'copiedTo' in result
          ? `backup (${reason}) copied to ${result.copiedTo}`
          : `backup (${reason}): ${result.copyError}`,
      ),
    );
    return { ...taken, copy };
  }

  /** Resolves when no charge is in flight, saying so in the log when it has to wait. */
  private async noCharge(what: string): Promise<void> {
    const charges = this.options.charges;
    if (!charges?.active) return;
    this.options.log(`${what} waits for the charge in flight`);
    await charges.whenNone();
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
