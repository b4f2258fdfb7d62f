import type { Database } from 'better-sqlite3';
import { MIGRATION_13 } from './migration-13-closing-sales';
import { registerSqlFunctions } from './sql-functions';

/**
 * Numbered schema migrations, tracked in `PRAGMA user_version` (docs/orders.md, "The order log").
 *
 * A migration, once released, is frozen: its SQL is literal text, never built from today's constants
 * (e.g. ORDER_STATES), so that migration k means the same thing on every machine for ever. Changing the
 * schema means adding migration N+1, and a test for it in test/node/db-migrations.test.ts.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  /**
   * A query run first, in the migration's transaction: each row it returns (one column, `problem`)
   * describes a row of the previous version that `sql` cannot carry over. Any row stops the migration
   * with MigrationBlockedError naming them all, before anything is changed; no row is dropped or altered.
   */
  readonly refuse?: string;
}

// Every time Loket writes is `Date.toISOString()`: fixed width, so text order is time order and the
// range queries of the order log can compare strings.
const isoUtc = (column: string): string =>
  `${column} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'`;

const STATES = `'creating','awaiting_payment','rejected','unknown','paid','expired','cancelled','failed'`;

// Migration 4's lists: the PaymentKind values (common/payment-methods.ts) and EVENT_SOURCES (common/order.ts)
// as they stood when it was written. A new source needs a migration of its own that rebuilds the table with a
// wider CHECK (test/node/db-migrations.test.ts fails until it exists); a new kind does not since migration 14.
const KINDS_V4 = `'qris','ewallet_redirect','ewallet_qr_redirect','airtime_sms','airtime','va_bank','va_cstore'`;
const SOURCES_V4 = `'cashier','gateway','callback','poll','inquiry','manager','startup','reconcile','cli','system'`;

/** [column, an SQL condition true for a value migration 4 cannot copy, what is wrong with it]. */
type RefusalRule = readonly [column: string, bad: string, why: string];

const notInteger = (...columns: string[]): RefusalRule[] =>
  columns.map((c) => [c, `typeof(${c}) NOT IN ('integer','null')`, 'is not a whole number (a STRICT INTEGER column)']);
const blob = (...columns: string[]): RefusalRule[] =>
  columns.map((c) => [c, `typeof(${c}) = 'blob'`, 'is a BLOB (a STRICT TEXT column)']);
const nullKey = (column: string): RefusalRule => [column, `${column} IS NULL`, 'is NULL (a STRICT primary key)'];

/**
 * One `problem` line per row of `table` that breaks any rule, naming each broken column with its value
 * as SQL quotes it, then the row (`rowRef`, an SQL text expression). One pass over the table.
 */
function refusedRows(table: string, rowRef: string, rules: readonly RefusalRule[]): string {
  const parts = rules.map(
    ([column, bad, why]) =>
      `CASE WHEN ${bad} THEN '${table}.${column} = ' || quote(${column}) || ' ${why}, ' ELSE '' END`,
  );
  return `SELECT problem FROM (
      SELECT rtrim(${parts.join(' || ')}, ', ') || ' (row ' || ${rowRef} || ')' AS problem
      FROM ${table} WHERE ${rules.map(([, bad]) => `(${bad})`).join(' OR ')} ORDER BY rowid)`;
}

const ORDER_COLUMNS_V4 = `id, terminal_id, api, state, method_id, kind, amount, currency, item_name, item_id, user_id,
  customer_name, phone, training, request_body, delivery, gateway_transaction_id, instruction, response_body,
  rejection_retcode, rejection_message, rejection_http_status, expires_at, paid_at, late_payment, created_at, updated_at`;
const EVENT_COLUMNS_V4 = 'seq, order_id, at, type, from_state, to_state, source, actor, reason, payload';
const RECEIPT_COLUMNS_V4 = 'id, received_at, order_id, status, body_sha256, outcome';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'orders and their append-only event log',
    sql: `
      CREATE TABLE orders (
        id                     TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 36),
        terminal_id            TEXT NOT NULL,
        api                    TEXT NOT NULL CHECK (api IN ('v1','v2')),
        state                  TEXT NOT NULL CHECK (state IN (${STATES})),
        method_id              TEXT NOT NULL,
        kind                   TEXT NOT NULL,
        amount                 INTEGER NOT NULL CHECK (amount > 0 AND amount = CAST(amount AS INTEGER)),
        currency               TEXT NOT NULL,
        item_name              TEXT NOT NULL,
        item_id                TEXT,
        user_id                TEXT NOT NULL,
        customer_name          TEXT,
        phone                  TEXT,
        training               INTEGER NOT NULL CHECK (training IN (0,1)),
        request_body           TEXT NOT NULL CHECK (json_valid(request_body)),
        delivery               TEXT NOT NULL CHECK (delivery IN ('pending','not_sent','sent','answered')),
        gateway_transaction_id TEXT,
        instruction            TEXT CHECK (instruction IS NULL OR json_valid(instruction)),
        -- Not checked as JSON: a proxy's HTML error page is a response worth keeping too.
        response_body          TEXT,
        rejection_retcode      TEXT,
        rejection_message      TEXT,
        rejection_http_status  INTEGER,
        expires_at             TEXT,
        paid_at                TEXT,
        late_payment           INTEGER NOT NULL DEFAULT 0 CHECK (late_payment IN (0,1)),
        created_at             TEXT NOT NULL CHECK (${isoUtc('created_at')}),
        updated_at             TEXT NOT NULL CHECK (${isoUtc('updated_at')}),
        -- A rejection is read back only when it has a message, so its other parts must not exist alone.
        CHECK (rejection_message IS NOT NULL OR (rejection_retcode IS NULL AND rejection_http_status IS NULL))
      );
      CREATE INDEX orders_created ON orders (created_at);
      CREATE INDEX orders_state_created ON orders (state, created_at);
      CREATE INDEX orders_method_created ON orders (method_id, created_at);

      CREATE TABLE order_events (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        order_id   TEXT NOT NULL REFERENCES orders (id),
        at         TEXT NOT NULL CHECK (${isoUtc('at')}),
        type       TEXT NOT NULL CHECK (type IN ('created','state_changed','late_payment','delivery','note')),
        from_state TEXT CHECK (from_state IS NULL OR from_state IN (${STATES})),
        to_state   TEXT CHECK (to_state IS NULL OR to_state IN (${STATES})),
        -- Not a CHECK list: new sources are added in code, and a CHECK change means rebuilding this table.
        source     TEXT NOT NULL,
        actor      TEXT,
        reason     TEXT,
        payload    TEXT CHECK (payload IS NULL OR json_valid(payload))
      );
      CREATE INDEX order_events_order ON order_events (order_id, seq);

      -- The log is evidence: once written, a row is never changed or removed, whoever holds the file.
      CREATE TRIGGER order_events_no_update BEFORE UPDATE ON order_events
      BEGIN SELECT RAISE(ABORT, 'order_events is append-only: an event cannot be updated'); END;
      CREATE TRIGGER order_events_no_delete BEFORE DELETE ON order_events
      BEGIN SELECT RAISE(ABORT, 'order_events is append-only: an event cannot be deleted'); END;
    `,
  },
  {
    version: 2,
    name: 'settings (non-secret; secrets live in the OS keychain)',
    sql: `
      CREATE TABLE settings (
        key        TEXT PRIMARY KEY,
        value      TEXT NOT NULL CHECK (json_valid(value)),
        updated_at TEXT NOT NULL CHECK (${isoUtc('updated_at')})
      );
    `,
  },
  {
    version: 3,
    name: 'callback receipts, to detect replayed callbacks',
    sql: `
      CREATE TABLE callback_receipts (
        id          INTEGER PRIMARY KEY,
        received_at TEXT NOT NULL CHECK (${isoUtc('received_at')}),
        -- No foreign key: a callback naming an order we never made is recorded too.
        order_id    TEXT,
        status      TEXT,
        body_sha256 TEXT NOT NULL UNIQUE CHECK (length(body_sha256) = 64 AND body_sha256 NOT GLOB '*[^0-9a-f]*'),
        outcome     TEXT
      );
      CREATE INDEX callback_receipts_order ON callback_receipts (order_id);
    `,
  },
  {
    version: 4,
    name: 'STRICT tables; CHECKs on orders.kind and order_events.source',
    // Decision: a row the new tables would refuse stops the migration, named, and nothing is changed; no row
    // is dropped or rewritten to fit. Loket never writes such rows, so one means the file was edited or
    // written by another build, and only a person can say what the right value is. (An event cannot be
    // corrected in place: order_events is append-only.)
    refuse: [
      refusedRows('orders', `CASE WHEN id IS NULL THEN 'rowid ' || rowid ELSE 'id = ' || quote(id) END`, [
        nullKey('id'),
        ['kind', `kind NOT IN (${KINDS_V4})`, `is not a payment kind (${KINDS_V4.replace(/'/g, '')})`],
        ...notInteger('amount', 'training', 'rejection_http_status', 'late_payment'),
        ...blob('id', 'terminal_id', 'api', 'state', 'method_id', 'kind', 'currency', 'item_name', 'item_id'),
        ...blob('user_id', 'customer_name', 'phone', 'request_body', 'delivery', 'gateway_transaction_id'),
        ...blob('instruction', 'response_body', 'rejection_retcode', 'rejection_message', 'expires_at', 'paid_at'),
        ...blob('created_at', 'updated_at'),
      ]),
      refusedRows('order_events', `'seq = ' || seq`, [
        ['source', `source NOT IN (${SOURCES_V4})`, `is not an event source (${SOURCES_V4.replace(/'/g, '')})`],
        ...blob('order_id', 'at', 'type', 'from_state', 'to_state', 'source', 'actor', 'reason', 'payload'),
      ]),
      refusedRows('settings', `CASE WHEN key IS NULL THEN 'rowid ' || rowid ELSE 'key = ' || quote(key) END`, [
        nullKey('key'),
        ...blob('key', 'value', 'updated_at'),
      ]),
      refusedRows('callback_receipts', `'id = ' || id`, [
        ...blob('received_at', 'order_id', 'status', 'body_sha256', 'outcome'),
      ]),
    ].join('\n      UNION ALL\n      '),
    // SQLite's table rebuild (https://sqlite.org/lang_altertable.html#otheralter): create the new table,
    // copy, drop the old one, rename the new one, then recreate indexes and triggers. foreign_keys stays ON
    // (it cannot change inside a transaction), so the steps are ordered for the foreign key to hold at every
    // statement: the new order_events points at orders_v4 while both old tables still exist, the old child
    // is dropped before its parent, and renaming orders_v4 rewrites that reference to "orders".
    sql: `
      -- Renames must rewrite the foreign key (the default since SQLite 3.26; set here so it cannot differ).
      PRAGMA legacy_alter_table = OFF;

      CREATE TABLE orders_v4 (
        id                     TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 36),
        terminal_id            TEXT NOT NULL,
        api                    TEXT NOT NULL CHECK (api IN ('v1','v2')),
        state                  TEXT NOT NULL CHECK (state IN (${STATES})),
        method_id              TEXT NOT NULL,
        -- A new kind means a new migration: the catalogue's kinds and this list change together.
        kind                   TEXT NOT NULL CHECK (kind IN (${KINDS_V4})),
        amount                 INTEGER NOT NULL CHECK (amount > 0 AND amount = CAST(amount AS INTEGER)),
        currency               TEXT NOT NULL,
        item_name              TEXT NOT NULL,
        item_id                TEXT,
        user_id                TEXT NOT NULL,
        customer_name          TEXT,
        phone                  TEXT,
        training               INTEGER NOT NULL CHECK (training IN (0,1)),
        request_body           TEXT NOT NULL CHECK (json_valid(request_body)),
        delivery               TEXT NOT NULL CHECK (delivery IN ('pending','not_sent','sent','answered')),
        gateway_transaction_id TEXT,
        instruction            TEXT CHECK (instruction IS NULL OR json_valid(instruction)),
        -- Not checked as JSON: a proxy's HTML error page is a response worth keeping too.
        response_body          TEXT,
        rejection_retcode      TEXT,
        rejection_message      TEXT,
        rejection_http_status  INTEGER,
        expires_at             TEXT,
        paid_at                TEXT,
        late_payment           INTEGER NOT NULL DEFAULT 0 CHECK (late_payment IN (0,1)),
        created_at             TEXT NOT NULL CHECK (${isoUtc('created_at')}),
        updated_at             TEXT NOT NULL CHECK (${isoUtc('updated_at')}),
        -- A rejection is read back only when it has a message, so its other parts must not exist alone.
        CHECK (rejection_message IS NOT NULL OR (rejection_retcode IS NULL AND rejection_http_status IS NULL))
      ) STRICT;
      -- The rowid too, so that even the table's physical order is as it was.
      INSERT INTO orders_v4 (rowid, ${ORDER_COLUMNS_V4}) SELECT rowid, ${ORDER_COLUMNS_V4} FROM orders;

      CREATE TABLE order_events_v4 (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        order_id   TEXT NOT NULL REFERENCES orders_v4 (id),
        at         TEXT NOT NULL CHECK (${isoUtc('at')}),
        type       TEXT NOT NULL CHECK (type IN ('created','state_changed','late_payment','delivery','note')),
        from_state TEXT CHECK (from_state IS NULL OR from_state IN (${STATES})),
        to_state   TEXT CHECK (to_state IS NULL OR to_state IN (${STATES})),
        -- Migration 1 left this unchecked so that sources could be added in code alone. Decided since: the
        -- schema holds the list, and a new source means a new migration that rebuilds this table.
        source     TEXT NOT NULL CHECK (source IN (${SOURCES_V4})),
        actor      TEXT,
        reason     TEXT,
        payload    TEXT CHECK (payload IS NULL OR json_valid(payload))
      ) STRICT;
      -- The sequence first: copying raises it to the largest seq copied but never lowers it, so the next
      -- event continues the old sequence and no seq is handed out twice.
      INSERT INTO sqlite_sequence (name, seq) SELECT 'order_events_v4', seq FROM sqlite_sequence WHERE name = 'order_events';
      INSERT INTO order_events_v4 (${EVENT_COLUMNS_V4}) SELECT ${EVENT_COLUMNS_V4} FROM order_events;

      -- Child first. Dropping a table fires none of its triggers (the append-only ones go with it) and
      -- takes its indexes and its sqlite_sequence row along.
      DROP TABLE order_events;
      DROP TABLE orders;
      ALTER TABLE orders_v4 RENAME TO orders;
      ALTER TABLE order_events_v4 RENAME TO order_events;

      CREATE INDEX orders_created ON orders (created_at);
      CREATE INDEX orders_state_created ON orders (state, created_at);
      CREATE INDEX orders_method_created ON orders (method_id, created_at);
      CREATE INDEX order_events_order ON order_events (order_id, seq);

      -- The log is evidence: once written, a row is never changed or removed, whoever holds the file.
      CREATE TRIGGER order_events_no_update BEFORE UPDATE ON order_events
      BEGIN SELECT RAISE(ABORT, 'order_events is append-only: an event cannot be updated'); END;
      CREATE TRIGGER order_events_no_delete BEFORE DELETE ON order_events
      BEGIN SELECT RAISE(ABORT, 'order_events is append-only: an event cannot be deleted'); END;

      CREATE TABLE settings_v4 (
        key        TEXT PRIMARY KEY,
        value      TEXT NOT NULL CHECK (json_valid(value)),
        updated_at TEXT NOT NULL CHECK (${isoUtc('updated_at')})
      ) STRICT;
      INSERT INTO settings_v4 (rowid, key, value, updated_at) SELECT rowid, key, value, updated_at FROM settings;
      DROP TABLE settings;
      ALTER TABLE settings_v4 RENAME TO settings;

      CREATE TABLE callback_receipts_v4 (
        id          INTEGER PRIMARY KEY,
        received_at TEXT NOT NULL CHECK (${isoUtc('received_at')}),
        -- No foreign key: a callback naming an order we never made is recorded too.
        order_id    TEXT,
        status      TEXT,
        body_sha256 TEXT NOT NULL UNIQUE CHECK (length(body_sha256) = 64 AND body_sha256 NOT GLOB '*[^0-9a-f]*'),
        outcome     TEXT
      ) STRICT;
      INSERT INTO callback_receipts_v4 (${RECEIPT_COLUMNS_V4}) SELECT ${RECEIPT_COLUMNS_V4} FROM callback_receipts;
      DROP TABLE callback_receipts;
      ALTER TABLE callback_receipts_v4 RENAME TO callback_receipts;
      CREATE INDEX callback_receipts_order ON callback_receipts (order_id);
    `,
  },
  {
    version: 5,
    name: 'staff with PINs, the PIN lockout, the audit log; orders.staff_id',
    // Every new table is STRICT, as migration 4 made the others. The role list is literal, like migration 4's.
    sql: `
      CREATE TABLE staff (
        id         INTEGER PRIMARY KEY,
        -- Unique whatever the (ASCII) case, so "Sri" and "sri" cannot both be at the till; a former member of
        -- staff keeps the name (rows stay, orders and the audit log point at them).
        name       TEXT NOT NULL COLLATE NOCASE UNIQUE CHECK (length(name) BETWEEN 1 AND 40 AND name = trim(name)),
        role       TEXT NOT NULL CHECK (role IN ('cashier','manager')),
        -- The PIN's scrypt hash with its parameters and salt (core/staff/pin.ts), never the PIN itself.
        pin_hash   TEXT NOT NULL CHECK (pin_hash GLOB 'scrypt$*'),
        active     INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0,1)),
        created_at TEXT NOT NULL CHECK (${isoUtc('created_at')}),
        updated_at TEXT NOT NULL CHECK (${isoUtc('updated_at')})
      ) STRICT;

      -- One counter for the whole till (core/staff/lockout.ts): a wrong PIN for anyone counts, so guessing
      -- across names gains nothing. Its one row exists from the start and is never removed.
      CREATE TABLE pin_lockout (
        id              INTEGER PRIMARY KEY CHECK (id = 1),
        failures        INTEGER NOT NULL CHECK (failures >= 0),
        last_failure_at TEXT CHECK (last_failure_at IS NULL OR ${isoUtc('last_failure_at')}),
        locked_until    TEXT CHECK (locked_until IS NULL OR ${isoUtc('locked_until')})
      ) STRICT;
      INSERT INTO pin_lockout (id, failures, last_failure_at, locked_until) VALUES (1, 0, NULL, NULL);
      CREATE TRIGGER pin_lockout_no_delete BEFORE DELETE ON pin_lockout
      BEGIN SELECT RAISE(ABORT, 'pin_lockout keeps its one row: reset it by updating it'); END;

      -- Who did what, when (core/audit/audit-log.ts): settings changes, staff and PIN events, manager unlocks.
      -- Never a secret value: no PIN, no hash, no appkey.
      CREATE TABLE audit_events (
        seq            INTEGER PRIMARY KEY AUTOINCREMENT,
        at             TEXT NOT NULL CHECK (${isoUtc('at')}),
        actor_staff_id INTEGER REFERENCES staff (id),
        -- A staff member's name as it was, 'cli:<user>' for the command line, or 'system'.
        actor          TEXT NOT NULL CHECK (length(actor) BETWEEN 1 AND 100),
        source         TEXT NOT NULL CHECK (source IN ('app','cli','system')),
        -- Not a CHECK list (new actions come with new features); a lower-case dotted name.
        action         TEXT NOT NULL CHECK (length(action) BETWEEN 3 AND 64 AND action NOT GLOB '*[^a-z_.]*'),
        -- Which setting, when the event is about one.
        field          TEXT CHECK (field IS NULL OR length(field) BETWEEN 1 AND 64),
        detail         TEXT CHECK (detail IS NULL OR CASE WHEN json_valid(detail) THEN json_type(detail) = 'object' ELSE 0 END),
        CHECK (source = 'app' OR actor_staff_id IS NULL),
        CHECK (source <> 'cli' OR actor GLOB 'cli:?*'),
        CHECK (source <> 'system' OR actor = 'system')
      ) STRICT;
      CREATE INDEX audit_events_actor ON audit_events (actor_staff_id, seq);

      -- Evidence, like order_events: once written, a row is never changed or removed.
      CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
      BEGIN SELECT RAISE(ABORT, 'audit_events is append-only: an event cannot be updated'); END;
      CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
      BEGIN SELECT RAISE(ABORT, 'audit_events is append-only: an event cannot be deleted'); END;

      -- Who took the order; NULL for orders taken before staff existed (and while no one signs in to sell).
      -- ADD COLUMN keeps the table STRICT, and with foreign_keys ON a REFERENCES column must default to NULL.
      ALTER TABLE orders ADD COLUMN staff_id INTEGER REFERENCES staff (id);
      CREATE INDEX orders_staff_created ON orders (staff_id, created_at);
    `,
  },
  {
    version: 6,
    name: 'callback issues, closings of the day; indexes for the day report and the attention queue',
    // docs/end-of-day.md. New tables only (STRICT, like the rest since migration 4) and new indexes: no
    // existing row is touched, so nothing needs refusing.
    sql: `
      -- Authentic callbacks Loket could not apply (core/reports/callback-issues.ts): an order this log lacks,
      -- an amount other than the order's, a status that is not a forward change. One row per distinct body;
      -- apart from callback_receipts (replay detection), which the refusals of an unknown order or an amount
      -- never write, so the gateway's retries keep coming.
      CREATE TABLE callback_issues (
        id              INTEGER PRIMARY KEY,
        received_at     TEXT NOT NULL CHECK (${isoUtc('received_at')}),
        -- No foreign key: a callback may name an order this log does not have.
        order_id        TEXT NOT NULL CHECK (length(order_id) BETWEEN 1 AND 36),
        status          TEXT NOT NULL CHECK (status IN ('PAID','EXPIRED','FAILED')),
        reason          TEXT NOT NULL CHECK (reason IN ('unknown_order','amount_mismatch','not_forward')),
        -- The amount the callback reported (for an unknown order, the only trace of how much money it is).
        amount          INTEGER CHECK (amount IS NULL OR amount > 0),
        body_sha256     TEXT NOT NULL UNIQUE CHECK (length(body_sha256) = 64 AND body_sha256 NOT GLOB '*[^0-9a-f]*'),
        acknowledged_at TEXT CHECK (acknowledged_at IS NULL OR ${isoUtc('acknowledged_at')}),
        -- A staff member's name, or 'cli:<user>'.
        acknowledged_by TEXT CHECK (acknowledged_by IS NULL OR length(acknowledged_by) BETWEEN 1 AND 100),
        -- The reason given when acknowledging (the reason rule: 3 to 200 characters).
        note            TEXT CHECK (note IS NULL OR length(note) BETWEEN 3 AND 200),
        CHECK ((acknowledged_at IS NULL) = (acknowledged_by IS NULL)),
        CHECK ((acknowledged_at IS NULL) = (note IS NULL))
      ) STRICT;
      CREATE INDEX callback_issues_open ON callback_issues (received_at) WHERE acknowledged_at IS NULL;
      CREATE INDEX callback_issues_order ON callback_issues (order_id);

      -- Evidence: the only change ever made to a row is its acknowledgement, once; no row is removed.
      CREATE TRIGGER callback_issues_acknowledge_once BEFORE UPDATE ON callback_issues
      WHEN OLD.acknowledged_at IS NOT NULL OR NEW.acknowledged_at IS NULL
        OR NEW.id IS NOT OLD.id OR NEW.received_at IS NOT OLD.received_at OR NEW.order_id IS NOT OLD.order_id
        OR NEW.status IS NOT OLD.status OR NEW.reason IS NOT OLD.reason OR NEW.amount IS NOT OLD.amount
        OR NEW.body_sha256 IS NOT OLD.body_sha256
      BEGIN SELECT RAISE(ABORT, 'callback_issues: a row can only be acknowledged, once'); END;
      CREATE TRIGGER callback_issues_no_delete BEFORE DELETE ON callback_issues
      BEGIN SELECT RAISE(ABORT, 'callback_issues: a row cannot be deleted'); END;
      -- INSERT OR REPLACE deletes the row it replaces without firing a delete trigger (unless recursive
      -- triggers are on): refused before it gets that far.
      CREATE TRIGGER callback_issues_no_replace BEFORE INSERT ON callback_issues
      WHEN EXISTS (SELECT 1 FROM callback_issues WHERE id = NEW.id OR body_sha256 = NEW.body_sha256)
      BEGIN SELECT RAISE(ABORT, 'callback_issues: a row cannot be replaced'); END;

      -- A closed store day (core/reports/day-report.ts): its figures as they were at closing, never changed.
      CREATE TABLE closings (
        -- The store-local calendar day, YYYY-MM-DD (date() normalises an impossible date, so it must not change).
        day                TEXT PRIMARY KEY CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND date(day) IS day),
        time_zone          TEXT NOT NULL CHECK (length(time_zone) BETWEEN 1 AND 64),
        closed_at          TEXT NOT NULL CHECK (${isoUtc('closed_at')}),
        -- Who closed it: a member of staff (in the store's books; the training log has no staff), else NULL.
        closed_by_staff_id INTEGER REFERENCES staff (id),
        -- Their name as it was, or 'cli:<user>'.
        closed_by          TEXT NOT NULL CHECK (length(closed_by) BETWEEN 1 AND 100),
        -- ReportFigures (common/reports.ts) as JSON.
        figures            TEXT NOT NULL CHECK (CASE WHEN json_valid(figures) THEN json_type(figures) = 'object' ELSE 0 END),
        -- Attention items still open when the day was closed.
        open_attention     INTEGER NOT NULL CHECK (open_attention >= 0),
        -- The last order event written before the closing: every later event (seq above it) of an order of
        -- this day is a change after closing. A sequence, not a time: two writes in one millisecond stay apart.
        last_event_seq     INTEGER NOT NULL CHECK (last_event_seq >= 0)
      ) STRICT;
      CREATE TRIGGER closings_no_update BEFORE UPDATE ON closings
      BEGIN SELECT RAISE(ABORT, 'closings: a closed day cannot be changed'); END;
      CREATE TRIGGER closings_no_delete BEFORE DELETE ON closings
      BEGIN SELECT RAISE(ABORT, 'closings: a closed day cannot be reopened'); END;
      CREATE TRIGGER closings_no_replace BEFORE INSERT ON closings
      WHEN EXISTS (SELECT 1 FROM closings WHERE day = NEW.day)
      BEGIN SELECT RAISE(ABORT, 'closings: a closed day cannot be closed again'); END;

      -- The day report reads a day's orders from the index alone (no table row per order): its figures by
      -- method, state and staff, and the ids whose later events are changes after closing.
      CREATE INDEX orders_day_report ON orders (created_at, training, method_id, state, staff_id, amount, id);
      -- The attention queue's late payments, without a scan of every order.
      CREATE INDEX orders_late_payment ON orders (created_at) WHERE late_payment = 1;
    `,
  },
  {
    version: 7,
    name: 'the outbox (every event numbered per terminal, for the store book), the instance id, the store link',
    // docs/store-book.md. New tables, and one row in the outbox for every order event already written, in the
    // order written: the events keep their place, so a till that was selling before the store book existed sends
    // all of its history. The functions loket_* are registered by migrate() (db/sql-functions.ts).
    sql: `
      -- A random id made once per database file: a copy of the file (a cloned disk, a copied data folder) carries
      -- it along, which is how the store book tells a copy from a second till (docs/store-book.md).
      CREATE TABLE book_identity (
        id          INTEGER PRIMARY KEY CHECK (id = 1),
        instance_id TEXT NOT NULL CHECK (length(instance_id) = 36)
      ) STRICT;
      INSERT INTO book_identity (id, instance_id) VALUES (1, loket_random_id());
      CREATE TRIGGER book_identity_no_update BEFORE UPDATE ON book_identity
      BEGIN SELECT RAISE(ABORT, 'book_identity: the instance id never changes'); END;
      CREATE TRIGGER book_identity_no_delete BEFORE DELETE ON book_identity
      BEGIN SELECT RAISE(ABORT, 'book_identity: the instance id is never removed'); END;

      -- Every event of this log, numbered without gaps per terminal (seq 1, 2, 3, … for each terminal_id), with a
      -- UUIDv7, written in the same transaction as the event (core/outbox/outbox.ts). payload: canonical JSON of
      -- {event, snapshot} (the event, and its entity as the event left it; null where it is not known); sha256: of
      -- payload's UTF-8 bytes. The store book gets these rows as they are (src-main/store-book/).
      CREATE TABLE outbox (
        terminal_id TEXT NOT NULL CHECK (length(terminal_id) BETWEEN 1 AND 36),
        seq         INTEGER NOT NULL CHECK (seq >= 1),
        uuid        TEXT NOT NULL UNIQUE CHECK (length(uuid) = 36 AND substr(uuid, 15, 1) = '7'),
        stream      TEXT NOT NULL CHECK (length(stream) BETWEEN 1 AND 32 AND stream NOT GLOB '*[^a-z_]*'),
        stream_id   TEXT NOT NULL CHECK (length(stream_id) BETWEEN 1 AND 64),
        type        TEXT NOT NULL CHECK (length(type) BETWEEN 1 AND 64),
        at          TEXT NOT NULL CHECK (${isoUtc('at')}),
        payload     TEXT NOT NULL CHECK (json_valid(payload)),
        sha256      TEXT NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
        PRIMARY KEY (terminal_id, seq)
      ) STRICT;

      -- The order events written so far, oldest first, numbered per terminal (the terminal of their order). Only
      -- the last event of each order knows its order's state after it (the row as it is now: every change to an
      -- order comes with an event); the earlier ones carry no snapshot. The snapshot and event objects here are
      -- those core/orders/order-outbox.ts writes for a new event, column for column (tested).
      INSERT INTO outbox (terminal_id, seq, uuid, stream, stream_id, type, at, payload, sha256)
      SELECT terminal_id, seq, uuid, 'order', order_id, type, at, payload, loket_sha256(payload) FROM (
        SELECT o.terminal_id AS terminal_id,
          row_number() OVER (PARTITION BY o.terminal_id ORDER BY e.seq) AS seq,
          loket_uuid7(e.at, row_number() OVER (PARTITION BY e.at ORDER BY e.seq) - 1) AS uuid,
          e.order_id AS order_id, e.type AS type, e.at AS at,
          loket_canonical_json(json_object(
            'event', json_object('seq', e.seq, 'order_id', e.order_id, 'at', e.at, 'type', e.type,
              'from_state', e.from_state, 'to_state', e.to_state, 'source', e.source, 'actor', e.actor,
              'reason', e.reason, 'payload', json(e.payload)),
            'snapshot', json(CASE WHEN e.seq = last.seq THEN json_object('id', o.id, 'terminal_id', o.terminal_id,
              'api', o.api, 'state', o.state, 'method_id', o.method_id, 'kind', o.kind, 'amount', o.amount,
              'currency', o.currency, 'item_name', o.item_name, 'item_id', o.item_id, 'user_id', o.user_id,
              'customer_name', o.customer_name, 'phone', o.phone, 'training', o.training, 'delivery', o.delivery,
              'gateway_transaction_id', o.gateway_transaction_id, 'instruction', json(o.instruction),
              'rejection_retcode', o.rejection_retcode, 'rejection_message', o.rejection_message,
              'rejection_http_status', o.rejection_http_status, 'expires_at', o.expires_at, 'paid_at', o.paid_at,
              'late_payment', o.late_payment, 'staff_id', o.staff_id, 'staff_name', s.name,
              'created_at', o.created_at, 'updated_at', o.updated_at) END))) AS payload
        FROM order_events e
        JOIN orders o ON o.id = e.order_id
        LEFT JOIN staff s ON s.id = o.staff_id
        JOIN (SELECT order_id, MAX(seq) AS seq FROM order_events GROUP BY order_id) last ON last.order_id = e.order_id
      ) ORDER BY terminal_id, seq;

      -- Gap-free and append-only: each terminal's next row is its last seq plus one; no row changes or goes.
      CREATE TRIGGER outbox_next_seq BEFORE INSERT ON outbox
      WHEN NEW.seq IS NOT (SELECT COALESCE(MAX(seq), 0) + 1 FROM outbox WHERE terminal_id = NEW.terminal_id)
      BEGIN SELECT RAISE(ABORT, 'outbox: a terminal''s events are numbered 1, 2, 3, … without gaps'); END;
      CREATE TRIGGER outbox_no_update BEFORE UPDATE ON outbox
      BEGIN SELECT RAISE(ABORT, 'outbox is append-only: a row cannot be updated'); END;
      CREATE TRIGGER outbox_no_delete BEFORE DELETE ON outbox
      BEGIN SELECT RAISE(ABORT, 'outbox is append-only: a row cannot be deleted'); END;

      -- How far the store book has acknowledged each terminal's events (moved only after PostgreSQL committed
      -- them), and a conflict that stops the sending (the store book holds another event under one of these
      -- numbers): the worker's own state (src-main/store-book/), never the till's.
      CREATE TABLE outbox_sync (
        terminal_id TEXT PRIMARY KEY CHECK (length(terminal_id) BETWEEN 1 AND 36),
        acked_seq   INTEGER NOT NULL CHECK (acked_seq >= 0),
        acked_at    TEXT CHECK (acked_at IS NULL OR ${isoUtc('acked_at')}),
        conflict    TEXT CHECK (conflict IS NULL OR (json_valid(conflict) AND json_type(conflict) = 'object'))
      ) STRICT;

      -- Which store book this data folder is enrolled in, and as which terminal. Never a password: that is in the
      -- OS keychain under the account named in credential (or in LOKET_STORE_URL).
      CREATE TABLE store_link (
        id          INTEGER PRIMARY KEY CHECK (id = 1),
        store_id    TEXT NOT NULL CHECK (length(store_id) = 36),
        store_code  TEXT NOT NULL CHECK (length(store_code) BETWEEN 1 AND 3 AND store_code NOT GLOB '*[^A-Z0-9]*'),
        terminal_id TEXT NOT NULL CHECK (length(terminal_id) BETWEEN 1 AND 8 AND terminal_id NOT GLOB '*[^A-Z0-9]*'),
        -- The terminal's connection URL without its password.
        url         TEXT NOT NULL CHECK (url GLOB 'postgres*://*'),
        credential  TEXT NOT NULL CHECK (length(credential) BETWEEN 1 AND 200),
        enrolled_at TEXT NOT NULL CHECK (${isoUtc('enrolled_at')})
      ) STRICT;
      `,
  },
  {
    version: 8,
    name: "the attention queue's gateway mismatches, indexed",
    // An index only: no row changes, nothing to refuse.
    sql: `
      -- Notes recording a gateway statement that does not match its order (another id, amount or method:
      -- core/payments/order-service.ts, noteMismatch): the attention queue finds them without reading every event.
      CREATE INDEX order_events_mismatch ON order_events (order_id, seq)
        WHERE type = 'note' AND json_extract(payload, '$.mismatch') IS NOT NULL;
    `,
  },
  {
    // Nothing: this number was held for a migration of the same release that turned out not to be needed (a
    // database that took it keeps its place in the sequence). It changes nothing.
    version: 9,
    name: 'nothing (a number held for a migration not needed)',
    sql: `SELECT 1;`,
  },
  {
    version: 10,
    name: 'the catalogue, the sale, its lines, tenders and events, and the cart in progress',
    // New tables only: no row of the previous version changes, nothing to refuse.
    sql: `
      -- The store's catalogue (core/products/product-store.ts; docs/catalogue.md). Lives in the store's books
      -- (loket.db); the training log has the tables too, empty. id is the row's number, so the search index below
      -- can point at it. sku_key is the SKU in lower case: SKUs are unique ignoring letter case.
      CREATE TABLE products (
        id           INTEGER PRIMARY KEY,
        sku          TEXT NOT NULL CHECK (length(sku) BETWEEN 1 AND 160),
        sku_key      TEXT NOT NULL UNIQUE,
        name         TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 400),
        -- The name in lower case without accents ("Kopi Susu Gula Aren" → "kopi susu gula aren"): the
        -- prefix search's index (a name found by how it starts, whatever its case and accents).
        name_folded  TEXT NOT NULL,
        category     TEXT NOT NULL DEFAULT '',
        price        INTEGER NOT NULL CHECK (price >= 0),
        tax_category TEXT NOT NULL CHECK (tax_category IN ('ppn','pbjt','exempt')),
        -- The gateway's item_id of a fixed-denomination product (airtime); null for any other.
        item_id      TEXT,
        active       INTEGER NOT NULL CHECK (active IN (0,1)),
        created_at   TEXT NOT NULL CHECK (${isoUtc('created_at')}),
        updated_at   TEXT NOT NULL CHECK (${isoUtc('updated_at')})
      ) STRICT;
      CREATE INDEX products_name_folded ON products (name_folded);
      -- A barcode finds one product: in its stored form (a UPC-A as its EAN-13).
      CREATE TABLE product_barcodes (
        code       TEXT PRIMARY KEY CHECK (length(code) IN (8, 13) AND code NOT GLOB '*[^0-9]*'),
        product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
        position   INTEGER NOT NULL CHECK (position >= 0)
      ) STRICT;
      CREATE INDEX product_barcodes_product ON product_barcodes (product_id, position);
      -- The substring search of names: trigrams, case and accents ignored (three characters or more). Kept by the
      -- catalogue's code, not triggers: a large import rebuilds it once at its end, ten times faster than row by row.
      CREATE VIRTUAL TABLE products_search USING fts5 (
        name, content = 'products', content_rowid = 'id', tokenize = 'trigram remove_diacritics 1'
      );
      -- Every change to a product (created, updated, the quick items taken in), append-only.
      CREATE TABLE product_events (
        seq        INTEGER PRIMARY KEY,
        product_id INTEGER NOT NULL,
        at         TEXT NOT NULL CHECK (${isoUtc('at')}),
        type       TEXT NOT NULL CHECK (type IN ('created','updated','seeded')),
        actor      TEXT,
        payload    TEXT NOT NULL CHECK (json_valid(payload))
      ) STRICT;
      CREATE INDEX product_events_product ON product_events (product_id, seq);
      CREATE TRIGGER product_events_no_update BEFORE UPDATE ON product_events
      BEGIN SELECT RAISE(ABORT, 'product_events is append-only'); END;
      CREATE TRIGGER product_events_no_delete BEFORE DELETE ON product_events
      BEGIN SELECT RAISE(ABORT, 'product_events is append-only'); END;

      -- A sale (core/sales/; docs/sale.md): its figures as the server computed them (the truth), open → tendering
      -- → completed | voided. In the order log's database, beside its orders.
      CREATE TABLE sales (
        id             TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 40),
        terminal_id    TEXT NOT NULL CHECK (length(terminal_id) BETWEEN 1 AND 36),
        state          TEXT NOT NULL CHECK (state IN ('open','tendering','completed','voided')),
        training       INTEGER NOT NULL CHECK (training IN (0,1)),
        staff_id       INTEGER,
        staff_name     TEXT,
        sale_discount  TEXT CHECK (sale_discount IS NULL OR json_valid(sale_discount)),
        subtotal       INTEGER NOT NULL CHECK (subtotal >= 0),
        line_discounts INTEGER NOT NULL CHECK (line_discounts >= 0),
        sale_discount_amount INTEGER NOT NULL CHECK (sale_discount_amount >= 0),
        net            INTEGER NOT NULL CHECK (net >= 0),
        dpp            INTEGER NOT NULL CHECK (dpp >= 0),
        ppn            INTEGER NOT NULL CHECK (ppn >= 0),
        pbjt           INTEGER NOT NULL CHECK (pbjt >= 0),
        service        INTEGER NOT NULL CHECK (service >= 0),
        total          INTEGER NOT NULL CHECK (total >= 0),
        -- The tax lines per category (common/tax.ts CategoryTax), as JSON.
        categories     TEXT NOT NULL CHECK (json_valid(categories)),
        -- The cash rounding line (may be negative), the change given, and Σ of the tenders' applied amounts.
        rounding       INTEGER NOT NULL DEFAULT 0,
        change         INTEGER NOT NULL DEFAULT 0 CHECK (change >= 0),
        customer_name  TEXT,
        phone          TEXT,
        created_at     TEXT NOT NULL CHECK (${isoUtc('created_at')}),
        updated_at     TEXT NOT NULL CHECK (${isoUtc('updated_at')}),
        completed_at   TEXT CHECK (completed_at IS NULL OR ${isoUtc('completed_at')})
      ) STRICT;
      CREATE INDEX sales_created ON sales (created_at);
      CREATE INDEX sales_state ON sales (state) WHERE state IN ('open','tendering');
      -- Its lines: a snapshot of the product as sold and the line's computed figures (common/sale-totals.ts).
      CREATE TABLE sale_lines (
        sale_id       TEXT NOT NULL REFERENCES sales (id),
        line_no       INTEGER NOT NULL CHECK (line_no >= 1),
        line_id       TEXT NOT NULL,
        product_id    TEXT,
        sku           TEXT,
        barcode       TEXT,
        name          TEXT NOT NULL,
        category      TEXT NOT NULL DEFAULT '',
        unit_price    INTEGER NOT NULL CHECK (unit_price >= 0),
        qty           INTEGER NOT NULL CHECK (qty BETWEEN 1 AND 9999),
        tax_category  TEXT NOT NULL CHECK (tax_category IN ('ppn','pbjt','exempt')),
        item_id       TEXT,
        discount      TEXT CHECK (discount IS NULL OR json_valid(discount)),
        gross         INTEGER NOT NULL CHECK (gross >= 0),
        line_discount INTEGER NOT NULL CHECK (line_discount >= 0),
        sale_discount INTEGER NOT NULL CHECK (sale_discount >= 0),
        net           INTEGER NOT NULL CHECK (net >= 0),
        total         INTEGER NOT NULL CHECK (total >= 0),
        PRIMARY KEY (sale_id, line_no)
      ) STRICT;
      -- How it is paid: cash (handed, change, rounding), a gateway order (its id), other (a reference).
      CREATE TABLE sale_tenders (
        sale_id    TEXT NOT NULL REFERENCES sales (id),
        tender_no  INTEGER NOT NULL CHECK (tender_no >= 1),
        kind       TEXT NOT NULL CHECK (kind IN ('cash','gateway','other')),
        state      TEXT NOT NULL CHECK (state IN ('pending','paid','failed')),
        method_id  TEXT,
        order_id   TEXT UNIQUE,
        reference  TEXT,
        amount     INTEGER NOT NULL CHECK (amount >= 0),
        handed     INTEGER NOT NULL DEFAULT 0 CHECK (handed >= 0),
        change     INTEGER NOT NULL DEFAULT 0 CHECK (change >= 0),
        rounding   INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL CHECK (${isoUtc('created_at')}),
        updated_at TEXT NOT NULL CHECK (${isoUtc('updated_at')}),
        PRIMARY KEY (sale_id, tender_no),
        CHECK ((kind = 'gateway') = (method_id IS NOT NULL)),
        CHECK (kind <> 'other' OR reference IS NOT NULL)
      ) STRICT;
      -- Every change to a sale or its tenders, append-only, each with its outbox row (stream 'sale').
      CREATE TABLE sale_events (
        seq      INTEGER PRIMARY KEY,
        sale_id  TEXT NOT NULL REFERENCES sales (id),
        at       TEXT NOT NULL CHECK (${isoUtc('at')}),
        type     TEXT NOT NULL,
        actor    TEXT,
        staff_id INTEGER,
        payload  TEXT CHECK (payload IS NULL OR json_valid(payload))
      ) STRICT;
      CREATE INDEX sale_events_sale ON sale_events (sale_id, seq);
      CREATE TRIGGER sale_events_no_update BEFORE UPDATE ON sale_events
      BEGIN SELECT RAISE(ABORT, 'sale_events is append-only'); END;
      CREATE TRIGGER sale_events_no_delete BEFORE DELETE ON sale_events
      BEGIN SELECT RAISE(ABORT, 'sale_events is append-only'); END;
      -- The cart being rung up at each terminal: a reload or a restart never loses a line.
      CREATE TABLE carts (
        terminal_id TEXT PRIMARY KEY CHECK (length(terminal_id) BETWEEN 1 AND 36),
        cart        TEXT NOT NULL CHECK (json_valid(cart)),
        updated_at  TEXT NOT NULL CHECK (${isoUtc('updated_at')})
      ) STRICT;
    `,
  },
  {
    version: 11,
    name: "shifts and their append-only events (the drawer's cash)",
    // New tables only: nothing to carry over, nothing to refuse (docs/tenders.md, "Shifts").
    sql: `
      -- A shift at one terminal: opened with a float, closed with a blind count. business_day is the store day (in
      -- the store's zone then, time_zone) it opened on: a shift that runs past midnight stays that day's. The
      -- figures (expected, counted, difference) are written once, at close, from the shift's events; while it is
      -- open they are rebuilt from the events alone (common/cash.ts, shiftCash).
      CREATE TABLE shifts (
        id                 TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
        terminal_id        TEXT NOT NULL CHECK (length(terminal_id) BETWEEN 1 AND 36),
        business_day       TEXT NOT NULL CHECK (business_day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
        time_zone          TEXT NOT NULL CHECK (length(time_zone) BETWEEN 1 AND 64),
        state              TEXT NOT NULL CHECK (state IN ('open','closed')),
        opened_at          TEXT NOT NULL CHECK (${isoUtc('opened_at')}),
        opened_by_staff_id INTEGER,
        opened_by          TEXT NOT NULL CHECK (length(opened_by) BETWEEN 1 AND 100),
        float              INTEGER NOT NULL CHECK (float >= 0),
        closed_at          TEXT CHECK (closed_at IS NULL OR ${isoUtc('closed_at')}),
        closed_by_staff_id INTEGER,
        closed_by          TEXT CHECK (closed_by IS NULL OR length(closed_by) BETWEEN 1 AND 100),
        -- The blind count: the total, and the count by denomination when it was given so (JSON object of counts).
        counted            INTEGER CHECK (counted IS NULL OR counted >= 0),
        counted_by_denomination TEXT CHECK (counted_by_denomination IS NULL OR
                                 (json_valid(counted_by_denomination) AND json_type(counted_by_denomination) = 'object')),
        expected           INTEGER,
        difference         INTEGER,
        CHECK ((state = 'open' AND closed_at IS NULL AND closed_by IS NULL AND counted IS NULL AND expected IS NULL
                  AND difference IS NULL AND counted_by_denomination IS NULL)
            OR (state = 'closed' AND closed_at IS NOT NULL AND closed_by IS NOT NULL AND counted IS NOT NULL
                  AND expected IS NOT NULL AND difference = counted - expected))
      ) STRICT;
      -- One open shift per terminal.
      CREATE UNIQUE INDEX shifts_one_open ON shifts (terminal_id) WHERE state = 'open';
      CREATE INDEX shifts_day ON shifts (business_day, terminal_id);
      -- Only the close changes a shift, once; nothing removes one.
      CREATE TRIGGER shifts_close_only BEFORE UPDATE ON shifts
      WHEN OLD.state <> 'open' OR NEW.state <> 'closed' OR NEW.id IS NOT OLD.id OR NEW.terminal_id IS NOT OLD.terminal_id
        OR NEW.business_day IS NOT OLD.business_day OR NEW.opened_at IS NOT OLD.opened_at OR NEW.float IS NOT OLD.float
      BEGIN SELECT RAISE(ABORT, 'shifts: a shift changes only when it is closed, once'); END;
      CREATE TRIGGER shifts_no_delete BEFORE DELETE ON shifts
      BEGIN SELECT RAISE(ABORT, 'shifts: a shift is never removed'); END;

      -- What happened to a shift's drawer, append-only: each row written with its outbox row (stream 'shift') in
      -- one transaction. amount: the float, a pay-in or pay-out, a cash refund; for a cash tender the cash handed
      -- over, with the change given back in change. document_id: the sale of a cash tender, the refund document of
      -- a cash refund. staff: who did it; approved_by: the manager whose PIN allowed it (a large pay-out, no sale).
      CREATE TABLE shift_events (
        seq                  INTEGER PRIMARY KEY AUTOINCREMENT,
        shift_id             TEXT NOT NULL REFERENCES shifts (id),
        at                   TEXT NOT NULL CHECK (${isoUtc('at')}),
        type                 TEXT NOT NULL CHECK (type IN
                               ('float','cash_tender','cash_refund','pay_in','pay_out','no_sale','close')),
        amount               INTEGER NOT NULL CHECK (amount >= 0),
        change               INTEGER NOT NULL DEFAULT 0 CHECK (change >= 0 AND change <= amount),
        document_id          TEXT CHECK (document_id IS NULL OR length(document_id) BETWEEN 1 AND 64),
        reason               TEXT CHECK (reason IS NULL OR length(reason) BETWEEN 1 AND 800),
        staff_id             INTEGER,
        actor                TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 100),
        approved_by_staff_id INTEGER,
        approved_by          TEXT CHECK (approved_by IS NULL OR length(approved_by) BETWEEN 1 AND 100),
        payload              TEXT CHECK (payload IS NULL OR (json_valid(payload) AND json_type(payload) = 'object')),
        CHECK (change = 0 OR type = 'cash_tender'),
        CHECK (type NOT IN ('pay_in','pay_out','no_sale') OR reason IS NOT NULL),
        CHECK (type NOT IN ('cash_tender','cash_refund') OR document_id IS NOT NULL)
      ) STRICT;
      CREATE INDEX shift_events_shift ON shift_events (shift_id, seq);
      CREATE TRIGGER shift_events_no_update BEFORE UPDATE ON shift_events
      BEGIN SELECT RAISE(ABORT, 'shift_events is append-only: a row cannot be updated'); END;
      CREATE TRIGGER shift_events_no_delete BEFORE DELETE ON shift_events
      BEGIN SELECT RAISE(ABORT, 'shift_events is append-only: a row cannot be deleted'); END;
    `,
  },
  {
    version: 12,
    name: 'refunds: a document of its own per refund of a paid sale, its lines and events',
    // New tables only: no row of the previous version changes, nothing to refuse (docs/tenders.md, "Refunds").
    sql: `
      -- A refund of a completed sale (core/sales/refund-store.ts): written whole in one transaction and never changed
      -- after (the sale and its orders are never changed either). amount: Σ of the refunded lines' shares of the
      -- sale's total; rounding: the refund's share of the sale's cash rounding (money = amount + rounding);
      -- cash_rounding: a cash refund rounded down to Rp100 (paid_back = money + cash_rounding); paid_back: what went
      -- back to the customer, from the drawer (how = 'cash', in shift_id) or outside Loket (how = 'outside', e.g. a
      -- transfer for a QRIS payment: the aggregator has no refund call). net, dpp, ppn, pbjt, service: the tax given
      -- back, split from the sale's per category in proportion to the amount, cumulatively, to the rupiah.
      CREATE TABLE refunds (
        id                   TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 40),
        sale_id              TEXT NOT NULL REFERENCES sales (id),
        terminal_id          TEXT NOT NULL CHECK (length(terminal_id) BETWEEN 1 AND 36),
        training             INTEGER NOT NULL CHECK (training IN (0,1)),
        how                  TEXT NOT NULL CHECK (how IN ('cash','outside')),
        method_id            TEXT,
        shift_id             TEXT,
        reason               TEXT NOT NULL CHECK (length(reason) BETWEEN 3 AND 800),
        amount               INTEGER NOT NULL CHECK (amount >= 0),
        rounding             INTEGER NOT NULL CHECK (rounding BETWEEN -99 AND 99),
        money                INTEGER NOT NULL CHECK (money >= 0 AND money = amount + rounding),
        cash_rounding        INTEGER NOT NULL CHECK (cash_rounding BETWEEN -99 AND 99),
        paid_back            INTEGER NOT NULL CHECK (paid_back >= 0 AND paid_back = money + cash_rounding),
        net                  INTEGER NOT NULL,
        dpp                  INTEGER NOT NULL,
        ppn                  INTEGER NOT NULL,
        pbjt                 INTEGER NOT NULL,
        service              INTEGER NOT NULL,
        complete             INTEGER NOT NULL CHECK (complete IN (0,1)),
        staff_id             INTEGER,
        staff_name           TEXT,
        approved_by_staff_id INTEGER,
        approved_by          TEXT NOT NULL CHECK (length(approved_by) BETWEEN 1 AND 100),
        created_at           TEXT NOT NULL CHECK (${isoUtc('created_at')}),
        CHECK (how = 'outside' OR shift_id IS NOT NULL),
        CHECK (how = 'cash' OR cash_rounding = 0),
        CHECK (amount = net + ppn + pbjt + service)
      ) STRICT;
      CREATE INDEX refunds_sale ON refunds (sale_id);
      CREATE INDEX refunds_created ON refunds (created_at);
      CREATE TRIGGER refunds_no_update BEFORE UPDATE ON refunds
      BEGIN SELECT RAISE(ABORT, 'refunds: a refund is never changed'); END;
      CREATE TRIGGER refunds_no_delete BEFORE DELETE ON refunds
      BEGIN SELECT RAISE(ABORT, 'refunds: a refund is never removed'); END;
      -- What a refund gives back of each line of the sale: sale_line_no is the sale's line, qty of its units.
      CREATE TABLE refund_lines (
        refund_id    TEXT NOT NULL REFERENCES refunds (id),
        line_no      INTEGER NOT NULL CHECK (line_no >= 1),
        sale_id      TEXT NOT NULL,
        sale_line_no INTEGER NOT NULL,
        line_id      TEXT NOT NULL,
        qty          INTEGER NOT NULL CHECK (qty BETWEEN 1 AND 9999),
        amount       INTEGER NOT NULL CHECK (amount >= 0),
        PRIMARY KEY (refund_id, line_no),
        FOREIGN KEY (sale_id, sale_line_no) REFERENCES sale_lines (sale_id, line_no)
      ) STRICT;
      CREATE INDEX refund_lines_sale ON refund_lines (sale_id, sale_line_no);
      CREATE TRIGGER refund_lines_no_update BEFORE UPDATE ON refund_lines
      BEGIN SELECT RAISE(ABORT, 'refund_lines: a refund is never changed'); END;
      CREATE TRIGGER refund_lines_no_delete BEFORE DELETE ON refund_lines
      BEGIN SELECT RAISE(ABORT, 'refund_lines: a refund is never changed'); END;
      -- Every change of a refund, append-only, each with its outbox row (stream 'refund').
      CREATE TABLE refund_events (
        seq       INTEGER PRIMARY KEY,
        refund_id TEXT NOT NULL REFERENCES refunds (id),
        at        TEXT NOT NULL CHECK (${isoUtc('at')}),
        type      TEXT NOT NULL,
        actor     TEXT,
        staff_id  INTEGER,
        payload   TEXT CHECK (payload IS NULL OR json_valid(payload))
      ) STRICT;
      CREATE INDEX refund_events_refund ON refund_events (refund_id, seq);
      CREATE TRIGGER refund_events_no_update BEFORE UPDATE ON refund_events
      BEGIN SELECT RAISE(ABORT, 'refund_events is append-only'); END;
      CREATE TRIGGER refund_events_no_delete BEFORE DELETE ON refund_events
      BEGIN SELECT RAISE(ABORT, 'refund_events is append-only'); END;
    `,
  },
  MIGRATION_13,
  {
    version: 14,
    name: 'orders.kind checked in code against the registry of kinds, not by a CHECK list',
    // Decision (issue 18): a new payment kind is a module in common/payment-kinds/ and no migration; the order log
    // refuses a kind the registry lacks before it writes (UnknownKindError). The column keeps a shape CHECK only
    // (like audit_events.action). Number 14, not 9: migration 9 was released as a no-op and databases took it, so a
    // 9 rewritten now would never run on them; 14 runs on every database, whatever 9 did there. It builds the
    // tables from literal text and copies every row, so it holds whatever the tables' previous definition was.
    // No row to refuse: every kind migration 4's list allowed has the new shape.
    //
    // The rebuild of migration 4 (its comment says why in this order): foreign_keys stays ON, so order_events is
    // rebuilt too, pointing at orders_v12, and the old child is dropped before its parent. Every index and trigger
    // on the two tables (migrations 4, 5, 6, 8) is made again, the same; rowids, seqs and the event sequence carry
    // over, so nothing that points at a row (sale_tenders.order_id, outbox.stream_id, closings.last_event_seq)
    // changes meaning. order_events' text is migration 4's, word for word, so SQLite stores the same table.
    sql: `
      PRAGMA legacy_alter_table = OFF;

      CREATE TABLE orders_v12 (
        id                     TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 36),
        terminal_id            TEXT NOT NULL,
        api                    TEXT NOT NULL CHECK (api IN ('v1','v2')),
        state                  TEXT NOT NULL CHECK (state IN (${STATES})),
        method_id              TEXT NOT NULL,
        -- A kind of the registry (common/payment-kinds/), checked by the order log before it writes: a new kind
        -- needs no migration. Here only its shape, as the catalogue's kind names have it.
        kind                   TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 40 AND kind NOT GLOB '*[^a-z0-9_]*'),
        amount                 INTEGER NOT NULL CHECK (amount > 0 AND amount = CAST(amount AS INTEGER)),
        currency               TEXT NOT NULL,
        item_name              TEXT NOT NULL,
        item_id                TEXT,
        user_id                TEXT NOT NULL,
        customer_name          TEXT,
        phone                  TEXT,
        training               INTEGER NOT NULL CHECK (training IN (0,1)),
        request_body           TEXT NOT NULL CHECK (json_valid(request_body)),
        delivery               TEXT NOT NULL CHECK (delivery IN ('pending','not_sent','sent','answered')),
        gateway_transaction_id TEXT,
        instruction            TEXT CHECK (instruction IS NULL OR json_valid(instruction)),
        -- Not checked as JSON: a proxy's HTML error page is a response worth keeping too.
        response_body          TEXT,
        rejection_retcode      TEXT,
        rejection_message      TEXT,
        rejection_http_status  INTEGER,
        expires_at             TEXT,
        paid_at                TEXT,
        late_payment           INTEGER NOT NULL DEFAULT 0 CHECK (late_payment IN (0,1)),
        created_at             TEXT NOT NULL CHECK (${isoUtc('created_at')}),
        updated_at             TEXT NOT NULL CHECK (${isoUtc('updated_at')}),
        -- Migration 5's column, in the place its ALTER TABLE gave it (last), so the columns keep their order.
        staff_id               INTEGER REFERENCES staff (id),
        -- A rejection is read back only when it has a message, so its other parts must not exist alone.
        CHECK (rejection_message IS NOT NULL OR (rejection_retcode IS NULL AND rejection_http_status IS NULL))
      ) STRICT;
      INSERT INTO orders_v12 (rowid, ${ORDER_COLUMNS_V4}, staff_id)
        SELECT rowid, ${ORDER_COLUMNS_V4}, staff_id FROM orders;

      CREATE TABLE order_events_v12 (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        order_id   TEXT NOT NULL REFERENCES orders_v12 (id),
        at         TEXT NOT NULL CHECK (${isoUtc('at')}),
        type       TEXT NOT NULL CHECK (type IN ('created','state_changed','late_payment','delivery','note')),
        from_state TEXT CHECK (from_state IS NULL OR from_state IN (${STATES})),
        to_state   TEXT CHECK (to_state IS NULL OR to_state IN (${STATES})),
        -- Migration 1 left this unchecked so that sources could be added in code alone. Decided since: the
        -- schema holds the list, and a new source means a new migration that rebuilds this table.
        source     TEXT NOT NULL CHECK (source IN (${SOURCES_V4})),
        actor      TEXT,
        reason     TEXT,
        payload    TEXT CHECK (payload IS NULL OR json_valid(payload))
      ) STRICT;
      INSERT INTO sqlite_sequence (name, seq) SELECT 'order_events_v12', seq FROM sqlite_sequence WHERE name = 'order_events';
      INSERT INTO order_events_v12 (${EVENT_COLUMNS_V4}) SELECT ${EVENT_COLUMNS_V4} FROM order_events;

      DROP TABLE order_events;
      DROP TABLE orders;
      ALTER TABLE orders_v12 RENAME TO orders;
      ALTER TABLE order_events_v12 RENAME TO order_events;

      -- Migration 4's indexes and triggers.
      CREATE INDEX orders_created ON orders (created_at);
      CREATE INDEX orders_state_created ON orders (state, created_at);
      CREATE INDEX orders_method_created ON orders (method_id, created_at);
      CREATE INDEX order_events_order ON order_events (order_id, seq);
      CREATE TRIGGER order_events_no_update BEFORE UPDATE ON order_events
      BEGIN SELECT RAISE(ABORT, 'order_events is append-only: an event cannot be updated'); END;
      CREATE TRIGGER order_events_no_delete BEFORE DELETE ON order_events
      BEGIN SELECT RAISE(ABORT, 'order_events is append-only: an event cannot be deleted'); END;
      -- Migration 5's.
      CREATE INDEX orders_staff_created ON orders (staff_id, created_at);
      -- Migration 6's.
      CREATE INDEX orders_day_report ON orders (created_at, training, method_id, state, staff_id, amount, id);
      CREATE INDEX orders_late_payment ON orders (created_at) WHERE late_payment = 1;
      -- Migration 8's.
      CREATE INDEX order_events_mismatch ON order_events (order_id, seq)
        WHERE type = 'note' AND json_extract(payload, '$.mismatch') IS NOT NULL;
    `,
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS.length;

/** Rows of the previous version that a migration cannot carry over; the database is left as it was. */
export class MigrationBlockedError extends Error {
  constructor(
    readonly version: number,
    readonly migrationName: string,
    /** One line per refused row, as the migration's `refuse` query describes it. */
    readonly problems: readonly string[],
  ) {
    const shown = problems.slice(0, MAX_PROBLEMS_SHOWN);
    const more = problems.length - shown.length;
    super(
      `migration ${version} (${migrationName}) cannot carry over ${problems.length} row${problems.length === 1 ? '' : 's'} ` +
        `of this database, so nothing was changed and it stays at version ${version - 1}: ${shown.join('; ')}` +
        (more > 0 ? `; and ${more} more` : '') +
        '. Keep a copy of the file, and have these rows repaired before opening it with this Loket again.',
    );
    this.name = 'MigrationBlockedError';
  }
}

const MAX_PROBLEMS_SHOWN = 20;

export class SchemaTooNewError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `the database has schema version ${found}, but this Loket knows only up to version ${known}: ` +
        'it was written by a newer Loket. Install that version (or newer), or open a backup made by this one.',
    );
    this.name = 'SchemaTooNewError';
  }
}

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies the migrations the database lacks, each in its own IMMEDIATE transaction together with its
 * user_version bump, so a crash leaves the database at a whole version. Returns the versions before and
 * after. `migrations` defaults to all of them; tests pass a prefix to stop at an older version.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): { from: number; to: number } {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`migration list out of order: position ${i + 1} holds version ${m.version}`);
  });
  const known = migrations.length;
  const from = schemaVersion(db);
  if (from > known) throw new SchemaTooNewError(from, known);
  // What migration 7's SQL calls (a hash, canonical JSON, UUIDv7s): on this connection only.
  if (from < known) registerSqlFunctions(db);

  for (const m of migrations.slice(from)) {
    db.transaction(() => {
      // Read again under the write lock: another process opening the same file may have got here first.
      const current = schemaVersion(db);
      if (current >= m.version) return;
      if (current !== m.version - 1)
        throw new Error(`cannot apply migration ${m.version} to a database at version ${current}`);
      if (m.refuse !== undefined) {
        const problems = db.prepare<[], string>(m.refuse).pluck().all();
        if (problems.length > 0) throw new MigrationBlockedError(m.version, m.name, problems);
      }
      try {
        db.exec(m.sql);
      } catch (err) {
        throw new Error(`migration ${m.version} (${m.name}) failed: ${(err as Error).message}`, { cause: err });
      }
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
  return { from, to: schemaVersion(db) };
}
