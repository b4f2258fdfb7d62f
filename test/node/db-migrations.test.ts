import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LATEST_SCHEMA_VERSION,
  MIGRATIONS,
  SchemaTooNewError,
  migrate,
  schemaVersion,
} from '../../src-main/db/migrations';
import { openDatabase, type Database } from '../../src-main/db/open';

let dir: string;
const opened: Database[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loket-db-'));
});

afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function track(db: Database): Database {
  opened.push(db);
  return db;
}

/** A bare connection with no migrations applied, for walking the schema one version at a time. */
function rawDb(name = 'loket.db'): Database {
  const db = track(new BetterSqlite3(join(dir, name)));
  db.pragma('foreign_keys = ON');
  return db;
}

function names(db: Database, type: 'table' | 'trigger' | 'index'): string[] {
  return db
    .prepare<[string], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all(type)
    .map((r) => r.name);
}

/** Every row of every table, to show that a migration left earlier data as it was. */
function dump(db: Database): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const t of names(db, 'table')) out[t] = db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all();
  return out;
}

const T0 = '2025-03-01T03:00:00.000Z';

function insertOrder(db: Database, id: string, overrides: Record<string, unknown> = {}): void {
  const row = {
    id,
    terminal_id: 'T1',
    api: 'v2',
    state: 'awaiting_payment',
    method_id: 'qris',
    kind: 'qris',
    amount: 25000,
    currency: 'IDR',
    item_name: 'Kopi',
    item_id: null,
    user_id: 'u1',
    customer_name: null,
    phone: null,
    training: 0,
    request_body: '{"amount":25000}',
    delivery: 'answered',
    gateway_transaction_id: 'G1',
    instruction: '{"type":"qr","qrString":"000201"}',
    response_body: '{"retcode":"0"}',
    rejection_retcode: null,
    rejection_message: null,
    rejection_http_status: null,
    expires_at: '2025-03-01T03:15:00.000Z',
    paid_at: null,
    late_payment: 0,
    created_at: T0,
    updated_at: T0,
    ...overrides,
  };
  const cols = Object.keys(row);
  db.prepare(`INSERT INTO orders (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`).run(row);
}

function insertEvent(db: Database, orderId: string, type = 'created', to: string | null = 'creating'): void {
  db.prepare(
    `INSERT INTO order_events (order_id, at, type, from_state, to_state, source, actor, reason, payload)
     VALUES (?, ?, ?, NULL, ?, 'cashier', 'kasir-1', NULL, '{"n":1}')`,
  ).run(orderId, T0, type, to);
}

/**
 * One entry per migration: `seed` writes representative data at version k−1, `check` shows that
 * migration k's schema works. A migration without an entry fails the test below, so none goes untested.
 */
const perMigration: Record<number, { seed(db: Database): void; check(db: Database): void }> = {
  1: {
    seed: () => {},
    check: (db) => {
      expect(names(db, 'table')).toEqual(expect.arrayContaining(['orders', 'order_events']));
      insertOrder(db, 'A-1');
      insertEvent(db, 'A-1');
      expect(() => insertOrder(db, 'A-2', { state: 'lost' })).toThrow(/CHECK constraint failed/);
      expect(() => insertOrder(db, 'A-3', { amount: 0 })).toThrow(/CHECK constraint failed/);
      expect(() => insertOrder(db, 'A-4', { amount: 10.5 })).toThrow(/CHECK constraint failed/);
      expect(() => insertOrder(db, 'A-5', { api: 'v3' })).toThrow(/CHECK constraint failed/);
      expect(() => insertOrder(db, 'A-6', { delivery: 'maybe' })).toThrow(/CHECK constraint failed/);
      expect(() => insertOrder(db, 'A-7', { training: 2 })).toThrow(/CHECK constraint failed/);
      expect(() => insertOrder(db, 'A-8', { created_at: '2025-03-01 03:00:00' })).toThrow(/CHECK constraint failed/);
      expect(() => insertOrder(db, 'A-9', { request_body: 'not json' })).toThrow(/CHECK constraint failed/);
      expect(() => insertOrder(db, 'x'.repeat(37))).toThrow(/CHECK constraint failed/);
      expect(() => insertOrder(db, 'A-1')).toThrow(/UNIQUE constraint failed/);
      expect(() => insertEvent(db, 'no-such-order')).toThrow(/FOREIGN KEY constraint failed/);
      expect(() => insertEvent(db, 'A-1', 'renamed')).toThrow(/CHECK constraint failed/);
      expect(() => db.prepare('UPDATE order_events SET reason = ?').run('x')).toThrow(/append-only/);
      expect(() => db.prepare('DELETE FROM order_events').run()).toThrow(/append-only/);
      expect(names(db, 'index')).toEqual(
        expect.arrayContaining([
          'orders_created',
          'orders_state_created',
          'orders_method_created',
          'order_events_order',
        ]),
      );
    },
  },
  2: {
    seed: (db) => {
      insertOrder(db, 'B-1', { state: 'paid', paid_at: '2025-03-01T03:05:00.000Z' });
      insertEvent(db, 'B-1');
      insertEvent(db, 'B-1', 'state_changed', 'awaiting_payment');
    },
    check: (db) => {
      db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('terminalId', '\"T1\"', ?)").run(T0);
      expect(db.prepare("SELECT value FROM settings WHERE key = 'terminalId'").pluck().get()).toBe('"T1"');
      expect(() => db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('x', '{', ?)").run(T0)).toThrow(
        /CHECK constraint failed/,
      );
    },
  },
  3: {
    seed: (db) => {
      insertOrder(db, 'C-1', {
        state: 'rejected',
        rejection_retcode: '201',
        rejection_message: 'bad amount',
        rejection_http_status: 200,
      });
      insertEvent(db, 'C-1');
      db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('lang', '\"id\"', ?)").run(T0);
    },
    check: (db) => {
      const hash = 'a'.repeat(64);
      const insert = db.prepare(
        'INSERT INTO callback_receipts (received_at, order_id, status, body_sha256, outcome) VALUES (?, ?, ?, ?, ?)',
      );
      insert.run(T0, 'C-1', 'paid', hash, 'applied');
      expect(() => insert.run(T0, 'C-1', 'paid', hash, 'applied')).toThrow(/UNIQUE constraint failed/);
      expect(() => insert.run(T0, null, null, 'A'.repeat(64), 'x')).toThrow(/CHECK constraint failed/);
      expect(() => insert.run(T0, null, null, 'abc', 'x')).toThrow(/CHECK constraint failed/);
      // No foreign key: a callback for an order that is not ours is kept as evidence.
      insert.run(T0, 'not-ours', 'paid', 'b'.repeat(64), 'unknown order');
    },
  },
};

describe('database migrations', () => {
  it('has a test for every migration, numbered 1..N', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(Object.keys(perMigration).map(Number)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(LATEST_SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('opens an empty file at the latest version with the pragmas of DESIGN.md §4', () => {
    const path = join(dir, 'nested', 'folder', 'loket.db');
    const db = track(openDatabase(path));
    expect(existsSync(path)).toBe(true);
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(names(db, 'table')).toEqual(['callback_receipts', 'order_events', 'orders', 'settings']);
    expect(names(db, 'trigger')).toEqual(['order_events_no_delete', 'order_events_no_update']);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });

  it('opens :memory: at the latest version', () => {
    const db = track(openDatabase(':memory:'));
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  for (const m of MIGRATIONS) {
    it(`migration ${m.version} (${m.name}) keeps the data of version ${m.version - 1} and its schema works`, () => {
      const db = rawDb();
      migrate(db, MIGRATIONS.slice(0, m.version - 1));
      expect(schemaVersion(db)).toBe(m.version - 1);
      perMigration[m.version]!.seed(db);
      const before = dump(db);

      expect(migrate(db, MIGRATIONS.slice(0, m.version))).toEqual({ from: m.version - 1, to: m.version });

      const after = dump(db);
      for (const [table, rows] of Object.entries(before)) expect(after[table], table).toEqual(rows);
      perMigration[m.version]!.check(db);
      expect(db.pragma('foreign_key_check')).toEqual([]);
    });
  }

  it('re-opening an up-to-date database changes nothing', () => {
    const path = join(dir, 'loket.db');
    const first = track(openDatabase(path));
    insertOrder(first, 'R-1');
    insertEvent(first, 'R-1');
    const schema = first.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all();
    const data = dump(first);
    first.close();

    const again = track(openDatabase(path));
    expect(schemaVersion(again)).toBe(LATEST_SCHEMA_VERSION);
    expect(again.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all()).toEqual(schema);
    expect(dump(again)).toEqual(data);
    expect(migrate(again)).toEqual({ from: LATEST_SCHEMA_VERSION, to: LATEST_SCHEMA_VERSION });
  });

  it('refuses a database written by a newer Loket, and leaves it untouched', () => {
    const path = join(dir, 'loket.db');
    track(openDatabase(path)).close();
    const raw = new BetterSqlite3(path);
    raw.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    raw.close();

    expect(() => openDatabase(path)).toThrow(SchemaTooNewError);
    expect(() => openDatabase(path)).toThrow(
      new RegExp(
        `schema version ${LATEST_SCHEMA_VERSION + 1}, but this Loket knows only up to version ${LATEST_SCHEMA_VERSION}`,
      ),
    );
    const check = track(new BetterSqlite3(path, { readonly: true }));
    expect(schemaVersion(check)).toBe(LATEST_SCHEMA_VERSION + 1);
  });

  it('a failing migration leaves the database at the previous whole version', () => {
    const db = rawDb();
    const broken = [
      MIGRATIONS[0]!,
      { version: 2, name: 'half done', sql: 'CREATE TABLE half (x); INSERT INTO no_such_table VALUES (1);' },
    ];
    expect(() => migrate(db, broken)).toThrow(/migration 2 \(half done\) failed: no such table: no_such_table/);
    expect(schemaVersion(db)).toBe(1);
    expect(names(db, 'table')).not.toContain('half');
  });

  it('rejects a migration list with a gap', () => {
    const db = rawDb();
    expect(() => migrate(db, [MIGRATIONS[0]!, MIGRATIONS[2]!])).toThrow(/out of order/);
    expect(schemaVersion(db)).toBe(0);
  });

  it('order_events is append-only: UPDATE and DELETE abort, INSERT works', () => {
    const db = track(openDatabase(join(dir, 'loket.db')));
    insertOrder(db, 'E-1');
    insertEvent(db, 'E-1');
    expect(() => db.prepare("UPDATE order_events SET source = 'manager'").run()).toThrow(
      /append-only: an event cannot be updated/,
    );
    expect(() => db.prepare('DELETE FROM order_events WHERE order_id = ?').run('E-1')).toThrow(
      /append-only: an event cannot be deleted/,
    );
    // Deleting the order is blocked too: its events still point at it.
    expect(() => db.prepare('DELETE FROM orders WHERE id = ?').run('E-1')).toThrow(/FOREIGN KEY constraint failed/);
    expect(db.prepare('SELECT source FROM order_events').pluck().all()).toEqual(['cashier']);
  });
});
