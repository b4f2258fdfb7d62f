import type { Database, Statement } from 'better-sqlite3';
import { reason } from '../../common/reasons';
import { systemClock, type Clock } from '../ports';
import { DuplicateStaffNameError, InvalidStaffError, LastManagerError, StaffNotFoundError } from './errors';
import { checkPinFormat, hashPin, parsePinHash } from './pin';

import { STAFF_NAME_MAX, STAFF_NAME_RULE, STAFF_ROLES, type StaffRole, type StaffSummary } from '../../common/staff';

export { STAFF_NAME_MAX, STAFF_NAME_RULE, STAFF_ROLES, type StaffRole, type StaffSummary };

export interface NewStaff {
  name: string;
  role: StaffRole;
  pin: string;
}

export interface StaffPatch {
  name?: string;
  role?: StaffRole;
  pin?: string;
  active?: boolean;
}

/** A patch whose PIN is already hashed: what a write inside a transaction takes (hashing is async). */
export type HashedStaffPatch = Omit<StaffPatch, 'pin'> & { pinHash?: string };

export interface StaffChange {
  before: StaffSummary;
  after: StaffSummary;
  pinChanged: boolean;
}

/** The name as kept (trimmed), or InvalidStaffError: 1 to 40 characters, no control characters. */
export function checkStaffName(name: unknown): string {
  if (typeof name !== 'string') throw new InvalidStaffError(STAFF_NAME_RULE);
  const trimmed = name.trim();
  // Code points, as SQLite's length() counts them.
  const length = [...trimmed].length;
  if (length < 1 || length > STAFF_NAME_MAX) throw new InvalidStaffError(STAFF_NAME_RULE);
  if (/[\p{Cc}\u2028\u2029]/u.test(trimmed))
    throw new InvalidStaffError('name: letters, digits, spaces and punctuation only', reason('staff.name_characters'));
  return trimmed;
}

export function checkStaffRole(role: unknown): StaffRole {
  if (!(STAFF_ROLES as readonly unknown[]).includes(role))
    throw new InvalidStaffError(`role: ${STAFF_ROLES.join(' or ')}`, reason('staff.role'));
  return role as StaffRole;
}

/** A programming error, not a user's: only hashPin's output is ever stored. */
function checkHash(pinHash: string): string {
  if (parsePinHash(pinHash) === undefined) throw new Error('staff: a PIN is stored only as hashPin made it');
  return pinHash;
}

interface StaffRow {
  id: number;
  name: string;
  role: StaffRole;
  active: number;
}

const SUMMARY_COLUMNS = 'id, name, role, active';

const toSummary = (row: StaffRow): StaffSummary => ({
  id: row.id,
  name: row.name,
  role: row.role,
  active: row.active === 1,
});

/**
 * Named staff with their own PINs and roles, in the `staff` table (migration 5). Rows are never deleted:
 * orders and the audit log point at them, so removing a member of staff deactivates them. Loket always
 * keeps one active manager. Each write is one IMMEDIATE transaction, or joins one already open on the
 * connection (so AccessControl can commit a change and its audit event together).
 *
 * `add` and `update` hash a new PIN first (async), then write; `insertHashed` and `updateHashed` are the
 * synchronous writes, for a caller that hashed already and wants the write inside its own transaction.
 */
export class StaffStore {
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Active staff by name; all of them, former staff too, with `includeInactive`. */
  list(options: { includeInactive?: boolean } = {}): StaffSummary[] {
    const where = options.includeInactive ? '' : 'WHERE active = 1';
    return this.stmt<[], StaffRow>(`SELECT ${SUMMARY_COLUMNS} FROM staff ${where} ORDER BY name, id`)
      .all()
      .map(toSummary);
  }

  /** Active or not. */
  get(id: number): StaffSummary | undefined {
    if (!Number.isSafeInteger(id)) return undefined;
    const row = this.stmt<[number], StaffRow>(`SELECT ${SUMMARY_COLUMNS} FROM staff WHERE id = ?`).get(id);
    return row && toSummary(row);
  }

  /** As `get`, or StaffNotFoundError (`not_found`). */
  require(id: number): StaffSummary {
    const staff = this.get(id);
    if (staff === undefined) throw new StaffNotFoundError(id);
    return staff;
  }

  /** By name, whatever its case and surrounding spaces; active or not. */
  findByName(name: string): StaffSummary | undefined {
    const row = this.stmt<[string], StaffRow>(`SELECT ${SUMMARY_COLUMNS} FROM staff WHERE name = ?`).get(name.trim());
    return row && toSummary(row);
  }

  countActiveManagers(): number {
    return this.stmt<[], number>("SELECT COUNT(*) FROM staff WHERE role = 'manager' AND active = 1").pluck().get()!;
  }

  /** The stored hash, for checking a PIN; never leaves core. */
  pinHash(id: number): string | undefined {
    if (!Number.isSafeInteger(id)) return undefined;
    return this.stmt<[number], string>('SELECT pin_hash FROM staff WHERE id = ?').pluck().get(id);
  }

  async add(input: NewStaff): Promise<StaffSummary> {
    const name = checkStaffName(input.name);
    const role = checkStaffRole(input.role);
    const pinHash = await hashPin(checkPinFormat(input.pin));
    return this.insertHashed({ name, role, pinHash });
  }

  insertHashed(input: { name: string; role: StaffRole; pinHash: string }): StaffSummary {
    const name = checkStaffName(input.name);
    const role = checkStaffRole(input.role);
    checkHash(input.pinHash);
    return this.write(() => {
      this.refuseDuplicate(name);
      const now = this.clock.now().toISOString();
      const id = this.insertRow(name, role, input.pinHash, now);
      return this.require(id);
    });
  }

  async update(id: number, patch: StaffPatch): Promise<StaffSummary> {
    const { pin, ...rest } = patch;
    this.checkPatch(rest);
    const pinHash = pin === undefined ? undefined : await hashPin(checkPinFormat(pin));
    return this.updateHashed(id, pinHash === undefined ? rest : { ...rest, pinHash }).after;
  }

  updateHashed(id: number, patch: HashedStaffPatch): StaffChange {
    const { name, role, active } = this.checkPatch(patch);
    return this.write(() => {
      const before = this.require(id);
      const after: StaffSummary = {
        id,
        name: name ?? before.name,
        role: role ?? before.role,
        active: active ?? before.active,
      };
      if (after.name !== before.name) this.refuseDuplicate(after.name, id);
      const wasManager = before.role === 'manager' && before.active;
      const isManager = after.role === 'manager' && after.active;
      if (wasManager && !isManager && this.countActiveManagers() <= 1)
        throw new LastManagerError(before.name, after.active ? 'demote' : 'deactivate');
      const pinChanged = patch.pinHash !== undefined;
      const changed =
        pinChanged || after.name !== before.name || after.role !== before.role || after.active !== before.active;
      if (!changed) return { before, after: before, pinChanged };
      try {
        this.stmt(
          'UPDATE staff SET name = ?, role = ?, active = ?, pin_hash = coalesce(?, pin_hash), updated_at = ? WHERE id = ?',
        ).run(after.name, after.role, after.active ? 1 : 0, patch.pinHash ?? null, this.clock.now().toISOString(), id);
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
          throw new DuplicateStaffNameError(after.name, false);
        throw err;
      }
      return { before, after: this.require(id), pinChanged };
    });
  }

  /** Deactivates (the row stays); a no-op for someone already inactive. The last active manager stays. */
  remove(id: number): StaffSummary {
    return this.removeChange(id).after;
  }

  removeChange(id: number): StaffChange {
    return this.write(() => {
      const before = this.require(id);
      if (before.role === 'manager' && before.active && this.countActiveManagers() <= 1)
        throw new LastManagerError(before.name, 'remove');
      return this.updateHashed(id, { active: false });
    });
  }

  private checkPatch(patch: HashedStaffPatch): HashedStaffPatch {
    const out: HashedStaffPatch = {};
    if (patch.name !== undefined) out.name = checkStaffName(patch.name);
    if (patch.role !== undefined) out.role = checkStaffRole(patch.role);
    if (patch.active !== undefined) {
      if (typeof patch.active !== 'boolean')
        throw new InvalidStaffError('active: true or false', reason('arguments.invalid', { field: 'active' }));
      out.active = patch.active;
    }
    if (patch.pinHash !== undefined) out.pinHash = checkHash(patch.pinHash);
    return out;
  }

  /** Another member of staff (`self` aside) with this name, whatever its (ASCII) case: DuplicateStaffNameError. */
  private refuseDuplicate(name: string, self?: number): void {
    const existing = this.findByName(name);
    if (existing !== undefined && existing.id !== self)
      throw new DuplicateStaffNameError(existing.name, !existing.active);
  }

  private insertRow(name: string, role: StaffRole, pinHash: string, now: string): number {
    try {
      const info = this.stmt(
        'INSERT INTO staff (name, role, pin_hash, active, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)',
      ).run(name, role, pinHash, now, now);
      return Number(info.lastInsertRowid);
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
        throw new DuplicateStaffNameError(name, false);
      throw err;
    }
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
