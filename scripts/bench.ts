/**
 * `npm run bench`: Loket's benchmarks (docs/benchmarks.md). Never part of `npm test`. Every target is a
 * ratio against a baseline measured in the same run, so the figures mean the same on a slow laptop and
 * a fast desktop; nothing here asserts a timing.
 *
 *   (a) order creation through the core vs a bare signed POST to the same sandbox;
 *   (b) the order log at scale: one day's summary and list on a big vs a small file, and the write path
 *       with synchronous=FULL vs OFF;
 *   (c) browser mode: Charge to QR on the customer display vs the sandbox's own answer time;
 *   (d) exporting (b)'s big file to CSV and XLSX vs iterating the same SELECT (BENCH_ONLY=export: only this);
 *   (e) browser mode: a live event merged into Today's list at 5,000 orders vs re-fetching the day;
 *   (f) `npm run serve` to ready, after a build and with nothing changed, vs tsx running an empty module;
 *   (g) a soak: BENCH_SOAK charges through browser mode, memory of the server and both pages at start and end
 *       (BENCH_ONLY=soak: 10,000 by default; a full run includes it only when BENCH_SOAK is set).
 *   (h) the store book: a day of 10,000 sales caught up into PostgreSQL vs bare INSERTs of the same rows, and
 *       Charge to QR with the sync running vs without (BENCH_ONLY=store: only this).
 *   (i) the sale: search as you type on 100,000 products vs 1,000, a scan to its line painted on the cashier and the
 *       display vs a pick from the search, a line added to a 300-line cart vs a 1-line cart, and importing 100,000
 *       products vs a bare insert of the same rows (BENCH_ONLY=sale: only this).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { openLoket } from '../src-main/runtime';
import { SANDBOX_DEFAULTS, startSandbox } from '../src-main/sandbox/server';
import { readConfig } from './bench/config';
import { buildOrderLogFile, planDays, STORE_TIME_ZONE, targetRange } from './bench/log-data';
import { describeMachine, machineInfo } from './bench/machine';
import { benchOrderCreation, QRIS_METHOD, type OrderCreateResult } from './bench/order-create';
import { benchInserts, benchQueries } from './bench/order-log';
import {
  benchChargeToQr,
  renderChargeToQr,
  renderLiveList,
  type ChargeToQrResult,
  type LiveListResult,
} from './bench/charge-to-qr';
import { benchStart, renderStart, type StartResult } from './bench/start';
import { benchSoak, renderSoak, type SoakResult } from './bench/soak';
import { benchExport, exportJson, exportRepeats, renderExport, type ExportBenchResult } from './bench/export';
import { renderReport, resultsJson, type OrderLogResults } from './bench/report';
import { captureSamples, type Samples } from './bench/samples';
import { fmtInt, fmtSeconds } from './bench/stats';
import { makeTempDir, removeTempDirs } from './bench/temp';
import { benchStoreBook, renderStoreBook, type StoreBookResult } from './bench/store-book';
import { buildScreens } from './bench/charge-to-qr';
import { benchCatalogue, benchImport, renderImport, type ImportBenchResult } from './bench/sale-catalogue';
import { benchSaleScreens, renderSaleScreens, type SaleScreensResult } from './bench/sale-screens';

const RESULTS_PATH = fileURLToPath(new URL('../out/bench/results.json', import.meta.url));

const say = (line: string) => console.log(line);

async function runOrderCreationAndSamples(
  config: ReturnType<typeof readConfig>,
): Promise<{ orderCreation?: OrderCreateResult; samples?: Samples }> {
  const sandbox = await startSandbox({ port: 0, log: () => undefined });
  try {
    const loket = await openLoket({
      dataDir: makeTempDir('core'),
      env: {
        LOKET_GATEWAY_URL: sandbox.url,
        LOKET_APP_ID: sandbox.appId,
        LOKET_APP_KEY: SANDBOX_DEFAULTS.appKey,
        LOKET_INQUIRY_PATH: '/api/status',
      },
    });
    try {
      let orderCreation: OrderCreateResult | undefined;
      if (config.only !== 'log') {
        say(
          `(a) order creation: ${config.orders} orders through the core and ${config.orders} bare POSTs, interleaved, after ${config.warmup} warm-up rounds…`,
        );
        orderCreation = await benchOrderCreation(
          loket,
          { url: sandbox.url, appId: sandbox.appId, appKey: SANDBOX_DEFAULTS.appKey },
          { orders: config.orders, warmup: config.warmup, progress: say },
        );
      }
      // Real rows from this Loket and sandbox, to copy into the order-log files.
      const samples = config.only === 'orders' ? undefined : await captureSamples(loket, sandbox);
      return { ...(orderCreation ? { orderCreation } : {}), ...(samples ? { samples } : {}) };
    } finally {
      await loket.close();
    }
  } finally {
    await sandbox.close();
  }
}

async function runOrderLog(config: ReturnType<typeof readConfig>, samples: Samples): Promise<OrderLogResults> {
  // The measured day holds the same orders in both files: an average day of the big file, but at most
  // half the small file, so the small file still has other days around it.
  const dayOrders = Math.max(
    1,
    Math.min(Math.round(config.logOrders / config.days), Math.floor(config.smallOrders / 2)),
  );
  const plan = planDays(config.days, dayOrders);
  const range = targetRange(plan);
  const dir = makeTempDir('log');

  say(`(b) building the baseline file: ${fmtInt(config.smallOrders)} orders over ${config.days} days…`);
  const small = await buildOrderLogFile(join(dir, 'small.db'), config.smallOrders, plan, samples, {
    checkConstraints: true,
  });
  say(`    ${fmtInt(small.orders)} orders, ${fmtInt(small.events)} events in ${fmtSeconds(small.ms)}`);
  say(`(b) building the big file: ${fmtInt(config.logOrders)} orders over ${config.days} days…`);
  const big = await buildOrderLogFile(join(dir, 'big.db'), config.logOrders, plan, samples, {
    checkConstraints: false,
  });
  say(
    `    ${fmtInt(big.orders)} orders, ${fmtInt(big.events)} events in ${fmtSeconds(big.ms)} (${fmtInt(big.orders / (big.ms / 1000))} orders/s)`,
  );

  say(`(b) queries for ${range.day} (${STORE_TIME_ZONE}), ${config.queryRepeats} timed runs each on each file…`);
  const { summary, list, report } = benchQueries(
    big.path,
    small.path,
    { ...range, timeZone: STORE_TIME_ZONE },
    config.queryRepeats,
  );

  const qris = samples.methods.find((m) => m.methodId === QRIS_METHOD) ?? samples.methods[0]!;
  say(
    `(b) writes: ${fmtInt(config.inserts)} orders with synchronous=FULL and ${fmtInt(config.inserts)} with OFF, on the big file…`,
  );
  const inserts = benchInserts(big.path, qris, config.inserts);
  return {
    day: range.day,
    timeZone: STORE_TIME_ZONE,
    dayOrders,
    build: { big, small },
    summary,
    list,
    report,
    inserts,
  };
}

/** (d) on the big file of (b); with BENCH_ONLY=export, on a big file built here alone. */
async function runExport(
  config: ReturnType<typeof readConfig>,
  samples: Samples,
  orderLog: OrderLogResults | undefined,
): Promise<ExportBenchResult> {
  const repeats = exportRepeats();
  const plan = planDays(config.days, Math.max(1, Math.round(config.logOrders / config.days)));
  let path = orderLog?.build.big.path;
  if (path === undefined) {
    say(`(d) building the big file: ${fmtInt(config.logOrders)} orders over ${config.days} days…`);
    const big = await buildOrderLogFile(join(makeTempDir('export'), 'big.db'), config.logOrders, plan, samples, {
      checkConstraints: false,
    });
    say(`    ${fmtInt(big.orders)} orders in ${fmtSeconds(big.ms)}`);
    path = big.path;
  }
  const days = { from: plan.days[0]!, to: plan.days.at(-1)!, timeZone: STORE_TIME_ZONE };
  say(`(d) export of ${days.from} to ${days.to}: the floor and CSV ${repeats} times each, XLSX once…`);
  return benchExport(path, days, config.logOrders, makeTempDir('export-out'), { repeats, progress: say });
}

async function main(): Promise<void> {
  const started = performance.now();
  // BENCH_ONLY=export is (d) alone: (a) and (c) are skipped as for `log`, and (b)'s timed parts too.
  const exportOnly = process.env.BENCH_ONLY === 'export';
  const config = readConfig(exportOnly ? { ...process.env, BENCH_ONLY: 'log' } : process.env);
  const machine = machineInfo();
  say(`Loket benchmarks: ${describeMachine(machine)}`);

  let screen: ChargeToQrResult | undefined;
  let list: LiveListResult | undefined;
  let start: StartResult | undefined;
  if (config.only === 'all' || config.only === 'screen') {
    say('(f) start time: `npm run serve` to ready, after a build and with nothing changed…');
    start = await benchStart(say);
    say(`(c) browser mode: ${config.sales} sales from Charge to the QR on the customer display…`);
    const measured = await benchChargeToQr(config.sales, say, config.listOrders);
    ({ list, ...screen } = measured);
  }
  let soak: SoakResult | undefined;
  if ((config.only === 'all' || config.only === 'soak') && config.soak > 0) {
    say(`(g) soak: ${fmtInt(config.soak)} charges through browser mode, both screens open…`);
    soak = await benchSoak(config.soak, say);
  }
  let storeBook: StoreBookResult | { skipped: string } | undefined;
  if ((config.only === 'all' || config.only === 'store') && config.storeSales > 0) {
    if (config.only === 'store' && config.storeQrSales > 0) buildScreens(say);
    storeBook = await benchStoreBook(
      { sales: config.storeSales, qrSales: config.storeQrSales, backlogEvents: config.storeBacklog },
      say,
    );
  }
  let saleImport: ImportBenchResult | undefined;
  let saleScreens: SaleScreensResult | undefined;
  if (config.only === 'all' || config.only === 'sale') {
    if (config.saleImportPairs > 0) {
      say(`(i) catalogue import: ${fmtInt(config.saleProducts)} products, against a bare insert of the same rows…`);
      saleImport = await benchImport(benchCatalogue(config.saleProducts), config.saleImportPairs, say);
    }
    if (config.saleQueries > 0) {
      say('(i) the sale in browser mode: search, scan and cart…');
      saleScreens = await benchSaleScreens(
        {
          products: config.saleProducts,
          smallProducts: config.saleSmallProducts,
          queries: config.saleQueries,
          blocks: config.saleBlocks,
          adds: config.saleAdds,
          cartLines: config.saleCartLines,
          // A full run built the screens for (c) already.
          build: config.only === 'sale',
        },
        say,
      );
    }
  }
  const { orderCreation, samples } =
    config.only === 'screen' || config.only === 'soak' || config.only === 'store' || config.only === 'sale'
      ? {}
      : await runOrderCreationAndSamples(config);
  const orderLog = samples && !exportOnly ? await runOrderLog(config, samples) : undefined;
  const exported =
    samples && (config.only === 'all' || exportOnly) ? await runExport(config, samples, orderLog) : undefined;

  const results = {
    finishedAt: new Date().toISOString(),
    totalMs: performance.now() - started,
    machine,
    config,
    ...(orderCreation ? { orderCreation } : {}),
    ...(orderLog ? { orderLog } : {}),
    ...(screen ? { screen } : {}),
  };
  mkdirSync(join(RESULTS_PATH, '..'), { recursive: true });
  const json = {
    ...(resultsJson(results) as object),
    ...(exported ? { export: exportJson(exported) } : {}),
    ...(list ? { liveList: list } : {}),
    ...(start ? { start } : {}),
    ...(soak ? { soak } : {}),
    ...(storeBook ? { storeBook } : {}),
    ...(saleImport || saleScreens ? { sale: { import: saleImport, screens: saleScreens } } : {}),
  };
  writeFileSync(RESULTS_PATH, JSON.stringify(json, null, 2) + '\n');
  say('');
  say(renderReport(results));
  if (exported) {
    say('');
    say(renderExport(exported));
  }
  if (screen) {
    say('');
    say(renderChargeToQr(screen));
  }
  if (list) {
    say('');
    say(renderLiveList(list));
  }
  if (start) {
    say('');
    say(renderStart(start));
  }
  if (soak) {
    say('');
    say(renderSoak(soak));
  }
  if (storeBook) {
    say('');
    say(renderStoreBook(storeBook));
  }
  if (saleImport) {
    say('');
    say(renderImport(saleImport));
  }
  if (saleScreens) {
    say('');
    say(renderSaleScreens(saleScreens));
  }
  say('');
  say(`Results written to ${RESULTS_PATH}`);
}

process.once('SIGINT', () => {
  removeTempDirs();
  process.exit(130);
});

try {
  await main();
} catch (err) {
  console.error(`bench: ${(err as Error)?.stack ?? String(err)}`);
  process.exitCode = 1;
} finally {
  removeTempDirs();
}
