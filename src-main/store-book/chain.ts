import type { PgClient } from './pg-connect';
import { literal } from './pg-schema';
import { scramVerifier } from './scram';

/**
 * A chain (docs/store-book.md, "A chain"): each store's PostgreSQL publishes its store book to head office with
 * PostgreSQL's own logical replication — no server of ours in between. Head office runs `store init --head-office`
 * (the same schema and projection, no store of its own) and subscribes to each store; its `loket.orders` and the
 * other views then show every store, told apart by `store_code`.
 *
 * What is published: the store (loket.stores), the events, the terminals' status and the conflicts. Events are only
 * ever inserted; the status rows are updated in place (replicated by their primary key). The store's server needs
 * `wal_level = logical` (a restart); head office reaches it with a role of its own that may replicate and read the
 * published tables whatever their row-level security (BYPASSRLS: the terminals' policies are not head office's).
 */

export const PUBLICATION = 'loket_store';
export const PUBLISHED_TABLES = ['loket.stores', 'loket.events', 'loket.terminal_status', 'loket.conflicts'];

/**
 * At the store, as a superuser: the publication, and head office's role `role` with `password` (sent as its SCRAM
 * verifier). Idempotent (the role's password is set again).
 */
export async function publishStore(admin: PgClient, options: { role: string; password: string }): Promise<void> {
  const role = `"${options.role.replace(/"/g, '""')}"`;
  const verifier = literal(scramVerifier(options.password));
  await admin.query(`DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = ${literal(options.role)}) THEN
      CREATE ROLE ${role} WITH LOGIN REPLICATION BYPASSRLS PASSWORD ${verifier};
    ELSE
      ALTER ROLE ${role} WITH LOGIN REPLICATION BYPASSRLS PASSWORD ${verifier};
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_publication WHERE pubname = ${literal(PUBLICATION)}) THEN
      CREATE PUBLICATION ${PUBLICATION} FOR TABLE ${PUBLISHED_TABLES.join(', ')};
    END IF;
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), ${literal(options.role)});
  END $$`);
  await admin.query(`GRANT USAGE ON SCHEMA loket TO ${role}`);
  await admin.query(`GRANT SELECT ON ${PUBLISHED_TABLES.join(', ')} TO ${role}`);
}

/**
 * At head office, as a superuser: a subscription to one store's publication. `connection` is a libpq connection
 * string to the store's database as head office's role (e.g. `host=… port=… dbname=… user=… password=… sslmode=…`).
 * The existing rows are copied first, then every new one streams as the store commits it.
 */
export async function subscribeStore(
  headOffice: PgClient,
  options: { storeCode: string; connection: string },
): Promise<string> {
  const name = `loket_store_${options.storeCode.toLowerCase()}`;
  // CREATE SUBSCRIPTION cannot run in a transaction block, nor take parameters.
  const exists = await headOffice.query('SELECT 1 FROM pg_subscription WHERE subname = $1', [name]);
  if (!exists.rowCount)
    await headOffice.query(
      `CREATE SUBSCRIPTION ${name} CONNECTION ${literal(options.connection)} PUBLICATION ${PUBLICATION}`,
    );
  return name;
}
