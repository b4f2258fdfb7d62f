// The store book's connection URL (src-main/store-book/pg-url.ts): libpq's sslmode, read the same here, against a
// real PostgreSQL with TLS (its own self-signed certificate) and one without.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeQuietly, connectStore } from '../../src-main/store-book/pg-connect';
import { formatStoreUrl, parseStoreUrl, redactUrl, StoreUrlError } from '../../src-main/store-book/pg-url';
import { PG_MISSING, startPgCluster, type PgCluster } from './helpers/pg-cluster';

describe('store URLs', () => {
  it('reads user, password, host, port, database and sslmode; prefer when none is said (as libpq)', () => {
    expect(parseStoreUrl('postgres://loket_s1_t01:p%40ss@store.local:6432/toko?sslmode=verify-full')).toEqual({
      user: 'loket_s1_t01',
      password: 'p@ss',
      host: 'store.local',
      port: 6432,
      database: 'toko',
      sslmode: 'verify-full',
    });
    expect(parseStoreUrl('postgresql://admin@10.0.0.5/toko')).toMatchObject({ port: 5432, sslmode: 'prefer' });
    expect(parseStoreUrl('postgres://admin@x/toko?host=/run/postgresql&port=5433')).toMatchObject({
      host: '/run/postgresql',
      port: 5433,
    });
  });

  it('refuses what it cannot honour, naming the part, and never repeats a password', () => {
    const cases: [string, RegExp][] = [
      [
        'postgres://u:SECRET-1@h/db?sslmode=allow',
        /sslmode must be one of disable, prefer, require, verify-ca, verify-full/,
      ],
      ['postgres://u:SECRET-1@h/db?ssl_mode=require', /unknown parameter "ssl_mode"/],
      ['postgres://u:SECRET-1@h/db?sslmode=verify-ca', /verify-ca needs sslrootcert=FILE/],
      ['mysql://u:SECRET-1@h/db', /must start with postgres:\/\//],
      ['postgres://u:SECRET-1@h:99999/db', /not a URL/],
      ['postgres://u:SECRET-1@h/', /names no database/],
      ['postgres://:SECRET-1@h/db', /names no user/],
      ['postgres u:SECRET-1@h/db', /not a URL \(not repeated here/],
    ];
    for (const [text, rule] of cases) {
      let message = '';
      try {
        parseStoreUrl(text, '--url');
      } catch (err) {
        expect(err).toBeInstanceOf(StoreUrlError);
        message = (err as Error).message;
      }
      expect(message, text).toMatch(rule);
      expect(message).toMatch(/^--url: /);
      expect(message).not.toContain('SECRET-1');
    }
    expect(redactUrl('postgres://u:SECRET-1@h/db?sslmode=require')).toBe('postgres://u:***@h/db?sslmode=require');
    expect(redactUrl('not a url SECRET-1')).not.toContain('SECRET-1');
  });

  it('writes a URL back without its password unless asked, and reads it again the same', () => {
    const url = parseStoreUrl('postgres://t%201:p%2Fw@[::1]:6000/my%20db?sslmode=require&sslrootcert=/etc/ca.pem');
    expect(formatStoreUrl(url)).toBe('postgres://t%201@[::1]:6000/my%20db?sslmode=require&sslrootcert=%2Fetc%2Fca.pem');
    expect(parseStoreUrl(formatStoreUrl(url, { withPassword: true }))).toEqual(url);
    const socket = parseStoreUrl('postgres://admin@localhost/toko?host=/run/postgresql');
    expect(parseStoreUrl(formatStoreUrl(socket))).toEqual(socket);
  });
});

describe.skipIf(PG_MISSING !== undefined)(
  `sslmode against real servers${PG_MISSING ? ` (skipped: ${PG_MISSING})` : ''}`,
  () => {
    let tls: PgCluster;
    let plain: PgCluster;

    beforeAll(async () => {
      [tls, plain] = await Promise.all([startPgCluster({ ssl: true }), startPgCluster()]);
    }, 60_000);
    afterAll(async () => {
      await Promise.all([tls?.stop(), plain?.stop()]);
    });

    /** Whether the connection made with `params` is encrypted (pg_stat_ssl), or the error it failed with. */
    async function encrypted(cluster: PgCluster, params: Record<string, string>): Promise<boolean | string> {
      let client;
      try {
        client = await connectStore(parseStoreUrl(cluster.url({ params })));
        const r = await client.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
        return r.rows[0]!.ssl;
      } catch (err) {
        return (err as Error).message;
      } finally {
        await closeQuietly(client);
      }
    }

    it('a server with TLS: prefer and require encrypt; verify-full checks the certificate against sslrootcert', async () => {
      expect(await encrypted(tls, {})).toBe(true);
      expect(await encrypted(tls, { sslmode: 'prefer' })).toBe(true);
      expect(await encrypted(tls, { sslmode: 'require' })).toBe(true);
      expect(await encrypted(tls, { sslmode: 'verify-ca', sslrootcert: tls.caFile! })).toBe(true);
      expect(await encrypted(tls, { sslmode: 'verify-full', sslrootcert: tls.caFile! })).toBe(true);
      expect(await encrypted(tls, { sslmode: 'verify-full' })).toMatch(/self-signed certificate/);
      expect(await encrypted(tls, { sslmode: 'disable' })).toBe(false);
    });

    it('a server without TLS: prefer falls back to a plain connection; require and verify-full refuse', async () => {
      expect(await encrypted(plain, {})).toBe(false);
      expect(await encrypted(plain, { sslmode: 'require' })).toMatch(/does not support SSL/);
      expect(await encrypted(plain, { sslmode: 'verify-full', sslrootcert: tls.caFile! })).toMatch(
        /does not support SSL/,
      );
    });
  },
);
