import type { Migration } from './migration';

export const MIGRATION_8: Migration = {
  version: 8,
  name: "the attention queue's gateway mismatches, indexed",
  // An index only: no row changes, nothing to refuse.
  sql: `
      -- Notes recording a gateway statement that does not match its order (another id, amount or method:
      -- core/payments/order-service.ts, noteMismatch): the attention queue finds them without reading every event.
      CREATE INDEX order_events_mismatch ON order_events (order_id, seq)
        WHERE type = 'note' AND json_extract(payload, '$.mismatch') IS NOT NULL;
    `,
};
