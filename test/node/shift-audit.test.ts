// A shift's change and its audit entry commit in one transaction, on the order log's own database
// (docs/tenders.md, "Shifts"): in training that is training/loket.db, where the store's member of staff is a
// stand-in row (as for a training order); the manager's audit list then shows the till's entries merged by time with
// the store's. A change whose entry cannot be written is not made. Real SQLite files, the app host in training mode.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { dispatchApiCall, type ApiEnvelope } from '../../src-main/common/api';
import type { AuditEntry, ManagerSessionView } from '../../src-main/common/manager';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { AuditLog, staffActor } from '../../src-main/core/audit/audit-log';
import { NO_DRAWER } from '../../src-main/core/shifts/drawer';
import { ShiftBook } from '../../src-main/core/shifts/shift-book';
import { ShiftService } from '../../src-main/core/shifts/shift-service';
import { openDatabase } from '../../src-main/db/open';
import { FakeClock } from './helpers/fake-clock';
import { tempDir } from './helpers/loket';

const dirs: { remove(): void }[] = [];
let host: AppHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
  for (const d of dirs.splice(0)) d.remove();
});
function folder(): string {
  const d = tempDir('loket-shift-audit-');
  dirs.push(d);
  return d.path;
}

function service(path: string, audit: (db: ReturnType<typeof openDatabase>) => AuditLog | undefined) {
  const db = openDatabase(path);
  const clock = new FakeClock('2026-11-25T02:00:00.000Z');
  const made = audit(db);
  return {
    db,
    shifts: new ShiftService({
      book: new ShiftBook(db),
      clock,
      terminalId: () => 'T01',
      timeZone: () => 'Asia/Jakarta',
      drawer: NO_DRAWER,
      ...(made ? { audit: made } : {}),
    }),
  };
}

describe("a shift's audit entries", () => {
  it('are refused on another database than the shift’s: they could not commit with the change', () => {
    const dir = folder();
    const other = openDatabase(join(dir, 'other.db'));
    try {
      expect(() => service(join(dir, 'loket.db'), () => new AuditLog(other))).toThrow(
        /the audit log must be on the shift book's database/,
      );
    } finally {
      other.close();
    }
  });

  it('name the event they record; a change whose entry cannot be written is not made', async () => {
    const dir = folder();
    // The store's own books: a member of staff who is not in them is refused (no stand-in here) …
    const { db, shifts } = service(join(dir, 'loket.db'), (d) => new AuditLog(d));
    try {
      await expect(shifts.open({ float: 50_000 }, staffActor({ id: 42, name: 'Ani' }))).rejects.toThrow(
        /FOREIGN KEY constraint failed/,
      );
      // … and the shift with it: neither the shift, nor its event, nor an outbox row.
      expect(db.prepare('SELECT COUNT(*) FROM shifts').pluck().get()).toBe(0);
      expect(db.prepare('SELECT COUNT(*) FROM shift_events').pluck().get()).toBe(0);
      expect(db.prepare('SELECT COUNT(*) FROM outbox').pluck().get()).toBe(0);
      expect(db.prepare('SELECT COUNT(*) FROM staff').pluck().get()).toBe(0);

      const opened = await shifts.open({ float: 50_000 }, { name: 'till (nobody signed in)', source: 'app' });
      const moved = await shifts.movement(
        { type: 'pay_in', amount: 5_000, reason: 'coins' },
        { name: 'till (nobody signed in)', source: 'app' },
      );
      const entries = new AuditLog(db).list();
      expect(entries.map((e) => [e.action, e.detail?.eventSeq])).toEqual([
        ['shift.paid_in', moved.event.seq],
        ['shift.opened', opened.event.seq],
      ]);
    } finally {
      db.close();
    }
  });

  it('in training: on the training log with a stand-in for the staff, listed for the manager among the store’s', async () => {
    const dataDir = folder();
    host = await startAppHost({ version: 't', dataDir, env: {} });
    expect(host.loket.training).toBe(true);
    const call = (method: string, ...args: unknown[]): Promise<ApiEnvelope<unknown>> =>
      dispatchApiCall(host!.app, method, args, () => undefined);
    const ok = async <T>(method: string, ...args: unknown[]): Promise<T> => {
      const answer = await call(method, ...args);
      if (!answer.ok) throw new Error(`${method}: ${answer.error.code} ${answer.error.message}`);
      return answer.result as T;
    };
    const session = await ok<ManagerSessionView>('setupManager', { name: 'Bu Sri', pin: '97531864' });
    await ok('addStaff', session.token, { name: 'Ani', role: 'cashier', pin: '24681357' });
    const ani = host.store.access.staff.list().find((s) => s.name === 'Ani')!;
    await ok('signIn', ani.id, '24681357');
    await ok('openShift', { float: 100_000 });
    await ok('shiftMovement', { type: 'pay_in', amount: 10_000, reason: 'coins from the bank' });
    await ok('shiftMovement', { type: 'pay_out', amount: 2_000, reason: 'parking' });

    // Written on the training log, Ani a stand-in there; none of it in the store's books.
    const training = host.loket.db;
    expect(training).not.toBe(host.store.db);
    const shiftEntries = (db: typeof training) =>
      db
        .prepare("SELECT action, actor, actor_staff_id FROM audit_events WHERE action LIKE 'shift.%' ORDER BY seq")
        .all();
    expect(shiftEntries(training)).toEqual([
      { action: 'shift.opened', actor: 'Ani', actor_staff_id: ani.id },
      { action: 'shift.paid_in', actor: 'Ani', actor_staff_id: ani.id },
      { action: 'shift.paid_out', actor: 'Ani', actor_staff_id: ani.id },
    ]);
    expect(training.prepare('SELECT name, active FROM staff WHERE id = ?').get(ani.id)).toEqual({
      name: `#${ani.id}`,
      active: 0,
    });
    expect(shiftEntries(host.store.db)).toEqual([]);

    // The manager's list: both logs, newest first by time, the training log's marked.
    const all = await ok<AuditEntry[]>('auditLog', session.token, {});
    expect(all.filter((e) => e.log === 'training').map((e) => e.action)).toEqual([
      'shift.paid_out',
      'shift.paid_in',
      'shift.opened',
    ]);
    expect(all.filter((e) => e.log === undefined).map((e) => e.action)).toEqual(
      expect.arrayContaining(['staff.added', 'staff.signed_in', 'manager.unlocked']),
    );
    expect(all.map((e) => e.at)).toEqual([...all.map((e) => e.at)].sort().reverse());
    // Paged by each log's own cursor: two at a time, the same entries in the same order, none twice.
    const paged: AuditEntry[] = [];
    for (let page = 0; page < 20; page++) {
      const store = paged.filter((e) => e.log === undefined).map((e) => e.seq);
      const train = paged.filter((e) => e.log === 'training').map((e) => e.seq);
      const next = await ok<AuditEntry[]>('auditLog', session.token, {
        limit: 2,
        ...(store.length ? { before: Math.min(...store) } : {}),
        ...(train.length ? { trainingBefore: Math.min(...train) } : {}),
      });
      paged.push(...next);
      if (next.length < 2) break;
    }
    expect(paged).toEqual(all);
  });
});
