// Trying to break the store book (docs/store-book.md, "What happens when the link or a terminal fails"): three
// terminals (three data folders) selling against one sandbox gateway while the link to PostgreSQL is cut and
// restored — PostgreSQL stopped, and a TCP proxy of our own that drops connections in the middle of a batch — and
// the sync processes killed with SIGKILL at random points and right after a commit. Afterwards the store book holds
// every event exactly once, each terminal's own report equals its part of the store report, and the store's export
// is the union of the terminals' exports. Then a terminal offline for a day (10,000 orders) catches up.
//
// The chaos is seeded: the seed is printed, and LOKET_CHAOS_SEED=<seed> replays the same choices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dayIn } from '../../src-main/common/gateway-time';
import { runExportCommand } from '../../src-main/cli/export-commands';
import { runReportCommand } from '../../src-main/cli/report-commands';
import { pollUntilSettled } from '../../src-main/core/confirmation/status-poller';
import { openLoket, type Loket } from '../../src-main/runtime';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { connectStore } from '../../src-main/store-book/pg-connect';
import { formatStoreUrl, parseStoreUrl, type StoreUrl } from '../../src-main/store-book/pg-url';
import { initStoreBook } from '../../src-main/store-book/pg-schema';
import { enrolTerminal } from '../../src-main/store-book/enrol';
import { LocalBook } from '../../src-main/store-book/local-book';
import { appendToOutbox } from '../../src-main/core/outbox/outbox';
import { SyncWorker, type SyncStatus } from '../../src-main/store-book/sync-worker';
import { FakeClock } from './helpers/fake-clock';
import { gatewayEnv, tempDir } from './helpers/loket';
import { PG_MISSING, startPgCluster, type PgCluster } from './helpers/pg-cluster';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';
import { openTill, outboxOf, storedEvents, query, type Till } from './helpers/store-book';
import { waitFor } from './helpers/wait-for';

const ROOT = join(import.meta.dirname, '..', '..');
const ZONE = 'Asia/Jakarta';
const START = '2026-11-23T01:00:00.000Z'; // 08:00 in Jakarta
const TERMINALS = ['T01', 'T02', 'T03'] as const;
const LONG = 240_000;

/** mulberry32: a small seeded generator, [0, 1). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Terminal {
  id: string;
  dir: string;
  loket: Loket;
  env: NodeJS.ProcessEnv;
  /** Its store-book URL through the proxy (the link the chaos cuts), and directly. */
  viaProxy: StoreUrl;
  direct: StoreUrl;
}

interface SyncChild {
  proc: ChildProcess;
  last?: SyncStatus;
  exited: Promise<NodeJS.Signals | number | null>;
}

describe.skipIf(PG_MISSING !== undefined)(
  `the store book under fire${PG_MISSING ? ` (skipped: ${PG_MISSING})` : ''}`,
  () => {
    let cluster: PgCluster;
    let proxy: TcpProxy;
    let sandbox: SandboxHandle;
    let adminUrl: string;
    const clock = new FakeClock(START);
    const terminals: Terminal[] = [];
    const children = new Set<SyncChild>();
    const folders: { remove: () => void }[] = [];
    const tills: Till[] = [];

    beforeAll(async () => {
      cluster = await startPgCluster();
      await cluster.createDatabase('toko');
      adminUrl = cluster.url({ database: 'toko' });
      proxy = await startTcpProxy({ host: '127.0.0.1', port: cluster.port });
      sandbox = await startSandbox({ host: '127.0.0.1', port: 0, clock, log: () => undefined });
      const admin = await connectStore(parseStoreUrl(adminUrl));
      try {
        await initStoreBook(admin, { store: { code: 'JK1', name: 'Toko Maju', timeZone: ZONE } });
        for (const id of TERMINALS) {
          const folder = tempDir(`loket-chaos-${id}-`);
          folders.push(folder);
          const env = gatewayEnv(sandbox, { LOKET_TERMINAL_ID: id });
          const loket = await openLoket({ dataDir: folder.path, env, clock });
          const local = LocalBook.open(folder.path);
          const e = await enrolTerminal(admin, parseStoreUrl(adminUrl), {
            terminalId: id,
            instanceId: local.instanceId(),
            clock,
          });
          local.saveLink(e.link);
          local.close();
          terminals.push({ id, dir: folder.path, loket, env, direct: e.url, viaProxy: { ...e.url, port: proxy.port } });
        }
      } finally {
        await admin.end();
      }
    }, LONG);

    afterAll(async () => {
      for (const child of children) child.proc.kill('SIGKILL');
      for (const t of terminals) await t.loket.close();
      for (const t of tills) t.remove();
      await sandbox?.close();
      await proxy?.close();
      await cluster?.stop();
      for (const f of folders) f.remove();
    });

    function startSync(t: Terminal, extra: Record<string, string> = {}): SyncChild {
      const proc = spawn(process.execPath, ['--import', 'tsx', 'test/node/helpers/sync-child.ts', t.dir], {
        cwd: ROOT,
        env: { ...process.env, LOKET_STORE_URL: formatStoreUrl(t.viaProxy, { withPassword: true }), ...extra },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const child: SyncChild = {
        proc,
        exited: new Promise((resolve) => proc.on('exit', (code, signal) => resolve(signal ?? code))),
      };
      let buffer = '';
      proc.stdout!.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line.startsWith('{')) child.last = JSON.parse(line) as SyncStatus;
        }
      });
      proc.stderr!.on('data', () => undefined);
      children.add(child);
      void child.exited.then(() => children.delete(child));
      return child;
    }

    async function kill(child: SyncChild): Promise<void> {
      child.proc.kill('SIGKILL');
      await child.exited;
    }

    const local = (t: Terminal) => {
      const book = LocalBook.open(t.dir);
      try {
        return { head: book.head(t.id), acked: book.cursor(t.id).ackedSeq, conflict: book.cursor(t.id).conflict };
      } finally {
        book.close();
      }
    };

    it(
      'three terminals selling while the link is cut and the sync is killed: every event once, reports and exports add up',
      async () => {
        const seed = Number(process.env.LOKET_CHAOS_SEED) || Math.floor(Math.random() * 2 ** 31);
        console.info(`[store-book chaos] seed ${seed} (LOKET_CHAOS_SEED=${seed} replays it)`);
        const rng = seeded(seed);
        const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
        const t0 = performance.now();
        let sold = 0;

        const sell = async (t: Terminal) => {
          clock.advance(1000 + Math.floor(rng() * 20_000));
          const va = rng() < 0.3;
          const outcome = await t.loket.orders.create(
            {
              methodId: va ? 'va_bca' : 'qris_dynamic',
              amount: 10_000 + Math.floor(rng() * 200) * 500,
              itemName: pick(['Kopi susu', 'Teh manis', 'Roti bakar', 'Nasi goreng']),
              ...(va ? { customerName: 'Siti Rahayu' } : {}),
            },
            { source: 'cashier' },
          );
          if (!outcome.ok) throw new Error(`sale refused: ${outcome.failure.message}`);
          sold++;
          const id = outcome.order.id;
          const fate = rng();
          if (fate < 0.45) {
            sandbox.settle(id, 'PAID');
            await pollUntilSettled(id, {
              orders: t.loket.orders,
              log: t.loket.log,
              client: t.loket.client,
              initialDelayMs: 1,
              maxDelayMs: 1,
              deadline: new Date(clock.now().getTime() + 60_000),
              clock,
              sleep: async () => undefined,
            });
          } else if (fate < 0.6) {
            t.loket.orders.cancel(id, { source: 'manager', actor: 'Budi', reason: 'customer left' });
          }
        };
        const sellRound = async (min: number, max: number) => {
          const counts = terminals.map(() => min + Math.floor(rng() * (max - min + 1)));
          for (let i = 0; Math.max(...counts) > 0; i = (i + 1) % terminals.length) {
            if (counts[i]! > 0) {
              await sell(terminals[i]!);
              counts[i]!--;
            }
          }
        };

        const syncs = new Map<Terminal, SyncChild>(terminals.map((t) => [t, startSync(t)]));
        const kills = { random: 0, afterCommit: 0 };
        const cuts = { halts: 0 };
        const actions = ['halt', 'drop', 'kill', 'die-after-commit'] as const;
        const plan = [...actions, pick(actions), pick(actions)].sort(() => rng() - 0.5);
        console.info(`[store-book chaos] plan: ${plan.join(', ')}`);

        for (const action of plan) {
          await sellRound(3, 8);
          if (action === 'halt') {
            // PostgreSQL stops: the tills sell on, the syncs notice and back off; then it comes back.
            await cluster.halt();
            cuts.halts++;
            await sellRound(2, 4);
            await waitFor(
              () => [...syncs.values()].some((c) => c.last?.state === 'offline'),
              'a sync to find the store book offline',
            );
            await cluster.resume();
          } else if (action === 'drop') {
            // The link dies in the middle of batches: each new connection is cut after a random number of bytes.
            const before = proxy.stats.cut;
            proxy.dropAfter(() => 300 + Math.floor(rng() * 12_000));
            proxy.cutAll(); // the syncs' open connections too: they come back through the cutting proxy
            await sellRound(3, 6);
            await waitFor(() => proxy.stats.cut >= before + 3, 'the proxy to cut three connections mid-stream', 60_000);
            proxy.pass();
          } else if (action === 'kill') {
            const t = pick(terminals);
            await new Promise((resolve) => setTimeout(resolve, Math.floor(rng() * 400)));
            await kill(syncs.get(t)!);
            kills.random++;
            syncs.set(t, startSync(t));
          } else {
            // Killed right after PostgreSQL committed a batch, before the cursor moved: the worst moment.
            const t = pick(terminals);
            await kill(syncs.get(t)!);
            for (let i = 0; i < 10; i++) await sell(t);
            if (local(t).head - local(t).acked < 1) throw new Error('nothing to send');
            const dying = startSync(t, { LOKET_TEST_DIE_AFTER_COMMITS: '1', LOKET_TEST_BATCH_SIZE: '5' });
            expect(await dying.exited).toBe('SIGKILL');
            kills.afterCommit++;
            syncs.set(t, startSync(t));
          }
        }
        await sellRound(2, 5);

        // The link is whole again: every sync catches up.
        proxy.pass();
        if (!cluster.running) await cluster.resume();
        await waitFor(
          () =>
            terminals.every((t) => {
              const l = local(t);
              const s = syncs.get(t)!.last;
              return l.head > 0 && l.acked === l.head && s?.state === 'synced';
            }),
          'every terminal to be synced',
          120_000,
        );
        for (const child of syncs.values()) await kill(child);
        console.info(
          `[store-book chaos] ${sold} sales on 3 terminals; PostgreSQL stopped ${cuts.halts}×, ${proxy.stats.cut} ` +
            `connections cut mid-stream, syncs killed ${kills.random}× at random and ` +
            `${kills.afterCommit}× right after a commit; chaos done in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
        );

        // 1. Every event exactly once, as written, and nothing else.
        let events = 0;
        for (const t of terminals) {
          const till = openTill(t.id, { dir: t.dir });
          tills.push(till);
          const own = outboxOf(till);
          events += own.length;
          expect(local(t).conflict).toBeUndefined();
          expect(await storedEvents(adminUrl, t.id), t.id).toEqual(own);
          const uuids = till.db.prepare('SELECT uuid FROM outbox ORDER BY seq').pluck().all();
          const stored = await query<{ uuid: string }>(
            adminUrl,
            'SELECT uuid::text FROM loket.events WHERE terminal_id = $1 ORDER BY seq',
            [t.id],
          );
          expect(stored.map((r) => r.uuid)).toEqual(uuids);
        }
        expect(await query(adminUrl, 'SELECT count(*)::int AS n FROM loket.events')).toEqual([{ n: events }]);
        expect(await query(adminUrl, 'SELECT count(*)::int AS n FROM loket.conflicts')).toEqual([{ n: 0 }]);

        // 2. Each terminal's own report is its part of the store report.
        const day = dayIn(clock.now(), ZONE);
        expect(dayIn(new Date(START), ZONE)).toBe(day);
        const io = () => {
          let out = '';
          return { io: { out: (s: string) => (out += s), err: () => undefined }, text: () => out };
        };
        const storeOut = io();
        const first = terminals[0]!;
        const storeOptions = {
          dataDir: first.dir,
          env: { ...first.env, LOKET_STORE_URL: formatStoreUrl(first.direct, { withPassword: true }) },
          clock,
        };
        expect(await runReportCommand(['--store', '--date', day, '--json'], storeOptions, storeOut.io)).toBe(0);
        const store = JSON.parse(storeOut.text());
        expect(store).toMatchObject({ complete: true, notes: [], store: { code: 'JK1' } });
        expect(store.terminals.map((p: { terminalId: string }) => p.terminalId)).toEqual([...TERMINALS]);
        let paid = 0;
        let all = 0;
        for (const t of terminals) {
          const own = io();
          expect(await runReportCommand(['--date', day, '--json'], { dataDir: t.dir, env: t.env, clock }, own.io)).toBe(
            0,
          );
          const figures = JSON.parse(own.text()).figures;
          const part = store.terminals.find((p: { terminalId: string }) => p.terminalId === t.id);
          const { terminalId: _t, backlog, ...partFigures } = part;
          expect(partFigures, t.id).toEqual(figures);
          expect(backlog).toMatchObject({ waiting: 0, conflicts: 0, mayBeIncomplete: false });
          paid += figures.paid.amount;
          all += figures.orders.count;
        }
        expect(store.paid.amount).toBe(paid);
        expect(store.orders.count).toBe(all);
        expect(all).toBe(sold);

        // 3. The store's export is the union of the terminals' exports, row for row.
        const files = tempDir('loket-chaos-exports-');
        folders.push(files);
        const csv = async (name: string, args: string[], options: Parameters<typeof runExportCommand>[1]) => {
          const out = join(files.path, name);
          expect(
            await runExportCommand(['--date', day, '--format', 'csv', '--out', out, ...args], options, io().io),
          ).toBe(0);
          return readFileSync(out, 'utf8').split('\r\n').filter(Boolean);
        };
        const [header, ...storeRows] = await csv('store.csv', ['--store'], storeOptions);
        const union: string[] = [];
        for (const t of terminals) {
          const [own, ...rows] = await csv(`${t.id}.csv`, [], { dataDir: t.dir, env: t.env, clock });
          expect(own).toBe(header);
          union.push(...rows);
        }
        const key = (row: string) => {
          const [id, createdAt] = row.split(',');
          return `${createdAt}\u0000${id}`;
        };
        union.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
        expect(storeRows).toHaveLength(sold);
        expect(storeRows).toEqual(union);
      },
      LONG,
    );

    it(
      'a terminal offline for a day catches up: 10,000 orders',
      async () => {
        // A day of sales written while the store book was away: created, answered, most of them paid.
        let at = Date.parse(START);
        const till = openTill('T09', { now: () => new Date((at += 3_000)) });
        tills.push(till);
        const admin = await connectStore(parseStoreUrl(adminUrl));
        let url: StoreUrl;
        try {
          const book = till.local();
          const e = await enrolTerminal(admin, parseStoreUrl(adminUrl), {
            terminalId: 'T09',
            instanceId: book.instanceId(),
            clock,
          });
          book.saveLink(e.link);
          url = e.url;
        } finally {
          await admin.end();
        }
        // A day of sales written while the store book was away: created, answered, three in four paid. One order goes
        // through the order log; the day's 10,000 are written from its rows, straight into the outbox in the order
        // log's shape (its own path is tested above and in outbox.test.ts; this keeps the setup quick on CI).
        const n = 10_000;
        const [template] = till.sell(1);
        const shapes = (
          till.db.prepare('SELECT type, payload FROM outbox WHERE stream_id = ? ORDER BY seq').all(template) as {
            type: string;
            payload: string;
          }[]
        ).map((r) => ({
          type: r.type,
          payload: JSON.parse(r.payload) as { event: Record<string, unknown>; snapshot: Record<string, unknown> },
        }));
        let eventSeq = 1000;
        for (let i = 0; i < n; i += 500)
          till.db.transaction(() => {
            for (let j = i; j < Math.min(i + 500, n); j++) {
              const id = `T09-${String(j).padStart(8, '0')}`;
              const created = new Date((at += 3_000)).toISOString();
              const steps = j % 4 === 0 ? shapes.slice(0, 2) : shapes;
              for (const { type, payload } of steps) {
                const when = new Date((at += 50)).toISOString();
                appendToOutbox(till.db, {
                  terminalId: 'T09',
                  stream: 'order',
                  streamId: id,
                  type,
                  at: type === 'created' ? created : when,
                  event: { ...payload.event, seq: ++eventSeq, order_id: id, at: type === 'created' ? created : when },
                  snapshot: {
                    ...payload.snapshot,
                    id,
                    amount: 1000 + (j % 97) * 500,
                    gateway_transaction_id: `G${j}`,
                    created_at: created,
                    updated_at: type === 'created' ? created : when,
                    ...(payload.snapshot.state === 'paid' ? { paid_at: when } : {}),
                  },
                });
              }
            }
          })();
        const events = outboxOf(till).length;
        const book = till.local();
        const worker = new SyncWorker({
          local: book,
          env: { LOKET_STORE_URL: formatStoreUrl(url, { withPassword: true }) },
          clock,
        });
        const t0 = performance.now();
        const result = await worker.syncNow();
        const seconds = (performance.now() - t0) / 1000;
        console.info(
          `[store-book] catch-up: ${n} orders (${events} events) sent in ${seconds.toFixed(1)} s ` +
            `(${Math.round(events / seconds)} events/s, batches of 500)`,
        );
        expect(result).toMatchObject({ outcome: 'synced', sent: events });
        expect(worker.status()).toMatchObject({ state: 'synced', waiting: 0 });
        expect(await storedEvents(adminUrl, 'T09')).toEqual(outboxOf(till));
        const [orders] = await query<{ n: number }>(
          adminUrl,
          "SELECT count(*)::int AS n FROM loket.orders WHERE terminal_id = 'T09'",
        );
        expect(orders).toEqual({ n: n + 1 });
      },
      LONG,
    );
  },
);
