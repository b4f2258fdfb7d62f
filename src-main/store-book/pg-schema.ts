import { createHash } from 'node:crypto';
import type { PgClient } from './pg-connect';

/**
 * The store book's schema in PostgreSQL (docs/store-book.md, "The schema"), in the schema `loket`: numbered
 * migrations recorded in `loket.schema_versions`, each applied in its own transaction under an advisory lock, so
 * `store init` can run again at any time (it applies what is missing and changes nothing else) and two at once
 * wait for each other.
 *
 * A migration, once released, is frozen, as the till's are (db/migrations/migration.ts): a change is a new migration.
 *
 * The tables:
 * - `stores`: the store (code, name, time zone); at head office, one row per store (replicated from each store);
 * - `settings`: `store_code`, the code of the store this database is the book of (none at head office);
 * - `terminals`: each enrolled terminal, its PostgreSQL role, and the data folder (instance id) it was enrolled
 *   from;
 * - `events`: every event of every terminal, as its outbox row was written: keyed by (store_code, terminal_id,
 *   seq), append-only for everyone (a trigger), `received_at` the server's time, `sent_at` the terminal's clock
 *   when it sent the batch;
 * - `terminal_status`: what each terminal last said of itself (its last event, what it knows was received, its
 *   oldest event not yet received, its clock), through `loket.report_status`;
 * - `conflicts`: what terminals reported as conflicts (an event number the book holds with another payload, a
 *   data folder that is not the enrolled one), through `loket.report_conflict`.
 *
 * The projection (views; latest snapshot per entity):
 * - `latest`: the latest snapshot of every entity of every stream — the extension point: a stream's view selects
 *   its rows from here (the sale, tender, shift and refund views come with those streams, as new migrations);
 * - `orders`: one row per order: the day it was created in (the store's time zone), its latest state and the
 *   columns the reports and the export read, its last change;
 * - `order_days`: orders by store, terminal, business day, method and state: counts and amounts;
 * - `event_receipts`: each event's times: `at` (the terminal's), `sent_at`, `received_at` (the server's), the clock
 *   skew (received_at − sent_at) and `skew_flagged` when it is over 2 minutes;
 * - `terminal_progress`: per terminal: what was received, what it said it has, how many wait, its clock skew, its
 *   conflicts.
 *
 * Terminals are members of one group role per database (TerminalsRole below): INSERT of their own rows into
 * `events` only (row-level security: their terminal id, their store, their data folder's instance id), SELECT of
 * their own events (to tell a resent event from a conflict) and of the views, EXECUTE of the two report functions;
 * no UPDATE, DELETE or TRUNCATE anywhere. The views belong to the admin that ran `store init`, so they read every
 * terminal's rows.
 */

export interface SchemaContext {
  /** The group role of this database's terminals. */
  terminals: string;
}

export interface PgMigration {
  readonly version: number;
  readonly name: string;
  sql(ctx: SchemaContext): string;
}

/** The terminals' group role of database `database`: role names are cluster-wide, databases are not. */
export function terminalsRoleOf(database: string): string {
  const clean = database
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 30);
  const hash = createHash('sha256').update(database).digest('hex').slice(0, 6);
  return `loket_terminals_${clean}_${hash}`;
}

/** A terminal's role: the store and the terminal, readable in pg_roles and the server's log. */
export function terminalRoleOf(storeCode: string, terminalId: string): string {
  return `loket_${storeCode.toLowerCase()}_${terminalId.toLowerCase()}`;
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    name: 'stores, terminals, the events (append-only, row-level security), status, conflicts, the projection',
    sql: ({ terminals }) => `
      CREATE TABLE loket.stores (
        code       text PRIMARY KEY CHECK (code ~ '^[A-Z0-9]{1,3}$'),
        store_id   uuid NOT NULL UNIQUE,
        name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        -- A zone PostgreSQL knows (timezone() refuses any other), as the tills' settings name it.
        time_zone  text NOT NULL CHECK (timezone(time_zone, timestamptz '2000-01-01 00:00+00') IS NOT NULL),
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE loket.settings (
        key   text PRIMARY KEY CHECK (key IN ('store_code')),
        value text NOT NULL
      );

      -- The code of the store this database is the book of; NULL at head office (which only receives).
      CREATE FUNCTION loket.store_code() RETURNS text
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog
        AS $$ SELECT value FROM loket.settings WHERE key = 'store_code' $$;

      CREATE TABLE loket.terminals (
        store_code  text NOT NULL DEFAULT loket.store_code(),
        terminal_id text NOT NULL CHECK (terminal_id ~ '^[A-Z0-9]{1,8}$'),
        role_name   text NOT NULL UNIQUE,
        -- The data folder enrolled (its book_identity.instance_id): another folder cannot write as this terminal.
        instance_id uuid NOT NULL,
        enrolled_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (store_code, terminal_id)
      );

      -- The terminal and instance of a role of this store (for row-level security and the report functions).
      CREATE FUNCTION loket.terminal_of(role_name text) RETURNS text
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog
        AS $$ SELECT t.terminal_id FROM loket.terminals t WHERE t.role_name = $1 AND t.store_code = loket.store_code() $$;
      CREATE FUNCTION loket.instance_of(role_name text) RETURNS uuid
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog
        AS $$ SELECT t.instance_id FROM loket.terminals t WHERE t.role_name = $1 AND t.store_code = loket.store_code() $$;

      CREATE TABLE loket.events (
        store_code  text NOT NULL DEFAULT loket.store_code(),
        terminal_id text NOT NULL CHECK (length(terminal_id) BETWEEN 1 AND 36),
        seq         bigint NOT NULL CHECK (seq >= 1),
        uuid        uuid NOT NULL,
        instance_id uuid NOT NULL,
        stream      text NOT NULL CHECK (stream ~ '^[a-z_]{1,32}$'),
        stream_id   text NOT NULL CHECK (length(stream_id) BETWEEN 1 AND 64),
        type        text NOT NULL CHECK (length(type) BETWEEN 1 AND 64),
        -- The terminal's time of the event.
        at          timestamptz NOT NULL,
        -- {event, snapshot} as the terminal wrote it; sha256 is of its canonical text (what the terminal hashed).
        payload     jsonb NOT NULL CHECK (jsonb_typeof(payload) = 'object'),
        sha256      text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        -- The terminal's clock when it sent the batch, and the server's when the batch arrived: their difference
        -- is the terminal's clock skew (event_receipts), apart from how late the event was sent (received_at - at).
        sent_at     timestamptz NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (store_code, terminal_id, seq)
      );
      CREATE INDEX events_entity ON loket.events (store_code, terminal_id, stream, stream_id, seq);
      CREATE INDEX events_kind_at ON loket.events (store_code, stream, type, at);
      CREATE INDEX events_uuid ON loket.events (uuid);

      -- Evidence: once received, an event is never changed or removed (as on the till).
      CREATE FUNCTION loket.refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION '%: the store book is append-only: a row cannot be changed or removed', TG_TABLE_NAME
        USING ERRCODE = '42501'; END $$;
      CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON loket.events
        FOR EACH ROW EXECUTE FUNCTION loket.refuse_change();
      CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON loket.events
        FOR EACH STATEMENT EXECUTE FUNCTION loket.refuse_change();
      -- Also when rows arrive by logical replication (head office): the rule is the table's, wherever it is.
      ALTER TABLE loket.events ENABLE ALWAYS TRIGGER events_append_only;

      ALTER TABLE loket.events ENABLE ROW LEVEL SECURITY;
      CREATE POLICY events_insert_own ON loket.events FOR INSERT TO ${q(terminals)}
        WITH CHECK (store_code = (SELECT loket.store_code())
          AND terminal_id = (SELECT loket.terminal_of(current_user::text))
          AND instance_id = (SELECT loket.instance_of(current_user::text)));
      CREATE POLICY events_read_own ON loket.events FOR SELECT TO ${q(terminals)}
        USING (store_code = (SELECT loket.store_code()) AND terminal_id = (SELECT loket.terminal_of(current_user::text)));

      CREATE TABLE loket.terminal_status (
        store_code       text NOT NULL DEFAULT loket.store_code(),
        terminal_id      text NOT NULL,
        instance_id      uuid NOT NULL,
        head_seq         bigint NOT NULL CHECK (head_seq >= 0),
        acked_seq        bigint NOT NULL CHECK (acked_seq >= 0),
        oldest_unsent_at timestamptz,
        terminal_time    timestamptz NOT NULL,
        reported_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (store_code, terminal_id)
      );

      CREATE TABLE loket.conflicts (
        store_code         text NOT NULL DEFAULT loket.store_code(),
        id                 bigserial,
        terminal_id        text NOT NULL,
        kind               text NOT NULL CHECK (kind IN ('different_event', 'other_instance')),
        seq                bigint,
        -- Who reported it (the data folder), and what it sent.
        instance_id        uuid NOT NULL,
        sent_sha256        text,
        -- What the book holds under that number.
        stored_sha256      text,
        stored_instance_id uuid,
        detail             text NOT NULL,
        reported_at        timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (store_code, id),
        UNIQUE (store_code, terminal_id, kind, seq, instance_id, sent_sha256)
      );

      -- What a terminal says of itself, once a sync pass ends (and with each batch): the server's time, the
      -- terminal's and instance from its role.
      CREATE FUNCTION loket.report_status(p_instance uuid, p_head bigint, p_acked bigint,
          p_oldest_unsent timestamptz, p_terminal_time timestamptz) RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
      DECLARE t text := loket.terminal_of(session_user::text);
      BEGIN
        IF t IS NULL THEN
          RAISE EXCEPTION 'role % is no enrolled terminal of this store', session_user USING ERRCODE = '42501';
        END IF;
        IF p_instance IS DISTINCT FROM loket.instance_of(session_user::text) THEN
          RAISE EXCEPTION 'terminal % is enrolled for another data folder', t USING ERRCODE = '42501';
        END IF;
        INSERT INTO loket.terminal_status AS s (store_code, terminal_id, instance_id, head_seq, acked_seq,
            oldest_unsent_at, terminal_time, reported_at)
          VALUES (loket.store_code(), t, p_instance, p_head, p_acked, p_oldest_unsent, p_terminal_time, now())
          ON CONFLICT (store_code, terminal_id) DO UPDATE SET instance_id = EXCLUDED.instance_id,
            head_seq = EXCLUDED.head_seq, acked_seq = EXCLUDED.acked_seq, oldest_unsent_at = EXCLUDED.oldest_unsent_at,
            terminal_time = EXCLUDED.terminal_time, reported_at = EXCLUDED.reported_at;
      END $$;

      -- A conflict a terminal found: once per (kind, seq, data folder, payload), with what the book holds.
      CREATE FUNCTION loket.report_conflict(p_instance uuid, p_kind text, p_seq bigint, p_sent_sha256 text,
          p_detail text) RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
      DECLARE t text := loket.terminal_of(session_user::text);
      BEGIN
        IF t IS NULL THEN
          RAISE EXCEPTION 'role % is no enrolled terminal of this store', session_user USING ERRCODE = '42501';
        END IF;
        INSERT INTO loket.conflicts (store_code, terminal_id, kind, seq, instance_id, sent_sha256, stored_sha256,
            stored_instance_id, detail)
          SELECT loket.store_code(), t, p_kind, p_seq, p_instance, p_sent_sha256, e.sha256,
            coalesce(e.instance_id, loket.instance_of(session_user::text)), left(p_detail, 500)
          FROM (SELECT 1) one
          LEFT JOIN loket.events e ON e.store_code = loket.store_code() AND e.terminal_id = t AND e.seq = p_seq
          ON CONFLICT DO NOTHING;
      END $$;

      -- The projection. Every view belongs to the admin, so it reads all terminals (the tables' policies bind
      -- the terminals' roles, not the owner).
      CREATE VIEW loket.latest AS
        SELECT DISTINCT ON (store_code, terminal_id, stream, stream_id)
          store_code, terminal_id, stream, stream_id, seq, at, received_at,
          payload->'snapshot' AS snapshot, payload->'event' AS event
        FROM loket.events
        WHERE jsonb_typeof(payload->'snapshot') = 'object'
        ORDER BY store_code, terminal_id, stream, stream_id, seq DESC;

      CREATE VIEW loket.orders AS
        SELECT c.store_code, c.terminal_id, c.stream_id AS order_id, c.at AS created_at,
          (c.at AT TIME ZONE s.time_zone)::date AS business_day,
          l.seq AS last_seq, l.at AS last_change_at,
          l.snap->>'state' AS state, l.snap->>'method_id' AS method_id, l.snap->>'kind' AS kind,
          (l.snap->>'amount')::bigint AS amount, l.snap->>'currency' AS currency,
          l.snap->>'item_name' AS item_name, l.snap->>'item_id' AS item_id,
          (l.snap->>'training')::int = 1 AS training, (l.snap->>'late_payment')::int = 1 AS late_payment,
          (l.snap->>'paid_at')::timestamptz AS paid_at, l.snap->>'gateway_transaction_id' AS gateway_transaction_id,
          l.snap->'instruction' AS instruction, l.snap->>'rejection_retcode' AS rejection_retcode,
          l.snap->>'rejection_message' AS rejection_message,
          (l.snap->>'staff_id')::bigint AS staff_id, l.snap->>'staff_name' AS staff_name,
          l.event->>'source' AS last_change_source, l.event->>'actor' AS last_change_by,
          l.event->>'reason' AS last_change_reason, l.snap AS snapshot
        FROM loket.events c
        JOIN loket.stores s ON s.code = c.store_code
        CROSS JOIN LATERAL (
          SELECT e.seq, e.at, e.payload->'snapshot' AS snap, e.payload->'event' AS event
          FROM loket.events e
          WHERE e.store_code = c.store_code AND e.terminal_id = c.terminal_id AND e.stream = 'order'
            AND e.stream_id = c.stream_id AND jsonb_typeof(e.payload->'snapshot') = 'object'
          ORDER BY e.seq DESC LIMIT 1) l
        WHERE c.stream = 'order' AND c.type = 'created';

      CREATE VIEW loket.order_days AS
        SELECT store_code, terminal_id, business_day, method_id, state,
          count(*) AS orders, sum(amount) AS amount
        FROM loket.orders WHERE NOT training
        GROUP BY store_code, terminal_id, business_day, method_id, state;

      CREATE VIEW loket.event_receipts AS
        SELECT store_code, terminal_id, seq, uuid, stream, stream_id, type, at, sent_at, received_at,
          received_at - sent_at AS clock_skew,
          abs(extract(epoch FROM received_at - sent_at)) > 120 AS skew_flagged,
          received_at - at AS delay
        FROM loket.events;

      CREATE VIEW loket.terminal_progress AS
        WITH known AS (
          SELECT store_code, terminal_id FROM loket.terminals
          UNION SELECT store_code, terminal_id FROM loket.terminal_status)
        SELECT k.store_code, k.terminal_id, t.enrolled_at, t.instance_id AS enrolled_instance_id,
          coalesce(last.seq, 0) AS received_seq, last.received_at AS last_received_at,
          st.head_seq, st.acked_seq, st.oldest_unsent_at, st.terminal_time, st.reported_at,
          greatest(coalesce(st.head_seq, 0) - coalesce(last.seq, 0), 0) AS waiting,
          st.reported_at - st.terminal_time AS clock_skew,
          coalesce(abs(extract(epoch FROM st.reported_at - st.terminal_time)) > 120, false) AS skew_flagged,
          (SELECT count(*) FROM loket.conflicts c
            WHERE c.store_code = k.store_code AND c.terminal_id = k.terminal_id) AS conflicts
        FROM known k
        LEFT JOIN loket.terminals t ON t.store_code = k.store_code AND t.terminal_id = k.terminal_id
        LEFT JOIN loket.terminal_status st ON st.store_code = k.store_code AND st.terminal_id = k.terminal_id
        LEFT JOIN LATERAL (
          SELECT e.seq, e.received_at FROM loket.events e
          WHERE e.store_code = k.store_code AND e.terminal_id = k.terminal_id
          ORDER BY e.seq DESC LIMIT 1) last ON true;

      -- What the terminals may do: nothing but the above. (Functions are executable by PUBLIC by default.)
      REVOKE ALL ON ALL TABLES IN SCHEMA loket FROM PUBLIC;
      REVOKE ALL ON ALL FUNCTIONS IN SCHEMA loket FROM PUBLIC;
      GRANT USAGE ON SCHEMA loket TO ${q(terminals)};
      GRANT SELECT ON loket.stores, loket.latest, loket.orders, loket.order_days, loket.event_receipts,
        loket.terminal_progress, loket.conflicts TO ${q(terminals)};
      GRANT SELECT, INSERT (terminal_id, seq, uuid, instance_id, stream, stream_id, type, at, payload, sha256, sent_at)
        ON loket.events TO ${q(terminals)};
      GRANT EXECUTE ON FUNCTION loket.store_code(), loket.terminal_of(text), loket.instance_of(text),
        loket.report_status(uuid, bigint, bigint, timestamptz, timestamptz),
        loket.report_conflict(uuid, text, bigint, text, text) TO ${q(terminals)};
    `,
  },
];

export const LATEST_PG_VERSION = PG_MIGRATIONS.length;

/** The store itself, as `store init` sets it. */
export interface StoreInfo {
  code: string;
  storeId: string;
  name: string;
  timeZone: string;
}

export interface InitOptions {
  /** The store this database is the book of; absent at head office (`--head-office`). */
  store?: { code: string; name: string; timeZone: string };
}

export interface InitResult {
  from: number;
  to: number;
  applied: number[];
  store?: StoreInfo;
  terminalsRole: string;
}

/** `store init`: what the database lacks, or an error naming what is wrong; changes nothing already right. */
export class StoreInitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreInitError';
  }
}

const LOCK = "SELECT pg_advisory_xact_lock(hashtext('loket.store_book'))";

/**
 * Creates or upgrades the store book's schema in the database `client` is connected to, as its admin (a role that
 * may create roles and owns the database). Idempotent.
 */
export async function initStoreBook(client: PgClient, options: InitOptions = {}): Promise<InitResult> {
  const database = (await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db;
  const terminals = terminalsRoleOf(database);
  await transaction(client, async () => {
    await client.query(LOCK);
    await client.query('CREATE SCHEMA IF NOT EXISTS loket');
    await client.query(`CREATE TABLE IF NOT EXISTS loket.schema_versions (
      version    int PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now())`);
    await client.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = ${literal(terminals)}) THEN
        CREATE ROLE ${q(terminals)} NOLOGIN;
      END IF;
      -- Only this database's terminals may connect to it (a store's server may hold other databases).
      EXECUTE format('REVOKE CONNECT ON DATABASE %I FROM PUBLIC', current_database());
      EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), ${literal(terminals)});
    END $$`);
  });
  const from = await schemaVersionOf(client);
  if (from > LATEST_PG_VERSION)
    throw new StoreInitError(
      `the store book has schema version ${from}, but this Loket knows only up to ${LATEST_PG_VERSION}: ` +
        'it was set up by a newer Loket; update this one',
    );
  const applied: number[] = [];
  for (const m of PG_MIGRATIONS.slice(from)) {
    await transaction(client, async () => {
      await client.query(LOCK);
      const current = await schemaVersionOf(client);
      if (current >= m.version) return;
      await client.query(m.sql({ terminals }));
      await client.query('INSERT INTO loket.schema_versions (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    });
  }
  let store: StoreInfo | undefined;
  if (options.store) store = await setStore(client, options.store);
  else store = await storeOf(client);
  return { from, to: await schemaVersionOf(client), applied, ...(store ? { store } : {}), terminalsRole: terminals };
}

async function setStore(
  client: PgClient,
  wanted: { code: string; name: string; timeZone: string },
): Promise<StoreInfo> {
  return transaction(client, async () => {
    await client.query(LOCK);
    const current = await storeOf(client);
    if (current && current.code !== wanted.code)
      throw new StoreInitError(
        `this store book is store ${current.code} (${current.name}); its code cannot change (every event carries it)`,
      );
    if (!current) {
      const headOffice = (await client.query('SELECT 1 FROM loket.stores')).rowCount;
      if (headOffice)
        throw new StoreInitError(
          'this database holds other stores (a head office book): a store book is a database of its own',
        );
      await client.query(
        'INSERT INTO loket.stores (code, store_id, name, time_zone) VALUES ($1, gen_random_uuid(), $2, $3)',
        [wanted.code, wanted.name, wanted.timeZone],
      );
      await client.query("INSERT INTO loket.settings (key, value) VALUES ('store_code', $1)", [wanted.code]);
    } else {
      await client.query('UPDATE loket.stores SET name = $2, time_zone = $3 WHERE code = $1', [
        wanted.code,
        wanted.name,
        wanted.timeZone,
      ]);
    }
    return (await storeOf(client))!;
  });
}

/** This database's own store, or undefined (not initialised, or head office). */
export async function storeOf(client: PgClient): Promise<StoreInfo | undefined> {
  const exists = await client.query("SELECT to_regclass('loket.settings') IS NOT NULL AS ok");
  if (!exists.rows[0]?.ok) return undefined;
  const r = await client.query<{ code: string; store_id: string; name: string; time_zone: string }>(
    'SELECT code, store_id::text, name, time_zone FROM loket.stores WHERE code = loket.store_code()',
  );
  const row = r.rows[0];
  return row && { code: row.code, storeId: row.store_id, name: row.name, timeZone: row.time_zone };
}

export async function schemaVersionOf(client: PgClient): Promise<number> {
  const exists = await client.query("SELECT to_regclass('loket.schema_versions') IS NOT NULL AS ok");
  if (!exists.rows[0]?.ok) return 0;
  const r = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM loket.schema_versions');
  return r.rows[0]?.v ?? 0;
}

/** Runs `fn` in a transaction on `client`: committed when it returns, rolled back when it throws. */
export async function transaction<T>(client: PgClient, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** An SQL string literal (for the statements that take no parameters: DDL, DO blocks). */
export function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
