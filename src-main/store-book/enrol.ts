import type { Clock } from '../core/ports';
import { credentialAccount } from './credentials';
import type { StoreLink } from './local-book';
import type { PgClient } from './pg-connect';
import { formatStoreUrl, type StoreUrl } from './pg-url';
import {
  LATEST_PG_VERSION,
  literal,
  schemaVersionOf,
  storeOf,
  terminalRoleOf,
  terminalsRoleOf,
  transaction,
  type StoreInfo,
} from './pg-schema';
import { newPassword, scramVerifier } from './scram';

/** The terminal id rule (the prefix of every merchant_transaction_id: core/payments/order-id.ts). */
export const TERMINAL_RULE = /^[A-Z0-9]{1,8}$/;

/** Enrolment refused: the message says why and what to do. Nothing was changed. */
export class EnrolRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnrolRefusedError';
  }
}

export interface Enrolment {
  store: StoreInfo;
  role: string;
  /** The terminal's URL, with its new password (to keep in the keychain, or in LOKET_STORE_URL). */
  url: StoreUrl;
  /** What this data folder keeps (no password). */
  link: StoreLink;
  /** Enrolled before from this data folder: its password was replaced. */
  again: boolean;
}

/**
 * `store enrol` (docs/store-book.md, "Enrolment"), as the store book's admin: creates the terminal's PostgreSQL
 * role with a new random password (sent as its SCRAM verifier, so the password never appears in an SQL statement
 * or the server's log) in this database's terminals role, and binds the terminal to this data folder's instance
 * id. A terminal id is one data folder's: enrolling it from another folder is refused (a second till takes a new
 * id; a till's copy is not merged). Enrolling again from the same folder gives it a new password.
 *
 * The terminal's URL is the admin's with the terminal's role and password: the same host, port, database and TLS
 * settings, since enrolment runs on the terminal itself.
 */
export async function enrolTerminal(
  admin: PgClient,
  adminUrl: StoreUrl,
  input: { terminalId: string; instanceId: string; clock: Clock },
): Promise<Enrolment> {
  const { terminalId, instanceId } = input;
  if (!TERMINAL_RULE.test(terminalId))
    throw new EnrolRefusedError(`--terminal: 1 to 8 capital letters or digits (got ${JSON.stringify(terminalId)})`);
  const version = await schemaVersionOf(admin);
  if (version < LATEST_PG_VERSION)
    throw new EnrolRefusedError(
      version === 0
        ? 'this database is no store book yet: run npm run cli -- store init --url ADMIN_URL --store-code CODE first'
        : `the store book's schema is at version ${version}, this Loket needs ${LATEST_PG_VERSION}: run store init again`,
    );
  const store = await storeOf(admin);
  if (!store)
    throw new EnrolRefusedError(
      'this database is no store book of a store (a head office book, or store init was run without --store-code)',
    );
  const database = (await admin.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db;
  const group = terminalsRoleOf(database);
  const role = terminalRoleOf(store.code, terminalId);
  const password = newPassword();
  const again = await transaction(admin, async () => {
    await admin.query("SELECT pg_advisory_xact_lock(hashtext('loket.store_book'))");
    const existing = (
      await admin.query<{ instance_id: string; role_name: string }>(
        'SELECT instance_id::text, role_name FROM loket.terminals WHERE store_code = $1 AND terminal_id = $2',
        [store.code, terminalId],
      )
    ).rows[0];
    if (existing && existing.instance_id !== instanceId)
      throw new EnrolRefusedError(
        `terminal ${terminalId} of store ${store.code} is enrolled for another data folder (instance ` +
          `${existing.instance_id.slice(0, 8)}…): a terminal id belongs to one till. Enrol this one under a new ` +
          `terminal id (npm run cli -- config set-store --terminal-id ID first), or see docs/store-book.md ("A cloned ` +
          'terminal") if this folder is a copy',
      );
    const roleRow = (
      await admin.query<{ member: boolean }>(
        `SELECT pg_has_role(r.rolname, $2, 'MEMBER') AS member FROM pg_roles r WHERE r.rolname = $1`,
        [role, group],
      )
    ).rows[0];
    if (roleRow && !existing)
      throw new EnrolRefusedError(
        `a PostgreSQL role named ${role} exists already on this server, and is not this store book's terminal ` +
          `${terminalId} (another database's?): enrol this terminal under another id, or drop that role`,
      );
    const verifier = literal(scramVerifier(password));
    if (roleRow) await admin.query(`ALTER ROLE "${role}" WITH LOGIN PASSWORD ${verifier}`);
    else
      await admin.query(
        `CREATE ROLE "${role}" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT ` +
          `CONNECTION LIMIT 8 PASSWORD ${verifier} IN ROLE "${group}"`,
      );
    if (!existing)
      await admin.query(
        'INSERT INTO loket.terminals (store_code, terminal_id, role_name, instance_id) VALUES ($1, $2, $3, $4)',
        [store.code, terminalId, role, instanceId],
      );
    return existing !== undefined;
  });
  const { password: _admin, ...base } = adminUrl;
  const url: StoreUrl = { ...base, user: role, password };
  return {
    store,
    role,
    url,
    again,
    link: {
      storeId: store.storeId,
      storeCode: store.code,
      terminalId,
      url: formatStoreUrl({ ...base, user: role }),
      credential: credentialAccount(store.code, store.storeId, terminalId),
      enrolledAt: input.clock.now().toISOString(),
    },
  };
}
