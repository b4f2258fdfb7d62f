/** The benchmark's knobs, read from the environment (docs/benchmarks.md lists them). */

export interface BenchConfig {
  /** (a) Orders through the core, and as many bare signed POSTs. */
  orders: number;
  /** (a) Pairs run first and thrown away. */
  warmup: number;
  /** (b) Orders in the big order-log file. */
  logOrders: number;
  /** (b) Orders in the baseline file. */
  smallOrders: number;
  /** (b) Days the orders are spread over. */
  days: number;
  /** (b) Timed runs of each query on each file. */
  queryRepeats: number;
  /** (b) Orders written through OrderLog.create + transition, at each synchronous setting. */
  inserts: number;
  /** (c) Sales from Charge to the QR on the display. */
  sales: number;
  /** (e) orders in the day on Today's list (0: skip (e)). */
  listOrders: number;
  /** (g) charges of the soak (0: skip it; it runs only when asked, as it takes minutes). */
  soak: number;
  /** (h) Sales of the till offline for a day, caught up into the store book (0: skip (h)). */
  storeSales: number;
  /** (h) Sales timed on each till, with the sync running and without (0: skip that part). */
  storeQrSales: number;
  /**
   * (h) Events in each till's books, the backlog the enrolled till's worker sends while the sales run; 0: sized from
   * the catch-up's rate so that it lasts the whole timed part.
   */
  storeBacklog: number;
  /** (i) Products of the big catalogue (searched, scanned, imported) and of the small one (the search's baseline). */
  saleProducts: number;
  saleSmallProducts: number;
  /** (i) Pairs of the catalogue import and the bare insert. */
  saleImportPairs: number;
  /** (i) Search rounds (three queries each, typed on both catalogues; 0: skip the screens' part). */
  saleQueries: number;
  /** (i) Blocks of adds, and scans (and as many picks) per cart size in each block. */
  saleBlocks: number;
  saleAdds: number;
  /** (i) Lines of the big cart. */
  saleCartLines: number;
  /** Which parts to run. */
  only: 'all' | 'orders' | 'log' | 'screen' | 'soak' | 'store' | 'sale';
}

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.replaceAll('_', ''));
  if (!Number.isSafeInteger(value) || value < min)
    throw new Error(`${name}: must be a whole number ≥ ${min} (got ${JSON.stringify(raw)})`);
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  const orders = intFromEnv(env, 'BENCH_ORDERS', 300, 1);
  const logOrders = intFromEnv(env, 'BENCH_LOG_ORDERS', 1_000_000, 1_000);
  const only = env.BENCH_ONLY ?? 'all';
  const saleProducts = intFromEnv(env, 'BENCH_SALE_PRODUCTS', 100_000, 100);
  if (
    only !== 'all' &&
    only !== 'orders' &&
    only !== 'log' &&
    only !== 'screen' &&
    only !== 'soak' &&
    only !== 'store' &&
    only !== 'sale'
  ) {
    throw new Error(`BENCH_ONLY: must be orders, log, screen, soak, store, sale or all (got ${JSON.stringify(only)})`);
  }
  return {
    orders,
    // 50 rounds write 100 orders through the core: enough for JIT, the connection pool, and the WAL file
    // to reach its working size (its first ~70 orders are slower while the file grows).
    warmup: intFromEnv(env, 'BENCH_WARMUP', 50, 0),
    logOrders,
    // The baseline never holds more than the big file.
    smallOrders: Math.min(intFromEnv(env, 'BENCH_LOG_SMALL_ORDERS', 10_000, 100), logOrders),
    days: intFromEnv(env, 'BENCH_LOG_DAYS', 90, 2),
    queryRepeats: intFromEnv(env, 'BENCH_REPEAT', 30, 1),
    inserts: intFromEnv(env, 'BENCH_INSERTS', 2_000, 10),
    sales: intFromEnv(env, 'BENCH_SALES', 50, 5),
    listOrders: intFromEnv(env, 'BENCH_LIST_ORDERS', 5000, 0),
    // A day of a busy counter when asked for alone (BENCH_ONLY=soak); in a full run only when BENCH_SOAK says so.
    soak: intFromEnv(env, 'BENCH_SOAK', only === 'soak' ? 10_000 : 0, 0),
    storeSales: intFromEnv(env, 'BENCH_STORE_SALES', 10_000, 0),
    storeQrSales: intFromEnv(env, 'BENCH_STORE_QR_SALES', 30, 0),
    storeBacklog: intFromEnv(env, 'BENCH_STORE_BACKLOG', 0, 0),
    saleProducts,
    // The baseline never holds more than the big catalogue.
    saleSmallProducts: Math.min(intFromEnv(env, 'BENCH_SALE_SMALL', 1_000, 10), saleProducts),
    saleImportPairs: intFromEnv(env, 'BENCH_SALE_IMPORT_PAIRS', 3, 0),
    saleQueries: intFromEnv(env, 'BENCH_SALE_QUERIES', 8, 0),
    saleBlocks: intFromEnv(env, 'BENCH_SALE_BLOCKS', 3, 1),
    saleAdds: intFromEnv(env, 'BENCH_SALE_ADDS', 10, 1),
    // Products 1 … N make the cart's lines; the added ones come from the catalogue's other end.
    saleCartLines: Math.min(intFromEnv(env, 'BENCH_SALE_CART', 300, 1), Math.floor(saleProducts / 2)),
    only,
  };
}
