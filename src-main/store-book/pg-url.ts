import { readFileSync } from 'node:fs';
import type { ClientConfig } from 'pg';

/**
 * A PostgreSQL connection URL (`postgres://user:password@host:port/database?sslmode=…`), read the way libpq reads
 * it, so that a URL that works with psql means the same here (docs/store-book.md, "TLS"). node-postgres reads
 * `sslmode` differently (it treats `prefer` and `require` as `verify-full`, and never falls back to a plain
 * connection), so the URL is parsed here and node-postgres gets explicit settings:
 *
 * - `disable`: no TLS;
 * - `prefer` (the default, as in libpq): TLS when the server offers it, else a plain connection; the certificate
 *   is not checked (libpq does not either);
 * - `require`: TLS or nothing; the certificate is checked against `sslrootcert` when one is given (libpq's
 *   `verify-ca` then), otherwise not;
 * - `verify-ca`: TLS, the certificate must be signed by `sslrootcert` (or a CA Node trusts);
 * - `verify-full`: as verify-ca, and the certificate must name the host.
 *
 * Also understood: `host` (a unix socket folder, or a host that overrides the URL's), `port`, `sslrootcert` (a CA
 * file), `application_name`, `connect_timeout` (seconds). Any other parameter is refused by name, so a typo does
 * not quietly weaken TLS.
 *
 * A URL may carry a password: every message about a URL shows it through `redactUrl`, never as typed.
 */

export const SSL_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

export interface StoreUrl {
  user: string;
  password?: string;
  /** A host name or address, or a unix socket folder (starts with /). */
  host: string;
  port: number;
  database: string;
  sslmode: SslMode;
  sslrootcert?: string;
  applicationName?: string;
  connectTimeoutSeconds?: number;
}

/** A URL that cannot be used; the message names the part and never repeats a password. */
export class StoreUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreUrlError';
  }
}

const KNOWN_PARAMS = new Set(['sslmode', 'sslrootcert', 'host', 'port', 'application_name', 'connect_timeout']);

/** `what` names the URL in messages: `--url`, `LOKET_STORE_URL`. */
export function parseStoreUrl(text: string, what = 'the URL'): StoreUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StoreUrlError(
      `${what}: not a URL (not repeated here, it may hold a password); expected postgres://USER@HOST:PORT/DATABASE`,
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new StoreUrlError(`${what}: must start with postgres:// or postgresql:// (got ${url.protocol}//…)`);
  for (const key of url.searchParams.keys())
    if (!KNOWN_PARAMS.has(key))
      throw new StoreUrlError(
        `${what}: unknown parameter ${JSON.stringify(key)} (known: ${[...KNOWN_PARAMS].join(', ')})`,
      );
  const user = decodeURIComponent(url.username);
  if (!user) throw new StoreUrlError(`${what}: names no user (postgres://USER@HOST/DATABASE)`);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database) throw new StoreUrlError(`${what}: names no database (postgres://USER@HOST/DATABASE)`);
  const host = url.searchParams.get('host') ?? decodeURIComponent(url.hostname).replace(/^\[(.*)\]$/, '$1');
  if (!host) throw new StoreUrlError(`${what}: names no host`);
  const portText = url.searchParams.get('port') ?? (url.port || '5432');
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new StoreUrlError(`${what}: port must be 1 to 65535 (got ${JSON.stringify(portText)})`);
  const sslmode = (url.searchParams.get('sslmode') ?? 'prefer') as SslMode;
  if (!SSL_MODES.includes(sslmode))
    throw new StoreUrlError(`${what}: sslmode must be one of ${SSL_MODES.join(', ')} (got ${JSON.stringify(sslmode)})`);
  const parsed: StoreUrl = { user, host, port, database, sslmode };
  if (url.password) parsed.password = decodeURIComponent(url.password);
  const root = url.searchParams.get('sslrootcert');
  if (root) parsed.sslrootcert = root;
  if (sslmode === 'verify-ca' && !root)
    throw new StoreUrlError(
      `${what}: sslmode=verify-ca needs sslrootcert=FILE (the CA that signed the server's certificate)`,
    );
  const app = url.searchParams.get('application_name');
  if (app) parsed.applicationName = app;
  const timeout = url.searchParams.get('connect_timeout');
  if (timeout !== null) {
    const seconds = Number(timeout);
    if (!Number.isInteger(seconds) || seconds < 0)
      throw new StoreUrlError(`${what}: connect_timeout is whole seconds (got ${JSON.stringify(timeout)})`);
    if (seconds > 0) parsed.connectTimeoutSeconds = seconds;
  }
  return parsed;
}

/** The URL as text; with the password only when `withPassword` (for LOKET_STORE_URL, shown once at enrolment). */
export function formatStoreUrl(url: StoreUrl, { withPassword = false } = {}): string {
  const auth =
    withPassword && url.password !== undefined
      ? `${encodeURIComponent(url.user)}:${encodeURIComponent(url.password)}`
      : encodeURIComponent(url.user);
  const socket = url.host.startsWith('/');
  // A socket folder goes in ?host=; the authority still names a host (a URL with a user cannot have none).
  const hostPart = socket ? 'localhost' : url.host.includes(':') ? `[${url.host}]` : url.host;
  const params = new URLSearchParams();
  if (socket) {
    params.set('host', url.host);
    params.set('port', String(url.port));
  }
  if (url.sslmode !== 'prefer') params.set('sslmode', url.sslmode);
  if (url.sslrootcert) params.set('sslrootcert', url.sslrootcert);
  if (url.applicationName) params.set('application_name', url.applicationName);
  if (url.connectTimeoutSeconds) params.set('connect_timeout', String(url.connectTimeoutSeconds));
  const port = !socket && url.port !== 5432 ? `:${url.port}` : '';
  const query = params.size > 0 ? `?${params.toString()}` : '';
  return `postgres://${auth}@${hostPart}${port}/${encodeURIComponent(url.database)}${query}`;
}

/** A URL as it may be shown: the password, if any, as `***`; text that is no URL is not repeated at all. */
export function redactUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(a URL, not repeated)';
  }
}

/**
 * node-postgres's settings for `url`, with TLS as `ssl` says: `prefer` is tried with TLS first (see connectStore).
 */
export function clientConfig(url: StoreUrl, ssl: 'tls' | 'plain', password?: string): ClientConfig {
  const config: ClientConfig = {
    user: url.user,
    host: url.host,
    port: url.port,
    database: url.database,
    application_name: url.applicationName ?? 'loket',
    connectionTimeoutMillis: (url.connectTimeoutSeconds ?? 10) * 1000,
    // A store book on a LAN answers in milliseconds; a statement that takes minutes is a link that died quietly.
    query_timeout: 120_000,
    keepAlive: true,
  };
  const pass = password ?? url.password;
  if (pass !== undefined) config.password = pass;
  if (ssl === 'plain' || url.sslmode === 'disable' || url.host.startsWith('/')) {
    config.ssl = false;
    return config;
  }
  const ca = url.sslrootcert ? readFileSync(url.sslrootcert, 'utf8') : undefined;
  switch (url.sslmode) {
    case 'prefer':
      config.ssl = { rejectUnauthorized: false };
      break;
    case 'require':
      config.ssl = ca ? { ca, checkServerIdentity: () => undefined } : { rejectUnauthorized: false };
      break;
    case 'verify-ca':
      config.ssl = { ...(ca ? { ca } : {}), checkServerIdentity: () => undefined };
      break;
    case 'verify-full':
      // node-postgres checks the certificate against the host (its servername, or its address for an IP).
      config.ssl = ca ? { ca } : {};
      break;
  }
  return config;
}
