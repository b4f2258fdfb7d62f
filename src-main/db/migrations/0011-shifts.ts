import type { Migration } from './migration';
import { isoUtc } from './sql-helpers';

export const MIGRATION_11: Migration = {
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
};
