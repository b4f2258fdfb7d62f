// The throwaway PostgreSQL cluster the store book's tests run against (helpers/pg-cluster.ts): real password
// authentication, the socket in its own folder, stopped and resumed on the same port, gone after stop().
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, statSync } from 'node:fs';
import pg from 'pg';
import { PG_MISSING, startPgCluster, type PgCluster } from './helpers/pg-cluster';

describe.skipIf(PG_MISSING !== undefined)(
  `a throwaway PostgreSQL cluster${PG_MISSING ? ` (skipped: ${PG_MISSING})` : ''}`,
  () => {
    let cluster: PgCluster;

    beforeAll(async () => {
      cluster = await startPgCluster();
      console.info(
        `[pg-cluster] initdb ${Math.round(cluster.timings.initdbMs)} ms, start ${Math.round(cluster.timings.startMs)} ms`,
      );
    }, 60_000);
    afterAll(() => cluster?.stop());

    const query = async (url: string, sql: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql)).rows;
      } finally {
        await client.end();
      }
    };

    it('listens on 127.0.0.1 with a password (scram-sha-256), the socket in its own folder', async () => {
      expect(await query(cluster.url(), 'SELECT current_user AS who, inet_server_addr()::text AS addr')).toEqual([
        { who: 'loket_admin', addr: '127.0.0.1/32' },
      ]);
      await expect(query(cluster.url({ password: 'wrong' }), 'SELECT 1')).rejects.toThrow(
        /password authentication failed/,
      );
      const methods = await query(cluster.url(), 'SELECT DISTINCT auth_method FROM pg_hba_file_rules');
      expect(methods).toEqual([{ auth_method: 'scram-sha-256' }]);
      expect(readdirSync(cluster.dir)).toContain(`.s.PGSQL.${cluster.port}`);
    });

    it('halts (clients lose the link) and resumes on the same port, keeping its data', async () => {
      await cluster.createDatabase('kept');
      await query(cluster.url({ database: 'kept' }), 'CREATE TABLE t (n int); INSERT INTO t VALUES (42)');
      const port = cluster.port;
      await cluster.halt();
      expect(cluster.running).toBe(false);
      await expect(query(cluster.url({ database: 'kept' }), 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
      await cluster.resume();
      expect(cluster.port).toBe(port);
      expect(await query(cluster.url({ database: 'kept' }), 'SELECT n FROM t')).toEqual([{ n: 42 }]);
    });

    it('stop() removes the folder; a second cluster is independent', async () => {
      const other = await startPgCluster();
      expect(other.port).not.toBe(cluster.port);
      expect(statSync(other.dir).isDirectory()).toBe(true);
      await other.stop();
      expect(existsSync(other.dir)).toBe(false);
      await expect(query(other.url(), 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
    }, 60_000);
  },
);
