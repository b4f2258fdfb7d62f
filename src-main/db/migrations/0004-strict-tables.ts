import type { Migration } from './migration';
import {
  isoUtc,
  STATES,
  KINDS_V4,
  SOURCES_V4,
  refusedRows,
  notInteger,
  blob,
  nullKey,
  ORDER_COLUMNS_V4,
  EVENT_COLUMNS_V4,
  RECEIPT_COLUMNS_V4,
} from './sql-helpers';

export const MIGRATION_4: Migration = {
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
};
