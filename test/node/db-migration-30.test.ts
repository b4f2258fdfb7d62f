// Migration 30 (src-main/db/migrations/0030-shift-events-cash-void.ts): shift_events is rebuilt to take `cash_void`.
// From a file of the version before it with shifts of every event type and their outbox rows: every row comes over as
// it was (seq too), the AUTOINCREMENT sequence goes on, the index and triggers are migration 11's word for word, the
// table's text is migration 11's but for 'cash_void' in its two lists, and nothing else in the schema changes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliActor } from '../../src-main/core/audit/audit-log';
import { NO_DRAWER } from '../../src-main/core/shifts/drawer';
import { ShiftBook } from '../../src-main/core/shifts/shift-book';
import { ShiftService } from '../../src-main/core/shifts/shift-service';
import { MIGRATIONS } from '../../src-main/db/migrations/registry';
import { migrate, schemaVersion } from '../../src-main/db/migrations/runner';
import { openDatabase, type Database } from '../../src-main/db/open';
import { FakeClock } from './helpers/fake-clock';

let dir: string;
let db: Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loket-db30-'));
  db = new BetterSqlite3(join(dir, 'loket.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
});

afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every migration before 30: a database as the Loket before this one left it. */
const BEFORE_30 = MIGRATIONS.filter((m) => m.version < 30);
const PREVIOUS = BEFORE_30.at(-1)!.version;

/** The runner brings it up to date: migration 30, in its own IMMEDIATE transaction. */
function apply30(): void {
  expect(
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 30),
    ),
  ).toEqual({ from: PREVIOUS, to: 30 });
}

function service(clock: FakeClock, terminalId: string): ShiftService {
  return new ShiftService({
    book: new ShiftBook(db),
    clock,
    terminalId: () => terminalId,
    timeZone: () => 'Asia/Jakarta',
    cash: () => ({ rounding: 'off', payOutLimit: 100_000 }),
    drawer: NO_DRAWER,
  });
}

/** Two tills' shifts with every event type of the version before: float, cash tender, cash refund, pay-in/out, no sale, close. */
async function seedShifts(): Promise<void> {
  const clock = new FakeClock('2026-11-25T02:00:00.000Z');
  const cli = cliActor('sri');
  for (const terminal of ['T01', 'T02']) {
    const s = service(clock, terminal);
    await s.open({ float: 150_000 }, cli);
    db.transaction(() => {
      const shiftId = s.ledger.openShiftId();
      s.ledger.record({
        type: 'cash_tender',
        handed: 50_000,
        change: 1_950,
        shiftId,
        documentId: `${terminal}-SALE-1`,
        at: clock.now().toISOString(),
        staffId: 7,
      });
      s.ledger.record({
        type: 'cash_refund',
        amount: 18_000,
        shiftId,
        documentId: `${terminal}-REF-1`,
        at: clock.now().toISOString(),
        staffId: null,
      });
    }).immediate();
    clock.advance(60_000);
    await s.movement({ type: 'pay_in', amount: 10_000, reason: 'coins from the bank' }, cli);
    await s.movement({ type: 'pay_out', amount: 120_000, reason: 'the supplier, approved' }, cli);
    await s.noSale({ reason: 'change for a note' }, cli);
    if (terminal === 'T01') await s.close({ denominations: { note50000: 1, note10000: 1 } }, cli);
  }
}

const rows = (table: string) => db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();
const objects = () =>
  db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name <> 'shift_events' ORDER BY name").all();
const tableSql = () =>
  db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'shift_events'").pluck().get() as string;

describe('migration 30: shift_events takes cash_void', () => {
  it("carries the previous version's file over row for row, seq for seq; the index, triggers and the rest of the schema as they were", async () => {
    migrate(db, BEFORE_30);
    expect(schemaVersion(db)).toBe(PREVIOUS);
    await seedShifts();
    const events = rows('shift_events');
    expect(new Set(events.map((e) => (e as { type: string }).type))).toEqual(
      new Set(['float', 'cash_tender', 'cash_refund', 'pay_in', 'pay_out', 'no_sale', 'close']),
    );
    const before = { events, shifts: rows('shifts'), outbox: rows('outbox'), audit: rows('audit_events') };
    const sequence = () => db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'shift_events'").pluck().get();
    const seqBefore = sequence();
    expect(seqBefore).toBe(events.length);
    const schemaBefore = objects();
    const oldSql = tableSql();
    const columnsBefore = db.pragma('table_info(shift_events)');
    // Wherever the rows stop, the sequence is what AUTOINCREMENT goes on from (here past the last row).
    db.prepare("UPDATE sqlite_sequence SET seq = seq + 5 WHERE name = 'shift_events'").run();

    apply30();

    expect(schemaVersion(db)).toBe(30);
    expect({
      events: rows('shift_events'),
      shifts: rows('shifts'),
      outbox: rows('outbox'),
      audit: rows('audit_events'),
    }).toEqual(before);
    expect(sequence()).toBe((seqBefore as number) + 5);
    expect(db.prepare("SELECT COUNT(*) FROM sqlite_sequence WHERE name LIKE 'shift_events%'").pluck().get()).toBe(1);
    // Every other object, the index and both triggers included, word for word.
    expect(objects()).toEqual(schemaBefore);
    expect(db.pragma('table_info(shift_events)')).toEqual(columnsBefore);
    expect(db.pragma('foreign_key_list(shift_events)')).toMatchObject([
      { table: 'shifts', from: 'shift_id', to: 'id' },
    ]);
    // The table's text: migration 11's but for cash_void in its two lists of types.
    const newSql = tableSql();
    expect(newSql).toMatch(/AUTOINCREMENT/);
    expect(newSql.replace(/\s+/g, ' ')).toContain(
      "type IN ('float','cash_tender','cash_refund','cash_void','pay_in','pay_out','no_sale','close')",
    );
    expect(newSql.replace(/\s+/g, ' ')).toContain(
      "CHECK (type NOT IN ('cash_tender','cash_refund','cash_void') OR document_id IS NOT NULL)",
    );
    const norm = (sql: string) =>
      sql
        .replace(/'cash_void',|,'cash_void'/g, '')
        .replace(/CREATE TABLE "?shift_events(_v30)?"?/, 'CREATE TABLE shift_events')
        .replace(/\s+/g, ' ');
    expect(norm(newSql)).toBe(norm(oldSql));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);

    // The log goes on: the next event follows the sequence, a cash_void is taken, and the events stay append-only.
    const s = service(new FakeClock('2026-11-25T05:00:00.000Z'), 'T02');
    db.transaction(() =>
      s.ledger.record({
        type: 'cash_void',
        amount: 48_050,
        shiftId: s.ledger.openShiftId(),
        documentId: 'T02-SALE-1',
        at: '2026-11-25T05:00:00.000Z',
        staffId: null,
      }),
    ).immediate();
    expect(db.prepare('SELECT max(seq) FROM shift_events').pluck().get()).toBe((seqBefore as number) + 6);
    expect(s.current()!.cash).toMatchObject({ cashVoids: 48_050 });
    expect(() => db.prepare('UPDATE shift_events SET amount = 0').run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM shift_events').run()).toThrow(/append-only/);
  });

  it('runs on a database with no shift yet (no sequence to carry): the first event is seq 1', async () => {
    migrate(db, BEFORE_30);
    apply30();
    expect(rows('shift_events')).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    await service(new FakeClock('2026-11-25T05:00:00.000Z'), 'T01').open({ float: 0 }, cliActor('sri'));
    expect(db.prepare('SELECT seq FROM shift_events').pluck().all()).toEqual([1]);
  });

  it('a database of the version before ends, after migration 30, with the schema of a new one', () => {
    migrate(db, BEFORE_30);
    migrate(db);
    const fresh = openDatabase(join(dir, 'new.db'));
    try {
      const schema = (d: Database) =>
        d.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name').all();
      expect(schema(db)).toEqual(schema(fresh));
    } finally {
      fresh.close();
    }
  });
});
