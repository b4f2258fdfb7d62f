import type { Migration } from './migration';

const COLUMNS = `seq, shift_id, at, type, amount, change, document_id, reason, staff_id, actor, approved_by_staff_id,
  approved_by, payload`;

/**
 * Migration 30: a shift's events gain `cash_void`, the cash given back to
 * the customer when a sale that took it is voided (a split sale whose QRIS part failed). It is not a refund: the
 * Z report counts that sale neither as a cash sale nor as a refund, as the day report counts only completed sales
 * (docs/tenders.md, "The shift's cash").
 *
 * shift_events' CHECK lists its types, so the table is rebuilt as migration 14 rebuilt the orders: a new table from
 * literal text (migration 11's, word for word, but for 'cash_void' in the two CHECKs that name the types), the
 * AUTOINCREMENT sequence and every row copied with its seq (the outbox's rows name events by their seq), the old table
 * dropped and the new one renamed, then migration 11's index and triggers made again, the same. Nothing points at
 * shift_events, so nothing else changes. No row to refuse: every type of the old list is in the new one.
 * Frozen once released, like every migration (migration.ts).
 */
export const MIGRATION_30: Migration = {
  version: 30,
  name: "a shift's events: cash given back on a voided sale (cash_void)",
  sql: `
      PRAGMA legacy_alter_table = OFF;

      -- What happened to a shift's drawer, append-only: each row written with its outbox row (stream 'shift') in
      -- one transaction. amount: the float, a pay-in or pay-out, a cash refund, the cash given back on a voided
      -- sale; for a cash tender the cash handed over, with the change given back in change. document_id: the sale
      -- of a cash tender or of a voided sale's cash, the refund document of a cash refund. staff: who did it;
      -- approved_by: the manager whose PIN allowed it (a large pay-out, no sale).
      CREATE TABLE shift_events_v30 (
        seq                  INTEGER PRIMARY KEY AUTOINCREMENT,
        shift_id             TEXT NOT NULL REFERENCES shifts (id),
        at                   TEXT NOT NULL CHECK (at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
        type                 TEXT NOT NULL CHECK (type IN
                               ('float','cash_tender','cash_refund','cash_void','pay_in','pay_out','no_sale','close')),
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
        CHECK (type NOT IN ('cash_tender','cash_refund','cash_void') OR document_id IS NOT NULL)
      ) STRICT;
      INSERT INTO sqlite_sequence (name, seq) SELECT 'shift_events_v30', seq FROM sqlite_sequence WHERE name = 'shift_events';
      INSERT INTO shift_events_v30 (${COLUMNS}) SELECT ${COLUMNS} FROM shift_events ORDER BY seq;

      DROP TABLE shift_events;
      ALTER TABLE shift_events_v30 RENAME TO shift_events;
      -- Copying no row at all still leaves a sequence of 0, which the old table never had: none, as before.
      DELETE FROM sqlite_sequence WHERE name = 'shift_events' AND seq = 0 AND NOT EXISTS (SELECT 1 FROM shift_events);

      -- Migration 11's index and triggers.
      CREATE INDEX shift_events_shift ON shift_events (shift_id, seq);
      CREATE TRIGGER shift_events_no_update BEFORE UPDATE ON shift_events
      BEGIN SELECT RAISE(ABORT, 'shift_events is append-only: a row cannot be updated'); END;
      CREATE TRIGGER shift_events_no_delete BEFORE DELETE ON shift_events
      BEGIN SELECT RAISE(ABORT, 'shift_events is append-only: a row cannot be deleted'); END;
    `,
};
