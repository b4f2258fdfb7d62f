import type { Migration } from './migration';
import { isoUtc, STATES } from './sql-helpers';

export const MIGRATION_1: Migration = {
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
};
