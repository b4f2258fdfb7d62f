// A chain (docs/store-book.md, "A chain"): two stores' books (two databases of one throwaway cluster with
// wal_level=logical) publish to head office (a second cluster) with PostgreSQL's logical replication; head office
// has the same schema and projection, and sees both stores, the existing events first and then each new one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLICATION, publishStore, subscribeStore } from '../../src-main/store-book/chain';
import { enrolTerminal } from '../../src-main/store-book/enrol';
import { connectStore, type PgClient } from '../../src-main/store-book/pg-connect';
import { parseStoreUrl, type StoreUrl } from '../../src-main/store-book/pg-url';
import { initStoreBook } from '../../src-main/store-book/pg-schema';
import { syncPass } from '../../src-main/store-book/sync';
import { FakeClock } from './helpers/fake-clock';
import { PG_MISSING, startPgCluster, type PgCluster } from './helpers/pg-cluster';
import { openTill, query, type Till } from './helpers/store-book';
import { waitFor } from './helpers/wait-for';

const STORES = [
  { code: 'JK1', name: 'Toko Maju Jakarta', timeZone: 'Asia/Jakarta', db: 'toko_jk1' },
  { code: 'BD2', name: 'Toko Maju Bandung', timeZone: 'Asia/Jakarta', db: 'toko_bd2' },
] as const;
const READER_PASSWORD = 'head-office-reader-Qm3v8Zt1';

describe.skipIf(PG_MISSING !== undefined)(
  `a chain by logical replication${PG_MISSING ? ` (skipped: ${PG_MISSING})` : ''}`,
  () => {
    let stores: PgCluster;
    let headOffice: PgCluster;
    const tills: Till[] = [];
    const clock = new FakeClock('2026-11-23T02:00:00.000Z');

    beforeAll(async () => {
      const t0 = performance.now();
      [stores, headOffice] = await Promise.all([
        startPgCluster({ settings: { wal_level: 'logical' } }),
        startPgCluster({ settings: { max_logical_replication_workers: '8', max_worker_processes: '16' } }),
      ]);
      console.info(`[store-book chain] two clusters up in ${Math.round(performance.now() - t0)} ms`);
    }, 60_000);
    afterAll(async () => {
      // Subscriptions first: a store cluster stopped under a live subscription only makes head office retry.
      if (headOffice?.running)
        for (const s of STORES)
          await headOffice
            .psql('head_office', `DROP SUBSCRIPTION IF EXISTS loket_store_${s.code.toLowerCase()}`)
            .catch(() => undefined);
      for (const t of tills) t.remove();
      await Promise.all([stores?.stop(), headOffice?.stop()]);
    });

    async function as<T>(url: string, fn: (c: PgClient) => Promise<T>): Promise<T> {
      const c = await connectStore(parseStoreUrl(url));
      try {
        return await fn(c);
      } finally {
        await c.end();
      }
    }

    /** A store with one enrolled terminal that sold `n` orders and synced them. */
    async function storeWithSales(store: (typeof STORES)[number], n: number): Promise<{ till: Till; url: StoreUrl }> {
      const adminUrl = stores.url({ database: store.db });
      return as(adminUrl, async (admin) => {
        await initStoreBook(admin, { store });
        const till = openTill('T01');
        tills.push(till);
        const book = till.local();
        const e = await enrolTerminal(admin, parseStoreUrl(adminUrl), {
          terminalId: 'T01',
          instanceId: book.instanceId(),
          clock,
        });
        book.saveLink(e.link);
        till.sell(n);
        await sync(till, e.url);
        return { till, url: e.url };
      });
    }

    async function sync(till: Till, url: StoreUrl): Promise<void> {
      const book = till.local();
      const client = await connectStore(url);
      try {
        await syncPass(book, client, { terminalId: 'T01', instanceId: book.instanceId(), clock, batchSize: 200 });
      } finally {
        await client.end();
      }
    }

    const countsAt = (url: string) =>
      query<{ store_code: string; orders: number; paid: number; amount: string }>(
        url,
        `SELECT store_code, count(*)::int AS orders, count(*) FILTER (WHERE state = 'paid')::int AS paid, sum(amount)::text AS amount
       FROM loket.orders GROUP BY store_code ORDER BY store_code`,
      );

    it('head office gets each store’s events (the existing ones, then each new one) and the same projection', async () => {
      await Promise.all(STORES.map((s) => stores.createDatabase(s.db)));
      await headOffice.createDatabase('head_office');
      const [jk1, bd2] = [await storeWithSales(STORES[0], 40), await storeWithSales(STORES[1], 25)];

      // Each store publishes; head office has the same schema (no store of its own) and subscribes to both.
      for (const s of STORES)
        await as(stores.url({ database: s.db }), (admin) =>
          publishStore(admin, { role: 'loket_head_office', password: READER_PASSWORD }),
        );
      const hoUrl = headOffice.url({ database: 'head_office' });
      const ho = await as(hoUrl, (admin) => initStoreBook(admin));
      expect(ho.store).toBeUndefined();
      const t0 = performance.now();
      for (const s of STORES)
        await as(hoUrl, (admin) =>
          subscribeStore(admin, {
            storeCode: s.code,
            connection: `host=127.0.0.1 port=${stores.port} dbname=${s.db} user=loket_head_office password=${READER_PASSWORD}`,
          }),
        );
      const expected = [
        ...(await countsAt(stores.url({ database: STORES[1].db }))),
        ...(await countsAt(stores.url({ database: STORES[0].db }))),
      ];
      expect(expected.map((r) => r.store_code)).toEqual(['BD2', 'JK1']);
      await waitFor(
        async () => JSON.stringify(await countsAt(hoUrl)) === JSON.stringify(expected),
        'head office to copy both stores',
        60_000,
      );
      const copied = performance.now() - t0;

      // A new sale at a store streams to head office.
      jk1.till.sell(5);
      await sync(jk1.till, jk1.url);
      const t1 = performance.now();
      const after = [expected[0]!, (await countsAt(stores.url({ database: STORES[0].db })))[0]!];
      await waitFor(
        async () => JSON.stringify(await countsAt(hoUrl)) === JSON.stringify(after),
        'the new sales to stream',
        60_000,
      );
      const streamed = performance.now() - t1;
      console.info(
        `[store-book chain] head office copied 2 stores (${65} orders) in ${Math.round(copied)} ms; ` +
          `5 new orders streamed in ${Math.round(streamed)} ms`,
      );

      // Same events, same hashes; the stores, their terminals' status; and head office's copy is append-only too.
      const events = (url: string) =>
        query(
          url,
          'SELECT store_code, terminal_id, seq, sha256, payload FROM loket.events ORDER BY store_code, terminal_id, seq',
        );
      expect(await events(hoUrl)).toEqual([
        ...(await events(stores.url({ database: STORES[1].db }))),
        ...(await events(stores.url({ database: STORES[0].db }))),
      ]);
      expect(await query(hoUrl, 'SELECT code, name FROM loket.stores ORDER BY code')).toEqual([
        { code: 'BD2', name: STORES[1].name },
        { code: 'JK1', name: STORES[0].name },
      ]);
      const status = (url: string) =>
        query(
          url,
          'SELECT store_code, terminal_id, head_seq, acked_seq FROM loket.terminal_status ORDER BY store_code',
        );
      const storesStatus = [
        ...(await status(stores.url({ database: STORES[1].db }))),
        ...(await status(stores.url({ database: STORES[0].db }))),
      ];
      expect(storesStatus.map((r) => r.head_seq)).toEqual(storesStatus.map((r) => r.acked_seq));
      await waitFor(
        async () => JSON.stringify(await status(hoUrl)) === JSON.stringify(storesStatus),
        'the terminals’ status (updated in place) to reach head office',
      );
      await expect(query(hoUrl, "UPDATE loket.events SET type = 'x'")).rejects.toThrow(/append-only/);
      // The store's publication is what head office reads; the head office role reads nothing else.
      expect(await query(stores.url({ database: STORES[0].db }), 'SELECT pubname FROM pg_publication')).toEqual([
        { pubname: PUBLICATION },
      ]);
      await expect(
        query(
          stores.url({ database: STORES[0].db, user: 'loket_head_office', password: READER_PASSWORD }),
          'SELECT * FROM loket.terminals',
        ),
      ).rejects.toThrow(/permission denied/);
      expect(bd2.till.terminalId).toBe('T01');
    }, 120_000);
  },
);
