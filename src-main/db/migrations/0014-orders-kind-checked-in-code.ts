import type { Migration } from './migration';
import { isoUtc, STATES, SOURCES_V4, ORDER_COLUMNS_V4, EVENT_COLUMNS_V4 } from './sql-helpers';

export const MIGRATION_14: Migration = {
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
};
