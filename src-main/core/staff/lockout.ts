import type { Database, Statement } from 'better-sqlite3';
import { systemClock, type Clock } from '../ports';

/**
 * The PIN lockout policy, for the whole till (not per person: a wrong PIN for anyone counts, so trying
 * one guess on each name gains nothing):
 * - the first FREE_FAILURES wrong PINs in a row cost nothing (a slip of the finger);
 * - each further one locks PIN entry for BASE_DELAY_MS × 2^(n − FREE_FAILURES − 1), n being the count of
 *   wrong PINs in a row: 30 s after the 4th, 1 min after the 5th, 2, 4, 8 min, then MAX_DELAY_MS (15 min)
 *   after the 9th and every one after it;
 * - while locked, every PIN is refused unchecked, the right one too, and the count stays;
 * - a right PIN (once unlocked) sets the count back to 0;
 * - the count and the lock are in the database, so restarting Loket does not clear them; the CLI's PIN
 *   reset (run on the machine's own account) does.
 * At the cap that is at most 96 guesses a day: trying every 4-digit PIN takes about 100 days of steady
 * guessing (which the audit log shows, one `pin.failed` per guess), every 8-digit one, millennia.
 */
export const LOCKOUT_POLICY = {
  FREE_FAILURES: 3,
  BASE_DELAY_MS: 30_000,
  MAX_DELAY_MS: 15 * 60_000,
} as const;

/** How long PIN entry is locked after the `failures`-th wrong PIN in a row (0: not locked). */
export function lockoutDelayMs(failures: number): number {
  const { FREE_FAILURES, BASE_DELAY_MS, MAX_DELAY_MS } = LOCKOUT_POLICY;
  if (!(failures > FREE_FAILURES)) return 0;
  const doublings = failures - FREE_FAILURES - 1;
  // 2^5 × 30 s already passes the cap; not computing 2^n for large n keeps the arithmetic exact.
  return doublings >= 5 ? MAX_DELAY_MS : Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** doublings);
}

export type LockoutCheck = { allowed: true } | { allowed: false; retryAfterMs: number };

export interface LockoutFailure {
  /** Wrong PINs in a row, this one included. */
  failures: number;
  /** How long PIN entry is now locked (0: not locked). */
  retryAfterMs: number;
}

interface LockoutRow {
  failures: number;
  last_failure_at: string | null;
  locked_until: string | null;
}

/**
 * The lockout's state, in the `pin_lockout` row of the database. Each write is one IMMEDIATE transaction
 * (or joins one already open on the connection), so two windows counting at once cannot lose a failure.
 */
export class PinLockout {
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Whether a PIN may be checked now. */
  check(): LockoutCheck {
    const retryAfterMs = this.remainingMs(this.row(), this.clock.now());
    return retryAfterMs > 0 ? { allowed: false, retryAfterMs } : { allowed: true };
  }

  /** Counts a wrong PIN, and locks as LOCKOUT_POLICY says. */
  failure(): LockoutFailure {
    return this.write(() => this.countFailure(this.clock.now()));
  }

  /** A right PIN: the count goes back to 0. Callers check first: a right PIN while locked is refused. */
  success(): void {
    this.write(() => this.reset());
  }

  /** Sets the count back to 0 and lifts a lock; for the CLI's PIN reset, which runs on the machine's account. */
  clear(): void {
    this.write(() => this.reset());
  }

  /**
   * `check` and `failure` in one write, for a caller about to check a PIN asynchronously: the attempt counts
   * as wrong before the PIN is hashed, and `success()` takes it back if the PIN was right. So PIN checks
   * started side by side (two requests at once, two windows) cannot all pass `check` before any of them is
   * counted: whatever their number, no more PINs are tried than one at a time would allow. The result says
   * what happens if this PIN turns out wrong.
   */
  attempt(): ({ allowed: true } & LockoutFailure) | { allowed: false; retryAfterMs: number } {
    return this.write(() => {
      const now = this.clock.now();
      const retryAfterMs = this.remainingMs(this.row(), now);
      if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
      return { allowed: true, ...this.countFailure(now) };
    });
  }

  /** Wrong PINs in a row so far. */
  failures(): number {
    return this.row().failures;
  }

  private countFailure(now: Date): LockoutFailure {
    const failures = this.row().failures + 1;
    const retryAfterMs = lockoutDelayMs(failures);
    const lockedUntil = retryAfterMs > 0 ? new Date(now.getTime() + retryAfterMs).toISOString() : null;
    this.upsert(failures, now.toISOString(), lockedUntil);
    return { failures, retryAfterMs };
  }

  /** The count and the lock go; `last_failure_at` stays, as a record of when the last wrong PIN was. */
  private reset(): void {
    this.stmt('UPDATE pin_lockout SET failures = 0, locked_until = NULL WHERE id = 1').run();
  }

  /**
   * What is left of the lock at `now`, never more than the longest lock: should the system clock be set back,
   * the till stays locked no longer than the policy allows.
   */
  private remainingMs(row: LockoutRow, now: Date): number {
    if (row.locked_until === null) return 0;
    const left = Date.parse(row.locked_until) - now.getTime();
    return Number.isFinite(left) && left > 0 ? Math.min(left, LOCKOUT_POLICY.MAX_DELAY_MS) : 0;
  }

  private row(): LockoutRow {
    return (
      this.stmt<[], LockoutRow>(
        'SELECT failures, last_failure_at, locked_until FROM pin_lockout WHERE id = 1',
      ).get() ?? {
        failures: 0,
        last_failure_at: null,
        locked_until: null,
      }
    );
  }

  private upsert(failures: number, lastFailureAt: string, lockedUntil: string | null): void {
    // An upsert, though migration 5 creates the row: a missing row must not make the lockout fail open.
    this.stmt(
      `INSERT INTO pin_lockout (id, failures, last_failure_at, locked_until) VALUES (1, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET failures = excluded.failures, last_failure_at = excluded.last_failure_at,
         locked_until = excluded.locked_until`,
    ).run(failures, lastFailureAt, lockedUntil);
  }

  private write<T>(fn: () => T): T {
    const tx = this.db.transaction(fn);
    return this.db.inTransaction ? tx() : tx.immediate();
  }

  private stmt<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R> {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s as unknown as Statement<P, R>;
  }
}
