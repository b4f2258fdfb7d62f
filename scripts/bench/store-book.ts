/**
 * (h) The store book (docs/store-book.md, docs/benchmarks.md): against a throwaway PostgreSQL cluster,
 *   - a day of sales caught up: a till offline for a day (10,000 sales) sends its events, in seconds;
 *   - the ingest rate of that catch-up against a bare multi-row INSERT of the same rows (same batches, same
 *     columns and primary key, one transaction each, no row-level security, trigger, conflict check or status);
 *   - Charge → QR on the customer display with the sync running against without, in browser mode, alternating
 *     sale by sale between two tills: one enrolled whose worker is catching up a backlog the whole time, one not
 *     enrolled with the same books.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Page } from '@playwright/test';
import { OrderLog, type NewOrder } from '../../src-main/core/orders/order-log';
import { systemClock } from '../../src-main/core/ports';
import { openDatabase } from '../../src-main/db/open';
import { enrolTerminal } from '../../src-main/store-book/enrol';
import { LocalBook, type OutboxSendRow } from '../../src-main/store-book/local-book';
import { connectStore, type PgClient } from '../../src-main/store-book/pg-connect';
import { initStoreBook } from '../../src-main/store-book/pg-schema';
import { formatStoreUrl, parseStoreUrl } from '../../src-main/store-book/pg-url';
import { syncPass } from '../../src-main/store-book/sync';
import { PG_MISSING, startPgCluster, type PgCluster } from '../../test/node/helpers/pg-cluster';
import { CHROMIUM_ARGS, startServe, stopServe } from './charge-to-qr';
import { distribution, fmtInt, type Distribution } from './stats';
import { makeTempDir } from './temp';

export interface StoreBookResult {
  sales: number;
  events: number;
  batchSize: number;
  /** The catch-up through the sync (syncPass), seconds. */
  catchUpMs: number;
  syncRate: number;
  /** The bare INSERTs of the same rows, twice (before and after the sync), events per second. */
  bareRates: number[];
  /** (sync rate) / (mean bare rate): target ≥ 0.5. */
  ingestRatio: number;
  chargeToQr?: {
    sales: number;
    backlogEvents: number;
    /** Events the worker sent while the sales ran (it was still catching up when they ended, or not). */
    sentDuring: number;
    stillBehindAtEnd: boolean;
    withSync: Distribution;
    without: Distribution;
    /** p95 with / p95 without: target ≤ 1.05. */
    ratioP95: number;
  };
}

const BATCH = 500;
/** A till with a big backlog opens (and checks) a big file first. */
const SERVE_START_MS = 180_000;
/** The auto-sized backlog's cap. */
const MAX_BACKLOG_EVENTS = 2_000_000;

function newOrder(id: string, terminalId: string, amount: number): NewOrder {
  return {
    id,
    terminalId,
    api: 'v2',
    methodId: 'qris_dynamic',
    kind: 'qris',
    amount,
    currency: 'IDR',
    itemName: 'Kopi susu',
    userId: `walkin-${terminalId.toLowerCase()}`,
    training: false,
    requestBody: JSON.stringify({ amount }),
  };
}

/**
 * A data folder whose loket.db holds `sales` sales of `terminalId` written by the real order log (so every event
 * has its outbox row): created, answered, every other one paid. Written without fsync, 1,000 sales a transaction:
 * building the books is not what is measured.
 */
export function buildTill(terminalId: string, sales: number, label: string): string {
  const dir = makeTempDir(label);
  LocalBook.open(dir).close();
  const db = openDatabase(join(dir, 'loket.db'));
  db.pragma('synchronous = OFF');
  let t = Date.now() - sales * 1000;
  const log = new OrderLog(db, { now: () => new Date((t += 1000)) });
  for (let from = 0; from < sales; from += 1000) {
    db.transaction(() => {
      for (let i = from; i < Math.min(sales, from + 1000); i++) {
        const id = `${terminalId}-B${i.toString(36).toUpperCase().padStart(6, '0')}`;
        log.create(newOrder(id, terminalId, 10_000 + (i % 5000)), { source: 'cashier' });
        log.transition(id, 'awaiting_payment', { source: 'gateway' }, { gatewayTransactionId: `G-${id}` });
        if (i % 2 === 0) log.transition(id, 'paid', { source: 'callback' }, { paidAt: new Date(t).toISOString() });
      }
    })();
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return dir;
}

/**
 * Grows a till's backlog to about `events` events without writing each sale again (that is (b)'s business, and slow):
 * its outbox rows are repeated under new numbers and ids, as SQL inside SQLite. The store book takes them as it takes
 * any event (the same sizes, the same work); the projection sees the same orders again, later.
 */
function padBacklog(dir: string, terminalId: string, events: number): number {
  const db = openDatabase(join(dir, 'loket.db'));
  try {
    db.pragma('synchronous = OFF');
    const head = db.prepare<[string], number>('SELECT MAX(seq) FROM outbox WHERE terminal_id = ?').pluck();
    const base = head.get(terminalId)!;
    const copy = db.prepare(
      `INSERT INTO outbox (terminal_id, seq, uuid, stream, stream_id, type, at, payload, sha256)
       SELECT terminal_id, seq + @offset, substr(uuid, 1, 24) || printf('%012x', seq + @offset), stream, stream_id,
         type, at, payload, sha256
       FROM outbox WHERE terminal_id = @terminalId AND seq <= @base ORDER BY seq`,
    );
    for (let offset = base; offset + base <= events; offset += base)
      db.transaction(() => copy.run({ offset, terminalId, base }))();
    db.pragma('wal_checkpoint(TRUNCATE)');
    return head.get(terminalId)!;
  } finally {
    db.close();
  }
}

async function enrol(adminUrl: string, dir: string, terminalId: string): Promise<string> {
  const local = LocalBook.open(dir);
  const admin = await connectStore(parseStoreUrl(adminUrl));
  try {
    const e = await enrolTerminal(admin, parseStoreUrl(adminUrl), {
      terminalId,
      instanceId: local.instanceId(),
      clock: systemClock,
    });
    local.saveLink(e.link);
    return formatStoreUrl(e.url, { withPassword: true });
  } finally {
    await admin.end();
    local.close();
  }
}

const BARE_INSERT = (table: string) => `INSERT INTO ${table} (store_code, terminal_id, seq, uuid, instance_id, stream,
    stream_id, type, at, payload, sha256, sent_at)
  SELECT 'S1', $1, r.seq, r.uuid, $2, r.stream, r.stream_id, r.type, r.at, r.payload::jsonb, r.sha256, $3
  FROM unnest($4::bigint[], $5::uuid[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::text[], $11::text[])
    AS r(seq, uuid, stream, stream_id, type, at, payload, sha256)`;

/** The baseline: the same rows, the same batches, a bare multi-row INSERT each in its own transaction. */
async function bareInsert(admin: PgClient, table: string, rows: OutboxSendRow[], instanceId: string): Promise<number> {
  await admin.query(
    `CREATE TABLE ${table} (LIKE loket.events INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES)`,
  );
  const started = performance.now();
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    await admin.query('BEGIN');
    await admin.query(BARE_INSERT(table), [
      'T99',
      instanceId,
      new Date().toISOString(),
      batch.map((r) => r.seq),
      batch.map((r) => r.uuid),
      batch.map((r) => r.stream),
      batch.map((r) => r.stream_id),
      batch.map((r) => r.type),
      batch.map((r) => r.at),
      batch.map((r) => r.payload),
      batch.map((r) => r.sha256),
    ]);
    await admin.query('COMMIT');
  }
  return performance.now() - started;
}

export async function benchStoreBook(
  options: { sales: number; qrSales: number; backlogEvents: number },
  say: (line: string) => void,
): Promise<StoreBookResult | { skipped: string }> {
  if (PG_MISSING) return { skipped: PG_MISSING };
  const cluster: PgCluster = await startPgCluster();
  try {
    await cluster.createDatabase('toko');
    const adminUrl = cluster.url({ database: 'toko' });
    const admin = await connectStore(parseStoreUrl(adminUrl));
    try {
      await admin.query('SET synchronous_commit = on');
      await initStoreBook(admin, { store: { code: 'S1', name: 'Bench', timeZone: 'Asia/Jakarta' } });
      await admin.query('CREATE SCHEMA bench');

      say(`(h) store book: building a till with ${fmtInt(options.sales)} sales (a day offline)…`);
      const built = performance.now();
      const dir = buildTill('T01', options.sales, 'store-t01');
      say(`    built in ${((performance.now() - built) / 1000).toFixed(1)} s`);
      const url = await enrol(adminUrl, dir, 'T01');
      const local = LocalBook.open(dir);
      const rows = local.batch('T01', 0, Number.MAX_SAFE_INTEGER);
      const instanceId = local.instanceId();
      say(`    ${fmtInt(rows.length)} events; bare INSERT, the sync's catch-up, bare INSERT again…`);
      const bare1 = await bareInsert(admin, 'bench.events_a', rows, instanceId);
      const client = await connectStore(parseStoreUrl(url));
      let catchUpMs: number;
      try {
        const started = performance.now();
        const result = await syncPass(local, client, {
          terminalId: 'T01',
          instanceId,
          clock: systemClock,
          batchSize: BATCH,
        });
        catchUpMs = performance.now() - started;
        if (result.outcome !== 'synced' || result.sent !== rows.length)
          throw new Error(`the catch-up did not send everything: ${JSON.stringify(result)}`);
      } finally {
        await client.end();
        local.close();
      }
      const bare2 = await bareInsert(admin, 'bench.events_b', rows, instanceId);
      const bareRates = [bare1, bare2].map((ms) => rows.length / (ms / 1000));
      const syncRate = rows.length / (catchUpMs / 1000);
      const meanBare = (bareRates[0]! + bareRates[1]!) / 2;
      const result: StoreBookResult = {
        sales: options.sales,
        events: rows.length,
        batchSize: BATCH,
        catchUpMs,
        syncRate,
        bareRates,
        ingestRatio: syncRate / meanBare,
      };
      say(
        `    caught up in ${(catchUpMs / 1000).toFixed(2)} s (${fmtInt(Math.round(syncRate))} events/s); bare INSERT ` +
          `${bareRates.map((r) => fmtInt(Math.round(r))).join(' and ')} events/s`,
      );
      if (options.qrSales > 0) {
        // Long enough that the worker is still sending when the last sale is timed: a round of two sales takes
        // about 1.3 s on a loaded 2-core machine, the tills' start some seconds; about twice that, to be sure.
        const backlogEvents =
          options.backlogEvents || Math.min(MAX_BACKLOG_EVENTS, Math.ceil(syncRate * (options.qrSales * 2 + 30)));
        result.chargeToQr = await chargeToQrWithSync(adminUrl, admin, { ...options, backlogEvents }, say);
      }
      return result;
    } finally {
      await admin.end();
    }
  } finally {
    await cluster.stop();
  }
}

/**
 * Two tills in browser mode (training: the embedded sandbox), each with the same backlog of events in its books:
 * one enrolled, whose worker sends that backlog while the sales run; one not enrolled. Sales alternate between them,
 * so a burst of load on the machine hits both alike; the click on Charge to the QR visible on the display is timed.
 */
async function chargeToQrWithSync(
  adminUrl: string,
  admin: PgClient,
  options: { qrSales: number; backlogEvents: number },
  say: (line: string) => void,
): Promise<NonNullable<StoreBookResult['chargeToQr']>> {
  say(`(h) Charge → QR with the sync running: two tills, a backlog of ${fmtInt(options.backlogEvents)} events each…`);
  const synced = buildTill('T02', Math.min(1000, options.backlogEvents), 'store-t02');
  const backlogEvents = padBacklog(synced, 'T02', options.backlogEvents);
  const plain = makeTempDir('store-plain');
  // The same books (a copy; never enrolled, so never sent).
  copyFileSync(join(synced, 'loket.db'), join(plain, 'loket.db'));
  const storeUrl = await enrol(adminUrl, synced, 'T02');
  const stored = async () =>
    Number(
      (await admin.query<{ n: string }>(`SELECT count(*) AS n FROM loket.events WHERE terminal_id = 'T02'`)).rows[0]!.n,
    );

  const browser = await chromium.launch({
    executablePath: process.env.LOKET_CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const withoutServe = await startServe({
    env: { LOKET_DATA_DIR: plain, LOKET_TERMINAL_ID: 'T02' },
    timeoutMs: SERVE_START_MS,
  });
  try {
    const tillWithout = await openTill(browser, withoutServe);
    // The enrolled till starts last, just before the sales: its worker starts catching up at once.
    const withServe = await startServe({
      env: { LOKET_DATA_DIR: synced, LOKET_STORE_URL: storeUrl, LOKET_TERMINAL_ID: 'T02' },
      timeoutMs: SERVE_START_MS,
    });
    try {
      const tillWith = await openTill(browser, withServe);
      const before = await stored();
      const warmup = 3;
      const withMs: number[] = [];
      const withoutMs: number[] = [];
      for (let i = 0; i < options.qrSales + warmup; i++) {
        // Alternate which goes first, so neither always follows the other.
        const order = i % 2 === 0 ? ([tillWith, tillWithout] as const) : ([tillWithout, tillWith] as const);
        for (const till of order) {
          const ms = await saleToQr(till, i);
          if (i >= warmup) (till === tillWith ? withMs : withoutMs).push(ms);
        }
      }
      const after = await stored();
      const without = distribution(withoutMs);
      const withSync = distribution(withMs);
      return {
        sales: options.qrSales,
        backlogEvents,
        sentDuring: after - before,
        stillBehindAtEnd: after < backlogEvents,
        withSync,
        without,
        ratioP95: withSync.p95 / without.p95,
      };
    } finally {
      await stopServe(withServe);
    }
  } finally {
    await stopServe(withoutServe);
    await browser.close();
  }
}

interface TillPages {
  cashier: Page;
  display: Page;
}

async function openTill(
  browser: Awaited<ReturnType<typeof chromium.launch>>,
  serve: { cashier: string; display: string },
): Promise<TillPages> {
  // Two contexts: a page in the background of one context gets no animation frames (charge-to-qr.ts).
  const cashier = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const display = await (await browser.newContext({ viewport: { width: 1024, height: 600 } })).newPage();
  await display.goto(serve.display);
  await cashier.goto(serve.cashier);
  await cashier.locator('#sale-amount').waitFor();
  return { cashier, display };
}

/** One sale: Charge clicked to the QR visible on the display (Playwright's view), then paid and a new sale. */
async function saleToQr({ cashier, display }: TillPages, i: number): Promise<number> {
  await cashier.locator('#sale-amount').fill(String(10_000 + i));
  await cashier.locator('#sale-item').fill(`Bench ${i}`);
  await cashier.locator('input[data-method="qris_dynamic"]').check();
  const qr = display.locator('[data-testid="display-qr"]');
  const started = performance.now();
  await cashier.locator('[data-testid="charge"]').click();
  await qr.waitFor({ state: 'visible', timeout: 10_000 });
  const elapsed = performance.now() - started;
  await cashier.getByRole('button', { name: /Simulasikan pembayaran|Simulate payment/ }).click();
  await cashier.locator('#new-sale').click();
  await qr.waitFor({ state: 'detached' });
  return elapsed;
}

export function renderStoreBook(r: StoreBookResult | { skipped: string }): string {
  if ('skipped' in r) return `(h) Store book: skipped (${r.skipped})`;
  const rate = (n: number) => `${fmtInt(Math.round(n))} events/s`;
  const lines = [
    `(h) Store book (PostgreSQL, a throwaway cluster): a till offline for a day, ${fmtInt(r.sales)} sales = ` +
      `${fmtInt(r.events)} events, batches of ${r.batchSize}`,
    `catch-up through the sync              ${(r.catchUpMs / 1000).toFixed(2).padStart(8)} s   ${rate(r.syncRate)}`,
    `bare multi-row INSERT (before, after)  ${r.bareRates.map(rate).join(', ')}`,
    `ingest ratio sync / bare               ${r.ingestRatio.toFixed(2).padStart(8)}x   (target ≥ 0.5: ${r.ingestRatio >= 0.5 ? 'MET' : 'NOT MET'})`,
  ];
  const q = r.chargeToQr;
  if (q) {
    const f = (n: number) => n.toFixed(1).padStart(8);
    lines.push(
      `Charge → QR visible, ${q.sales} sales on each till, alternating      p50 ms   p95 ms`,
      `  with the sync catching up             ${f(q.withSync.p50)} ${f(q.withSync.p95)}`,
      `  without a store book                  ${f(q.without.p50)} ${f(q.without.p95)}`,
      `  ratio p95 with / without              ${q.ratioP95.toFixed(2).padStart(8)}x   (target ≤ 1.05: ${q.ratioP95 <= 1.05 ? 'MET' : 'NOT MET'})`,
      `  the worker sent ${fmtInt(q.sentDuring)} of ${fmtInt(q.backlogEvents)} backlog events during the sales` +
        (q.stillBehindAtEnd ? ' (still catching up at the end: it ran throughout)' : ' (it finished before the end)'),
    );
  }
  return lines.join('\n');
}
