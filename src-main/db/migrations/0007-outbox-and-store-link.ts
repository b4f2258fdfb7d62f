import type { Migration } from './migration';
import { isoUtc } from './sql-helpers';

export const MIGRATION_7: Migration = {
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
};
