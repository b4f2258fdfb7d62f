import type { Migration } from './migration';
import { isoUtc } from './sql-helpers';

export const MIGRATION_5: Migration = {
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
};
