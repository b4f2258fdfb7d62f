// The store book in the app (src-main/store-book/app-sync.ts, store-view.ts): browser mode over real HTTP, live
// against a sandbox gateway, enrolled in a real PostgreSQL. A sale reaches the store book without anyone asking;
// with PostgreSQL stopped the till sells on and its header says offline; once it is back the backlog drains. The
// manager reads the whole store's day and export from it; the cashier's link and a not-enrolled till.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import type { ApiEnvelope } from '../../src-main/common/api';
import { dayIn } from '../../src-main/common/gateway-time';
import type { StoreDayReport, StoreLinkView } from '../../src-main/common/store-book';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { AppSync, linkOf } from '../../src-main/store-book/app-sync';
import type { StoreSecrets } from '../../src-main/store-book/credentials';
import { enrolTerminal } from '../../src-main/store-book/enrol';
import { LocalBook } from '../../src-main/store-book/local-book';
import { connectStore } from '../../src-main/store-book/pg-connect';
import { initStoreBook } from '../../src-main/store-book/pg-schema';
import { formatStoreUrl, parseStoreUrl } from '../../src-main/store-book/pg-url';
import { startWebHost } from '../../src-main/web/web-host';
import { gatewayEnv, tempDir } from './helpers/loket';
import { PG_MISSING, startPgCluster, type PgCluster } from './helpers/pg-cluster';
import { openTill, storedEvents } from './helpers/store-book';
import { systemClock } from '../../src-main/core/ports';
import { waitFor } from './helpers/wait-for';

const ZONE = 'Asia/Jakarta';

describe("the link as the cashier's header shows it (linkOf)", () => {
  it("names the worker's states in the header's few", () => {
    const at = '2026-11-23T07:02:00.000Z';
    expect(linkOf({ state: 'stopped', waiting: 0 })).toEqual({ state: 'synced', waiting: 0 });
    expect(linkOf({ state: 'stopped', waiting: 4, lastSyncAt: at })).toEqual({
      state: 'waiting',
      waiting: 4,
      lastSyncAt: at,
    });
    expect(linkOf({ state: 'offline', waiting: 2, offlineSince: at, lastError: 'ECONNREFUSED' })).toEqual({
      state: 'offline',
      waiting: 2,
      since: at,
    });
    // A worker runs only where a store book is set up: without its password it is refused (enrol again), and the
    // header stays (not_enrolled would hide it).
    for (const state of ['not_enrolled', 'refused', 'keychain'] as const)
      expect(linkOf({ state, waiting: 1 })).toEqual({ state: 'refused', waiting: 1 });
    expect(linkOf({ state: 'conflict', waiting: 9 })).toEqual({ state: 'conflict', waiting: 9 });
  });
});

describe.skipIf(PG_MISSING !== undefined)(
  `the store book in the app${PG_MISSING ? ` (skipped: ${PG_MISSING})` : ''}`,
  () => {
    let cluster: PgCluster;
    let sandbox: SandboxHandle;
    const dirs: { remove(): void }[] = [];
    let adminUrl = '';

    beforeAll(async () => {
      cluster = await startPgCluster();
      await cluster.createDatabase('toko');
      adminUrl = cluster.url({ database: 'toko' });
      sandbox = await startSandbox({ host: '127.0.0.1', port: 0, log: () => undefined });
      const admin = await connectStore(parseStoreUrl(adminUrl));
      try {
        await initStoreBook(admin, { store: { code: 'JK1', name: 'Toko Maju', timeZone: ZONE } });
      } finally {
        await admin.end();
      }
    }, 60_000);

    afterAll(async () => {
      await sandbox?.close();
      await cluster?.stop();
      for (const d of dirs) d.remove();
    });

    /** A data folder enrolled as `terminalId`; its whole URL (with the password) as LOKET_STORE_URL would hold it. */
    async function enrolledFolder(
      terminalId: string,
    ): Promise<{ dataDir: string; storeUrl: string; password: string }> {
      const dir = tempDir(`loket-app-${terminalId}-`);
      dirs.push(dir);
      const local = LocalBook.open(dir.path);
      const admin = await connectStore(parseStoreUrl(adminUrl));
      try {
        const e = await enrolTerminal(admin, parseStoreUrl(adminUrl), {
          terminalId,
          instanceId: local.instanceId(),
          clock: systemClock,
        });
        local.saveLink(e.link);
        return {
          dataDir: dir.path,
          storeUrl: formatStoreUrl(e.url, { withPassword: true }),
          password: e.url.password ?? '',
        };
      } finally {
        await admin.end();
        local.close();
      }
    }

    async function browserMode(dataDir: string, env: Record<string, string>) {
      const renderer = tempDir('loket-app-renderer-');
      dirs.push(renderer);
      const staticDir = renderer.path;
      writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Loket</title>');
      const host = await startAppHost({ version: 't', dataDir, env });
      const web = await startWebHost({ app: host.app, staticDir, port: 0 });
      const token = new URLSearchParams(web.cashierUrl.split('?')[1]).get('token')!;
      async function call<T>(method: string, ...args: unknown[]): Promise<T> {
        const res = await fetch(`${web.url}/api/call/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ args }),
        });
        const body = (await res.json()) as ApiEnvelope<T>;
        if (!body.ok)
          throw Object.assign(new Error(body.error.message), { code: body.error.code, reason: body.error.reason });
        return body.result;
      }
      async function sell(amount: number): Promise<string> {
        await call('showOnDisplay', null);
        const charged = await call<{ ok: boolean; order: { id: string } }>('createOrder', {
          methodId: 'qris_dynamic',
          amount,
          itemName: 'Kopi susu',
        });
        expect(charged.ok).toBe(true);
        sandbox.settle(charged.order.id, 'PAID');
        return charged.order.id;
      }
      return {
        host,
        web,
        token,
        call,
        sell,
        close: async () => {
          await web.close();
          await host.close();
        },
      };
    }

    /** This terminal's events in the store book against its outbox: the number of each. */
    async function counts(host: AppHost, terminalId: string): Promise<{ local: number; stored: number }> {
      const local = host.store.db.prepare('SELECT COUNT(*) FROM outbox WHERE terminal_id = ?').pluck().get(terminalId);
      return { local: local as number, stored: (await storedEvents(adminUrl, terminalId)).length };
    }

    let t1: Awaited<ReturnType<typeof browserMode>> | undefined;
    afterAll(async () => {
      await t1?.close();
    });
    /** Terminal T01 in browser mode, live, enrolled (made by the first test that needs it). */
    async function tillT01(): Promise<Awaited<ReturnType<typeof browserMode>>> {
      if (t1) return t1;
      const { dataDir, storeUrl } = await enrolledFolder('T01');
      t1 = await browserMode(dataDir, {
        ...gatewayEnv(sandbox, { LOKET_TERMINAL_ID: 'T01' }),
        LOKET_STORE_URL: storeUrl,
      });
      return t1;
    }

    it('a sale reaches the store book by itself; with the link down the till sells on, offline, and the backlog drains when it returns', async () => {
      const t1 = await tillT01();
      expect(t1.host.loket.training).toBe(false);
      const first = await t1.sell(21_000);
      expect(first).toMatch(/^JK1-T01-/);
      // Nobody asks for a sync: the order log's change kicks the worker.
      await waitFor(async () => {
        const c = await counts(t1.host, 'T01');
        return c.local > 0 && c.stored === c.local;
      }, 'the sale in the store book');
      await waitFor(async () => (await t1.call<StoreLinkView>('storeLink')).state === 'synced', 'synced');
      expect(await t1.call<StoreLinkView>('storeLink')).toMatchObject({ state: 'synced', waiting: 0 });

      // The link goes down: sales go on (they never wait for it), the header says offline since a time.
      await cluster.halt();
      const offlineIds: string[] = [];
      for (let i = 0; i < 3; i++) offlineIds.push(await t1.sell(10_000 + i));
      await waitFor(async () => (await t1.call<StoreLinkView>('storeLink')).state === 'offline', 'offline');
      const offline = await t1.call<StoreLinkView>('storeLink');
      expect(offline.waiting).toBeGreaterThan(0);
      expect(offline.since).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const paid = await t1.call<{ state: string }>('getOrder', offlineIds[2]);
      expect(paid).toMatchObject({ state: expect.stringMatching(/awaiting_payment|paid/) });

      // Back: the worker's backoff timer brings the backlog in, in order, once.
      await cluster.resume();
      await waitFor(
        async () => (await t1.call<StoreLinkView>('storeLink')).state === 'synced',
        'the backlog drained',
        40_000,
      );
      // Every event of the till, each once, with its own hash; the offline sales among them.
      const outbox = t1.host.store.db
        .prepare('SELECT seq, sha256 FROM outbox WHERE terminal_id = ? ORDER BY seq')
        .all('T01') as { seq: number; sha256: string }[];
      expect(await storedEvents(adminUrl, 'T01')).toEqual(outbox);
      const lastOffline = t1.host.store.db
        .prepare('SELECT MAX(seq) FROM outbox WHERE stream_id = ?')
        .pluck()
        .get(offlineIds[2]) as number;
      expect(lastOffline).toBeGreaterThan(0);
    }, 90_000);

    it("the manager reads the whole store's day and export; a terminal with events not yet in the store book is named", async () => {
      const t1 = await tillT01();
      await t1.sell(33_000);
      // A second terminal that sold and never sent: its backlog is what it last reported (nothing: never reported).
      await enrolledFolder('T02');
      const session = (await t1.host.app.setupManager({ name: 'Bu Sri', pin: '97531864' })).token;
      await waitFor(async () => {
        const c = await counts(t1.host, 'T01');
        return c.stored === c.local;
      }, 'the sale in the store book');
      const today = dayIn(new Date(), ZONE);
      const own = await t1.call<{ figures: { orders: { count: number; amount: number } } }>(
        'dayReport',
        session,
        today,
      );
      const report = await t1.call<StoreDayReport>('storeDayReport', session, today);
      expect(report.store).toEqual({ code: 'JK1', name: 'Toko Maju' });
      const part = report.terminals.find((t) => t.terminalId === 'T01')!;
      // This terminal's part of the store's day is its own day report.
      expect(part.figures.orders).toEqual(own.figures.orders);
      expect(part.backlog).toMatchObject({ waiting: 0, mayBeIncomplete: false });
      expect(report.complete).toBe(false);
      expect(report.notes).toEqual([expect.stringMatching(/^T02: has never reported/)]);

      const ticket = await t1.call<{ downloadId: string; filename: string }>('prepareStoreExport', session, {
        from: today,
        to: today,
        format: 'csv',
      });
      expect(ticket.filename).toBe(`loket-store-orders-${today}.csv`);
      const res = await fetch(`${t1.web.url}/api/download/${ticket.downloadId}`, {
        headers: { authorization: `Bearer ${t1.token}` },
      });
      expect(res.status).toBe(200);
      const rows = parse(await res.text(), { columns: true }) as Record<string, string>[];
      expect(rows).toHaveLength(own.figures.orders.count);
      expect(rows.every((r) => Object.values(r).some((v) => v.startsWith('JK1-T01-')))).toBe(true);
      // Taken once.
      const again = await fetch(`${t1.web.url}/api/download/${ticket.downloadId}`, {
        headers: { authorization: `Bearer ${t1.token}` },
      });
      expect(again.status).toBe(404);

      // The manager's only: without a session, locked.
      await expect(t1.call('storeDayReport', 'x'.repeat(43), today)).rejects.toMatchObject({ code: 'locked' });
      // The link down: a clear refusal, worded by a reason.
      await cluster.halt();
      try {
        await expect(t1.call('storeDayReport', session, today)).rejects.toMatchObject({
          code: 'unavailable',
          reason: { key: 'store.unreachable' },
        });
      } finally {
        await cluster.resume();
      }
    }, 90_000);

    it('a till not enrolled: its link says so, and the whole store is refused with the reason', async () => {
      const dir = tempDir('loket-app-none-');
      dirs.push(dir);
      const app = await browserMode(dir.path, {});
      try {
        expect(await app.call('storeLink')).toEqual({ state: 'not_enrolled', waiting: 0 });
        const session = (await app.host.app.setupManager({ name: 'Bu Sri', pin: '97531864' })).token;
        await expect(app.call('storeDayReport', session, '2026-11-23')).rejects.toMatchObject({
          code: 'unavailable',
          reason: { key: 'store.not_enrolled' },
        });
      } finally {
        await app.close();
      }
    });

    it("the keychain's password: the worker reads it from the entry the enrolment named, and sends", async () => {
      const { dataDir, password } = await enrolledFolder('T03');
      const till = openTill('T03', { dir: dataDir });
      till.sell(2);
      const account = till.local().link()!.credential;
      till.close();
      const kept = new Map<string, string>();
      const secrets: StoreSecrets = {
        description: 'a test keychain',
        get: async (a) => kept.get(a),
        set: async (a, v) => void kept.set(a, v),
        delete: async (a) => void kept.delete(a),
      };
      // No password in the keychain yet: the header says refused (enrol again), not "not enrolled" (which hides it).
      const sync = AppSync.start({ dataDir, env: {}, clock: systemClock, secrets });
      try {
        expect(sync.enrolled).toBe(true);
        await waitFor(() => sync.link().state === 'refused', 'refused without a password');
        await expect(sync.connect()).rejects.toThrow(/no store-book password is stored in a test keychain/);
        // The password kept: the next attempt (the backoff's timer) connects and sends.
        kept.set(account, password);
        await waitFor(() => sync.link().state === 'synced', 'synced through the keychain');
        expect((await storedEvents(adminUrl, 'T03')).length).toBeGreaterThan(0);
      } finally {
        await sync.stop();
      }
    });
  },
);
