import { randomBytes } from 'node:crypto';
import { systemClock, type Clock } from '../ports';
import { ManagerLockedError } from './errors';
import type { StaffSummary } from './staff-store';

/** Manager mode locks itself after this long without use, unless the settings say otherwise. */
export const DEFAULT_MANAGER_IDLE_MS = 5 * 60_000;

export interface ManagerSession {
  /** 32 random bytes, base64url: what the screen sends with each manager action. */
  token: string;
  /** When the session locks if it is not used before (ISO UTC); each use moves it on. */
  expiresAt: string;
}

interface Entry {
  staff: StaffSummary;
  lastUsedMs: number;
}

/**
 * Unlocked manager sessions, in memory only: restarting Loket locks them all. A session locks when it has
 * not been used for `idleMs` (measured from its last use at each check, so `setIdleMs` applies to open
 * sessions at once), or when closed.
 *
 * Tokens are looked up in a Map rather than compared in constant time, and that is safe: a lookup hashes
 * the whole presented string and compares characters only with a key of the same hash, so its timing can
 * at most tell whether a guess shares a 32-bit hash with a live token — never a prefix of it — and that
 * narrows nothing in a space of 2^256 tokens. (A constant-time loop over every session would leak the
 * number of sessions instead, and gain nothing.)
 */
export class ManagerSessions {
  private readonly sessions = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock = systemClock,
    private idleMs: number = DEFAULT_MANAGER_IDLE_MS,
  ) {
    checkIdleMs(idleMs);
  }

  open(staff: StaffSummary): ManagerSession {
    this.sweep();
    const token = randomBytes(32).toString('base64url');
    const now = this.nowMs();
    this.sessions.set(token, { staff, lastUsedMs: now });
    return { token, expiresAt: this.iso(now + this.idleMs) };
  }

  /**
   * The staff member a live session belongs to, as they were when it opened; using it moves its deadline on.
   * ManagerLockedError (`locked`) for a token that is unknown, closed or idle too long.
   */
  touch(token: unknown): StaffSummary {
    return this.use(token).staff;
  }

  /** As `touch`, with the new deadline. */
  use(token: unknown): { staff: StaffSummary; expiresAt: string } {
    const entry = typeof token === 'string' ? this.sessions.get(token) : undefined;
    const now = this.nowMs();
    if (entry === undefined) throw new ManagerLockedError();
    if (now - entry.lastUsedMs >= this.idleMs) {
      this.sessions.delete(token as string);
      throw new ManagerLockedError('manager mode locked itself after a while unused: enter a manager PIN');
    }
    entry.lastUsedMs = now;
    return { staff: entry.staff, expiresAt: this.iso(now + this.idleMs) };
  }

  /** The staff member of a live session, without using it (its deadline stays); undefined otherwise. */
  peek(token: unknown): StaffSummary | undefined {
    const entry = typeof token === 'string' ? this.sessions.get(token) : undefined;
    return entry !== undefined && this.nowMs() - entry.lastUsedMs < this.idleMs ? entry.staff : undefined;
  }

  /** Whether the token was a live session (a lock is idempotent). */
  close(token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const entry = this.sessions.get(token);
    this.sessions.delete(token);
    return entry !== undefined && this.nowMs() - entry.lastUsedMs < this.idleMs;
  }

  /** Locks every session of one staff member (demoted, deactivated, PIN reset); returns how many were open. */
  closeFor(staffId: number): number {
    let n = 0;
    for (const [token, entry] of this.sessions)
      if (entry.staff.id === staffId) {
        this.sessions.delete(token);
        n++;
      }
    return n;
  }

  closeAll(): void {
    this.sessions.clear();
  }

  setIdleMs(ms: number): void {
    checkIdleMs(ms);
    this.idleMs = ms;
  }

  /** Sessions still live now. */
  count(): number {
    this.sweep();
    return this.sessions.size;
  }

  private sweep(): void {
    const now = this.nowMs();
    for (const [token, entry] of this.sessions) if (now - entry.lastUsedMs >= this.idleMs) this.sessions.delete(token);
  }

  private nowMs(): number {
    return this.clock.now().getTime();
  }

  private iso(ms: number): string {
    return new Date(ms).toISOString();
  }
}

function checkIdleMs(ms: number): void {
  if (!Number.isSafeInteger(ms) || ms < 1000)
    throw new RangeError(`manager idle time must be a whole number of milliseconds ≥ 1000, got ${ms}`);
}
