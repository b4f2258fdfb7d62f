// A long cart's quote reads the catalogue once, not once per line: the number of SQLite statements a quote runs does
// not grow with its lines (a quote of 300 lines once took 100 times a 1-line quote, two queries per line). Counted,
// not timed: every run of a prepared statement of the store's connection during the quote. Real parts: the app host
// in training mode, its real SQLite file, a catalogue imported through ProductStore.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Statement } from 'better-sqlite3';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { lineOfProduct, type Cart } from '../../src-main/common/sale';
import type { Product } from '../../src-main/common/product';
import { systemClock } from '../../src-main/core/ports';
import { ProductStore } from '../../src-main/core/products/product-store';
import { benchCatalogue } from '../../scripts/bench/sale-catalogue';
import { tempDir } from './helpers/loket';

let dir: ReturnType<typeof tempDir>;
let host: AppHost;
let products: Product[];

beforeEach(async () => {
  dir = tempDir('loket-quote-');
  host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {} });
  const store = new ProductStore(host.store.db, systemClock);
  expect(store.importProducts(benchCatalogue(60), { actor: 'test' })).toMatchObject({ ok: true, created: 60 });
  products = benchCatalogue(60).map((p) => store.byCode(p.sku)!);
});
afterEach(async () => {
  await host.close();
  dir.remove();
});

const cartOf = (n: number): Cart => ({
  lines: Array.from({ length: n }, (_, i) => lineOfProduct(products[i % products.length]!, `l${i}`, 1 + (i % 3))),
  saleDiscount: { kind: 'percent', valueBp: 500 },
});

/** Runs `f`, counting the runs of prepared statements (get, all, run, iterate) on the store's connection. */
async function statementsDuring(f: () => Promise<unknown>): Promise<number> {
  const proto = Object.getPrototypeOf(host.store.db.prepare('SELECT 1')) as Record<string, unknown>;
  const names = ['get', 'all', 'run', 'iterate'] as const;
  const saved = names.map((name) => proto[name] as (...args: unknown[]) => unknown);
  let count = 0;
  names.forEach((name, i) => {
    proto[name] = function (this: Statement, ...args: unknown[]) {
      if (this.database === host.store.db) count++;
      return saved[i]!.apply(this, args);
    };
  });
  try {
    await f();
  } finally {
    names.forEach((name, i) => (proto[name] = saved[i]));
  }
  return count;
}

describe("a quote's statements", () => {
  it('are as many for 120 lines (a product on two lines too) as for one line', async () => {
    let one: unknown;
    let long: unknown;
    const forOne = await statementsDuring(async () => (one = await host.app.quoteSale({ cart: cartOf(1) })));
    const forLong = await statementsDuring(async () => (long = await host.app.quoteSale({ cart: cartOf(120) })));
    expect(one).toMatchObject({ ok: true });
    expect(long).toMatchObject({ ok: true, figures: { lines: { length: 120 } } });
    expect(forOne).toBeGreaterThan(0); // the counter sees the quote's reads
    expect(forLong).toBe(forOne);
  });

  it("still names each line whose product is not an active product, by the line's place", async () => {
    const cart = cartOf(3);
    cart.lines[1] = { ...cart.lines[1]!, productId: '999999' };
    cart.lines[2] = { ...cart.lines[2]!, productId: 'not-an-id' };
    expect(await host.app.quoteSale({ cart })).toEqual({
      ok: false,
      issues: [
        {
          field: 'lines[1].productId',
          rule: 'product',
          message: 'line 2, productId: 999999 is not an active product of the catalogue',
        },
        {
          field: 'lines[2].productId',
          rule: 'product',
          message: 'line 3, productId: not-an-id is not an active product of the catalogue',
        },
      ],
    });
  });
});
