/** The end-of-run table and the JSON file of benchmark results. */
import type { ChargeToQrResult } from './charge-to-qr';
import type { BenchConfig } from './config';
import type { BuildResult } from './log-data';
import { describeMachine, type MachineInfo } from './machine';
import type { OrderCreateResult } from './order-create';
import { DAY_REPORT_TARGET_MS, type InsertComparison, type QueryComparison } from './order-log';
import { fmtInt, fmtMs, fmtRatio, fmtSeconds, ratio, renderTable, round, roundDistribution } from './stats';

export interface OrderLogResults {
  day: string;
  timeZone: string;
  dayOrders: number;
  build: { big: BuildResult; small: BuildResult };
  summary: QueryComparison;
  list: QueryComparison;
  /** The manager's day report (figures and attention) on the same day. */
  report: QueryComparison;
  inserts: InsertComparison;
}

export interface BenchResults {
  finishedAt: string;
  totalMs: number;
  machine: MachineInfo;
  config: BenchConfig;
  orderCreation?: OrderCreateResult;
  orderLog?: OrderLogResults;
  screen?: ChargeToQrResult;
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

export function renderReport(r: BenchResults): string {
  const out: string[] = [];
  out.push(`Loket benchmarks, finished ${r.finishedAt}, total ${fmtSeconds(r.totalMs)}`);
  out.push(`Machine: ${describeMachine(r.machine)}`);

  const a = r.orderCreation;
  if (a) {
    out.push('');
    out.push(
      `(a) Order creation, ${a.method}, ${a.orders} of each, interleaved, after ${a.warmupRounds} warm-up rounds; one sandbox, node-fetch + signBody`,
    );
    out.push(
      renderTable(
        [
          ['', 'p50 ms', 'p95 ms', 'ratio p50', 'ratio p95'],
          [
            'core: OrderService.create (SQLite FULL)',
            fmtMs(a.core.p50),
            fmtMs(a.core.p95),
            fmtRatio(a.ratioP50),
            fmtRatio(a.ratioP95),
          ],
          ['bare: signed POST (baseline)', fmtMs(a.bare.p50), fmtMs(a.bare.p95), '1.00x', '1.00x'],
          [
            'durable floor: bare POST + 1 FULL commit',
            fmtMs(a.floor.p50),
            fmtMs(a.floor.p95),
            fmtRatio(ratio(a.floor.p50, a.bare.p50)),
            fmtRatio(ratio(a.floor.p95, a.bare.p95)),
          ],
          [
            'info: core with synchronous=OFF',
            fmtMs(a.coreSyncOff.p50),
            fmtMs(a.coreSyncOff.p95),
            fmtRatio(a.syncOffRatioP50),
            fmtRatio(a.syncOffRatioP95),
          ],
        ],
        [1, 2, 3, 4],
      ),
    );
    out.push(
      `Target ${a.target}: ${a.targetMet ? 'MET' : 'NOT MET'} ` +
        `(core/floor ${fmtRatio(a.floorRatioP50)}, core/bare ${fmtRatio(a.ratioP50)})`,
    );
  }

  const b = r.orderLog;
  if (b) {
    const { big, small } = b.build;
    out.push('');
    out.push(`(b) Order log: day ${b.day} (${b.timeZone}), ${fmtInt(b.dayOrders)} orders that day in both files`);
    out.push(
      `Setup (direct INSERTs, one transaction per day): ${fmtInt(big.orders)} orders + ${fmtInt(big.events)} events in ${fmtSeconds(big.ms)} ` +
        `(${fmtInt(big.orders / (big.ms / 1000))} orders/s), ${mb(big.fileBytes)}; ` +
        `baseline ${fmtInt(small.orders)} orders in ${fmtSeconds(small.ms)}, ${mb(small.fileBytes)}`,
    );
    const checks = (x: BuildResult) => (x.checkConstraints ? 'on' : 'skipped');
    out.push(
      `CHECK constraints while loading: big file ${checks(big)}, baseline ${checks(small)}; ` +
        'the timed parts reopen both with openDatabase (WAL, synchronous=FULL)',
    );
    const q = (name: string, c: QueryComparison) => [
      name,
      fmtInt(c.rows),
      fmtMs(c.big.p50),
      fmtMs(c.big.p95),
      fmtMs(c.small.p50),
      fmtMs(c.small.p95),
      fmtRatio(c.ratioP50),
      fmtRatio(c.ratioP95),
    ];
    out.push(
      renderTable(
        [
          ['query (one day)', 'rows', 'big p50', 'big p95', 'small p50', 'small p95', 'big/small p50', 'big/small p95'],
          q('OrderLog.summary', b.summary),
          q('OrderLog.list', b.list),
          q('dayReport', b.report),
        ],
        [1, 2, 3, 4, 5, 6, 7],
      ),
    );
    out.push(
      `Times in ms; big = ${fmtInt(big.orders)} orders, small = ${fmtInt(small.orders)} orders; ${b.summary.big.n} timed runs each`,
    );
    out.push(
      `Same answer from both files: summary ${b.summary.identical ? 'yes' : 'NO'}, list ${b.list.identical ? 'yes' : 'NO'}`,
    );
    out.push(`Plan, summary: ${b.summary.plan.join(' | ')}`);
    out.push(`Plan, list:    ${b.list.plan.join(' | ')}`);
    out.push(
      `Target: the day report on the big file ≤ ${DAY_REPORT_TARGET_MS} ms at p50: ` +
        `${b.report.big.p50 <= DAY_REPORT_TARGET_MS ? 'MET' : 'NOT MET'} (${fmtMs(b.report.big.p50)} ms; ` +
        `same answer from both files: ${b.report.identical ? 'yes' : 'NO'})`,
    );
    const i = b.inserts;
    out.push('');
    out.push(
      `Writes on the ${fmtInt(big.orders)}-order file: OrderLog.create + transition (2 IMMEDIATE transactions per order), blocks of ${i.blockSize} alternating`,
    );
    out.push(
      renderTable(
        [
          ['', 'orders', 'orders/s', 'p50 ms', 'p95 ms', 'ratio'],
          [
            'synchronous=FULL (Loket)',
            fmtInt(i.full.orders),
            fmtInt(i.full.ordersPerSecond),
            fmtMs(i.full.perOrder.p50),
            fmtMs(i.full.perOrder.p95),
            fmtRatio(i.ratio),
          ],
          [
            'synchronous=OFF (baseline)',
            fmtInt(i.off.orders),
            fmtInt(i.off.ordersPerSecond),
            fmtMs(i.off.perOrder.p50),
            fmtMs(i.off.perOrder.p95),
            '1.00x',
          ],
        ],
        [1, 2, 3, 4, 5],
      ),
    );
    out.push('ratio = mean time per order, FULL/OFF: the cost of an fsync at every commit');
  }
  return out.join('\n');
}

/** The same results, rounded for reading. */
export function resultsJson(r: BenchResults): unknown {
  const a = r.orderCreation;
  const b = r.orderLog;
  const q = (c: QueryComparison) => ({
    ...c,
    big: roundDistribution(c.big),
    small: roundDistribution(c.small),
    ratioP50: round(c.ratioP50),
    ratioP95: round(c.ratioP95),
  });
  return {
    ...(r.screen
      ? {
          screen: {
            sales: r.screen.sales,
            chargeToQr: roundDistribution(r.screen.chargeToQr),
            inPage: roundDistribution(r.screen.inPage),
            toDisplay: roundDistribution(r.screen.toDisplay),
            draw: roundDistribution(r.screen.draw),
            sandboxAnswer: roundDistribution(r.screen.sandboxAnswer),
          },
        }
      : {}),
    finishedAt: r.finishedAt,
    totalSeconds: round(r.totalMs / 1000, 1),
    machine: r.machine,
    config: r.config,
    ...(a
      ? {
          orderCreation: {
            ...a,
            core: roundDistribution(a.core),
            bare: roundDistribution(a.bare),
            floor: roundDistribution(a.floor),
            floorRatioP50: round(a.floorRatioP50),
            floorRatioP95: round(a.floorRatioP95),
            coreSyncOff: roundDistribution(a.coreSyncOff),
            ratioP50: round(a.ratioP50),
            ratioP95: round(a.ratioP95),
            syncOffRatioP50: round(a.syncOffRatioP50),
            syncOffRatioP95: round(a.syncOffRatioP95),
          },
        }
      : {}),
    ...(b
      ? {
          orderLog: {
            day: b.day,
            timeZone: b.timeZone,
            dayOrders: b.dayOrders,
            build: Object.fromEntries(
              Object.entries(b.build).map(([k, v]) => [
                k,
                {
                  orders: v.orders,
                  events: v.events,
                  seconds: round(v.ms / 1000, 2),
                  fileBytes: v.fileBytes,
                  checkConstraints: v.checkConstraints,
                },
              ]),
            ),
            summary: q(b.summary),
            list: q(b.list),
            report: q(b.report),
            inserts: {
              blockSize: b.inserts.blockSize,
              ratioFullOverOff: round(b.inserts.ratio),
              full: {
                ...b.inserts.full,
                ordersPerSecond: round(b.inserts.full.ordersPerSecond, 0),
                perOrder: roundDistribution(b.inserts.full.perOrder),
              },
              off: {
                ...b.inserts.off,
                ordersPerSecond: round(b.inserts.off.ordersPerSecond, 0),
                perOrder: roundDistribution(b.inserts.off.perOrder),
              },
            },
          },
        }
      : {}),
  };
}
