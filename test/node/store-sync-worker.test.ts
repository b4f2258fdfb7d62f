// The store book's background worker (src-main/store-book/sync-worker.ts): start, stop, its status (synced, N
// waiting, offline since, conflict), backoff with jitter while the link is down, and a sale never waiting for it —
// against a real PostgreSQL that is stopped and started, with the worker's timers on a fake clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src-main/store-book/backoff';
import { connectStore, type PgClient } from '../../src-main/store-book/pg-connect';
import { formatStoreUrl, parseStoreUrl } from '../../src-main/store-book/pg-url';
import { initStoreBook } from '../../src-main/store-book/pg-schema';
import { enrolTerminal } from '../../src-main/store-book/enrol';
import { SyncWorker, type SyncState, type SyncStatus } from '../../src-main/store-book/sync-worker';
import { FakeClock } from './helpers/fake-clock';
import { PG_MISSING, startPgCluster, type PgCluster } from './helpers/pg-cluster';
import { cloneTill, openTill, outboxOf, storedEvents, type Till } from './helpers/store-book';
import { waitFor } from './helpers/wait-for';
import { join } from 'node:path';
import { openLoket } from '../../src-main/runtime';

describe('backoff', () => {
  it('doubles from the base to the cap, half of it fixed and half random', () => {
    const policy = { baseMs: 1000, maxMs: 60_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => backoffDelay(n, 0, policy))).toEqual([
      500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect([1, 2, 7, 50].map((n) => backoffDelay(n, 0.999999, policy))).toEqual([1000, 2000, 60_000, 60_000]);
    expect(backoffDelay(3, 0.5, policy)).toBe(3000);
    expect(() => backoffDelay(0, 0.5)).toThrow(RangeError);
  });
});

describe.skipIf(PG_MISSING !== undefined)(`the sync worker${PG_MISSING ? ` (skipped: ${PG_MISSING})` : ''}`, () => {
  let cluster: PgCluster;
  const tills: Till[] = [];
  const workers: SyncWorker[] = [];

  beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.createDatabase('store');
    await asAdmin((admin) => initStoreBook(admin, { store: { code: 'S1', name: 'Toko', timeZone: 'Asia/Jakarta' } }));
  }, 60_000);

  /** A connection of the admin's own for `fn` (the cluster is stopped and started under the tests). */
  async function asAdmin<T>(fn: (admin: PgClient) => Promise<T>): Promise<T> {
    const admin = await connectStore(parseStoreUrl(cluster.url({ database: 'store' })));
    try {
      return await fn(admin);
    } finally {
      await admin.end();
    }
  }

  afterAll(async () => {
    for (const w of workers) await w.stop();
    for (const t of tills) t.remove();
    await cluster?.stop();
  });

  async function enrolled(terminalId: string, clock: FakeClock): Promise<{ till: Till; env: NodeJS.ProcessEnv }> {
    const till = openTill(terminalId);
    tills.push(till);
    const local = till.local();
    const e = await asAdmin((admin) =>
      enrolTerminal(admin, parseStoreUrl(cluster.url({ database: 'store' })), {
        terminalId,
        instanceId: local.instanceId(),
        clock,
      }),
    );
    local.saveLink(e.link);
    return { till, env: { LOKET_STORE_URL: formatStoreUrl(e.url, { withPassword: true }) } };
  }

  function worker(till: Till, env: NodeJS.ProcessEnv, clock: FakeClock, extra = {}): SyncWorker {
    const w = new SyncWorker({
      local: till.local(),
      env,
      clock,
      scheduler: clock,
      random: () => 0.5,
      batchSize: 10,
      idleMs: 5000,
      backoff: { baseMs: 1000, maxMs: 8000 },
      ...extra,
    });
    workers.push(w);
    return w;
  }

  /** Fires the worker's due timer and waits until its status reaches `state`. */
  async function step(w: SyncWorker, clock: FakeClock, ms: number, state: SyncState): Promise<SyncStatus> {
    clock.advance(ms);
    await waitFor(() => w.status().state === state && clock.pending().length > 0, `the worker to be ${state}`);
    return w.status();
  }

  it('training never reaches the store book: its orders are in training/loket.db, the sync reads loket.db only', async () => {
    const clock = new FakeClock('2026-11-23T02:00:00.000Z');
    const { till, env } = await enrolled('W5', clock);
    till.close();
    // Training mode (no gateway configured): the embedded sandbox, orders in training/loket.db.
    const loket = await openLoket({ dataDir: till.dir, env: { LOKET_TERMINAL_ID: 'W5' }, clock });
    try {
      expect(loket.training).toBe(true);
      const sale = await loket.orders.create(
        { methodId: 'qris_dynamic', amount: 25_000, itemName: 'Kopi' },
        { source: 'cashier' },
      );
      expect(sale.ok).toBe(true);
      expect(loket.db.name).toBe(join(till.dir, 'training', 'loket.db'));
      expect(loket.db.prepare('SELECT COUNT(*) FROM outbox').pluck().get()).toBeGreaterThan(0);
    } finally {
      await loket.close();
    }
    const again = openTill('W5', { dir: till.dir });
    tills.push(again);
    const w = worker(again, env, clock);
    expect(await w.syncNow()).toEqual({ outcome: 'synced', sent: 0, batches: 0 });
    expect(await storedEvents(cluster.url({ database: 'store' }), 'W5')).toEqual([]);
  });

  it('not enrolled: says so and what to do, sends nothing', async () => {
    const clock = new FakeClock();
    const till = openTill('N1');
    tills.push(till);
    const w = worker(till, {}, clock);
    expect(w.status()).toEqual({ state: 'stopped', waiting: 0 });
    expect(await w.syncNow()).toBeUndefined();
    expect(w.status()).toMatchObject({ state: 'not_enrolled', lastError: expect.stringMatching(/store enrol/) });
  });

  it('synced, N waiting, offline since HH:MM with growing backoff, synced again when the link returns', async () => {
    const clock = new FakeClock('2026-11-23T02:00:00.000Z');
    const { till, env } = await enrolled('W1', clock);
    till.sell(2);
    const w = worker(till, env, clock);
    const seen: SyncState[] = [];
    w.onStatus((s) => seen.push(s.state));
    expect(w.status()).toMatchObject({ state: 'stopped', terminalId: 'W1', waiting: 5 });
    w.start();
    expect(await step(w, clock, 0, 'synced')).toMatchObject({
      state: 'synced',
      waiting: 0,
      lastSyncAt: '2026-11-23T02:00:00.000Z',
    });
    expect(clock.pending()).toEqual([5000]);
    // The till wrote something: kick() brings the next pass forward to now.
    till.sell(1);
    w.kick();
    expect(clock.pending()).toEqual([0]);
    expect(await step(w, clock, 0, 'synced')).toMatchObject({ waiting: 0 });

    // The link goes down; the till sells on; the next pass fails: offline since then, backoff 1 s × (½ + ½·0.5).
    await cluster.halt();
    till.sell(1);
    const offline = await step(w, clock, 5000, 'offline');
    expect(offline).toMatchObject({
      state: 'offline',
      waiting: 3,
      offlineSince: '2026-11-23T02:00:05.000Z',
      nextAttemptAt: '2026-11-23T02:00:05.750Z',
      lastSyncAt: '2026-11-23T02:00:00.000Z',
      lastError: expect.stringMatching(/ECONNREFUSED|connect/),
    });
    expect(clock.pending()).toEqual([750]);
    // Still down: 1.5 s, then 3 s, then 6 s (the cap, 8 s, halved and jittered); offline since the first failure.
    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = w.status().nextAttemptAt;
      clock.advance(clock.pending()[0]!);
      await waitFor(() => w.status().nextAttemptAt !== before, 'the next failed attempt');
      delays.push(clock.pending()[0]!);
    }
    expect(delays).toEqual([1500, 3000, 6000]);
    expect(w.status()).toMatchObject({ state: 'offline', offlineSince: '2026-11-23T02:00:05.000Z' });

    await cluster.resume();
    const back = await step(w, clock, 6000, 'synced');
    expect(back).toEqual({ state: 'synced', terminalId: 'W1', waiting: 0, lastSyncAt: expect.any(String) });
    expect(await storedEvents(cluster.url({ database: 'store' }), 'W1')).toEqual(outboxOf(till));
    expect(seen).toEqual(['synced', 'synced', 'offline', 'offline', 'offline', 'offline', 'synced']);
    expect(back.offlineSince).toBeUndefined();

    await w.stop();
    expect(w.status().state).toBe('stopped');
    expect(clock.pending()).toEqual([]);
  }, 60_000);

  it('a long catch-up yields between passes, its status counting down', async () => {
    const clock = new FakeClock('2026-11-23T02:00:00.000Z');
    const { till, env } = await enrolled('W2', clock);
    till.sell(20); // 50 events: 5 batches of 10, 2 batches a pass
    const w = worker(till, env, clock, { batchesPerPass: 2 });
    const waiting: number[] = [];
    w.onStatus((s) => waiting.push(s.waiting));
    w.start();
    // Each pass schedules the next at once (0 ms): the fake clock fires them.
    await waitFor(() => {
      clock.advance(0);
      return w.status().state === 'synced';
    }, 'the catch-up');
    expect(waiting).toEqual([30, 10, 0]);
  });

  it('a sale never waits for the sync: the store book holds the batch’s lock, the till writes on', async () => {
    const clock = new FakeClock('2026-11-23T02:00:00.000Z');
    const { till, env } = await enrolled('W3', clock);
    const w = worker(till, env, clock);
    till.sell(1);
    // The admin holds a lock the worker's insert must wait for: the pass hangs in PostgreSQL.
    const blocker = await connectStore(parseStoreUrl(cluster.url({ database: 'store' })));
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE loket.events IN ACCESS EXCLUSIVE MODE');
    const pass = w.syncNow();
    await waitFor(
      () =>
        asAdmin(async (admin) => {
          const r = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted');
          return r.rows[0]!.n > 0;
        }),
      'the worker to wait on the lock',
    );
    // Meanwhile the till sells, writes its events and their outbox rows, and reads them back.
    const ids = till.sell(25);
    expect(ids).toHaveLength(25);
    expect(outboxOf(till)).toHaveLength(3 + 63);
    await blocker.query('ROLLBACK');
    await blocker.end();
    expect(await pass).toMatchObject({ outcome: 'synced' });
    expect(await w.syncNow()).toMatchObject({ outcome: 'synced' });
    expect(await storedEvents(cluster.url({ database: 'store' }), 'W3')).toEqual(outboxOf(till));
  });

  it('a conflict stops the passes (no timer is left); a worker started again starts in conflict', async () => {
    const clock = new FakeClock('2026-11-23T02:00:00.000Z');
    const { till, env } = await enrolled('W4', clock);
    till.sell(1);
    const clone = cloneTill(till);
    tills.push(clone);
    clone.sell(1);
    till.sell(1);
    const cloneWorker = worker(clone, env, clock);
    expect(await cloneWorker.syncNow()).toMatchObject({ outcome: 'synced' });
    const w = worker(till, env, clock);
    w.start();
    clock.advance(0);
    await waitFor(() => w.status().state === 'conflict', 'the conflict');
    expect(w.status()).toMatchObject({ state: 'conflict', waiting: 6, conflict: { kind: 'different_event', seq: 4 } });
    expect(clock.pending()).toEqual([]);
    await w.stop();
    // A new worker on the same folder (the app restarted) starts in conflict, from the till's own books.
    const again = worker(till, env, clock);
    expect(again.status()).toMatchObject({ state: 'conflict', conflict: { seq: 4 } });
  });
});
