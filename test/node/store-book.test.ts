// The store book in PostgreSQL (docs/store-book.md) against a real throwaway cluster: the schema and its migrations,
// enrolment and each terminal's role (row-level security, no UPDATE or DELETE), the sync (every event once, the
// cursor after the commit, a cloned terminal as a conflict), the projection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../../src-main/db/canonical-json';
import { connectStore, type PgClient } from '../../src-main/store-book/pg-connect';
import { formatStoreUrl, parseStoreUrl, type StoreUrl } from '../../src-main/store-book/pg-url';
import { initStoreBook, LATEST_PG_VERSION, PG_MIGRATIONS, StoreInitError } from '../../src-main/store-book/pg-schema';
import { enrolTerminal, EnrolRefusedError } from '../../src-main/store-book/enrol';
import { syncPass } from '../../src-main/store-book/sync';
import { FakeClock } from './helpers/fake-clock';
import { PG_MISSING, startPgCluster, type PgCluster } from './helpers/pg-cluster';
import { cloneTill, openTill, outboxOf, query, storedEvents, type Till } from './helpers/store-book';

const STORE = { code: 'JK1', name: 'Toko Maju, Jl. Sudirman', timeZone: 'Asia/Jakarta' };

describe.skipIf(PG_MISSING !== undefined)(`the store book${PG_MISSING ? ` (skipped: ${PG_MISSING})` : ''}`, () => {
  let cluster: PgCluster;
  let adminUrl: string;
  let admin: PgClient;
  const clock = new FakeClock('2026-11-23T02:00:00.000Z');
  const tills: Till[] = [];
  const till = (terminalId: string) => {
    const t = openTill(terminalId);
    tills.push(t);
    return t;
  };

  beforeAll(async () => {
    // Every statement the server runs is logged: the passwords must not be among them.
    cluster = await startPgCluster({ settings: { log_statement: 'all' } });
    await cluster.createDatabase('store_jk1');
    adminUrl = cluster.url({ database: 'store_jk1' });
    admin = await connectStore(parseStoreUrl(adminUrl));
    await initStoreBook(admin, { store: STORE });
  }, 60_000);

  afterAll(async () => {
    await admin?.end();
    for (const t of tills) t.remove();
    await cluster?.stop();
  });

  /** Enrols `t` and returns its URL with the password (what the keychain would hold). */
  async function enrol(t: Till): Promise<StoreUrl> {
    const local = t.local();
    const e = await enrolTerminal(admin, parseStoreUrl(adminUrl), {
      terminalId: t.terminalId,
      instanceId: local.instanceId(),
      clock,
    });
    local.saveLink(e.link);
    return e.url;
  }

  const pass = (t: Till, url: StoreUrl, extra: Partial<Parameters<typeof syncPass>[2]> = {}) =>
    withClient(url, (client) => {
      const local = t.local();
      return syncPass(local, client, {
        terminalId: t.terminalId,
        instanceId: local.instanceId(),
        clock,
        batchSize: 7,
        ...extra,
      });
    });

  async function withClient<T>(url: StoreUrl, fn: (client: PgClient) => Promise<T>): Promise<T> {
    const client = await connectStore(url);
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  }

  describe('store init', () => {
    it('creates the schema once; run again it applies nothing and keeps the store', async () => {
      const again = await initStoreBook(admin, { store: STORE });
      expect(again).toMatchObject({ from: LATEST_PG_VERSION, to: LATEST_PG_VERSION, applied: [] });
      expect(again.store).toMatchObject({ code: 'JK1', name: STORE.name, timeZone: 'Asia/Jakarta' });
      expect(again.store!.storeId).toMatch(/^[0-9a-f-]{36}$/);
      const versions = await query(adminUrl, 'SELECT version, name FROM loket.schema_versions ORDER BY version');
      expect(versions).toEqual(PG_MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
      // A fresh database, two inits at once: the advisory lock makes them take turns, the schema is made once.
      await cluster.createDatabase('store_twice');
      const url = parseStoreUrl(cluster.url({ database: 'store_twice' }));
      const [a, b] = await Promise.all([0, 1].map(() => withClient(url, (c) => initStoreBook(c, { store: STORE }))));
      expect([...a!.applied, ...b!.applied]).toEqual([1]);
    });

    it('needs no superuser: a role that may create roles and owns the database sets it up and enrols', async () => {
      await cluster.psql(
        'postgres',
        `CREATE ROLE toko_owner LOGIN CREATEROLE PASSWORD 'owner-pw-31'; CREATE DATABASE toko_owned OWNER toko_owner;`,
      );
      const ownerUrl = cluster.url({ database: 'toko_owned', user: 'toko_owner', password: 'owner-pw-31' });
      await withClient(parseStoreUrl(ownerUrl), (c) => initStoreBook(c, { store: { ...STORE, code: 'OW1' } }));
      const t = till('T01');
      const local = t.local();
      const e = await withClient(parseStoreUrl(ownerUrl), (c) =>
        enrolTerminal(c, parseStoreUrl(ownerUrl), { terminalId: 'T01', instanceId: local.instanceId(), clock }),
      );
      local.saveLink(e.link);
      t.sell(2);
      expect(await pass(t, e.url)).toMatchObject({ outcome: 'synced', sent: 5 });
      const orders = await query(ownerUrl, "SELECT count(*)::int AS n FROM loket.orders WHERE store_code = 'OW1'");
      expect(orders).toEqual([{ n: 2 }]);
      // Only this database's terminals may connect to it: another store book's terminal on the same server may not.
      const other = formatStoreUrl({ ...(await enrol(till('T08'))), database: 'toko_owned' }, { withPassword: true });
      await expect(query(other, 'SELECT 1')).rejects.toThrow(/permission denied for database "toko_owned"/);
    });

    it('refuses to change the store code (every event carries it); the name and zone may change', async () => {
      await expect(initStoreBook(admin, { store: { ...STORE, code: 'JK2' } })).rejects.toThrow(StoreInitError);
      await expect(initStoreBook(admin, { store: { ...STORE, code: 'JK2' } })).rejects.toThrow(
        /this store book is store JK1 .*its code cannot change/,
      );
      await expect(initStoreBook(admin, { store: { ...STORE, timeZone: 'Mars/Olympus' } })).rejects.toThrow(
        /time zone "Mars\/Olympus" not recognized/,
      );
      const renamed = await initStoreBook(admin, { store: { ...STORE, name: 'Toko Maju' } });
      expect(renamed.store!.name).toBe('Toko Maju');
      await initStoreBook(admin, { store: STORE });
    });
  });

  describe('enrolment and each terminal’s rights', () => {
    it('a role per terminal with a random password that is never in an SQL statement or the server’s log', async () => {
      const t = till('T01');
      const url = await enrol(t);
      expect(url.user).toBe('loket_jk1_t01');
      expect(url.password).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(url.host).toBe('127.0.0.1');
      expect(await query(formatStoreUrl(url, { withPassword: true }), 'SELECT current_user AS me')).toEqual([
        { me: 'loket_jk1_t01' },
      ]);
      const log = readFileSync(join(cluster.dir, 'server.log'), 'utf8');
      expect(log).toMatch(/CREATE ROLE "loket_jk1_t01" .*PASSWORD 'SCRAM-SHA-256\$4096:/);
      expect(log).not.toContain(url.password);
      // The link the data folder keeps has no password either.
      expect(t.local().link()).toMatchObject({
        storeCode: 'JK1',
        terminalId: 'T01',
        url: expect.not.stringContaining(url.password!),
      });
      expect(t.local().link()!.credential).toMatch(/^store-book:JK1:T01:[0-9a-f]{8}$/);
    });

    it('inserts only its own events (row-level security), never updates, deletes or truncates; reads the views', async () => {
      const t1 = till('T02');
      const t2 = till('T03');
      const u1 = formatStoreUrl(await enrol(t1), { withPassword: true });
      await enrol(t2);
      t1.sell(1);
      t2.sell(1);
      await pass(t2, parseStoreUrl(formatStoreUrl(await enrol(t2), { withPassword: true })));
      const instance = t1.local().instanceId();
      const insert = (terminal: string, inst = instance) =>
        query(
          u1,
          `INSERT INTO loket.events (terminal_id, seq, uuid, instance_id, stream, stream_id, type, at, payload, sha256, sent_at)
           VALUES ($1, 99, gen_random_uuid(), $2, 'order', 'X', 'created', now(), '{}', repeat('a', 64), now())`,
          [terminal, inst],
        );
      await expect(insert('T03')).rejects.toThrow(/new row violates row-level security policy/);
      await expect(insert('T02', '00000000-0000-4000-8000-000000000000')).rejects.toThrow(/row-level security/);
      await expect(
        query(
          u1,
          `INSERT INTO loket.events (store_code, terminal_id, seq, uuid, instance_id, stream, stream_id, type, at,
          payload, sha256, sent_at) VALUES ('XX1', 'T02', 99, gen_random_uuid(), $1, 'order', 'X', 'created', now(),
          '{}', repeat('a', 64), now())`,
          [instance],
        ),
      ).rejects.toThrow(/permission denied/);
      await expect(
        query(
          u1,
          `INSERT INTO loket.events (terminal_id, seq, uuid, instance_id, stream, stream_id, type, at, payload,
          sha256, sent_at, received_at) VALUES ('T02', 99, gen_random_uuid(), $1, 'order', 'X', 'created', now(), '{}',
          repeat('a', 64), now(), now() - interval '1 day')`,
          [instance],
        ),
      ).rejects.toThrow(/permission denied/);
      await insert('T02');
      await expect(query(u1, "UPDATE loket.events SET type = 'x' WHERE terminal_id = 'T02'")).rejects.toThrow(
        /permission denied for table events/,
      );
      await expect(query(u1, "DELETE FROM loket.events WHERE terminal_id = 'T03'")).rejects.toThrow(
        /permission denied for table events/,
      );
      await expect(query(u1, 'TRUNCATE loket.events')).rejects.toThrow(/permission denied for table events/);
      await expect(query(u1, 'UPDATE loket.stores SET name = $1', ['x'])).rejects.toThrow(/permission denied/);
      await expect(
        query(u1, 'INSERT INTO loket.terminals VALUES (DEFAULT, $1, $2, $3)', ['T09', 'x', instance]),
      ).rejects.toThrow(/permission denied/);
      await expect(query(u1, 'SELECT * FROM loket.terminal_status')).rejects.toThrow(/permission denied/);
      // Its own events from the table; every terminal's through the views.
      expect(await query(u1, 'SELECT DISTINCT terminal_id FROM loket.events')).toEqual([{ terminal_id: 'T02' }]);
      const seen = await query<{ terminal_id: string }>(u1, 'SELECT DISTINCT terminal_id FROM loket.orders ORDER BY 1');
      expect(seen.map((r) => r.terminal_id)).toEqual(['T03']);
      // Even the admin cannot change or remove a received event (evidence); it takes dropping the trigger.
      await expect(query(adminUrl, "UPDATE loket.events SET type = 'x' WHERE terminal_id = 'T03'")).rejects.toThrow(
        /append-only/,
      );
      await expect(query(adminUrl, 'TRUNCATE loket.events')).rejects.toThrow(/append-only/);
    });

    it('a terminal id is one data folder’s: another folder is refused; the same folder gets a new password', async () => {
      const t = till('T04');
      const first = await enrol(t);
      const other = till('T04');
      await expect(enrol(other)).rejects.toThrow(EnrolRefusedError);
      await expect(enrol(other)).rejects.toThrow(/terminal T04 of store JK1 is enrolled for another data folder/);
      const second = await enrol(t);
      expect(second.password).not.toBe(first.password);
      await expect(query(formatStoreUrl(first, { withPassword: true }), 'SELECT 1')).rejects.toThrow(
        /password authentication failed/,
      );
      expect(await query(formatStoreUrl(second, { withPassword: true }), 'SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
      await expect(
        enrolTerminal(admin, parseStoreUrl(adminUrl), { terminalId: 't-4', instanceId: t.local().instanceId(), clock }),
      ).rejects.toThrow(/--terminal: 1 to 8 capital letters or digits/);
    });
  });

  describe('the sync', () => {
    it('sends every event once, in order, with its hash; sent again from a lost cursor, nothing doubles', async () => {
      const t = till('T10');
      const url = await enrol(t);
      t.sell(10);
      const first = await pass(t, url);
      expect(first).toMatchObject({ outcome: 'synced', sent: 30 - 5, batches: 4 });
      expect(await storedEvents(adminUrl, 'T10')).toEqual(outboxOf(t));
      // Payloads as sent: the store book's jsonb, in canonical form, is the till's text to the byte.
      const stored = await query<{ seq: string; payload: unknown }>(
        adminUrl,
        "SELECT seq, payload FROM loket.events WHERE terminal_id = 'T10' ORDER BY seq",
      );
      const local = t.db.prepare("SELECT payload FROM outbox WHERE terminal_id = 'T10' ORDER BY seq").pluck().all();
      expect(stored.map((r) => canonicalJson(r.payload))).toEqual(local);

      // The cursor lost (a power cut before it reached the disk): everything is sent again and recognised.
      t.db.exec("DELETE FROM outbox_sync WHERE terminal_id = 'T10'");
      t.sell(2);
      const again = await pass(t, url);
      expect(again).toMatchObject({ outcome: 'synced', sent: 30 - 5 + 5 });
      expect(await storedEvents(adminUrl, 'T10')).toEqual(outboxOf(t));
      expect(t.local().cursor('T10').ackedSeq).toBe(outboxOf(t).length);
      const [progress] = await query(adminUrl, "SELECT * FROM loket.terminal_progress WHERE terminal_id = 'T10'");
      expect(progress).toMatchObject({
        received_seq: '30',
        head_seq: '30',
        acked_seq: '30',
        waiting: '0',
        conflicts: '0',
      });
    });

    it('the cursor moves only after PostgreSQL committed: a crash between the two resends, and is recognised', async () => {
      const t = till('T11');
      const url = await enrol(t);
      t.sell(3);
      await expect(
        pass(t, url, {
          afterCommit: () => {
            throw new Error('killed after the commit');
          },
        }),
      ).rejects.toThrow('killed after the commit');
      expect(t.local().cursor('T11').ackedSeq).toBe(0);
      expect((await storedEvents(adminUrl, 'T11')).length).toBe(7);
      // A batch that fails before its commit leaves nothing in the store book.
      const before = await storedEvents(adminUrl, 'T11');
      expect(await pass(t, url)).toMatchObject({ outcome: 'synced', sent: 8 });
      expect(await storedEvents(adminUrl, 'T11')).toEqual(outboxOf(t));
      expect((await storedEvents(adminUrl, 'T11')).slice(0, 7)).toEqual(before);
    });

    it('a cloned data folder is a visible conflict, never merged; both tills keep selling', async () => {
      const t = till('T12');
      const url = await enrol(t);
      t.sell(2);
      await pass(t, url);
      const clone = cloneTill(t);
      tills.push(clone);
      // Both go on selling as T12; the clone syncs first.
      clone.sell(1);
      t.sell(1);
      expect(await pass(clone, url)).toMatchObject({ outcome: 'synced', sent: 3 });
      const result = await pass(t, url);
      expect(result).toMatchObject({ outcome: 'conflict', conflict: { kind: 'different_event', seq: 6 } });
      expect(result.outcome === 'conflict' && result.conflict.detail).toMatch(
        /a copy of this data folder \(a cloned disk/,
      );
      // Nothing of the conflicting batch went in; the cursor stayed; the conflict is kept and stops further passes.
      expect(t.local().cursor('T12')).toMatchObject({ ackedSeq: 5, conflict: { kind: 'different_event', seq: 6 } });
      expect(await pass(t, url)).toMatchObject({ outcome: 'conflict', sent: 0 });
      const stored = await storedEvents(adminUrl, 'T12');
      expect(stored).toEqual(outboxOf(clone));
      expect(stored.slice(5)).not.toEqual(outboxOf(t).slice(5));
      const conflicts = await query(
        adminUrl,
        "SELECT kind, seq, sent_sha256, stored_sha256 FROM loket.conflicts WHERE terminal_id = 'T12'",
      );
      expect(conflicts).toEqual([
        {
          kind: 'different_event',
          seq: '6',
          sent_sha256: outboxOf(t)[5]!.sha256,
          stored_sha256: outboxOf(clone)[5]!.sha256,
        },
      ]);
      // The till itself is untouched: it sells on.
      t.sell(1);
      expect(outboxOf(t)).toHaveLength(11);
    });

    it('a data folder using another terminal’s URL is refused before it sends anything', async () => {
      const t13 = till('T13');
      const t14 = till('T14');
      await enrol(t13);
      const u14 = await enrol(t14);
      t13.sell(1);
      const result = await pass(t13, u14);
      expect(result).toMatchObject({ outcome: 'conflict', conflict: { kind: 'other_terminal' } });
      expect(await storedEvents(adminUrl, 'T13')).toEqual([]);
      expect(await storedEvents(adminUrl, 'T14')).toEqual([]);
    });
  });

  describe('the projection', () => {
    it('one row per order with its latest snapshot, its store day in the store’s zone; a clock off by minutes is flagged', async () => {
      const t = till('T20');
      const url = await enrol(t);
      const [paid, waiting] = t.sell(2);
      await pass(t, url);
      const orders = await query(
        adminUrl,
        "SELECT order_id, state, amount, business_day::text, training, staff_name FROM loket.orders WHERE terminal_id = 'T20' ORDER BY order_id",
      );
      expect(orders).toEqual([
        {
          order_id: paid,
          state: 'paid',
          amount: '25000',
          business_day: '2026-11-23',
          training: false,
          staff_name: null,
        },
        {
          order_id: waiting,
          state: 'awaiting_payment',
          amount: '25001',
          business_day: '2026-11-23',
          training: false,
          staff_name: null,
        },
      ]);
      const days = await query(
        adminUrl,
        "SELECT state, orders, amount FROM loket.order_days WHERE terminal_id = 'T20' ORDER BY state",
      );
      expect(days).toEqual([
        { state: 'awaiting_payment', orders: '1', amount: '25001' },
        { state: 'paid', orders: '1', amount: '25000' },
      ]);
      // The fake clock says 2026; the server's is now: years of skew, flagged on every event of T20.
      const skew = await query(
        adminUrl,
        "SELECT bool_and(skew_flagged) AS all_flagged, count(*) AS n FROM loket.event_receipts WHERE terminal_id = 'T20'",
      );
      expect(skew).toEqual([{ all_flagged: true, n: '5' }]);
      const [progress] = await query(
        adminUrl,
        "SELECT skew_flagged FROM loket.terminal_progress WHERE terminal_id = 'T20'",
      );
      expect(progress).toEqual({ skew_flagged: true });
    });
  });
});
