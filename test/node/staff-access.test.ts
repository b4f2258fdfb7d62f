import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toApiError } from '../../src-main/common/api';
import { cliActor, staffActor, type AuditEvent } from '../../src-main/core/audit/audit-log';
import { AccessControl } from '../../src-main/core/staff/access';
import {
  DuplicateStaffNameError,
  InvalidPinError,
  InvalidStaffError,
  LastManagerError,
  ManagerExistsError,
  ManagerLockedError,
  StaffNotFoundError,
} from '../../src-main/core/staff/errors';
import { ManagerSessions } from '../../src-main/core/staff/sessions';
import { StaffStore, type StaffSummary } from '../../src-main/core/staff/staff-store';
import { openDatabase, type Database } from '../../src-main/db/open';
import { tempDir } from './helpers/loket';

function manualClock(start = '2025-03-14T03:00:00.000Z') {
  let t = Date.parse(start);
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
  };
}

const SEC = 1000;
const MIN = 60 * SEC;
// A PIN no test data could contain by chance, to search the database file for.
const DISTINCT_PIN = '97531864';

let dir: ReturnType<typeof tempDir>;
let path: string;
let db: Database;
let clock: ReturnType<typeof manualClock>;

beforeEach(() => {
  dir = tempDir('loket-staff-');
  path = join(dir.path, 'loket.db');
  db = openDatabase(path);
  clock = manualClock();
});

afterEach(() => {
  if (db.open) db.close();
  dir.remove();
});

/** What `fn` threw (or rejected with). */
async function caught(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

const actions = (events: AuditEvent[]) => events.map((e) => e.action).reverse();

describe('manager sessions (in memory, on the injected clock)', () => {
  const sri: StaffSummary = { id: 1, name: 'Sri', role: 'manager', active: true };

  it('a session lives while used, and locks after the idle time without use', () => {
    const sessions = new ManagerSessions(clock, 5 * MIN);
    const { token, expiresAt } = sessions.open(sri);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresAt).toBe('2025-03-14T03:05:00.000Z');

    for (let i = 0; i < 5; i++) {
      clock.advance(5 * MIN - 1);
      expect(sessions.touch(token)).toEqual(sri);
    }
    expect(sessions.use(token).expiresAt).toBe(new Date(clock.now().getTime() + 5 * MIN).toISOString());
    clock.advance(5 * MIN);
    const error = (() => {
      try {
        sessions.touch(token);
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(ManagerLockedError);
    expect(toApiError(error)).toMatchObject({ code: 'locked' });
    // Gone for good, even were the clock to go back.
    clock.advance(-MIN);
    expect(() => sessions.touch(token)).toThrow(ManagerLockedError);
  });

  it('unknown tokens, closed sessions and restarts are locked', () => {
    const sessions = new ManagerSessions(clock, MIN);
    const a = sessions.open(sri);
    const b = sessions.open({ ...sri, id: 2, name: 'Ani' });
    expect(a.token).not.toBe(b.token);
    for (const bad of ['', 'x', a.token.slice(1), a.token + 'A', undefined, null, 42])
      expect(() => sessions.touch(bad)).toThrow(ManagerLockedError);
    expect(sessions.close(a.token)).toBe(true);
    expect(sessions.close(a.token)).toBe(false);
    expect(() => sessions.touch(a.token)).toThrow(ManagerLockedError);
    expect(sessions.touch(b.token).name).toBe('Ani');
    expect(sessions.closeFor(2)).toBe(1);
    expect(() => sessions.touch(b.token)).toThrow(ManagerLockedError);

    const c = sessions.open(sri);
    sessions.closeAll();
    expect(() => sessions.touch(c.token)).toThrow(ManagerLockedError);
    // A new process has none of the old tokens.
    const restarted = new ManagerSessions(clock, MIN);
    const d = sessions.open(sri);
    expect(() => restarted.touch(d.token)).toThrow(ManagerLockedError);
  });

  it('a new idle time applies to open sessions at once', () => {
    const sessions = new ManagerSessions(clock, 10 * MIN);
    const { token } = sessions.open(sri);
    clock.advance(2 * MIN);
    sessions.setIdleMs(2 * MIN);
    expect(() => sessions.touch(token)).toThrow(ManagerLockedError);
    expect(() => sessions.setIdleMs(0)).toThrow(RangeError);
    expect(() => new ManagerSessions(clock, 1.5)).toThrow(RangeError);
  });
});

describe('staff store', { timeout: 30_000 }, () => {
  it('adds, finds (whatever the case and spaces), lists and deactivates staff; rows stay', async () => {
    const store = new StaffStore(db, clock);
    const sri = await store.add({ name: '  Sri Wahyuni ', role: 'manager', pin: '1357' });
    const budi = await store.add({ name: 'Budi', role: 'cashier', pin: '2468' });
    expect(sri).toEqual({ id: sri.id, name: 'Sri Wahyuni', role: 'manager', active: true });
    expect(store.findByName('sri wahyuni')).toEqual(sri);
    expect(store.findByName(' BUDI ')).toEqual(budi);
    expect(store.list()).toEqual([budi, sri]);
    expect(store.countActiveManagers()).toBe(1);

    expect(store.remove(budi.id)).toEqual({ ...budi, active: false });
    expect(store.remove(budi.id)).toEqual({ ...budi, active: false });
    expect(store.list()).toEqual([sri]);
    expect(store.list({ includeInactive: true })).toEqual([{ ...budi, active: false }, sri]);
    expect(store.get(budi.id)).toEqual({ ...budi, active: false });
    expect(db.prepare('SELECT COUNT(*) FROM staff').pluck().get()).toBe(2);

    const renamed = await store.update(budi.id, { name: 'Budi S.', active: true });
    expect(renamed).toEqual({ ...budi, name: 'Budi S.' });
    expect(store.pinHash(budi.id)).toMatch(/^scrypt\$/);
  });

  it('refuses a name already taken, whatever its case, and says when it is a former member of staff', async () => {
    const store = new StaffStore(db, clock);
    const ani = await store.add({ name: 'Ani', role: 'cashier', pin: '1111' });
    await store.add({ name: 'Sri', role: 'manager', pin: '1111' });
    const dup = await caught(() => store.add({ name: ' ANI', role: 'cashier', pin: '2222' }));
    expect(dup).toBeInstanceOf(DuplicateStaffNameError);
    expect(toApiError(dup)).toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/already .* called Ani/),
    });
    store.remove(ani.id);
    const former = await caught(() => store.add({ name: 'ani', role: 'cashier', pin: '2222' }));
    expect((former as Error).message).toMatch(/former member of staff; reactivate them/);
    // Renaming onto another's name is refused too; a change of case of one's own name is not.
    const budi = await store.add({ name: 'Budi', role: 'cashier', pin: '3333' });
    await expect(store.update(budi.id, { name: 'sri' })).rejects.toBeInstanceOf(DuplicateStaffNameError);
    expect(await store.update(budi.id, { name: 'BUDI' })).toMatchObject({ name: 'BUDI' });
  });

  it('checks names, roles and PINs before anything is hashed or written', async () => {
    const store = new StaffStore(db, clock);
    for (const name of ['', '   ', 'x'.repeat(41), 'Tab\there', 42])
      await expect(store.add({ name: name as string, role: 'cashier', pin: '1234' })).rejects.toBeInstanceOf(
        InvalidStaffError,
      );
    await expect(store.add({ name: 'Owner', role: 'owner' as 'manager', pin: '1234' })).rejects.toBeInstanceOf(
      InvalidStaffError,
    );
    await expect(store.add({ name: 'Ani', role: 'cashier', pin: '12' })).rejects.toBeInstanceOf(InvalidPinError);
    expect(await store.add({ name: 'x'.repeat(40), role: 'cashier', pin: '1234' })).toMatchObject({ active: true });
    // 40 characters, not 40 UTF-16 units: an emoji counts as one, as SQLite counts it.
    expect(await store.add({ name: '🙂'.repeat(40), role: 'cashier', pin: '1234' })).toMatchObject({ active: true });
    expect(db.prepare('SELECT COUNT(*) FROM staff').pluck().get()).toBe(2);
  });

  it('keeps the last active manager: not removed, demoted or deactivated', async () => {
    const store = new StaffStore(db, clock);
    const sri = await store.add({ name: 'Sri', role: 'manager', pin: '1357' });
    const budi = await store.add({ name: 'Budi', role: 'cashier', pin: '2468' });
    const attempts: [string, () => unknown][] = [
      ['remove', () => store.remove(sri.id)],
      ['demote', () => store.update(sri.id, { role: 'cashier' })],
      ['deactivate', () => store.update(sri.id, { active: false })],
    ];
    for (const [what, attempt] of attempts) {
      const error = await caught(attempt);
      expect(error, what).toBeInstanceOf(LastManagerError);
      expect(toApiError(error)).toMatchObject({ code: 'conflict' });
      expect((error as Error).message).toMatch(/^Sri is the only active manager and cannot be .*: make another/);
    }
    expect(store.get(sri.id)).toEqual(sri);

    // With a second manager, either may go.
    await store.update(budi.id, { role: 'manager' });
    expect(await store.update(sri.id, { role: 'cashier' })).toMatchObject({ role: 'cashier' });
    expect(() => store.remove(budi.id)).toThrow(LastManagerError);
    expect(store.countActiveManagers()).toBe(1);
  });

  it('an unknown id is not_found', async () => {
    const store = new StaffStore(db, clock);
    for (const attempt of [() => store.require(99), () => store.remove(99), () => store.update(99, { name: 'X' })]) {
      const error = await caught(attempt);
      expect(error).toBeInstanceOf(StaffNotFoundError);
      expect(toApiError(error)).toMatchObject({ code: 'not_found', message: 'no staff member 99' });
    }
    expect(store.get(99)).toBeUndefined();
    expect(store.get(1.5)).toBeUndefined();
  });
});

describe('access control', { timeout: 60_000 }, () => {
  let access: AccessControl;

  beforeEach(() => {
    access = new AccessControl(db, { clock, idleMs: 5 * MIN });
  });

  /** Sri the manager (PIN 1357), Budi the cashier (PIN 2468). */
  async function shop(): Promise<{ sri: StaffSummary; budi: StaffSummary; token: string }> {
    const { staff: sri, session } = await access.setupFirstManager('Sri', '1357');
    const budi = await access.addStaff({ name: 'Budi', role: 'cashier', pin: '2468' }, staffActor(sri));
    return { sri, budi, token: session.token };
  }

  it('first use: no manager until one is set up, once; the new manager is unlocked', async () => {
    expect(access.status()).toEqual({ staff: [], hasManager: false });
    const { staff, session } = await access.setupFirstManager(' Sri ', '1357');
    expect(staff).toMatchObject({ name: 'Sri', role: 'manager', active: true });
    expect(access.requireManager(session.token)).toEqual(staff);
    expect(access.status()).toEqual({ staff: [staff], hasManager: true });

    const again = await caught(() => access.setupFirstManager('Eve', '0000'));
    expect(again).toBeInstanceOf(ManagerExistsError);
    expect(toApiError(again)).toMatchObject({ code: 'conflict' });
    expect(access.staff.list()).toEqual([staff]);
    expect(access.audit.list()).toMatchObject([
      {
        action: 'manager.unlocked',
        actor: { staffId: staff.id, name: 'Sri', source: 'app' },
        detail: { via: 'setup' },
      },
      { action: 'staff.added', detail: { staffId: staff.id, role: 'manager', firstManager: true } },
    ]);
  });

  it('first use from the command line records the machine account as the actor', async () => {
    await access.setupFirstManager('Sri', '1357', cliActor('owner'));
    expect(access.audit.list().at(-1)).toMatchObject({
      action: 'staff.added',
      actor: { name: 'cli:owner', source: 'cli' },
    });
  });

  it('unlocking manager mode: the right PIN opens a session; otherwise a result says why', async () => {
    const { sri, budi } = await shop();
    const ok = await access.unlockManager(sri.id, '1357');
    expect(ok).toMatchObject({ ok: true, staff: sri, session: { token: expect.any(String) } });
    if (!ok.ok) throw new Error('unreachable');
    expect(access.requireManager(ok.session.token)).toEqual(sri);

    expect(await access.unlockManager(sri.id, '1358')).toEqual({ ok: false, reason: 'wrong_pin' });
    expect(await access.unlockManager(budi.id, '2468')).toEqual({ ok: false, reason: 'not_a_manager' });
    expect(await access.unlockManager(99, '1357')).toEqual({ ok: false, reason: 'no_such_staff' });
    await expect(access.unlockManager(sri.id, '13')).rejects.toBeInstanceOf(InvalidPinError);
    // Only the wrong PIN counted; a cashier's or a stranger's attempt tried no PIN.
    expect(access.lockout.failures()).toBe(1);
  });

  it('one lockout for the whole till: wrong PINs for anyone count; growing; a right PIN is refused while locked', async () => {
    const { sri, budi } = await shop();
    expect(await access.verifyStaffPin(budi.id, '0000')).toEqual({ ok: false, reason: 'wrong_pin' });
    expect(await access.unlockManager(sri.id, '0000')).toEqual({ ok: false, reason: 'wrong_pin' });
    expect(await access.changeOwnPin(budi.id, '0001', '4444')).toEqual({ ok: false, reason: 'wrong_pin' });
    expect(await access.unlockManager(sri.id, '0002')).toEqual({
      ok: false,
      reason: 'wrong_pin',
      retryAfterMs: 30 * SEC,
    });

    clock.advance(29 * SEC);
    expect(await access.unlockManager(sri.id, '1357')).toEqual({ ok: false, reason: 'locked_out', retryAfterMs: SEC });
    expect(await access.verifyStaffPin(budi.id, '2468')).toEqual({
      ok: false,
      reason: 'locked_out',
      retryAfterMs: SEC,
    });
    expect(access.lockout.failures()).toBe(4);

    clock.advance(SEC);
    expect(await access.verifyStaffPin(budi.id, '9999')).toEqual({ ok: false, reason: 'wrong_pin', retryAfterMs: MIN });
    clock.advance(MIN);
    expect(await access.unlockManager(sri.id, '1357')).toMatchObject({ ok: true });
    expect(access.lockout.failures()).toBe(0);
    expect(access.lockout.check()).toEqual({ allowed: true });

    const events = access.audit.list();
    expect(actions(events).slice(3)).toEqual([
      'pin.failed',
      'pin.failed',
      'pin.failed',
      'pin.failed',
      'pin.locked_out',
      'pin.failed',
      'pin.locked_out',
      'manager.unlocked',
    ]);
    expect(events.find((e) => e.action === 'pin.locked_out')).toMatchObject({
      actor: { staffId: budi.id, name: 'Budi', source: 'app' },
      detail: { failures: 5, retryAfterMs: MIN },
    });
    expect(events.filter((e) => e.action === 'pin.failed').map((e) => e.detail)).toEqual([
      { staffId: budi.id, attempt: 'sign_in', failures: 5 },
      { staffId: sri.id, attempt: 'manager_unlock', failures: 4 },
      { staffId: budi.id, attempt: 'pin_change', failures: 3 },
      { staffId: sri.id, attempt: 'manager_unlock', failures: 2 },
      { staffId: budi.id, attempt: 'sign_in', failures: 1 },
    ]);
  });

  it('the lockout survives a restart (the database re-opened, a new AccessControl)', async () => {
    const { sri } = await shop();
    for (let i = 0; i < 4; i++) await access.unlockManager(sri.id, '0000');
    clock.advance(10 * SEC);
    db.close();
    db = openDatabase(path);
    access = new AccessControl(db, { clock });
    expect(await access.unlockManager(sri.id, '1357')).toEqual({
      ok: false,
      reason: 'locked_out',
      retryAfterMs: 20 * SEC,
    });
    clock.advance(20 * SEC);
    expect(await access.unlockManager(sri.id, '1357')).toMatchObject({ ok: true });
  });

  it('PINs tried side by side are counted before they are checked: no more guesses than one at a time', async () => {
    const { sri } = await shop();
    const guesses = Array.from({ length: 12 }, (_, i) => String(1000 + i));
    const results = await Promise.all(guesses.map((g) => access.unlockManager(sri.id, g)));
    const reasons = results.map((r) => (r.ok ? 'ok' : r.reason));
    expect(reasons.filter((r) => r === 'wrong_pin')).toHaveLength(4);
    expect(reasons.filter((r) => r === 'locked_out')).toHaveLength(8);
    expect(access.lockout.failures()).toBe(4);
  });

  it('manager mode locks when idle (on the injected clock), and each use moves the deadline on', async () => {
    const { sri, token } = await shop();
    clock.advance(4 * MIN);
    expect(access.requireManager(token)).toEqual(sri);
    clock.advance(4 * MIN);
    expect(access.requireManager(token)).toEqual(sri);
    clock.advance(5 * MIN);
    expect(() => access.requireManager(token)).toThrow(ManagerLockedError);

    const unlocked = await access.unlockManager(sri.id, '1357');
    if (!unlocked.ok) throw new Error('expected an unlock');
    access.setIdleMs(MIN);
    clock.advance(MIN);
    expect(() => access.requireManager(unlocked.session.token)).toThrow(ManagerLockedError);
  });

  it('lock() locks the session at once; a session whose manager is demoted or removed is locked too', async () => {
    const { sri, budi, token } = await shop();
    expect(access.lock(token)).toBe(true);
    expect(access.lock(token)).toBe(false);
    expect(() => access.requireManager(token)).toThrow(ManagerLockedError);
    expect(access.audit.list()[0]).toMatchObject({ action: 'manager.locked', actor: { staffId: sri.id } });

    await access.updateStaff(budi.id, { role: 'manager' }, staffActor(sri));
    const budiSession = await access.unlockManager(budi.id, '2468');
    const sriSession = await access.unlockManager(sri.id, '1357');
    if (!budiSession.ok || !sriSession.ok) throw new Error('expected unlocks');
    await access.updateStaff(budi.id, { role: 'cashier' }, staffActor(sri));
    expect(() => access.requireManager(budiSession.session.token)).toThrow(ManagerLockedError);
    expect(access.requireManager(sriSession.session.token)).toEqual(sri);
    expect(() => access.requireManager('not a token')).toThrow(ManagerLockedError);
  });

  it('a cashier signs in with their own PIN; former staff cannot', async () => {
    const { sri, budi } = await shop();
    expect(await access.verifyStaffPin(budi.id, '2468')).toEqual({ ok: true, staff: budi });
    expect(await access.verifyStaffPin(sri.id, '1357')).toEqual({ ok: true, staff: sri });
    access.removeStaff(budi.id, staffActor(sri));
    expect(await access.verifyStaffPin(budi.id, '2468')).toEqual({ ok: false, reason: 'no_such_staff' });
    expect(access.status().staff).toEqual([sri]);
    expect(actions(access.audit.list()).slice(-3)).toEqual(['staff.signed_in', 'staff.signed_in', 'staff.removed']);
  });

  it('changing one’s own PIN needs the current one', async () => {
    const { budi } = await shop();
    expect(await access.changeOwnPin(budi.id, '2468', '8642')).toEqual({ ok: true, staff: budi });
    expect(await access.verifyStaffPin(budi.id, '2468')).toEqual({ ok: false, reason: 'wrong_pin' });
    expect(await access.verifyStaffPin(budi.id, '8642')).toMatchObject({ ok: true });
    await expect(access.changeOwnPin(budi.id, '8642', '86')).rejects.toBeInstanceOf(InvalidPinError);
    expect(access.audit.list().find((e) => e.action === 'pin.changed')).toMatchObject({
      actor: { staffId: budi.id, name: 'Budi', source: 'app' },
      detail: { staffId: budi.id },
    });
  });

  it('the CLI recovery sets a new PIN without the old one, clears the lockout and locks the old sessions', async () => {
    const { sri, token } = await shop();
    for (let i = 0; i < 9; i++) access.lockout.failure();
    expect(access.lockout.check()).toEqual({ allowed: false, retryAfterMs: 15 * MIN });

    expect(await access.resetPin(sri.id, '7531', cliActor('owner'))).toEqual(sri);
    expect(access.lockout.check()).toEqual({ allowed: true });
    expect(() => access.requireManager(token)).toThrow(ManagerLockedError);
    expect(await access.unlockManager(sri.id, '1357')).toEqual({ ok: false, reason: 'wrong_pin' });
    expect(await access.unlockManager(sri.id, '7531')).toMatchObject({ ok: true });
    expect(access.audit.list().find((e) => e.action === 'pin.reset')).toMatchObject({
      actor: { name: 'cli:owner', source: 'cli' },
      detail: { staffId: sri.id, name: 'Sri', lockoutCleared: true },
    });
    await expect(access.resetPin(99, '7531', cliActor('owner'))).rejects.toBeInstanceOf(StaffNotFoundError);
  });

  it('a manager setting a cashier’s PIN in the app is a reset, audited, and does not clear the lockout', async () => {
    const { sri, budi } = await shop();
    access.lockout.failure();
    await access.updateStaff(budi.id, { pin: '1122' }, staffActor(sri));
    expect(access.lockout.failures()).toBe(1);
    expect(await access.verifyStaffPin(budi.id, '1122')).toMatchObject({ ok: true });
    expect(access.audit.list().find((e) => e.action === 'pin.reset')).toMatchObject({
      actor: { staffId: sri.id, source: 'app' },
      detail: { staffId: budi.id, name: 'Budi' },
    });
  });

  it('staff changes are audited field by field; the last manager stays', async () => {
    const { sri, budi } = await shop();
    const by = staffActor(sri);
    await access.updateStaff(budi.id, { name: 'Budi S.', role: 'manager' }, by);
    access.removeStaff(budi.id, by);
    await access.updateStaff(budi.id, { active: true }, by);
    await expect(access.updateStaff(sri.id, { role: 'cashier' }, by)).resolves.toMatchObject({ role: 'cashier' });
    await expect(access.updateStaff(budi.id, { role: 'cashier' }, by)).rejects.toBeInstanceOf(LastManagerError);
    expect(() => access.removeStaff(budi.id, by)).toThrow(LastManagerError);
    await expect(access.updateStaff(99, { name: 'X' }, by)).rejects.toBeInstanceOf(StaffNotFoundError);

    const events = access.audit.list().filter((e) => e.action.startsWith('staff.'));
    expect(events.reverse().map((e) => [e.action, e.field ?? null, e.detail])).toEqual([
      ['staff.added', null, { staffId: sri.id, name: 'Sri', role: 'manager', firstManager: true }],
      ['staff.added', null, { staffId: budi.id, name: 'Budi', role: 'cashier' }],
      ['staff.changed', 'name', { staffId: budi.id, from: 'Budi', to: 'Budi S.' }],
      ['staff.changed', 'role', { staffId: budi.id, name: 'Budi S.', from: 'cashier', to: 'manager' }],
      ['staff.removed', null, { staffId: budi.id, name: 'Budi S.' }],
      ['staff.changed', 'active', { staffId: budi.id, name: 'Budi S.', from: false, to: true }],
      ['staff.changed', 'role', { staffId: sri.id, name: 'Sri', from: 'manager', to: 'cashier' }],
    ]);
  });

  it('no PIN is ever written: not to the database file, its WAL, nor the audit log; no hash in the audit log', async () => {
    // Every path a PIN takes: set up with it, unlock, sign in, wrong guesses with it, changed to it and
    // from it, reset to it by a manager and by the CLI, a refused new PIN.
    const { staff: sri } = await access.setupFirstManager('Sri', DISTINCT_PIN);
    const budi = await access.addStaff({ name: 'Budi', role: 'cashier', pin: '2468' }, staffActor(sri));
    await access.unlockManager(sri.id, DISTINCT_PIN);
    await access.verifyStaffPin(budi.id, DISTINCT_PIN);
    await access.verifyStaffPin(budi.id, '2468');
    await access.unlockManager(sri.id, DISTINCT_PIN.slice(0, 7) + '5');
    await access.changeOwnPin(sri.id, DISTINCT_PIN, '11223344');
    await access.changeOwnPin(sri.id, '11223344', DISTINCT_PIN);
    await access.updateStaff(budi.id, { pin: DISTINCT_PIN }, staffActor(sri));
    await access.resetPin(sri.id, DISTINCT_PIN, cliActor('owner'));
    for (let i = 0; i < 4; i++) await access.verifyStaffPin(sri.id, '5555' + i);
    clock.advance(MIN);
    expect(await access.unlockManager(sri.id, DISTINCT_PIN)).toMatchObject({ ok: true });

    const hashes = db.prepare('SELECT pin_hash FROM staff').pluck().all() as string[];
    const audit = JSON.stringify(db.prepare('SELECT * FROM audit_events').all());
    expect(
      new Set(access.audit.list().map((e) => e.action)),
      'every kind of PIN event was exercised and recorded',
    ).toEqual(
      new Set([
        'staff.added',
        'manager.unlocked',
        'staff.signed_in',
        'pin.failed',
        'pin.changed',
        'pin.reset',
        'pin.locked_out',
      ]),
    );
    expect(audit).not.toContain(DISTINCT_PIN);
    expect(audit).not.toContain('11223344');
    expect(audit).not.toContain('scrypt');
    for (const hash of hashes) {
      const [, , , , salt, digest] = hash.split('$');
      expect(audit).not.toContain(salt);
      expect(audit).not.toContain(digest);
    }

    // The bytes on disk, before and after the WAL is folded into the file.
    const bytes = () =>
      readdirSync(dir.path)
        .filter((f) => f.startsWith('loket.db'))
        .map((f) => readFileSync(join(dir.path, f)));
    const files = bytes();
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const b of files) {
      expect(b.includes(DISTINCT_PIN)).toBe(false);
      expect(b.includes(Buffer.from(DISTINCT_PIN, 'utf16le'))).toBe(false);
    }
    db.close();
    const checkpointed = bytes();
    for (const b of checkpointed) expect(b.includes(DISTINCT_PIN)).toBe(false);
    // The search itself works: the hashes are there.
    expect(checkpointed.some((b) => b.includes(hashes[0]!))).toBe(true);
  });
});
