import type { Database } from 'better-sqlite3';

/**
 * Numbered schema migrations, tracked in `PRAGMA user_version` (DESIGN.md §4).
 *
 * A migration, once released, is frozen: its SQL is literal text, never built from today's constants
 * (e.g. ORDER_STATES), so that migration k means the same thing on every machine for ever. Changing the
 * schema means adding migration N+1, and a test for it in test/node/db-migrations.test.ts.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

// Every time Loket writes is `Date.toISOString()`: fixed width, so text order is time order and the
// range queries of the order log can compare strings.
const isoUtc = (column: string): string =>
  `${column} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'`;

const STATES = `'creating','awaiting_payment','rejected','unknown','paid','expired','cancelled','failed'`;

export const MIGRATIONS: readonly Migration[] = [
  {
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
  },
  {
    version: 2,
    name: 'settings (non-secret; secrets live in the OS keychain)',
    sql: `
      CREATE TABLE settings (
        key        TEXT PRIMARY KEY,
        value      TEXT NOT NULL CHECK (json_valid(value)),
        updated_at TEXT NOT NULL CHECK (${isoUtc('updated_at')})
      );
    `,
  },
  {
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
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS.length;

export class SchemaTooNewError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `the database has schema version ${found}, but this Loket knows only up to version ${known}: ` +
        'it was written by a newer Loket. Install that version (or newer), or open a backup made by this one.',
    );
    this.name = 'SchemaTooNewError';
  }
}

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies the migrations the database lacks, each in its own IMMEDIATE transaction together with its
 * user_version bump, so a crash leaves the database at a whole version. Returns the versions before and
 * after. `migrations` defaults to all of them; tests pass a prefix to stop at an older version.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): { from: number; to: number } {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`migration list out of order: position ${i + 1} holds version ${m.version}`);
  });
  const known = migrations.length;
  const from = schemaVersion(db);
  if (from > known) throw new SchemaTooNewError(from, known);

  for (const m of migrations.slice(from)) {
    db.transaction(() => {
      // Read again under the write lock: another process opening the same file may have got here first.
      const current = schemaVersion(db);
      if (current >= m.version) return;
      if (current !== m.version - 1)
        throw new Error(`cannot apply migration ${m.version} to a database at version ${current}`);
      try {
        db.exec(m.sql);
      } catch (err) {
        throw new Error(`migration ${m.version} (${m.name}) failed: ${(err as Error).message}`, { cause: err });
      }
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
  return { from, to: schemaVersion(db) };
}
