/**
 * Benchmark (b), timed part: OrderLog.summary and OrderLog.list for one store-local day on a big and a
 * small file (same day, same orders in both), and the real write path (OrderLog.create + one transition,
 * two IMMEDIATE transactions per order) with synchronous=FULL against synchronous=OFF.
 */
import { isDeepStrictEqual } from 'node:util';
import type { PaymentInstruction } from '../../src-main/common/order';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { OrderLog, type NewOrder } from '../../src-main/core/orders/order-log';
import { dayReport } from '../../src-main/core/reports/day-report';
import { openDatabase, type Database } from '../../src-main/db/open';
import type { SampleOrder } from './samples';
import { distribution, ratio, timeSync, type Distribution } from './stats';

export interface QueryComparison {
  big: Distribution;
  small: Distribution;
  /** Rows the call returned: summary groups, or orders listed. */
  rows: number;
  /** Orders of the day the rows cover. */
  orders: number;
  /** Same answer from both files (they hold the same day). */
  identical: boolean;
  ratioP50: number;
  ratioP95: number;
  /** SQLite's EXPLAIN QUERY PLAN for the statement OrderLog prepared, on the big file. */
  plan: string[];
}

export interface InsertRun {
  orders: number;
  ordersPerSecond: number;
  /** One create + transition, in ms. */
  perOrder: Distribution;
}

export interface InsertComparison {
  full: InsertRun;
  off: InsertRun;
  /** Time per order, FULL over OFF. */
  ratio: number;
  blockSize: number;
}

/** Records the SQL text OrderLog prepares, to EXPLAIN exactly what it runs. */
function recordPrepares(db: Database): string[] {
  const seen: string[] = [];
  const original = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    seen.push(sql);
    return original(sql);
  }) as Database['prepare'];
  return seen;
}

function explain(db: Database, sql: string, params: unknown[]): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
}

interface Opened {
  db: Database;
  log: OrderLog;
  prepared: string[];
}

export function openForBench(path: string): Opened {
  const db = openDatabase(path);
  const prepared = recordPrepares(db);
  return { db, log: new OrderLog(db), prepared };
}

function compare<T>(
  big: Opened,
  small: Opened,
  repeats: number,
  run: (log: OrderLog) => T,
  measure: (answer: T) => { rows: number; orders: number },
  /** The parameters of the query's one statement, for its plan; null: several statements, no single plan. */
  params: unknown[] | null,
): QueryComparison {
  // Warm-up: prepares the statement and brings the day's pages into the cache for both files.
  const before = big.prepared.length;
  const first = run(big.log);
  const sql = big.prepared.slice(before).at(-1);
  const firstSmall = run(small.log);
  for (let i = 0; i < 2; i++) {
    run(big.log);
    run(small.log);
  }
  const samples = { big: [] as number[], small: [] as number[] };
  for (let i = 0; i < repeats; i++) {
    // Alternate which file goes first, so neither always runs right after the other.
    const order: ('big' | 'small')[] = i % 2 === 0 ? ['big', 'small'] : ['small', 'big'];
    for (const which of order) samples[which].push(timeSync(() => run((which === 'big' ? big : small).log)).ms);
  }
  const b = distribution(samples.big);
  const s = distribution(samples.small);
  return {
    big: b,
    small: s,
    ...measure(first),
    identical: isDeepStrictEqual(first, firstSmall),
    ratioP50: ratio(b.p50, s.p50),
    ratioP95: ratio(b.p95, s.p95),
    plan:
      params === null
        ? ['(several statements: their plans are in docs/end-of-day.md, "Performance")']
        : sql
          ? explain(big.db, sql, params)
          : ['(the statement was prepared before the benchmark looked)'],
  };
}

/** The day report's target on the big file (issue: closing the day), p50. */
export const DAY_REPORT_TARGET_MS = 10;

export function benchQueries(
  bigPath: string,
  smallPath: string,
  range: { day: string; from: Date; to: Date; timeZone: string },
  repeats: number,
): { summary: QueryComparison; list: QueryComparison; report: QueryComparison } {
  const big = openForBench(bigPath);
  const small = openForBench(smallPath);
  try {
    const params = [range.from.toISOString(), range.to.toISOString()];
    const summary = compare(
      big,
      small,
      repeats,
      (log) => log.summary(range.from, range.to),
      (rows) => ({ rows: rows.length, orders: rows.reduce((s, r) => s + r.count, 0) }),
      params,
    );
    const list = compare(
      big,
      small,
      repeats,
      (log) => log.list({ from: range.from, to: range.to }),
      (orders) => ({ rows: orders.length, orders: orders.length }),
      params,
    );
    // The manager's day report (figures by method, state and staff, and the day's attention items) as the
    // books serve it; `now` is fixed so both files answer the same.
    const methods = loadPaymentCatalogue();
    const now = new Date(range.to.getTime() + 3_600_000);
    const report = compare(
      big,
      small,
      repeats,
      (log) => dayReport(log, range.day, { timeZone: range.timeZone, now, methods, staffNames: [] }),
      (r) => ({ rows: r.figures.byMethod.length + r.figures.byState.length, orders: r.figures.orders.count }),
      null,
    );
    return { summary, list, report };
  } finally {
    big.db.close();
    small.db.close();
  }
}

/**
 * The write path of OrderService.create without the network: OrderLog.create (state creating), then the
 * transition to awaiting_payment with the gateway's answer, as OrderService.apply writes it.
 */
export function benchInserts(path: string, sample: SampleOrder, total: number): InsertComparison {
  const { db, log } = openForBench(path);
  const instruction = JSON.parse(sample.instruction) as PaymentInstruction;
  let counter = 0;
  const stamp = Date.now().toString(36).toUpperCase().slice(-6);
  const writeOne = () => {
    const n = counter++;
    const id = `BENCH-${stamp}-${String(n).padStart(7, '0')}`;
    const request = {
      redirect_target: '_top',
      user_id: 'walkin-bench',
      merchant_transaction_id: id,
      payment_method: sample.methodId,
      currency: 'IDR',
      amount: 25_000,
      item_name: 'Kopi susu gula aren',
    };
    const order: NewOrder = {
      id,
      terminalId: 'BENCH',
      api: 'v2',
      methodId: sample.methodId,
      kind: sample.kind,
      amount: request.amount,
      currency: 'IDR',
      itemName: request.item_name,
      userId: request.user_id,
      training: false,
      requestBody: JSON.stringify(request),
    };
    log.create(order, { source: 'cashier', actor: 'bench' });
    log.transition(
      id,
      'awaiting_payment',
      { source: 'gateway', actor: 'bench', reason: sample.acceptedReason },
      {
        delivery: 'answered',
        instruction,
        responseBody: sample.responseBody,
        expiresAt: new Date(Date.now() + sample.ttlMs).toISOString(),
        ...(sample.gatewayTransactionId ? { gatewayTransactionId: sample.gatewayTransactionId } : {}),
      },
    );
  };

  try {
    const setMode = (mode: 'FULL' | 'OFF') => db.pragma(`synchronous = ${mode}`);
    for (const mode of ['FULL', 'OFF'] as const) {
      setMode(mode);
      for (let i = 0; i < 50; i++) writeOne();
    }
    const blockSize = Math.max(10, Math.min(100, Math.floor(total / 10)));
    const samples = { FULL: [] as number[], OFF: [] as number[] };
    // Blocks in the order FULL OFF OFF FULL …, so drift in the disk's or the machine's speed hits both.
    for (let block = 0; samples.FULL.length < total || samples.OFF.length < total; block++) {
      const mode = block % 4 === 0 || block % 4 === 3 ? 'FULL' : 'OFF';
      const left = total - samples[mode].length;
      if (left <= 0) continue;
      setMode(mode);
      for (let i = 0; i < Math.min(blockSize, left); i++) samples[mode].push(timeSync(writeOne).ms);
    }
    setMode('FULL');
    const run = (xs: number[]): InsertRun => ({
      orders: xs.length,
      ordersPerSecond: xs.length / (xs.reduce((s, x) => s + x, 0) / 1000),
      perOrder: distribution(xs),
    });
    const full = run(samples.FULL);
    const off = run(samples.OFF);
    return { full, off, ratio: ratio(off.ordersPerSecond, full.ordersPerSecond), blockSize };
  } finally {
    db.close();
  }
}
