import type { Migration } from './migration';
import { isoUtc } from './sql-helpers';

export const MIGRATION_3: Migration = {
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
};
