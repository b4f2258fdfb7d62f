import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import {
  AUDIT_LIST_MAX,
  AuditLog,
  SYSTEM_ACTOR,
  cliActor,
  secretLikeKey,
  staffActor,
  type AuditAction,
} from '../../src-main/core/audit/audit-log';
import { SettingsStore } from '../../src-main/core/settings/settings-store';
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

let dir: ReturnType<typeof tempDir>;
let db: Database;
let clock: ReturnType<typeof manualClock>;
let audit: AuditLog;

beforeEach(() => {
  dir = tempDir('loket-audit-');
  db = openDatabase(join(dir.path, 'loket.db'));
  clock = manualClock();
  audit = new AuditLog(db, clock);
});

afterEach(() => {
  if (db.open) db.close();
  dir.remove();
});

function addStaff(name: string): number {
  const now = clock.now().toISOString();
  return Number(
    db
      .prepare(
        "INSERT INTO staff (name, role, pin_hash, active, created_at, updated_at) VALUES (?, 'manager', ?, 1, ?, ?)",
      )
      .run(name, `scrypt$32768$8$1$${'A'.repeat(22)}==$${'B'.repeat(43)}=`, now, now).lastInsertRowid,
  );
}

const count = () => db.prepare('SELECT COUNT(*) FROM audit_events').pluck().get();

describe('audit log', () => {
  it('records who, when, what and which field, and lists newest first', () => {
    const sri = addStaff('Sri');
    const a = audit.record({
      actor: staffActor({ id: sri, name: 'Sri' }),
      action: 'settings.changed',
      field: 'storeName',
      detail: { from: 'Warung', to: 'Warung Bu Sri' },
    });
    clock.advance(1000);
    const b = audit.record({ actor: cliActor('sri'), action: 'pin.reset', detail: { staffId: sri } });
    clock.advance(1000);
    const c = audit.record({ actor: SYSTEM_ACTOR, action: 'mode.changed', detail: { to: 'live' } });

    expect(a).toEqual({
      seq: 1,
      at: '2025-03-14T03:00:00.000Z',
      actor: { staffId: sri, name: 'Sri', source: 'app' },
      action: 'settings.changed',
      field: 'storeName',
      detail: { from: 'Warung', to: 'Warung Bu Sri' },
    });
    expect(b).toEqual({
      seq: 2,
      at: '2025-03-14T03:00:01.000Z',
      actor: { name: 'cli:sri', source: 'cli' },
      action: 'pin.reset',
      detail: { staffId: sri },
    });
    expect(c.actor).toEqual({ name: 'system', source: 'system' });
    expect(audit.list()).toEqual([c, b, a]);
    expect(audit.list({ limit: 2 })).toEqual([c, b]);
    expect(audit.list({ before: 2 })).toEqual([a]);
    expect(audit.list({ before: 1 })).toEqual([]);
    expect(() => audit.list({ limit: 0 })).toThrow(RangeError);
    expect(() => audit.list({ limit: AUDIT_LIST_MAX + 1 })).toThrow(RangeError);
    expect(() => audit.list({ before: 1.5 })).toThrow(RangeError);
  });

  it('an event without field or detail stores NULLs', () => {
    audit.record({ actor: SYSTEM_ACTOR, action: 'connection.tested' });
    expect(db.prepare('SELECT actor_staff_id, field, detail FROM audit_events').get()).toEqual({
      actor_staff_id: null,
      field: null,
      detail: null,
    });
  });

  it('refuses a detail whose keys look like secrets, at any depth, and writes nothing', () => {
    const secrets: Record<string, unknown>[] = [
      { pin: '97531864' },
      { PIN: '97531864' },
      { newPin: '97531864' },
      { new_pin: '97531864' },
      { pinHash: 'scrypt$…' },
      { pin_hash: 'scrypt$…' },
      { salt: 'abc' },
      { appkey: 'k' },
      { appKey: 'k' },
      { 'app-key': 'k' },
      { APP_KEY: 'k' },
      { signingSecret: 's' },
      { secret: 's' },
      { password: 'p' },
      { passphrase: 'p' },
      { accessToken: 't' },
      { token: 't' },
      { credentials: {} },
      { changes: { gateway: { appKey: 'k' } } },
      { list: [{ ok: 1 }, { pin: '1234' }] },
    ];
    for (const detail of secrets) {
      expect(
        () => audit.record({ actor: SYSTEM_ACTOR, action: 'settings.changed', detail }),
        JSON.stringify(detail),
      ).toThrow(/looks like a secret; secrets are never written to the audit log/);
    }
    // The message names the key, never the value.
    expect(() =>
      audit.record({ actor: SYSTEM_ACTOR, action: 'pin.changed', detail: { a: { pin: '97531864' } } }),
    ).toThrow(/^audit: detail key a\.pin looks like a secret/);
    try {
      audit.record({ actor: SYSTEM_ACTOR, action: 'pin.changed', detail: { pin: '97531864' } });
    } catch (err) {
      expect((err as Error).message).not.toContain('97531864');
    }
    expect(count()).toBe(0);
  });

  it('keys that merely contain the letters are fine', () => {
    for (const key of [
      'shipping',
      'spinner',
      'pinned',
      'staffId',
      'from',
      'to',
      'failures',
      'retryAfterMs',
      'keyboard',
    ])
      expect(secretLikeKey(key), key).toBe(false);
    audit.record({
      actor: SYSTEM_ACTOR,
      action: 'settings.changed',
      field: 'requireCashierPin',
      detail: { from: false, to: true },
    });
    // A secret's *name* as a value is fine: which secret was set, not what it is.
    audit.record({ actor: SYSTEM_ACTOR, action: 'secret.set', detail: { name: 'appkey' } });
    expect(count()).toBe(2);
  });

  it('refuses what is not an audit event', () => {
    const bad = [
      () => audit.record({ actor: SYSTEM_ACTOR, action: 'order.deleted' as AuditAction }),
      () => audit.record({ actor: { name: 'x', source: 'robot' as 'app' }, action: 'mode.changed' }),
      () => audit.record({ actor: { staffId: 1, name: 'cli:x', source: 'cli' }, action: 'mode.changed' }),
      () => audit.record({ actor: SYSTEM_ACTOR, action: 'mode.changed', field: '' }),
      () =>
        audit.record({
          actor: SYSTEM_ACTOR,
          action: 'mode.changed',
          detail: [1, 2] as unknown as Record<string, unknown>,
        }),
      () => audit.record({ actor: SYSTEM_ACTOR, action: 'mode.changed', detail: { note: 'x'.repeat(9000) } }),
    ];
    for (const f of bad) expect(f).toThrow(/^audit: /);
    // The schema's own checks behind the code's: a staff id must be a member of staff.
    expect(() =>
      audit.record({ actor: { staffId: 999, name: 'Ghost', source: 'app' }, action: 'mode.changed' }),
    ).toThrow(/FOREIGN KEY constraint failed/);
    expect(() => audit.record({ actor: { name: 'sri', source: 'cli' }, action: 'mode.changed' })).toThrow(
      /CHECK constraint failed/,
    );
    expect(count()).toBe(0);
  });

  it('joins an open transaction: a settings change and its event commit together, or neither does', () => {
    const settings = new SettingsStore(db, clock);
    const change = (value: string, fail: boolean) =>
      db
        .transaction(() => {
          settings.set('storeName', value);
          audit.record({ actor: SYSTEM_ACTOR, action: 'settings.changed', field: 'storeName', detail: { to: value } });
          if (fail) throw new Error('disk full');
        })
        .immediate();

    expect(() => change('Toko A', true)).toThrow('disk full');
    expect(settings.get('storeName')).toBeUndefined();
    expect(count()).toBe(0);

    change('Toko B', false);
    expect(settings.get('storeName')).toBe('Toko B');
    expect(audit.list()).toMatchObject([{ action: 'settings.changed', field: 'storeName', detail: { to: 'Toko B' } }]);
  });

  it('is append-only: recorded events cannot be changed or removed', () => {
    audit.record({ actor: SYSTEM_ACTOR, action: 'mode.changed', detail: { to: 'live' } });
    expect(() => db.prepare("UPDATE audit_events SET detail = '{}'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_events').run()).toThrow(/append-only/);
    expect(audit.list()).toMatchObject([{ detail: { to: 'live' } }]);
  });

  it('cliActor names the machine account', () => {
    expect(cliActor('sri')).toEqual({ name: 'cli:sri', source: 'cli' });
    expect(cliActor('  ')).toEqual({ name: 'cli:unknown', source: 'cli' });
  });
});
