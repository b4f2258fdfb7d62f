/**
 * Benchmark (a): one charge through Loket's core (the counter: a one-line sale whose sale and `creating` order commit in
 * one transaction with synchronous=FULL, then sign, send with node-fetch, parse, commit the answer) against
 * - a bare signed POST of an equivalent body to the same sandbox with the same HTTP client and signBody, and
 * - the durable floor: the same bare POST plus one synchronous=FULL commit of a row of the same size to a
 *   WAL-mode SQLite file on the same disk. No client that records an order durably before sending it can be
 *   faster than that.
 */
import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import fetch from 'node-fetch';
import { randomUUID } from 'node:crypto';
import { signBody } from '../../src-main/core/bodysign';
import { cliCounter } from '../../src-main/cli/sale-commands';
import { oneLineSale } from '../../src-main/core/counter/one-line-sale';
import type { Loket } from '../../src-main/runtime';
import { distribution, ratio, timeAsync, type Distribution } from './stats';

export const QRIS_METHOD = 'qris_dynamic';
export const TARGET_P50_RATIO = 1.5;
export const TARGET_FLOOR_P50_RATIO = 1.15;

export interface OrderCreateResult {
  method: string;
  orders: number;
  warmupRounds: number;
  core: Distribution;
  bare: Distribution;
  /** The bare POST plus one durable (FULL) commit of a row of the order's size. */
  floor: Distribution;
  /** Informational: the same core path with synchronous=OFF, to show how much of the gap is fsync. */
  coreSyncOff: Distribution;
  ratioP50: number;
  ratioP95: number;
  floorRatioP50: number;
  floorRatioP95: number;
  syncOffRatioP50: number;
  syncOffRatioP95: number;
  target: string;
  targetMet: boolean;
}

export interface GatewayTarget {
  url: string;
  appId: string;
  appKey: string;
}

const AMOUNTS = [12_000, 18_500, 25_000, 37_000, 54_500, 120_000];
const ITEMS = ['Kopi susu gula aren', 'Nasi goreng spesial', 'Roti bakar coklat', 'Es teh manis', 'Mie ayam bakso'];

/** Ids shaped like Loket's own (prefix-yyyymmdd-hhmmssmmm-4 chars), unique by a counter. */
function bareId(n: number): string {
  const iso = new Date().toISOString();
  const suffix = n.toString(32).toUpperCase().padStart(4, '0').slice(-4);
  return `BARE-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 23).replace(/[:.]/g, '')}-${suffix}`;
}

/** The order request exactly as OrderService.create would serialise it (validator's key order). */
function bareBody(n: number): string {
  return JSON.stringify({
    redirect_target: '_top',
    user_id: 'walkin-bare',
    merchant_transaction_id: bareId(n),
    payment_method: QRIS_METHOD,
    currency: 'IDR',
    amount: AMOUNTS[n % AMOUNTS.length],
    item_name: ITEMS[n % ITEMS.length],
  });
}

/** Sign, POST, read and parse: what any client must do at the least. */
async function barePost(gateway: GatewayTarget, n: number): Promise<void> {
  const bytes = bareBody(n);
  const res = await fetch(`${gateway.url}/api/transaction`, {
    method: 'POST',
    body: bytes,
    redirect: 'manual',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      appid: gateway.appId,
      appkey: gateway.appKey,
      bodysign: signBody(bytes, gateway.appKey, 'hex'),
    },
  });
  const text = await res.text();
  const json = JSON.parse(text) as { success?: unknown };
  if (res.status !== 200 || json.success !== true)
    throw new Error(`bare POST failed: HTTP ${res.status} ${text.slice(0, 200)}`);
}

/**
 * The core's charge: a typed item and amount through the counter (core/counter/counter.ts), a one-line sale whose
 * sale, line, tender and `creating` order commit in one transaction before the request leaves — what every charge
 * is since the counter (before it, OrderService.create alone).
 */
async function coreCreate(loket: Loket, n: number): Promise<void> {
  counters.set(loket, counters.get(loket) ?? cliCounter(loket, {}));
  const input = { methodId: QRIS_METHOD, amount: AMOUNTS[n % AMOUNTS.length]!, itemName: ITEMS[n % ITEMS.length]! };
  const outcome = await counters.get(loket)!.charge(oneLineSale(input, 'ppn', randomUUID()), {
    source: 'cashier',
    staff: null,
  });
  if (!outcome.ok) throw new Error(`core charge failed: ${outcome.failure.class}: ${outcome.failure.message}`);
}
const counters = new WeakMap<Loket, ReturnType<typeof cliCounter>>();

/** One row of about an order's size, committed as Loket commits its `creating` row. */
function floorCommit(db: BetterSqlite3.Database, n: number): void {
  db.prepare('INSERT INTO floor (id, body, created_at, state) VALUES (?, ?, ?, ?)').run(
    bareId(n) + n,
    bareBody(n),
    new Date().toISOString(),
    'creating',
  );
}

type Variant = 'core' | 'bare' | 'floor' | 'coreSyncOff';

export async function benchOrderCreation(
  loket: Loket,
  gateway: GatewayTarget,
  options: { orders: number; warmup: number; progress?: (line: string) => void },
): Promise<OrderCreateResult> {
  const samples: Record<Variant, number[]> = { core: [], bare: [], floor: [], coreSyncOff: [] };
  let counter = 0;
  // The floor's file sits beside the order log, on the same disk, with the same journal and sync settings.
  const floorDb = new BetterSqlite3(join(loket.dataDir, 'durable-floor.db'));
  floorDb.pragma('journal_mode = WAL');
  floorDb.pragma('synchronous = FULL');
  floorDb.exec(
    'CREATE TABLE IF NOT EXISTS floor (id TEXT PRIMARY KEY, body TEXT NOT NULL, created_at TEXT, state TEXT)',
  );
  const setSync = (mode: 'FULL' | 'OFF') => loket.db.pragma(`synchronous = ${mode}`);

  const runOne = async (variant: Variant): Promise<number> => {
    const n = counter++;
    if (variant === 'bare') return (await timeAsync(() => barePost(gateway, n))).ms;
    if (variant === 'floor')
      return (
        await timeAsync(async () => {
          floorCommit(floorDb, n);
          await barePost(gateway, n);
        })
      ).ms;
    setSync(variant === 'core' ? 'FULL' : 'OFF');
    try {
      return (await timeAsync(() => coreCreate(loket, n))).ms;
    } finally {
      setSync('FULL');
    }
  };

  // Interleaved: each round runs every variant once, in a rotating order, so drift in the machine's
  // load (and any first-or-last-in-round effect) falls on all of them alike.
  const orders: Variant[][] = [
    ['core', 'bare', 'floor', 'coreSyncOff'],
    ['bare', 'floor', 'coreSyncOff', 'core'],
    ['floor', 'coreSyncOff', 'core', 'bare'],
    ['coreSyncOff', 'core', 'bare', 'floor'],
  ];
  for (let round = 0; round < options.warmup + options.orders; round++) {
    for (const variant of orders[round % orders.length]!) {
      const ms = await runOne(variant);
      if (round >= options.warmup) samples[variant].push(ms);
    }
    if (options.progress && round > options.warmup && (round - options.warmup) % 100 === 0) {
      options.progress(`  (a) ${round - options.warmup}/${options.orders} rounds`);
    }
  }

  floorDb.close();
  const core = distribution(samples.core);
  const bare = distribution(samples.bare);
  const floor = distribution(samples.floor);
  const floorRatioP50 = ratio(core.p50, floor.p50);
  const coreSyncOff = distribution(samples.coreSyncOff);
  const ratioP50 = ratio(core.p50, bare.p50);
  return {
    method: QRIS_METHOD,
    orders: options.orders,
    warmupRounds: options.warmup,
    core,
    bare,
    floor,
    coreSyncOff,
    ratioP50,
    ratioP95: ratio(core.p95, bare.p95),
    floorRatioP50,
    floorRatioP95: ratio(core.p95, floor.p95),
    syncOffRatioP50: ratio(coreSyncOff.p50, bare.p50),
    syncOffRatioP95: ratio(coreSyncOff.p95, bare.p95),
    target: `core/floor ≤ ${TARGET_FLOOR_P50_RATIO} and core/bare ≤ ${TARGET_P50_RATIO} at p50`,
    targetMet: ratioP50 <= TARGET_P50_RATIO && floorRatioP50 <= TARGET_FLOOR_P50_RATIO,
  };
}
