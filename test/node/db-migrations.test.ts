import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_SOURCES } from '../../src-main/common/order';
import { PAYMENT_KINDS } from '../../src-main/common/payment-methods';
import type { Migration } from '../../src-main/db/migrations/migration';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../src-main/db/migrations/registry';
import { MigrationBlockedError, SchemaTooNewError, migrate, schemaVersion } from '../../src-main/db/migrations/runner';
import { openDatabase, type Database } from '../../src-main/db/open';
import { canonicalJson, sha256Hex } from '../../src-main/db/canonical-json';
import { UUID_V7_PATTERN, uuidv7Time } from '../../src-main/db/uuidv7';
import { OrderLog } from '../../src-main/core/orders/order-log';
import { UnknownKindError } from '../../src-main/common/order-policy';

let dir: string;
const opened: Database[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loket-db-'));
});

afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The registry's migrations up to `version` (a database of that version, as the registry builds it). */
function upTo(version: number): readonly Migration[] {
  return MIGRATIONS.filter((m) => m.version <= version);
}

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

// The runner's record of the versions applied (schema_migrations) is left out of the names, the dumps and the
// shapes: it is not one migration's, and test/node/migration-files.test.ts checks it.
function names(db: Database, type: 'table' | 'trigger' | 'index'): string[] {
  return db
    .prepare<[string], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY name",
    )
    .all(type)
    .map((r) => r.name);
}

/** Every row of every table, to show that a migration left earlier data as it was. */
function dump(db: Database): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  // The name search's index (an FTS5 table and its own tables) is rebuilt from products, not data of its own.
  for (const t of names(db, 'table').filter((n) => !n.startsWith('products_search')))
    out[t] = db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all();
  return out;
}

const T0 = '2025-03-01T03:00:00.000Z';

/** The schema of version 5. */
const V5_TABLES = ['audit_events', 'callback_receipts', 'order_events', 'orders', 'pin_lockout', 'settings', 'staff'];
const V5_TRIGGERS = [
  'audit_events_no_delete',
  'audit_events_no_update',
  'order_events_no_delete',
  'order_events_no_update',
  'pin_lockout_no_delete',
];
/** The tables and triggers migration 7 adds. */
const V7_TABLES = ['book_identity', 'outbox', 'outbox_sync', 'store_link'];
const V7_TRIGGERS = [
  'book_identity_no_delete',
  'book_identity_no_update',
  'outbox_next_seq',
  'outbox_no_delete',
  'outbox_no_update',
];
/** The schema of the latest version. */
const V6_TABLES = [...V5_TABLES, 'callback_issues', 'closings'].sort();
const V8_TABLES = [...V6_TABLES, ...V7_TABLES].sort();
const V8_TRIGGERS = [
  ...V5_TRIGGERS,
  'callback_issues_acknowledge_once',
  'callback_issues_no_delete',
  'callback_issues_no_replace',
  'closings_no_delete',
  'closings_no_replace',
  'closings_no_update',
  ...V7_TRIGGERS,
].sort();

/** The tables and triggers migration 10 adds (the catalogue, its search index's tables, the sale, the cart). */
const V10_TABLES = [
  'carts',
  'product_barcodes',
  'product_events',
  'products',
  'sale_events',
  'sale_lines',
  'sale_tenders',
  'sales',
];
/** The full-text index of product names: a virtual table and SQLite's tables behind it (not STRICT, never dumped). */
const V10_SEARCH_TABLES = [
  'products_search',
  'products_search_config',
  'products_search_data',
  'products_search_docsize',
  'products_search_idx',
];
const V10_TRIGGERS = [
  'product_events_no_delete',
  'product_events_no_update',
  'sale_events_no_delete',
  'sale_events_no_update',
];
/** The tables and triggers migration 11 adds (the shifts). */
const V11_TABLES = ['shifts', 'shift_events'];
/** The tables migration 12 adds (refunds). */
const V12_TABLES = ['refunds', 'refund_lines', 'refund_events'];
const V11_TRIGGERS = ['shifts_close_only', 'shifts_no_delete', 'shift_events_no_update', 'shift_events_no_delete'];
const ALL_TABLES = [...V8_TABLES, ...V10_TABLES, ...V11_TABLES, ...V12_TABLES].sort();
const V12_TRIGGERS = [
  'refunds_no_update',
  'refunds_no_delete',
  'refund_lines_no_update',
  'refund_lines_no_delete',
  'refund_events_no_update',
  'refund_events_no_delete',
];
const ALL_TRIGGERS = [...V8_TRIGGERS, ...V10_TRIGGERS, ...V11_TRIGGERS, ...V12_TRIGGERS].sort();

/** A hash of the shape core/staff/pin.ts writes (the schema checks its prefix only). */
const PIN_HASH = `scrypt$32768$8$1$${'A'.repeat(22)}==$${'B'.repeat(43)}=`;

function insertStaff(db: Database, name: string, overrides: Record<string, unknown> = {}): number {
  const row = { name, role: 'cashier', pin_hash: PIN_HASH, active: 1, created_at: T0, updated_at: T0, ...overrides };
  const cols = Object.keys(row);
  const info = db
    .prepare(`INSERT INTO staff (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`)
    .run(row);
  return Number(info.lastInsertRowid);
}

function insertAudit(db: Database, overrides: Record<string, unknown> = {}): void {
  const row = {
    at: T0,
    actor_staff_id: null,
    actor: 'system',
    source: 'system',
    action: 'settings.changed',
    field: null,
    detail: null,
    ...overrides,
  };
  const cols = Object.keys(row);
  db.prepare(`INSERT INTO audit_events (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`).run(row);
}

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

interface EventSeed {
  type: string;
  source: string;
  from?: string;
  to?: string;
  actor?: string;
  reason?: string;
  payload?: string;
  at?: string;
}

function addEvent(db: Database, orderId: string, e: EventSeed): void {
  db.prepare(
    `INSERT INTO order_events (order_id, at, type, from_state, to_state, source, actor, reason, payload)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    orderId,
    e.at ?? T0,
    e.type,
    e.from ?? null,
    e.to ?? null,
    e.source,
    e.actor ?? null,
    e.reason ?? null,
    e.payload ?? null,
  );
}

const at = (minute: number) => `2025-03-01T03:${String(minute).padStart(2, '0')}:00.000Z`;

/**
 * A version-3 database as a day at the counter leaves it: orders of every kind in every state, with
 * rejections, instructions, raw answers (one an HTML error page), a late payment, notes and delivery
 * changes; events from every source; settings; callback receipts, one for an order that is not ours.
 */
function seedRealisticV3(db: Database): void {
  const created = (id: string, source = 'cashier') =>
    addEvent(db, id, { type: 'created', source, to: 'creating', actor: 'kasir-1' });
  const step = (id: string, from: string, to: string, source: string, extra: Partial<EventSeed> = {}) =>
    addEvent(db, id, { type: 'state_changed', source, from, to, ...extra });

  insertOrder(db, 'T01-20250301-030000001-AAAA', {
    state: 'paid',
    kind: 'qris',
    method_id: 'qris_dynamic',
    paid_at: at(4),
    updated_at: at(4),
  });
  created('T01-20250301-030000001-AAAA');
  addEvent(db, 'T01-20250301-030000001-AAAA', {
    type: 'delivery',
    source: 'gateway',
    payload: '{"from":"pending","to":"answered"}',
  });
  step('T01-20250301-030000001-AAAA', 'creating', 'awaiting_payment', 'gateway');
  step('T01-20250301-030000001-AAAA', 'awaiting_payment', 'paid', 'callback', {
    at: at(4),
    reason: 'gateway callback: PAID (transaction SBX-1)',
    payload: '{"callback":{"status":"PAID","amount":25000},"bodySha256":"' + 'c'.repeat(64) + '"}',
  });

  insertOrder(db, 'T01-20250301-030100000-BBBB', {
    state: 'cancelled',
    kind: 'va_bank',
    method_id: 'va_bca',
    customer_name: 'Budi Santoso',
    amount: 1_250_000,
    item_name: 'Beras 50 kg — “premium”',
    item_id: 'SKU-9',
    instruction: '{"type":"virtual_account","va":"8808123456789","customer_name":"Budi Santoso"}',
    late_payment: 1,
    expires_at: '2025-03-02T03:01:00.000Z',
    updated_at: at(30),
  });
  created('T01-20250301-030100000-BBBB');
  step('T01-20250301-030100000-BBBB', 'creating', 'awaiting_payment', 'gateway');
  step('T01-20250301-030100000-BBBB', 'awaiting_payment', 'cancelled', 'manager', {
    actor: 'mgr',
    reason: 'customer left',
  });
  addEvent(db, 'T01-20250301-030100000-BBBB', {
    type: 'late_payment',
    source: 'callback',
    at: at(30),
    payload: '{"status":"PAID"}',
  });
  addEvent(db, 'T01-20250301-030100000-BBBB', {
    type: 'note',
    source: 'manager',
    actor: 'mgr',
    reason: 'refunded in cash',
    at: at(31),
  });

  insertOrder(db, 'T01-20250301-030200000-CCCC', {
    state: 'rejected',
    kind: 'ewallet_redirect',
    method_id: 'ovo',
    phone: '081234567890',
    instruction: null,
    gateway_transaction_id: null,
    response_body: '<html><body>502 Bad Gateway</body></html>',
    rejection_retcode: '5000',
    rejection_message: 'upstream error',
    rejection_http_status: 502,
    expires_at: null,
  });
  created('T01-20250301-030200000-CCCC');
  step('T01-20250301-030200000-CCCC', 'creating', 'rejected', 'gateway', { reason: 'HTTP 502' });

  insertOrder(db, 'T01-20250301-030300000-DDDD', {
    state: 'unknown',
    kind: 'airtime_sms',
    method_id: 'telkomsel_sms',
    delivery: 'sent',
    instruction: null,
    gateway_transaction_id: null,
    response_body: null,
    expires_at: null,
    training: 1,
  });
  created('T01-20250301-030300000-DDDD', 'cli');
  step('T01-20250301-030300000-DDDD', 'creating', 'unknown', 'startup', {
    reason: 'Loket stopped while the request was in flight',
  });
  addEvent(db, 'T01-20250301-030300000-DDDD', { type: 'note', source: 'reconcile', reason: 'left for a manager' });

  insertOrder(db, 'T01-20250301-030400000-EEEE', { state: 'expired', kind: 'ewallet_qr_redirect', method_id: 'dana' });
  created('T01-20250301-030400000-EEEE');
  step('T01-20250301-030400000-EEEE', 'creating', 'awaiting_payment', 'gateway');
  step('T01-20250301-030400000-EEEE', 'awaiting_payment', 'expired', 'poll');

  insertOrder(db, 'T01-20250301-030500000-FFFF', { state: 'failed', kind: 'va_cstore', method_id: 'alfamart' });
  created('T01-20250301-030500000-FFFF');
  step('T01-20250301-030500000-FFFF', 'creating', 'unknown', 'system', { reason: 'unexpected error' });
  step('T01-20250301-030500000-FFFF', 'unknown', 'awaiting_payment', 'inquiry');
  step('T01-20250301-030500000-FFFF', 'awaiting_payment', 'failed', 'inquiry');

  insertOrder(db, 'T01-20250301-030600000-GGGG', {
    state: 'creating',
    kind: 'airtime',
    method_id: 'xl_airtime',
    delivery: 'pending',
    instruction: null,
    gateway_transaction_id: null,
    response_body: null,
    expires_at: null,
  });
  created('T01-20250301-030600000-GGGG');

  db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)').run(
    'settings',
    JSON.stringify({ storeName: 'Warung Bu Sri', terminalId: 'T01', gateway: null }),
    T0,
  );
  db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)').run('lang', '"id"', at(1));
  const receipt = db.prepare(
    'INSERT INTO callback_receipts (received_at, order_id, status, body_sha256, outcome) VALUES (?, ?, ?, ?, ?)',
  );
  receipt.run(at(4), 'T01-20250301-030000001-AAAA', 'PAID', 'c'.repeat(64), 'received PAID while awaiting_payment');
  receipt.run(at(30), 'T01-20250301-030100000-BBBB', 'PAID', 'd'.repeat(64), 'received PAID while cancelled');
  receipt.run(at(40), 'not-ours', 'PAID', 'e'.repeat(64), 'unknown order');
}

/** Each table's columns, in order. */
function shapeOf(db: Database): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const t of names(db, 'table'))
    out[t] = db
      .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${t}') ORDER BY cid`)
      .all()
      .map((c) => c.name);
  return out;
}

/**
 * Every value of every table as SQL quotes it (so 200, 200.0 and '200' differ), and the sequences; only the
 * tables and columns of `shape` when given (those of an older version, to compare across a later migration).
 */
function exactDump(db: Database, shape: Record<string, string[]> = shapeOf(db)): Record<string, unknown[][]> {
  const out: Record<string, unknown[][]> = {};
  for (const [t, cols] of Object.entries(shape)) {
    out[t] = db
      .prepare(`SELECT rowid, ${cols.map((c) => `quote(${c})`).join(', ')} FROM ${t} ORDER BY rowid`)
      .raw()
      .all() as unknown[][];
  }
  out.sqlite_sequence = db.prepare('SELECT name, seq FROM sqlite_sequence ORDER BY name').raw().all() as unknown[][];
  return out;
}

function strictTables(db: Database): Record<string, number> {
  return Object.fromEntries(
    db
      .prepare<[], { name: string; strict: number }>(
        `SELECT name, strict FROM pragma_table_list WHERE schema = 'main' AND type = 'table'
           AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY name`,
      )
      .all()
      .map((r) => [r.name, r.strict]),
  );
}

/**
 * One entry per migration: `seed` writes representative data at version k−1, `check` shows that
 * migration k's schema works. A migration without an entry fails the test below, so none goes untested.
 */
const perMigration: Record<
  number,
  {
    seed(db: Database): void;
    check(db: Database): void;
    /** Columns the migration adds to existing tables, with the value every old row gets. */
    added?: Record<string, Record<string, unknown>>;
  }
> = {
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
  4: {
    seed: seedRealisticV3,
    check: (db) => {
      expect(strictTables(db)).toEqual({ callback_receipts: 1, order_events: 1, orders: 1, settings: 1 });
      // The new CHECKs.
      expect(() => insertOrder(db, 'D-1', { kind: 'cash' })).toThrow(/CHECK constraint failed: kind IN/);
      insertOrder(db, 'D-2');
      expect(() => addEvent(db, 'D-2', { type: 'created', source: 'robot', to: 'creating' })).toThrow(
        /CHECK constraint failed: source IN/,
      );
      // STRICT: a wrong type is refused, where before it was kept as it came.
      expect(() => insertOrder(db, 'D-3', { rejection_http_status: 'five hundred', rejection_message: 'x' })).toThrow(
        /cannot store TEXT value in INTEGER column orders.rejection_http_status/,
      );
      expect(() => insertOrder(db, 'D-4', { item_name: Buffer.from('Kopi') })).toThrow(
        /cannot store BLOB value in TEXT column orders.item_name/,
      );
      expect(() => insertOrder(db, 'D-5', { amount: 10.5 })).toThrow(/cannot store REAL value in INTEGER column/);
      // Everything migration 1 checked is still checked.
      expect(() => insertOrder(db, 'D-6', { state: 'lost' })).toThrow(/CHECK constraint failed/);
      expect(() => insertOrder(db, 'D-7', { created_at: '2025-03-01 03:00:00' })).toThrow(/CHECK constraint failed/);
      expect(() => insertOrder(db, 'D-8', { request_body: 'not json' })).toThrow(/CHECK constraint failed/);
      expect(() => insertOrder(db, 'D-2')).toThrow(/UNIQUE constraint failed/);
      expect(() => insertEvent(db, 'no-such-order')).toThrow(/FOREIGN KEY constraint failed/);
      expect(() => insertEvent(db, 'D-2', 'renamed')).toThrow(/CHECK constraint failed/);
      expect(() => db.prepare("INSERT INTO settings (key, value, updated_at) VALUES (NULL, '1', ?)").run(T0)).toThrow(
        /NOT NULL constraint failed/,
      );
      const receipt = db.prepare(
        'INSERT INTO callback_receipts (received_at, order_id, status, body_sha256, outcome) VALUES (?, NULL, NULL, ?, ?)',
      );
      expect(() => receipt.run(T0, 'c'.repeat(64), 'again')).toThrow(/UNIQUE constraint failed/);
      expect(() => receipt.run(T0, 'C'.repeat(64), 'upper')).toThrow(/CHECK constraint failed/);
      // The log is still append-only, and deleting an order with events still breaks its foreign key.
      expect(() => db.prepare('UPDATE order_events SET reason = ?').run('x')).toThrow(/append-only/);
      expect(() => db.prepare('DELETE FROM order_events').run()).toThrow(/append-only/);
      expect(() => db.prepare("DELETE FROM orders WHERE id = 'T01-20250301-030000001-AAAA'").run()).toThrow(
        /FOREIGN KEY constraint failed/,
      );
      expect(names(db, 'index')).toEqual([
        'callback_receipts_order',
        'order_events_order',
        'orders_created',
        'orders_method_created',
        'orders_state_created',
      ]);
      expect(names(db, 'trigger')).toEqual(['order_events_no_delete', 'order_events_no_update']);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    },
  },
  5: {
    seed: seedRealisticV3,
    added: { orders: { staff_id: null } },
    check: (db) => {
      expect(strictTables(db)).toEqual(Object.fromEntries(V5_TABLES.map((t) => [t, 1])));
      expect(names(db, 'trigger')).toEqual(V5_TRIGGERS);
      expect(names(db, 'index')).toEqual(
        expect.arrayContaining(['audit_events_actor', 'orders_staff_created', 'orders_created']),
      );

      // staff: roles, names unique whatever their case, the hash's prefix, STRICT types.
      const sri = insertStaff(db, 'Sri', { role: 'manager' });
      const budi = insertStaff(db, 'Budi');
      expect(() => insertStaff(db, 'Owner', { role: 'owner' })).toThrow(/CHECK constraint failed: role IN/);
      expect(() => insertStaff(db, 'Admin', { role: 'Manager' })).toThrow(/CHECK constraint failed: role IN/);
      expect(() => insertStaff(db, 'SRI')).toThrow(/UNIQUE constraint failed: staff.name/);
      expect(() => insertStaff(db, ' Ani')).toThrow(/CHECK constraint failed/);
      expect(() => insertStaff(db, '')).toThrow(/CHECK constraint failed/);
      expect(() => insertStaff(db, 'x'.repeat(41))).toThrow(/CHECK constraint failed/);
      insertStaff(db, 'x'.repeat(40));
      expect(() => insertStaff(db, 'Plain', { pin_hash: '97531864' })).toThrow(/CHECK constraint failed: pin_hash/);
      expect(() => insertStaff(db, 'Flag', { active: 2 })).toThrow(/CHECK constraint failed/);
      expect(() => insertStaff(db, 'Late', { created_at: '2025-03-01 03:00' })).toThrow(/CHECK constraint failed/);
      expect(() => insertStaff(db, 'Typed', { active: 'yes' })).toThrow(/cannot store TEXT value in INTEGER column/);
      expect(() => insertStaff(db, 'Id', { id: 'seven' })).toThrow(/datatype mismatch/);

      // orders.staff_id: NULL for the old orders, a foreign key to staff, STRICT.
      expect(db.prepare('SELECT COUNT(*) FROM orders WHERE staff_id IS NOT NULL').pluck().get()).toBe(0);
      insertOrder(db, 'E-1', { staff_id: budi });
      insertOrder(db, 'E-2');
      expect(() => insertOrder(db, 'E-3', { staff_id: 999 })).toThrow(/FOREIGN KEY constraint failed/);
      expect(() => insertOrder(db, 'E-4', { staff_id: 'Budi' })).toThrow(
        /cannot store TEXT value in INTEGER column orders.staff_id/,
      );
      expect(db.pragma('foreign_key_list(orders)')).toMatchObject([{ table: 'staff', from: 'staff_id', to: 'id' }]);
      // A member of staff with orders cannot be deleted (they are deactivated instead).
      expect(() => db.prepare('DELETE FROM staff WHERE id = ?').run(budi)).toThrow(/FOREIGN KEY constraint failed/);

      // pin_lockout: exactly one row, from the start, that stays.
      expect(db.prepare('SELECT * FROM pin_lockout').all()).toEqual([
        { id: 1, failures: 0, last_failure_at: null, locked_until: null },
      ]);
      expect(() => db.prepare('INSERT INTO pin_lockout (id, failures) VALUES (2, 0)').run()).toThrow(
        /CHECK constraint failed/,
      );
      expect(() => db.prepare('UPDATE pin_lockout SET failures = -1').run()).toThrow(/CHECK constraint failed/);
      expect(() => db.prepare("UPDATE pin_lockout SET locked_until = 'soon'").run()).toThrow(/CHECK constraint failed/);
      expect(() => db.prepare('DELETE FROM pin_lockout').run()).toThrow(/pin_lockout keeps its one row/);
      db.prepare('UPDATE pin_lockout SET failures = 4, last_failure_at = ?, locked_until = ?').run(T0, at(1));

      // audit_events: append-only, its actor consistent with its source, detail a JSON object.
      insertAudit(db);
      insertAudit(db, { actor_staff_id: sri, actor: 'Sri', source: 'app', action: 'pin.failed', detail: '{"n":1}' });
      insertAudit(db, { actor: 'cli:sri', source: 'cli', action: 'pin.reset', field: null });
      expect(() => insertAudit(db, { actor_staff_id: 999, actor: 'Ghost', source: 'app' })).toThrow(
        /FOREIGN KEY constraint failed/,
      );
      expect(() => insertAudit(db, { source: 'robot' })).toThrow(/CHECK constraint failed/);
      expect(() => insertAudit(db, { action: 'Settings Changed' })).toThrow(/CHECK constraint failed/);
      expect(() => insertAudit(db, { detail: '{' })).toThrow(/CHECK constraint failed/);
      expect(() => insertAudit(db, { detail: '[1,2]' })).toThrow(/CHECK constraint failed/);
      expect(() => insertAudit(db, { actor: 'sri', source: 'cli' })).toThrow(/CHECK constraint failed/);
      expect(() => insertAudit(db, { actor: 'Sri', source: 'system' })).toThrow(/CHECK constraint failed/);
      expect(() => insertAudit(db, { actor_staff_id: sri, actor: 'cli:sri', source: 'cli' })).toThrow(
        /CHECK constraint failed/,
      );
      expect(() => insertAudit(db, { at: '2025-03-01' })).toThrow(/CHECK constraint failed/);
      expect(() => insertAudit(db, { field: Buffer.from('mode') })).toThrow(
        /cannot store BLOB value in TEXT column audit_events.field/,
      );
      expect(() => db.prepare("UPDATE audit_events SET actor = 'someone else'").run()).toThrow(
        /audit_events is append-only: an event cannot be updated/,
      );
      expect(() => db.prepare('DELETE FROM audit_events').run()).toThrow(
        /audit_events is append-only: an event cannot be deleted/,
      );
      expect(db.prepare('SELECT COUNT(*) FROM audit_events').pluck().get()).toBe(3);

      // Migration 4's rules still hold on the altered orders table.
      expect(() => insertOrder(db, 'E-5', { kind: 'cash' })).toThrow(/CHECK constraint failed: kind IN/);
      expect(() => db.prepare('DELETE FROM order_events').run()).toThrow(/append-only/);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    },
  },
  6: {
    seed: seedRealisticV5,
    check: (db) => {
      expect(strictTables(db)).toEqual(Object.fromEntries(V6_TABLES.map((t) => [t, 1])));
      expect(names(db, 'trigger')).toEqual(V8_TRIGGERS.filter((t) => !V7_TRIGGERS.includes(t)));
      expect(names(db, 'index')).toEqual(
        expect.arrayContaining([
          'callback_issues_open',
          'callback_issues_order',
          'orders_day_report',
          'orders_late_payment',
        ]),
      );

      // callback_issues: no foreign key (a callback may name an order this log lacks), CHECKed lists, one row
      // per body, STRICT; an update may only acknowledge, once; no delete, no replace.
      const issue = (overrides: Record<string, unknown> = {}) => {
        const row = {
          received_at: T0,
          order_id: 'not-ours',
          status: 'PAID',
          reason: 'unknown_order',
          amount: 75_000,
          body_sha256: 'f'.repeat(64),
          ...overrides,
        };
        const cols = Object.keys(row);
        return Number(
          db
            .prepare(`INSERT INTO callback_issues (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`)
            .run(row).lastInsertRowid,
        );
      };
      const id = issue();
      issue({
        order_id: 'T01-20250301-030000001-AAAA',
        reason: 'not_forward',
        status: 'EXPIRED',
        body_sha256: '1'.repeat(64),
      });
      expect(() => issue({ body_sha256: '2'.repeat(64), status: 'PENDING' })).toThrow(/CHECK constraint failed/);
      expect(() => issue({ body_sha256: '2'.repeat(64), reason: 'because' })).toThrow(/CHECK constraint failed/);
      expect(() => issue({ body_sha256: '2'.repeat(64), amount: 0 })).toThrow(/CHECK constraint failed/);
      expect(() => issue({ body_sha256: '2'.repeat(64), amount: 'lots' })).toThrow(
        /cannot store TEXT value in INTEGER column callback_issues.amount/,
      );
      expect(() => issue({ body_sha256: 'F'.repeat(64) })).toThrow(/CHECK constraint failed/);
      expect(() => issue({ body_sha256: '2'.repeat(64), received_at: '2025-03-01 03:00' })).toThrow(/CHECK constraint/);
      expect(() => issue({ body_sha256: '2'.repeat(64), order_id: '' })).toThrow(/CHECK constraint failed/);
      expect(() => issue({ body_sha256: '2'.repeat(64), acknowledged_at: T0 })).toThrow(/CHECK constraint failed/);
      expect(() => issue()).toThrow(/callback_issues: a row cannot be replaced/);
      const ack = db.prepare(
        'UPDATE callback_issues SET acknowledged_at = ?, acknowledged_by = ?, note = ? WHERE id = ?',
      );
      expect(() => ack.run(T0, 'Sri', 'no', id)).toThrow(/CHECK constraint failed/);
      expect(() => ack.run(T0, null, 'a reason', id)).toThrow(/CHECK constraint failed/);
      expect(() => db.prepare('UPDATE callback_issues SET status = ? WHERE id = ?').run('FAILED', id)).toThrow(
        /callback_issues: a row can only be acknowledged, once/,
      );
      ack.run(at(9), 'Sri', 'the other till', id);
      expect(() => ack.run(at(10), 'Budi', 'again please', id)).toThrow(/can only be acknowledged, once/);
      expect(() => db.prepare('DELETE FROM callback_issues WHERE id = ?').run(id)).toThrow(/cannot be deleted/);
      expect(db.prepare('SELECT acknowledged_by, note FROM callback_issues WHERE id = ?').get(id)).toEqual({
        acknowledged_by: 'Sri',
        note: 'the other till',
      });

      // closings: one per store day, a real date, figures a JSON object, never changed, removed or replaced.
      const sri = db.prepare("SELECT id FROM staff WHERE name = 'Sri'").pluck().get() as number;
      const close = (overrides: Record<string, unknown> = {}) => {
        const row = {
          day: '2025-03-01',
          time_zone: 'Asia/Jakarta',
          closed_at: at(50),
          closed_by_staff_id: sri,
          closed_by: 'Sri',
          figures: '{"paid":{"count":1,"amount":25000}}',
          open_attention: 2,
          last_event_seq: 12,
          ...overrides,
        };
        const cols = Object.keys(row);
        db.prepare(`INSERT INTO closings (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`).run(
          row,
        );
      };
      close();
      close({ day: '2025-03-02', closed_by_staff_id: null, closed_by: 'cli:sri' });
      expect(() => close({ day: '2025-02-30' })).toThrow(/CHECK constraint failed/);
      expect(() => close({ day: '2025-3-3' })).toThrow(/CHECK constraint failed/);
      expect(() => close({ day: '2025-03-04', figures: '[1]' })).toThrow(/CHECK constraint failed/);
      expect(() => close({ day: '2025-03-04', figures: '{' })).toThrow(/CHECK constraint failed/);
      expect(() => close({ day: '2025-03-04', open_attention: -1 })).toThrow(/CHECK constraint failed/);
      expect(() => close({ day: '2025-03-04', closed_by: '' })).toThrow(/CHECK constraint failed/);
      expect(() => close({ day: '2025-03-04', closed_at: '2025-03-04' })).toThrow(/CHECK constraint failed/);
      expect(() => close({ day: '2025-03-04', closed_by_staff_id: 999 })).toThrow(/FOREIGN KEY constraint failed/);
      expect(() => close()).toThrow(/closings: a closed day cannot be closed again/);
      expect(() => db.prepare('INSERT OR REPLACE INTO closings SELECT * FROM closings').run()).toThrow(/closed again/);
      expect(() => db.prepare("UPDATE closings SET figures = '{}'").run()).toThrow(/a closed day cannot be changed/);
      expect(() => db.prepare('DELETE FROM closings').run()).toThrow(/a closed day cannot be reopened/);
      expect(db.prepare('SELECT day FROM closings ORDER BY day').pluck().all()).toEqual(['2025-03-01', '2025-03-02']);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    },
  },
  7: {
    seed: (db) => {
      seedRealisticV5(db);
      // A second terminal's orders in the same file (a till whose terminal id was changed): its own sequence.
      insertOrder(db, 'T02-20250301-030700000-JJJJ', { terminal_id: 'T02', state: 'paid', paid_at: at(8) });
      addEvent(db, 'T02-20250301-030700000-JJJJ', { type: 'created', source: 'cashier', to: 'creating', at: at(7) });
      addEvent(db, 'T02-20250301-030700000-JJJJ', {
        type: 'state_changed',
        source: 'callback',
        from: 'creating',
        to: 'paid',
        at: at(8),
      });
    },
    check: (db) => {
      expect(strictTables(db)).toEqual(Object.fromEntries(V8_TABLES.map((t) => [t, 1])));
      expect(names(db, 'trigger')).toEqual(V8_TRIGGERS);
      checkOutboxBackfill(db);

      // The instance id: one row, made once, never changed or removed.
      const instance = db.prepare('SELECT instance_id FROM book_identity').pluck().all() as string[];
      expect(instance).toHaveLength(1);
      expect(instance[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(() => db.prepare("UPDATE book_identity SET instance_id = 'x'").run()).toThrow(/never changes/);
      expect(() => db.prepare('DELETE FROM book_identity').run()).toThrow(/never removed/);
      expect(() => db.prepare("INSERT INTO book_identity VALUES (2, '" + 'a'.repeat(36) + "')").run()).toThrow(
        /CHECK constraint failed/,
      );

      // The outbox: gap-free per terminal, append-only.
      const row = db.prepare("SELECT * FROM outbox WHERE terminal_id = 'T02' AND seq = 2").get() as Record<
        string,
        unknown
      >;
      const insert = (overrides: Record<string, unknown>) => {
        const r = { ...row, uuid: '01955000-0000-7000-8000-000000000000', ...overrides };
        const cols = Object.keys(r);
        db.prepare(`INSERT INTO outbox (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`).run(r);
      };
      expect(() => insert({ seq: 4 })).toThrow(/numbered 1, 2, 3, … without gaps/);
      expect(() => insert({ seq: 2 })).toThrow(/without gaps|UNIQUE/);
      expect(() => insert({ seq: 3, sha256: 'A'.repeat(64) })).toThrow(/CHECK constraint failed/);
      expect(() => insert({ seq: 3, stream: 'Sale' })).toThrow(/CHECK constraint failed/);
      expect(() => insert({ seq: 3, payload: '{' })).toThrow(/CHECK constraint failed/);
      insert({ seq: 3 });
      insert({ terminal_id: 'T09', seq: 1, uuid: '01955000-0000-7000-8000-000000000001' });
      expect(() => db.prepare("UPDATE outbox SET type = 'x'").run()).toThrow(/append-only/);
      expect(() => db.prepare('DELETE FROM outbox').run()).toThrow(/append-only/);

      // The sync's cursor and the store link (no password column; a URL, a keychain account).
      db.prepare("INSERT INTO outbox_sync (terminal_id, acked_seq) VALUES ('T1', 3)").run();
      expect(() => db.prepare("INSERT INTO outbox_sync (terminal_id, acked_seq) VALUES ('T02', -1)").run()).toThrow(
        /CHECK constraint failed/,
      );
      expect(() =>
        db.prepare("INSERT INTO outbox_sync (terminal_id, acked_seq, conflict) VALUES ('T02', 0, '[1]')").run(),
      ).toThrow(/CHECK constraint failed/);
      const link = (overrides: Record<string, unknown> = {}) => {
        const r = {
          id: 1,
          store_id: '0195a000-0000-7000-8000-000000000000',
          store_code: 'JK1',
          terminal_id: 'T01',
          url: 'postgres://loket_jk1_t01@127.0.0.1:5432/store',
          credential: 'store-book:JK1:T01:0195a000',
          enrolled_at: T0,
          ...overrides,
        };
        const cols = Object.keys(r);
        db.prepare(`INSERT INTO store_link (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`).run(
          r,
        );
      };
      expect(() => link({ store_code: 'jk1' })).toThrow(/CHECK constraint failed/);
      expect(() => link({ store_code: 'JKT1' })).toThrow(/CHECK constraint failed/);
      expect(() => link({ terminal_id: 'T-1' })).toThrow(/CHECK constraint failed/);
      expect(() => link({ url: 'mysql://x' })).toThrow(/CHECK constraint failed/);
      link();
      expect(() => link({ id: 2 })).toThrow(/CHECK constraint failed/);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    },
  },
  8: {
    seed: seedRealisticV5,
    check: (db) => {
      expect(names(db, 'index')).toEqual(expect.arrayContaining(['order_events_mismatch']));
      // The attention queue's mismatch notes are found through the partial index, not a scan of every event.
      const order = 'T01-20250301-031000000-HHHH';
      addEvent(db, order, {
        type: 'note',
        source: 'poll',
        payload: JSON.stringify({ mismatch: { via: 'inquiry', fields: ['amount'], reported: {}, applied: false } }),
      });
      addEvent(db, order, { type: 'note', source: 'poll', payload: JSON.stringify({ other: 1 }) });
      const query = `SELECT order_id FROM order_events WHERE type = 'note' AND json_extract(payload, '$.mismatch') IS NOT NULL`;
      expect(db.prepare(query).pluck().all()).toEqual([order]);
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[];
      expect(plan.map((r) => r.detail).join(' | ')).toMatch(/order_events_mismatch/);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    },
  },
  9: {
    // Nothing: a number held for a migration not needed.
    seed: seedRealisticV5,
    check: (db) => {
      expect(names(db, 'table')).toEqual(V8_TABLES);
    },
  },
  10: {
    seed: seedRealisticV5,
    check: (db) => {
      expect(strictTables(db)).toEqual(Object.fromEntries([...V8_TABLES, ...V10_TABLES].sort().map((t) => [t, 1])));
      const product = db
        .prepare(
          `INSERT INTO products (sku, sku_key, name, name_folded, category, price, tax_category, active, created_at, updated_at)
           VALUES ('KS-1', 'ks-1', 'Kopi Susu Gula Aren', 'kopi susu gula aren', 'Minuman', 18000, 'ppn', 1, ?, ?)`,
        )
        .run(T0, T0).lastInsertRowid;
      db.prepare('INSERT INTO product_barcodes (code, product_id, position) VALUES (?, ?, 0)').run(
        '8991234567891',
        product,
      );
      // A barcode finds one product; a SKU is unique ignoring case.
      expect(() =>
        db
          .prepare('INSERT INTO product_barcodes (code, product_id, position) VALUES (?, ?, 1)')
          .run('8991234567891', product),
      ).toThrow(/UNIQUE/);
      // The name search finds a part of the name, whatever its case and accents, through the trigram index.
      db.prepare("UPDATE products SET name = 'Kopi Süsu Gula Aren' WHERE id = ?").run(product);
      db.prepare("INSERT INTO products_search (products_search) VALUES ('rebuild')").run();
      const search = db.prepare<[string], number>('SELECT rowid FROM products_search WHERE products_search MATCH ?');
      expect(search.pluck().all('"SUSU"')).toEqual([Number(product)]);
      expect(search.pluck().all('"gula ar"')).toEqual([Number(product)]);
      db.prepare(
        `INSERT INTO sales (id, terminal_id, state, training, subtotal, line_discounts, sale_discount_amount, net, dpp,
           ppn, pbjt, service, total, categories, created_at, updated_at)
         VALUES ('S1', 'T01', 'tendering', 1, 18000, 0, 0, 16216, 14865, 1784, 0, 0, 18000, '[]', ?, ?)`,
      ).run(T0, T0);
      db.prepare(
        `INSERT INTO sale_lines (sale_id, line_no, line_id, name, unit_price, qty, tax_category, gross, line_discount,
           sale_discount, net, total) VALUES ('S1', 1, 'l1', 'Kopi', 18000, 1, 'ppn', 18000, 0, 0, 18000, 18000)`,
      ).run();
      db.prepare(
        `INSERT INTO sale_tenders (sale_id, tender_no, kind, state, method_id, order_id, amount, created_at, updated_at)
         VALUES ('S1', 1, 'gateway', 'pending', 'qris_dynamic', 'T01-20250301-031000000-HHHH', 18000, ?, ?)`,
      ).run(T0, T0);
      // A gateway tender names its method; an "other" one its reference.
      expect(() =>
        db
          .prepare(
            `INSERT INTO sale_tenders (sale_id, tender_no, kind, state, amount, created_at, updated_at)
             VALUES ('S1', 2, 'other', 'paid', 1, ?, ?)`,
          )
          .run(T0, T0),
      ).toThrow(/CHECK/);
      db.prepare("INSERT INTO sale_events (sale_id, at, type) VALUES ('S1', ?, 'created')").run(T0);
      expect(() => db.prepare('DELETE FROM sale_events').run()).toThrow(/append-only/);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    },
  },
  11: {
    seed: seedRealisticV5,
    check: (db) => {
      expect(names(db, 'table')).toEqual(expect.arrayContaining(['shifts', 'shift_events']));
      expect(names(db, 'index')).toEqual(
        expect.arrayContaining(['shifts_one_open', 'shifts_day', 'shift_events_shift']),
      );
      const shift = (overrides: Record<string, unknown> = {}) => {
        const row = {
          id: 'T01-S0001',
          terminal_id: 'T01',
          business_day: '2025-03-01',
          time_zone: 'Asia/Jakarta',
          state: 'open',
          opened_at: T0,
          opened_by: 'Sri',
          float: 100000,
          ...overrides,
        };
        const cols = Object.keys(row);
        db.prepare(`INSERT INTO shifts (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`).run(row);
      };
      const event = (overrides: Record<string, unknown> = {}) => {
        const row = { shift_id: 'T01-S0001', at: T0, type: 'float', amount: 100000, ...overrides };
        const cols = Object.keys(row);
        db.prepare(`INSERT INTO shift_events (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`).run(
          row,
        );
      };
      expect(() => shift({ float: -1 })).toThrow(/CHECK constraint failed/);
      expect(() => shift({ business_day: '1/3/2025' })).toThrow(/CHECK constraint failed/);
      expect(() => shift({ state: 'closed' })).toThrow(/CHECK constraint failed/);
      shift();
      // One open shift per terminal; a closed one beside it is fine.
      expect(() => shift({ id: 'T01-S0002' })).toThrow(/UNIQUE constraint failed/);
      shift({ id: 'T02-S0001', terminal_id: 'T02' });
      event();
      expect(() => event({ type: 'sale' })).toThrow(/CHECK constraint failed/);
      expect(() => event({ type: 'pay_out', amount: 5 })).toThrow(/CHECK constraint failed/); // no reason
      expect(() => event({ type: 'cash_tender', amount: 5, change: 6, document_id: 'S' })).toThrow(/CHECK constraint/);
      expect(() => event({ type: 'cash_tender', amount: 5 })).toThrow(/CHECK constraint failed/); // no document
      expect(() => event({ shift_id: 'nope' })).toThrow(/FOREIGN KEY constraint failed/);
      event({ type: 'cash_tender', amount: 50000, change: 1500, document_id: 'SALE-1' });
      // The close: once, with a difference that is counted − expected.
      const close = (difference: number) =>
        db
          .prepare(
            `UPDATE shifts SET state = 'closed', closed_at = ?, closed_by = 'Sri', counted = 148000, expected = 148500,
             difference = ? WHERE id = 'T01-S0001'`,
          )
          .run(T0, difference);
      expect(() => close(0)).toThrow(/CHECK constraint failed/);
      close(-500);
      expect(() => close(-500)).toThrow(/changes only when it is closed, once/);
      expect(() => db.prepare('DELETE FROM shift_events').run()).toThrow(/append-only/);
      shift({ id: 'T01-S0002' });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    },
  },
  12: {
    seed: seedRealisticV5,
    check: (db) => {
      expect(names(db, 'table')).toEqual(expect.arrayContaining(V12_TABLES));
      db.prepare(
        `INSERT INTO sales (id, terminal_id, state, training, subtotal, line_discounts, sale_discount_amount, net, dpp,
           ppn, pbjt, service, total, categories, created_at, updated_at)
         VALUES ('S1', 'T01', 'completed', 0, 20000, 0, 0, 18018, 16517, 1982, 0, 0, 20000, '[]', ?, ?)`,
      ).run(T0, T0);
      db.prepare(
        `INSERT INTO sale_lines (sale_id, line_no, line_id, name, unit_price, qty, tax_category, gross, line_discount,
           sale_discount, net, total) VALUES ('S1', 1, 'a', 'Kopi', 10000, 2, 'ppn', 20000, 0, 0, 20000, 20000)`,
      ).run();
      const refund = (overrides: Record<string, unknown> = {}) => {
        const row = {
          id: 'R1',
          sale_id: 'S1',
          terminal_id: 'T01',
          training: 0,
          how: 'cash',
          shift_id: 'T01-S0001',
          reason: 'spilt',
          amount: 10000,
          rounding: 0,
          money: 10000,
          cash_rounding: 0,
          paid_back: 10000,
          net: 9009,
          dpp: 8258,
          ppn: 991,
          pbjt: 0,
          service: 0,
          complete: 0,
          approved_by: 'Sri',
          created_at: T0,
          ...overrides,
        };
        const cols = Object.keys(row);
        db.prepare(`INSERT INTO refunds (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`).run(row);
      };
      // money = amount + rounding, paid_back = money + cash rounding, amount = net + taxes; cash needs its shift.
      expect(() => refund({ money: 9999 })).toThrow(/CHECK constraint failed/);
      expect(() => refund({ paid_back: 10001 })).toThrow(/CHECK constraint failed/);
      expect(() => refund({ net: 9000 })).toThrow(/CHECK constraint failed/);
      expect(() => refund({ shift_id: null })).toThrow(/CHECK constraint failed/);
      expect(() => refund({ how: 'outside', shift_id: null, cash_rounding: -100, paid_back: 9900 })).toThrow(
        /CHECK constraint failed/,
      );
      expect(() => refund({ sale_id: 'nope' })).toThrow(/FOREIGN KEY constraint failed/);
      refund();
      const line = (saleLineNo: number) =>
        db
          .prepare(
            `INSERT INTO refund_lines (refund_id, line_no, sale_id, sale_line_no, line_id, qty, amount)
             VALUES ('R1', ?, 'S1', ?, 'a', 1, 10000)`,
          )
          .run(saleLineNo, saleLineNo);
      expect(() => line(2)).toThrow(/FOREIGN KEY constraint failed/);
      line(1);
      db.prepare("INSERT INTO refund_events (refund_id, at, type) VALUES ('R1', ?, 'created')").run(T0);
      expect(() => db.prepare("UPDATE refunds SET reason = 'other'").run()).toThrow(/never changed/);
      expect(() => db.prepare('DELETE FROM refund_lines').run()).toThrow(/never changed/);
      expect(() => db.prepare('DELETE FROM refund_events').run()).toThrow(/append-only/);
    },
  },
  13: {
    // A closing made before migration 13 keeps its row, with no sales (NULL).
    seed: (db) => {
      seedRealisticV5(db);
      db.prepare(
        `INSERT INTO closings (day, time_zone, closed_at, closed_by, figures, open_attention, last_event_seq)
         VALUES ('2025-03-01', 'Asia/Jakarta', ?, 'cli:sri', '{"paid":{"count":1,"amount":25000}}', 0, 3)`,
      ).run(T0);
    },
    added: { closings: { sales: null } },
    check: (db) => {
      const close = (day: string, sales: string | null) =>
        db
          .prepare(
            `INSERT INTO closings (day, time_zone, closed_at, closed_by, figures, open_attention, last_event_seq, sales)
             VALUES (?, 'Asia/Jakarta', ?, 'Sri', '{}', 0, 4, ?)`,
          )
          .run(day, T0, sales);
      close('2025-03-02', '{"total":111000,"tax":{"dpp":91667,"ppn":11000,"pbjt":0,"service":0}}');
      expect(() => close('2025-03-03', '[1]')).toThrow(/CHECK constraint failed/);
      expect(() => close('2025-03-03', '{')).toThrow(/CHECK constraint failed/);
      // Still never changed: not even to add the sales to an older closing.
      expect(() => db.prepare("UPDATE closings SET sales = '{}' WHERE day = '2025-03-01'").run()).toThrow(
        /a closed day cannot be changed/,
      );
      expect(db.prepare('SELECT day, sales IS NULL AS none FROM closings ORDER BY day').all()).toEqual([
        { day: '2025-03-01', none: 1 },
        { day: '2025-03-02', none: 0 },
      ]);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    },
  },
  14: {
    seed: seedRealisticV11,
    check: (db) => {
      // The kind is the registry's to check now: any name of a kind's shape is stored, anything else is not.
      insertOrder(db, 'K-1', { kind: 'paylater_new' });
      expect(() => insertOrder(db, 'K-2', { kind: 'Cash!' })).toThrow(/CHECK constraint failed: length\(kind\)/);
      expect(() => insertOrder(db, 'K-3', { kind: '' })).toThrow(/CHECK constraint failed/);
      // The other rules of the table, and of its events, are as they were.
      expect(() => insertOrder(db, 'K-4', { state: 'lost' })).toThrow(/CHECK constraint failed/);
      expect(() => insertOrder(db, 'K-5', { staff_id: 999 })).toThrow(/FOREIGN KEY constraint failed/);
      expect(() => insertEvent(db, 'NO-SUCH-ORDER')).toThrow(/FOREIGN KEY constraint failed/);
      expect(() => addEvent(db, 'K-1', { type: 'note', source: 'robot' })).toThrow(/CHECK constraint failed: source/);
      expect(() => db.prepare('DELETE FROM order_events').run()).toThrow(/append-only/);
      expect(() => db.prepare("UPDATE order_events SET actor = 'x'").run()).toThrow(/append-only/);
      expect(strictTables(db)).toMatchObject({ orders: 1, order_events: 1 });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    },
  },
  20: {
    // A sale stored before keeps its row, with no tax settings (NULL): it is read with the store's settings now.
    seed: seedRealisticV11,
    added: { sales: { tax_settings: null } },
    check: (db) => {
      const sale = (id: string, taxSettings: string | null) =>
        db
          .prepare(
            `INSERT INTO sales (id, terminal_id, state, training, subtotal, line_discounts, sale_discount_amount, net,
               dpp, ppn, pbjt, service, total, categories, tax_settings, created_at, updated_at)
             VALUES (?, 'T02', 'completed', 0, 11100, 0, 0, 10000, 9167, 1100, 0, 0, 11100, '[]', ?, ?, ?)`,
          )
          .run(id, taxSettings, T0, T0);
      sale('S-TAX', '{"ppn":{"rateBp":1200,"dpp":{"num":1,"den":1}},"pricesIncludeTax":false}');
      expect(() => sale('S-BAD1', '[1]')).toThrow(/CHECK constraint failed/);
      expect(() => sale('S-BAD2', '{')).toThrow(/CHECK constraint failed/);
      expect(db.prepare('SELECT id, tax_settings IS NULL AS none FROM sales ORDER BY id').all()).toEqual([
        { id: 'S-K', none: 1 },
        { id: 'S-TAX', none: 0 },
      ]);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    },
  },
  30: {
    seed: seedShiftsV14,
    check: (db) => {
      // A voided sale's cash given back is an event now, with its sale; every other rule of the table as it was.
      const event = (overrides: Record<string, unknown>) => {
        const row = { shift_id: 'T01-S0001', at: T0, type: 'cash_void', amount: 5000, ...overrides };
        const cols = Object.keys(row);
        db.prepare(`INSERT INTO shift_events (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`).run(
          row,
        );
      };
      event({ document_id: 'SALE-V' });
      expect(() => event({})).toThrow(/CHECK constraint failed/); // no sale
      expect(() => event({ change: 1, document_id: 'SALE-V' })).toThrow(/CHECK constraint failed/);
      expect(() => event({ type: 'tip', document_id: 'SALE-V' })).toThrow(/CHECK constraint failed/);
      expect(() => event({ type: 'pay_out' })).toThrow(/CHECK constraint failed/); // no reason
      expect(() => event({ shift_id: 'nope', document_id: 'SALE-V' })).toThrow(/FOREIGN KEY constraint failed/);
      expect(() => db.prepare('DELETE FROM shift_events').run()).toThrow(/append-only/);
      expect(() => db.prepare("UPDATE shift_events SET actor = 'x'").run()).toThrow(/append-only/);
      expect(names(db, 'index')).toEqual(expect.arrayContaining(['shift_events_shift']));
      expect(strictTables(db)).toMatchObject({ shift_events: 1 });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    },
  },
  40: {
    // A sale and its gateway tender of before keep their rows: no key, no late payment.
    seed: (db) => {
      seedRealisticV11(db);
      db.prepare(
        `INSERT INTO sales (id, terminal_id, state, training, subtotal, line_discounts, sale_discount_amount, net, dpp,
           ppn, pbjt, service, total, categories, created_at, updated_at)
         VALUES ('S0', 'T01', 'voided', 0, 18000, 0, 0, 16216, 14865, 1784, 0, 0, 18000, '[]', ?, ?)`,
      ).run(T0, T0);
      db.prepare(
        `INSERT INTO sale_tenders (sale_id, tender_no, kind, state, method_id, order_id, amount, created_at, updated_at)
         VALUES ('S0', 1, 'gateway', 'failed', 'qris_dynamic', 'T01-20250301-031000000-OLD0', 18000, ?, ?)`,
      ).run(T0, T0);
    },
    added: { sales: { charge_key: null }, sale_tenders: { late_payment: 0 } },
    check: (db) => {
      const sale = (id: string, key: string | null) =>
        db
          .prepare(
            `INSERT INTO sales (id, charge_key, terminal_id, state, training, subtotal, line_discounts,
               sale_discount_amount, net, dpp, ppn, pbjt, service, total, categories, created_at, updated_at)
             VALUES (?, ?, 'T01', 'completed', 0, 1000, 0, 0, 901, 826, 99, 0, 0, 1000, '[]', ?, ?)`,
          )
          .run(id, key, T0, T0);
      sale('S1', 'key-0001-aaaa');
      sale('S2', null);
      sale('S3', null);
      // One sale per key: a charge made again under it finds the first.
      expect(() => sale('S4', 'key-0001-aaaa')).toThrow(/UNIQUE constraint failed/);
      expect(() => sale('S5', 'short')).toThrow(/CHECK constraint failed/);
      expect(() => sale('S6', 'has space in it')).toThrow(/CHECK constraint failed/);
      // A late payment marks a failed gateway tender only.
      db.prepare("UPDATE sale_tenders SET late_payment = 1 WHERE sale_id = 'S0'").run();
      db.prepare(
        `INSERT INTO sale_tenders (sale_id, tender_no, kind, state, amount, created_at, updated_at)
         VALUES ('S1', 1, 'cash', 'paid', 1000, ?, ?)`,
      ).run(T0, T0);
      expect(() => db.prepare("UPDATE sale_tenders SET late_payment = 1 WHERE sale_id = 'S1'").run()).toThrow(
        /CHECK constraint failed/,
      );
      expect(names(db, 'index')).toEqual(expect.arrayContaining(['sales_charge_key']));
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    },
  },
};

/** The tables a migration numbered above `version` creates, alters, drops or indexes (read off its SQL). */
function tablesTouchedAfter(version: number): Set<string> {
  const touched = new Set<string>();
  for (const m of MIGRATIONS.filter((x) => x.version > version))
    for (const match of m.sql.matchAll(/(?:ALTER TABLE|CREATE TABLE|DROP TABLE|INSERT INTO|\bON)\s+(\w+)/g))
      touched.add(match[1]!);
  return touched;
}

/** The realistic file of the versions before, and a shift of T01 with an event of every type migration 11 knows. */
function seedShiftsV14(db: Database): void {
  seedRealisticV11(db);
  db.prepare(
    `INSERT INTO shifts (id, terminal_id, business_day, time_zone, state, opened_at, opened_by, float)
     VALUES ('T01-S0001', 'T01', '2025-03-01', 'Asia/Jakarta', 'open', ?, 'Sri', 100000)`,
  ).run(T0);
  const event = db.prepare(
    `INSERT INTO shift_events (shift_id, at, type, amount, change, document_id, reason, actor, approved_by)
     VALUES ('T01-S0001', ?, ?, ?, ?, ?, ?, 'Sri', ?)`,
  );
  event.run(T0, 'float', 100000, 0, null, null, null);
  event.run(T0, 'cash_tender', 50000, 1950, 'SALE-1', null, null);
  event.run(T0, 'cash_refund', 18000, 0, 'REF-1', null, null);
  event.run(T0, 'pay_in', 10000, 0, null, 'coins from the bank', null);
  event.run(T0, 'pay_out', 120000, 0, null, 'the supplier', 'Bu Sri');
  event.run(T0, 'no_sale', 0, 0, null, 'change for a note', 'Bu Sri');
}

interface OutboxDbRow {
  terminal_id: string;
  seq: number;
  uuid: string;
  stream: string;
  stream_id: string;
  type: string;
  at: string;
  payload: string;
  sha256: string;
}

/**
 * Migration 7 gave every order event its outbox row: per terminal numbered 1..n in the order written, a UUIDv7 of
 * the event's time (sorting as the events do), canonical payloads and their hashes; the last event of each order
 * carries the order as it is, the earlier ones no snapshot. And the order log writes the same objects for a new
 * event, so a store book cannot tell a migrated event from a new one by its shape.
 */
function checkOutboxBackfill(db: Database): void {
  const events = db
    .prepare('SELECT e.*, o.terminal_id FROM order_events e JOIN orders o ON o.id = e.order_id ORDER BY e.seq')
    .all() as (Record<string, unknown> & { seq: number; order_id: string; terminal_id: string; at: string })[];
  const rows = db.prepare('SELECT * FROM outbox ORDER BY terminal_id, seq').all() as OutboxDbRow[];
  expect(rows).toHaveLength(events.length);
  const byTerminal = new Map<string, OutboxDbRow[]>();
  for (const r of rows) byTerminal.set(r.terminal_id, [...(byTerminal.get(r.terminal_id) ?? []), r]);
  expect([...byTerminal.keys()].sort()).toEqual(['T02', 'T1']);
  const lastOf = new Map<string, number>();
  for (const e of events) lastOf.set(e.order_id, e.seq);
  for (const [terminal, list] of byTerminal) {
    const own = events.filter((e) => e.terminal_id === terminal);
    expect(list.map((r) => r.seq)).toEqual(own.map((_, i) => i + 1));
    list.forEach((r, i) => {
      const e = own[i]!;
      expect(r).toMatchObject({ stream: 'order', stream_id: e.order_id, type: e.type, at: e.at });
      expect(r.uuid).toMatch(UUID_V7_PATTERN);
      expect(uuidv7Time(r.uuid)).toBe(Date.parse(e.at));
      expect(canonicalJson(JSON.parse(r.payload))).toBe(r.payload);
      expect(r.sha256).toBe(sha256Hex(r.payload));
      const payload = JSON.parse(r.payload) as { event: Record<string, unknown>; snapshot: unknown };
      const { terminal_id: _t, ...eventColumns } = e;
      expect(payload.event).toEqual({
        ...eventColumns,
        payload: e.payload === null ? null : JSON.parse(e.payload as string),
      });
      if (e.seq === lastOf.get(e.order_id))
        expect(payload.snapshot).toMatchObject({ id: e.order_id, terminal_id: terminal });
      else expect(payload.snapshot).toBeNull();
    });
  }
  // Sorted by (time, event), the ids of the past events sort as the events do.
  const byEvent = [...rows].sort((a, b) => {
    const ea = JSON.parse(a.payload).event.seq as number;
    const eb = JSON.parse(b.payload).event.seq as number;
    return a.at < b.at ? -1 : a.at > b.at ? 1 : ea - eb;
  });
  expect(byEvent.map((r) => r.uuid)).toEqual(byEvent.map((r) => r.uuid).sort());

  // A new event written by the order log: the same objects, the sequence goes on. A note changes nothing of the
  // order, so its snapshot is the migrated last snapshot exactly.
  const order = 'T01-20250301-031000000-HHHH';
  const before = JSON.parse(
    (
      db
        .prepare("SELECT payload FROM outbox WHERE stream_id = ? AND json_extract(payload, '$.snapshot') IS NOT NULL")
        .get(order) as { payload: string }
    ).payload,
  );
  new OrderLog(db, { now: () => new Date(at(59)) }).note(order, { source: 'manager', actor: 'Sri', reason: 'checked' });
  const last = db
    .prepare("SELECT * FROM outbox WHERE terminal_id = 'T1' ORDER BY seq DESC LIMIT 1")
    .get() as OutboxDbRow;
  expect(last.seq).toBe(byTerminal.get('T1')!.length + 1);
  const written = JSON.parse(last.payload);
  expect(written.snapshot).toEqual(before.snapshot);
  expect(Object.keys(written.event).sort()).toEqual(Object.keys(before.event).sort());
  expect(written.snapshot).toMatchObject({ staff_name: 'Budi', state: 'paid', instruction: { type: 'qr' } });
}

/** A version-5 database as the counter leaves it: the version-3 day, staff, their orders, the audit log. */
function seedRealisticV5(db: Database): void {
  seedRealisticV3(db);
  const sri = insertStaff(db, 'Sri', { role: 'manager' });
  const budi = insertStaff(db, 'Budi');
  insertOrder(db, 'T01-20250301-031000000-HHHH', {
    state: 'paid',
    staff_id: budi,
    paid_at: at(12),
    updated_at: at(12),
  });
  addEvent(db, 'T01-20250301-031000000-HHHH', { type: 'created', source: 'cashier', to: 'creating', actor: 'Budi' });
  insertAudit(db, { actor_staff_id: sri, actor: 'Sri', source: 'app', action: 'staff.added' });
  db.prepare('UPDATE pin_lockout SET failures = 1, last_failure_at = ?').run(at(5));
}

/**
 * A version-11 database: the realistic version-5 day, then an order of every kind written by the order log (so
 * each has its events and their outbox rows), one paid, one still waiting, one refused, and a sale whose gateway
 * tender points at one of them.
 */
function seedRealisticV11(db: Database): void {
  seedRealisticV5(db);
  let minute = 40;
  const log = new OrderLog(db, { now: () => new Date(at(minute)) });
  PAYMENT_KINDS.forEach((kind, i) => {
    const id = `T02-20250301-0340000${String(i).padStart(2, '0')}-KIND`;
    log.create(
      {
        id,
        terminalId: 'T02',
        api: 'v2',
        methodId: `${kind}_x`,
        kind,
        amount: 10_000 + i,
        currency: 'IDR',
        itemName: `Item ${kind}`,
        userId: 'u2',
        training: i % 2 === 1,
        ...(kind.startsWith('airtime') ? { phone: '081234567890' } : {}),
        ...(kind === 'va_bank' ? { customerName: 'Siti Aminah' } : {}),
        requestBody: JSON.stringify({ amount: 10_000 + i, payment_method: `${kind}_x` }),
      },
      { source: 'cashier', actor: 'Budi' },
    );
    minute += 1;
    if (i % 3 === 2) {
      log.transition(id, 'rejected', { source: 'gateway' }, { rejection: { retcode: '4001', message: 'refused' } });
      return;
    }
    log.transition(
      id,
      'awaiting_payment',
      { source: 'gateway' },
      {
        delivery: 'answered',
        gatewayTransactionId: `G-${i}`,
        instruction: { type: 'qr', qrString: `0002010102${i}`, extra: { note: 'é ✓' } },
        responseBody: `{"success":true,"retcode":"0000","i":${i}}`,
        expiresAt: at(55),
      },
    );
    if (i % 3 === 0) log.transition(id, 'paid', { source: 'callback' }, { paidAt: at(minute) });
    log.note(id, { source: 'manager', actor: 'Sri', reason: `checked ${kind}` });
  });
  db.prepare(
    `INSERT INTO sales (id, terminal_id, state, training, subtotal, line_discounts, sale_discount_amount, net, dpp,
       ppn, pbjt, service, total, categories, created_at, updated_at)
     VALUES ('S-K', 'T02', 'tendering', 0, 10000, 0, 0, 10000, 9009, 991, 0, 0, 10000, '[]', ?, ?)`,
  ).run(T0, T0);
  db.prepare(
    `INSERT INTO sale_tenders (sale_id, tender_no, kind, state, method_id, order_id, amount, created_at, updated_at)
     VALUES ('S-K', 1, 'gateway', 'pending', 'qris_x', 'T02-20250301-034000000-KIND', 10000, ?, ?)`,
  ).run(T0, T0);
}

describe('database migrations', () => {
  it('has a test for every migration; the latest version is the highest number', () => {
    expect(Object.keys(perMigration).map(Number)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(LATEST_SCHEMA_VERSION).toBe(MIGRATIONS.at(-1)!.version);
  });

  it('opens an empty file at the latest version with the pragmas of docs/orders.md', () => {
    const path = join(dir, 'nested', 'folder', 'loket.db');
    const db = track(openDatabase(path));
    expect(existsSync(path)).toBe(true);
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(names(db, 'table')).toEqual([...ALL_TABLES, ...V10_SEARCH_TABLES].sort());
    expect(names(db, 'trigger')).toEqual(ALL_TRIGGERS);
    expect(strictTables(db)).toEqual(Object.fromEntries(ALL_TABLES.map((t) => [t, 1])));
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
    // The version before it: numbers have gaps (docs/architecture.md, "Where a new thing goes").
    const previous = upTo(m.version - 1).at(-1)?.version ?? 0;
    it(`migration ${m.version} (${m.name}) keeps the data of version ${previous} and its schema works`, () => {
      const db = rawDb();
      migrate(db, upTo(previous));
      expect(schemaVersion(db)).toBe(previous);
      perMigration[m.version]!.seed(db);
      const before = dump(db);

      expect(migrate(db, upTo(m.version))).toEqual({ from: previous, to: m.version });

      const after = dump(db);
      const added = perMigration[m.version]!.added ?? {};
      for (const [table, rows] of Object.entries(before))
        expect(after[table], table).toEqual(rows.map((r) => ({ ...(r as object), ...added[table] })));
      perMigration[m.version]!.check(db);
      expect(db.pragma('foreign_key_check')).toEqual([]);
    });
  }

  it('migration 4 carries a realistic version-3 file over value for value, and the sequence goes on', () => {
    const path = join(dir, 'loket.db');
    const v3 = rawDb();
    migrate(v3, upTo(3));
    seedRealisticV3(v3);
    const shapeV3 = shapeOf(v3);
    const before = exactDump(v3);
    const maxSeq = v3.prepare('SELECT max(seq) FROM order_events').pluck().get() as number;
    expect(before.sqlite_sequence).toEqual([['order_events', maxSeq]]);
    v3.close();

    // Through openDatabase, as Loket opens the file: WAL, foreign keys on, then the migrations (4 and on).
    const db = track(openDatabase(path));
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(exactDump(db, shapeV3)).toEqual(before);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(strictTables(db)).toMatchObject({ callback_receipts: 1, order_events: 1, orders: 1, settings: 1 });
    // The foreign key survived the renames and points at the new orders table.
    expect(db.pragma('foreign_key_list(order_events)')).toMatchObject([
      { table: 'orders', from: 'order_id', to: 'id' },
    ]);

    insertEvent(db, 'T01-20250301-030600000-GGGG', 'note', null);
    const seqs = db.prepare('SELECT seq FROM order_events ORDER BY seq').pluck().all() as number[];
    expect(seqs.at(-1)).toBe(maxSeq + 1);
    expect(seqs.at(-1)).toBeGreaterThan(Math.max(...seqs.slice(0, -1)));
  });

  it('migration 4 keeps a sequence that ran ahead of the rows: no seq is handed out twice', () => {
    const db = rawDb();
    migrate(db, upTo(3));
    insertOrder(db, 'S-1');
    insertEvent(db, 'S-1');
    insertEvent(db, 'S-1', 'note', null);
    // As if events 3..41 had been handed out and lost (only a hand edit can do that, but the sequence must hold).
    db.prepare("UPDATE sqlite_sequence SET seq = 41 WHERE name = 'order_events'").run();
    migrate(db);
    expect(db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'order_events'").pluck().get()).toBe(41);
    insertEvent(db, 'S-1', 'note', null);
    expect(db.prepare('SELECT seq FROM order_events ORDER BY seq').pluck().all()).toEqual([1, 2, 42]);
  });

  it('migration 4 refuses rows its tables would not hold, names each, and leaves the file at version 3', () => {
    const path = join(dir, 'loket.db');
    const v3 = rawDb();
    migrate(v3, upTo(3));
    seedRealisticV3(v3);
    // What no Loket writes, but a hand edit or another build could have: a kind and a source outside the
    // lists, a status that is not a number, a BLOB where text belongs.
    insertOrder(v3, 'X-1', { kind: 'cash', rejection_message: 'x', rejection_http_status: 'five hundred' });
    addEvent(v3, 'X-1', { type: 'created', source: 'robot', to: 'creating' });
    const robotSeq = v3.prepare('SELECT max(seq) FROM order_events').pluck().get() as number;
    v3.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)').run('raw', Buffer.from('"x"'), T0);
    const schema = v3.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all();
    const before = exactDump(v3);
    v3.close();

    let error: unknown;
    try {
      openDatabase(path);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(MigrationBlockedError);
    const blocked = error as MigrationBlockedError;
    expect(blocked.version).toBe(4);
    expect(blocked.problems).toEqual([
      "orders.kind = 'cash' is not a payment kind (qris,ewallet_redirect,ewallet_qr_redirect,airtime_sms,airtime,va_bank,va_cstore), " +
        "orders.rejection_http_status = 'five hundred' is not a whole number (a STRICT INTEGER column) (row id = 'X-1')",
      "order_events.source = 'robot' is not an event source " +
        `(cashier,gateway,callback,poll,inquiry,manager,startup,reconcile,cli,system) (row seq = ${robotSeq})`,
      `settings.value = X'227822' is a BLOB (a STRICT TEXT column) (row key = 'raw')`,
    ]);
    expect(blocked.message).toMatch(
      /^migration 4 \(STRICT tables; CHECKs on orders.kind and order_events.source\) cannot carry over 3 rows of this database, so nothing was changed and it stays at version 3: orders.kind = 'cash'/,
    );

    // Nothing dropped, nothing rewritten, the old schema in place: the file is as it was.
    const after = track(new BetterSqlite3(path, { readonly: true }));
    expect(schemaVersion(after)).toBe(3);
    expect(after.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all()).toEqual(schema);
    expect(exactDump(after)).toEqual(before);
  });

  it('migration 5 carries a realistic version-4 file over value for value; old orders have no staff', () => {
    const path = join(dir, 'loket.db');
    const v4 = rawDb();
    migrate(v4, upTo(4));
    seedRealisticV3(v4);
    const shapeV4 = shapeOf(v4);
    const before = exactDump(v4);
    const orderCount = before.orders!.length;
    v4.close();

    const db = track(openDatabase(path));
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(exactDump(db, shapeV4)).toEqual(before);
    expect(db.prepare('SELECT quote(staff_id) FROM orders').pluck().all()).toEqual(Array(orderCount).fill('NULL'));
    // The column was added at the end, so every other column keeps its place (and `SELECT *` its order).
    expect(shapeOf(db).orders).toEqual([...shapeV4.orders!, 'staff_id']);
    expect(exactDump(db, { staff: shapeOf(db).staff!, audit_events: shapeOf(db).audit_events! })).toEqual({
      staff: [],
      audit_events: [],
      sqlite_sequence: before.sqlite_sequence,
    });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(strictTables(db)).toEqual(Object.fromEntries(ALL_TABLES.map((t) => [t, 1])));

    // An old order can be attributed after the fact, and the audit sequence starts.
    const sri = insertStaff(db, 'Sri', { role: 'manager' });
    db.prepare("UPDATE orders SET staff_id = ? WHERE id = 'T01-20250301-030600000-GGGG'").run(sri);
    insertAudit(db, { actor_staff_id: sri, actor: 'Sri', source: 'app', action: 'staff.added' });
    expect(db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'audit_events'").pluck().get()).toBe(1);
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });

  it('migration 6 carries a realistic version-5 file over value for value; nothing is closed, no issue is open', () => {
    const path = join(dir, 'loket.db');
    const v5 = rawDb();
    migrate(v5, upTo(5));
    seedRealisticV5(v5);
    const shapeV5 = shapeOf(v5);
    const before = exactDump(v5);
    // Migration 14 rebuilt orders without its list of kinds; every other table of version 5 is as it was.
    const schemaV5 = v5
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name <> 'orders' ORDER BY name")
      .all();
    v5.close();

    const db = track(openDatabase(path));
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(exactDump(db, shapeV5)).toEqual(before);
    // No table of version 5 changed shape: migrations 6, 7, 10, 11, 12 and 13 only add tables, triggers, indexes and
    // closings' sales column.
    const addedTables = [
      'callback_issues',
      'closings',
      ...V7_TABLES,
      ...V10_TABLES,
      ...V10_SEARCH_TABLES,
      ...V11_TABLES,
      ...V12_TABLES,
    ];
    expect(shapeOf(db)).toEqual({ ...shapeV5, ...Object.fromEntries(addedTables.map((t) => [t, expect.any(Array)])) });
    const notCompared = [...addedTables, 'orders'].map((t) => `'${t}'`).join(', ');
    expect(
      db
        .prepare(
          `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT IN (${notCompared}) ORDER BY name`,
        )
        .all(),
    ).toEqual(schemaV5);
    expect(db.prepare('SELECT COUNT(*) FROM closings').pluck().get()).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM callback_issues').pluck().get()).toBe(0);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // The new indexes answer the day report from the index alone.
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT method_id, state, staff_id, COUNT(*), SUM(amount) FROM orders
         WHERE created_at >= ? AND created_at < ? AND training = 0 GROUP BY method_id, state, staff_id`,
      )
      .all(T0, at(59)) as { detail: string }[];
    expect(plan.map((r) => r.detail).join(' | ')).toMatch(/USING COVERING INDEX orders_day_report/);
  });

  it('migration 14 carries a version-13 file over byte for byte: orders of every kind, their events, the outbox', () => {
    const path = join(dir, 'loket.db');
    const v11 = rawDb();
    migrate(v11, upTo(13));
    seedRealisticV11(v11);
    const kinds = v11.prepare('SELECT DISTINCT kind FROM orders ORDER BY kind').pluck().all();
    expect(kinds).toEqual([...PAYMENT_KINDS].sort());
    expect(v11.prepare("SELECT COUNT(*) FROM outbox WHERE stream = 'order'").pluck().get()).toBeGreaterThan(20);
    // Every table with rowids (the name search's index is SQLite's own, rebuilt from products).
    const shape = Object.fromEntries(Object.entries(shapeOf(v11)).filter(([t]) => !t.startsWith('products_search')));
    const before = exactDump(v11, shape);
    // Every object of the schema but the orders table itself, as SQLite stores its text.
    // Tables a later migration changes (its own entry checks them) are left out of the word-for-word comparison.
    const later = tablesTouchedAfter(14);
    const objects = (db: Database) =>
      db
        .prepare<[], { tbl_name: string }>(
          "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name <> 'orders' ORDER BY name",
        )
        .all()
        .filter((o) => !later.has(o.tbl_name));
    const schemaBefore = objects(v11);
    const maxSeq = v11.prepare('SELECT max(seq) FROM order_events').pluck().get() as number;
    v11.close();

    // As Loket opens it: WAL, foreign keys on, then migration 14 (and those after it).
    const db = track(openDatabase(path));
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(exactDump(db, shape)).toEqual(before);
    // Each index and trigger again, word for word; order_events as it was (its foreign key names "orders").
    expect(objects(db)).toEqual(schemaBefore);
    expect(db.pragma('foreign_key_list(order_events)')).toMatchObject([
      { table: 'orders', from: 'order_id', to: 'id' },
    ]);
    expect(db.pragma('foreign_key_list(orders)')).toMatchObject([{ table: 'staff', from: 'staff_id', to: 'id' }]);
    expect(db.pragma('table_info(orders)')).toEqual(
      shape.orders!.map((name, cid) => expect.objectContaining({ cid, name })),
    );
    const ordersSql = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'orders'").pluck().get() as string;
    expect(ordersSql).not.toMatch(/kind IN/);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);

    // The sequences go on: the next event and its outbox row follow the migrated ones.
    const log = new OrderLog(db, { now: () => new Date(at(59)) });
    const event = log.note('T02-20250301-034000000-KIND', { source: 'manager', actor: 'Sri', reason: 'after 14' });
    expect(event.seq).toBe(maxSeq + 1);
    const outboxSeqs = db.prepare("SELECT seq FROM outbox WHERE terminal_id = 'T02' ORDER BY seq").pluck().all();
    expect(outboxSeqs).toEqual(outboxSeqs.map((_, i) => i + 1));
  });

  it('a database at version 13 (it took the no-op 9) ends, after migration 14, with the schema of a new one', () => {
    const migrated = rawDb('old.db');
    migrate(migrated, upTo(13));
    migrate(migrated);
    const fresh = track(openDatabase(join(dir, 'new.db')));
    const schema = (db: Database) =>
      db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name').all();
    expect(schema(migrated)).toEqual(schema(fresh));
  });

  it('the order log refuses a kind the registry lacks, naming the field and the rule, and writes nothing', () => {
    const db = track(openDatabase(join(dir, 'loket.db')));
    const log = new OrderLog(db);
    const order = {
      id: 'U-1',
      terminalId: 'T1',
      api: 'v2' as const,
      methodId: 'cash_drawer',
      kind: 'cash' as never,
      amount: 1000,
      currency: 'IDR',
      itemName: 'Kopi',
      userId: 'u1',
      training: false,
      requestBody: '{}',
    };
    expect(() => log.create(order, { source: 'cashier' })).toThrow(UnknownKindError);
    expect(() => log.create(order, { source: 'cashier' })).toThrow(
      /^order U-1: kind: "cash" is not a payment kind \(one of qris, ewallet_redirect, .*va_cstore\)$/,
    );
    expect(db.prepare('SELECT COUNT(*) FROM orders').pluck().get()).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM order_events').pluck().get()).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM outbox').pluck().get()).toBe(0);
  });

  it('the schema holds every payment kind and event source the code has (a new source needs a migration)', () => {
    const db = track(openDatabase(join(dir, 'loket.db')));
    for (const kind of PAYMENT_KINDS) insertOrder(db, `K-${kind}`, { kind });
    for (const source of EVENT_SOURCES) addEvent(db, 'K-qris', { type: 'note', source });
    expect(db.prepare('SELECT COUNT(*) FROM order_events').pluck().get()).toBe(EVENT_SOURCES.length);
  });

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

  it('rejects a migration list out of order, or with a number twice (a gap is allowed)', () => {
    const db = rawDb();
    expect(() => migrate(db, [MIGRATIONS[2]!, MIGRATIONS[0]!])).toThrow(/out of order/);
    expect(() => migrate(db, [MIGRATIONS[0]!, MIGRATIONS[0]!])).toThrow(/out of order/);
    expect(schemaVersion(db)).toBe(0);
    expect(names(db, 'table')).toEqual([]);
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
