import type { Database } from 'better-sqlite3';
import { AuditLog, staffActor, type AuditActor } from '../audit/audit-log';
import type { PinRefusal } from '../../common/staff';
import { systemClock, type Clock } from '../ports';
import { ManagerExistsError, ManagerLockedError } from './errors';
import { PinLockout } from './lockout';
import { checkPinFormat, hashPin, verifyPin } from './pin';
import { DEFAULT_MANAGER_IDLE_MS, ManagerSessions, type ManagerSession } from './sessions';
import {
  StaffStore,
  checkStaffName,
  checkStaffRole,
  type NewStaff,
  type StaffChange,
  type StaffPatch,
  type StaffSummary,
} from './staff-store';

export type { StaffSummary } from './staff-store';
export type { ManagerSession } from './sessions';

export type { PinRefusal } from '../../common/staff';

export type UnlockResult = { ok: true; session: ManagerSession; staff: StaffSummary } | PinRefusal;

export type PinCheckResult = { ok: true; staff: StaffSummary } | PinRefusal;

/** What a PIN was entered for, as the audit log's `pin.failed` records it. */
type PinPurpose = 'manager_unlock' | 'sign_in' | 'pin_change' | 'manager_approval';

export interface AccessControlOptions {
  clock?: Clock;
  /** Manager mode locks after this long unused (default 5 minutes); `setIdleMs` changes it later. */
  idleMs?: number;
  /** The audit log to write to; one on the same connection is made otherwise. */
  audit?: AuditLog;
}

/**
 * Who may do what at the till: named staff with PINs (StaffStore), the till-wide PIN lockout (PinLockout),
 * manager sessions that lock when idle (ManagerSessions), and the audit log of every outcome that matters.
 *
 * - Checking a PIN: its format first (InvalidPinError, `invalid_arguments`, not counted), then the person
 *   (active; a manager, to unlock manager mode), then the lockout, which counts the attempt before scrypt
 *   runs (see PinLockout.attempt), then the PIN. A refusal is a result, not a throw: the screen shows it.
 * - Audited (never with a PIN or a hash): staff added, changed, removed; PINs changed and reset; each wrong
 *   PIN (`pin.failed`, its actor the person whose PIN was tried); each lock it causes (`pin.locked_out`);
 *   manager unlocks and locks; a cashier's sign-in. A change and its event commit in one transaction.
 * - Manager sessions of someone demoted, deactivated or given a new PIN by someone else are closed.
 */
export class AccessControl {
  readonly staff: StaffStore;
  readonly lockout: PinLockout;
  readonly sessions: ManagerSessions;
  readonly audit: AuditLog;

  constructor(
    private readonly db: Database,
    options: AccessControlOptions = {},
  ) {
    const clock = options.clock ?? systemClock;
    this.staff = new StaffStore(db, clock);
    this.lockout = new PinLockout(db, clock);
    this.sessions = new ManagerSessions(clock, options.idleMs ?? DEFAULT_MANAGER_IDLE_MS);
    this.audit = options.audit ?? new AuditLog(db, clock);
  }

  /** Active staff (for the sign-in and unlock screens), and whether first-use setup is still to do. */
  status(): { staff: StaffSummary[]; hasManager: boolean } {
    return { staff: this.staff.list(), hasManager: this.staff.countActiveManagers() > 0 };
  }

  /**
   * First use: the first manager and their PIN, only while Loket has no active manager (else
   * ManagerExistsError, `conflict`). Manager mode is unlocked for them at once. `actor` defaults to the new
   * manager, at the app; the CLI passes `cliActor(user)`.
   */
  async setupFirstManager(
    name: string,
    pin: string,
    actor?: AuditActor,
  ): Promise<{ staff: StaffSummary; session: ManagerSession }> {
    const cleanName = checkStaffName(name);
    checkPinFormat(pin);
    if (this.staff.countActiveManagers() > 0) throw new ManagerExistsError();
    const pinHash = await hashPin(pin);
    const staff = this.write(() => {
      // Again under the write lock: two first-use screens may have raced.
      if (this.staff.countActiveManagers() > 0) throw new ManagerExistsError();
      const added = this.staff.insertHashed({ name: cleanName, role: 'manager', pinHash });
      const who = actor ?? staffActor(added);
      this.audit.record({
        actor: who,
        action: 'staff.added',
        detail: { staffId: added.id, name: added.name, role: added.role, firstManager: true },
      });
      return added;
    });
    const session = this.sessions.open(staff);
    this.audit.record({ actor: staffActor(staff), action: 'manager.unlocked', detail: { via: 'setup' } });
    return { staff, session };
  }

  /** A manager's PIN unlocks manager mode: a session whose token the screen sends with each manager action. */
  async unlockManager(staffId: number, pin: string): Promise<UnlockResult> {
    const checked = await this.checkPin(staffId, pin, 'manager_unlock', true);
    if (!checked.ok) return checked;
    const session = this.sessions.open(checked.staff);
    this.audit.record({ actor: staffActor(checked.staff), action: 'manager.unlocked' });
    return { ok: true, session, staff: checked.staff };
  }

  /** Any active member of staff signing in at the till with their PIN (the same lockout as managers'). */
  async verifyStaffPin(staffId: number, pin: string): Promise<PinCheckResult> {
    const checked = await this.checkPin(staffId, pin, 'sign_in', false);
    if (checked.ok) this.audit.record({ actor: staffActor(checked.staff), action: 'staff.signed_in' });
    return checked;
  }

  /**
   * A manager's PIN given at the till to allow one thing a cashier may not do alone (a pay-out over the limit, a
   * "no sale", a discount over the limit): checked as every PIN is (the same lockout, a wrong one audited as
   * `pin.failed`), opening no session. The caller audits what was allowed, naming the manager.
   */
  async approveAsManager(staffId: number, pin: string): Promise<PinCheckResult> {
    return this.checkPin(staffId, pin, 'manager_approval', true);
  }

  /**
   * The manager of a live session, as they are now; using it moves its idle deadline on.
   * ManagerLockedError (`locked`) when the session is unknown, idle too long or locked, or its manager has
   * since been deactivated or made a cashier.
   */
  requireManager(token: unknown): StaffSummary {
    const { id } = this.sessions.touch(token);
    const now = this.staff.get(id);
    if (now === undefined || !now.active || now.role !== 'manager') {
      this.sessions.close(token);
      throw new ManagerLockedError('manager mode is locked: this session is no longer a manager’s');
    }
    return now;
  }

  /** Locks manager mode for this session (the lock button); false when it was not unlocked. */
  lock(token: unknown): boolean {
    const staff = this.sessions.peek(token);
    const wasLive = this.sessions.close(token);
    if (wasLive && staff !== undefined) this.audit.record({ actor: staffActor(staff), action: 'manager.locked' });
    return wasLive;
  }

  /** Locks every manager session (e.g. when the till is handed over). */
  lockAll(): void {
    this.sessions.closeAll();
  }

  /** The idle time after which manager mode locks itself, from the settings; applies to open sessions too. */
  setIdleMs(ms: number): void {
    this.sessions.setIdleMs(ms);
  }

  /** One's own PIN, changed by giving the current one (checked with the lockout, as any PIN). */
  async changeOwnPin(staffId: number, current: string, next: string): Promise<PinCheckResult> {
    checkPinFormat(next);
    const checked = await this.checkPin(staffId, current, 'pin_change', false);
    if (!checked.ok) return checked;
    const pinHash = await hashPin(next);
    const staff = this.write(() => {
      const { after } = this.staff.updateHashed(staffId, { pinHash });
      this.audit.record({ actor: staffActor(after), action: 'pin.changed', detail: { staffId } });
      return after;
    });
    return { ok: true, staff };
  }

  /**
   * A new PIN without the current one: the documented recovery for a forgotten PIN, run by the CLI on the
   * machine's own account (`actor` = `cliActor(user)`), never offered by the app to someone not signed in.
   * From the CLI (or `system`) it also clears the PIN lockout, so the recovered manager need not wait out a
   * lock their own forgotten guesses caused. The person's manager sessions are closed. A manager setting
   * another's PIN in the app uses `updateStaff(id, { pin })`, audited the same way.
   */
  async resetPin(staffId: number, next: string, actor: AuditActor): Promise<StaffSummary> {
    checkPinFormat(next);
    this.staff.require(staffId);
    const pinHash = await hashPin(next);
    const staff = this.write(() => {
      const { after } = this.staff.updateHashed(staffId, { pinHash });
      const clearLockout = actor.source !== 'app';
      const failures = this.lockout.failures();
      if (clearLockout) this.lockout.clear();
      this.audit.record({
        actor,
        action: 'pin.reset',
        detail: { staffId, name: after.name, ...(clearLockout ? { lockoutCleared: failures > 0 } : {}) },
      });
      return after;
    });
    this.sessions.closeFor(staffId);
    return staff;
  }

  async addStaff(input: NewStaff, actor: AuditActor): Promise<StaffSummary> {
    const name = checkStaffName(input.name);
    const role = checkStaffRole(input.role);
    const pinHash = await hashPin(checkPinFormat(input.pin));
    return this.write(() => {
      const added = this.staff.insertHashed({ name, role, pinHash });
      this.audit.record({
        actor,
        action: 'staff.added',
        detail: { staffId: added.id, name: added.name, role: added.role },
      });
      return added;
    });
  }

  /** Name, role, active and PIN (a manager setting someone's PIN: audited as `pin.reset`). */
  async updateStaff(staffId: number, patch: StaffPatch, actor: AuditActor): Promise<StaffSummary> {
    const { pin, ...rest } = patch;
    if (rest.name !== undefined) rest.name = checkStaffName(rest.name);
    if (rest.role !== undefined) rest.role = checkStaffRole(rest.role);
    if (pin !== undefined) checkPinFormat(pin);
    this.staff.require(staffId);
    const pinHash = pin === undefined ? undefined : await hashPin(pin);
    const change = this.write(() => {
      const c = this.staff.updateHashed(staffId, pinHash === undefined ? rest : { ...rest, pinHash });
      this.recordChange(c, actor);
      return c;
    });
    this.closeSessionsAfter(change, actor);
    return change.after;
  }

  /** Deactivates (rows stay: orders and the audit log point at them); the last active manager stays. */
  removeStaff(staffId: number, actor: AuditActor): StaffSummary {
    const change = this.write(() => {
      const c = this.staff.removeChange(staffId);
      this.recordChange(c, actor);
      return c;
    });
    this.closeSessionsAfter(change, actor);
    return change.after;
  }

  private recordChange({ before, after, pinChanged }: StaffChange, actor: AuditActor): void {
    const staffId = after.id;
    if (after.name !== before.name)
      this.audit.record({
        actor,
        action: 'staff.changed',
        field: 'name',
        detail: { staffId, from: before.name, to: after.name },
      });
    if (after.role !== before.role)
      this.audit.record({
        actor,
        action: 'staff.changed',
        field: 'role',
        detail: { staffId, name: after.name, from: before.role, to: after.role },
      });
    if (before.active && !after.active)
      this.audit.record({ actor, action: 'staff.removed', detail: { staffId, name: after.name } });
    if (!before.active && after.active)
      this.audit.record({
        actor,
        action: 'staff.changed',
        field: 'active',
        detail: { staffId, name: after.name, from: false, to: true },
      });
    if (pinChanged) this.audit.record({ actor, action: 'pin.reset', detail: { staffId, name: after.name } });
  }

  private closeSessionsAfter({ after, pinChanged }: StaffChange, actor: AuditActor): void {
    const setBySomeoneElse = pinChanged && actor.staffId !== after.id;
    if (!after.active || after.role !== 'manager' || setBySomeoneElse) this.sessions.closeFor(after.id);
  }

  /**
   * The one way a PIN is checked. The attempt is counted (PinLockout.attempt) before scrypt runs and taken
   * back if the PIN is right; a wrong one is audited, with the lock it causes.
   */
  private async checkPin(
    staffId: number,
    pin: string,
    purpose: PinPurpose,
    managerOnly: true,
  ): Promise<{ ok: true; staff: StaffSummary } | PinRefusal | { ok: false; reason: 'not_a_manager' }>;
  private async checkPin(
    staffId: number,
    pin: string,
    purpose: PinPurpose,
    managerOnly: false,
  ): Promise<PinCheckResult>;
  private async checkPin(
    staffId: number,
    pin: string,
    purpose: PinPurpose,
    managerOnly: boolean,
  ): Promise<{ ok: true; staff: StaffSummary } | PinRefusal | { ok: false; reason: 'not_a_manager' }> {
    checkPinFormat(pin);
    const staff = this.staff.get(staffId);
    if (staff === undefined || !staff.active) return { ok: false, reason: 'no_such_staff' };
    if (managerOnly && staff.role !== 'manager') return { ok: false, reason: 'not_a_manager' };

    const attempt = this.lockout.attempt();
    if (!attempt.allowed) return { ok: false, reason: 'locked_out', retryAfterMs: attempt.retryAfterMs };
    const right = await verifyPin(pin, this.staff.pinHash(staffId));

    if (right) {
      this.lockout.success();
      // As they are now: the PIN was being checked while someone else could change them.
      const now = this.staff.get(staffId);
      if (now === undefined || !now.active) return { ok: false, reason: 'no_such_staff' };
      if (managerOnly && now.role !== 'manager') return { ok: false, reason: 'not_a_manager' };
      return { ok: true, staff: now };
    }
    this.write(() => {
      const actor = staffActor(staff);
      this.audit.record({
        actor,
        action: 'pin.failed',
        detail: { staffId, attempt: purpose, failures: attempt.failures },
      });
      if (attempt.retryAfterMs > 0)
        this.audit.record({
          actor,
          action: 'pin.locked_out',
          detail: { failures: attempt.failures, retryAfterMs: attempt.retryAfterMs },
        });
    });
    return attempt.retryAfterMs > 0
      ? { ok: false, reason: 'wrong_pin', retryAfterMs: attempt.retryAfterMs }
      : { ok: false, reason: 'wrong_pin' };
  }

  private write<T>(fn: () => T): T {
    const tx = this.db.transaction(fn);
    return this.db.inTransaction ? tx() : tx.immediate();
  }
}
