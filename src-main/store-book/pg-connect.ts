import pg from 'pg';
import { clientConfig, type StoreUrl } from './pg-url';

export type PgClient = pg.Client;

/**
 * What kind of failure a PostgreSQL error is, for the sync's backoff and for the words shown:
 * - `link`: the store book cannot be reached or the connection broke (refused, reset, timed out, the server
 *   shutting down or starting): retried with backoff, the terminal keeps selling;
 * - `auth`: the store book refused this terminal's credentials (a wrong or changed password, a role dropped);
 * - `refused`: a statement was refused (a permission, a row-level security policy, a constraint);
 * - `other`: anything else.
 */
export type PgFailure = 'link' | 'auth' | 'refused' | 'other';

const LINK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ECONNABORTED',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
]);

export function classifyPgError(err: unknown): PgFailure {
  const code = (err as { code?: unknown })?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (typeof code === 'string') {
    if (LINK_CODES.has(code) || code.startsWith('08')) return 'link';
    if (code === '28P01' || code === '28000') return 'auth';
    if (code === '42501' || code.startsWith('23') || code === '42P01') return 'refused';
  }
  if (
    /Connection terminated|connection timeout|timeout expired|Query read timeout|socket hang up|Client has encountered a connection error|not queryable/i.test(
      message,
    )
  )
    return 'link';
  return 'other';
}

/** PostgreSQL's words for an error, without anything of the URL (node-postgres's messages carry no password). */
export function describePgError(err: unknown): string {
  const e = err as { code?: string; message?: string; detail?: string };
  const message = (e?.message ?? String(err)).replace(/postgres(ql)?:\/\/\S+/g, '(the URL)');
  return e?.code && /^[0-9A-Z]{5}$/.test(e.code) ? `${message} (SQLSTATE ${e.code})` : message;
}

const NO_TLS = /does not support SSL/i;

/**
 * A connection to the store book. `prefer` tries TLS first and falls back to a plain connection only when the
 * server says it has no TLS (libpq's behaviour); any other TLS failure is a failure. The session then commits
 * synchronously whatever the server's default: the sync moves its cursor only after a commit that survives a
 * crash of the server (docs/store-book.md, "Exactly once").
 */
export async function connectStore(url: StoreUrl, password?: string): Promise<PgClient> {
  const attempt = async (ssl: 'tls' | 'plain'): Promise<PgClient> => {
    const client = new pg.Client(clientConfig(url, ssl, password));
    // An error after connecting (the server going away) must not crash the process: it fails the next query.
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SET synchronous_commit TO on');
      return client;
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
  };
  if (url.sslmode !== 'prefer' || url.host.startsWith('/')) return attempt('tls');
  try {
    return await attempt('tls');
  } catch (err) {
    if (NO_TLS.test((err as Error)?.message ?? '')) return attempt('plain');
    throw err;
  }
}

/** Ends a client without waiting on a dead link for long. */
export async function closeQuietly(client: PgClient | undefined): Promise<void> {
  if (!client) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.end().catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000))),
  ]);
  clearTimeout(timer);
}
