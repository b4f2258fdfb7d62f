import type { Migration } from './migration';
import { isoUtc } from './sql-helpers';

export const MIGRATION_6: Migration = {
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
};
