// The host's router (host/api-routing.ts) does what a row's flags say for whichever method carries them: it names no
// method. First the router over plain services that answer every method alike, then the app host itself (training
// mode, its embedded sandbox over HTTP on 127.0.0.1, real SQLite files; the drawer's shift an in-memory ledger).
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import {
  apiMethodNames,
  apiMethodSpec,
  handlersOf,
  type ApiMethodName,
  type LiveEvent,
} from '../../src-main/common/api';
import { lineOfProduct } from '../../src-main/common/sale';
import { serveByTable, type ApiRoutes } from '../../src-main/host/api-routing';
import { MemoryCashLedger } from './helpers/memory-cash-ledger';
import { tempDir } from './helpers/loket';

const flagged = (flag: 'charge' | 'showsPaidSale' | 'pushesDisplay') =>
  apiMethodNames.filter((m) => apiMethodSpec(m)[flag]);

/** A router whose every service answers every method with `answer`, and what it asked of the host. */
function routerAnswering(answer: unknown) {
  const seen = { tracked: [] as string[], shown: [] as string[], pushed: 0, called: [] as string[] };
  let calling = '';
  const service = () =>
    handlersOf((method) => () => {
      seen.called.push(method);
      calling = method;
      return answer;
    });
  const route = { serve: service };
  const routes = Object.fromEntries(
    ['order', 'books', 'shift', 'sale', 'refund', 'catalogue', 'storeBook', 'manager'].map((s) => [s, route]),
  ) as unknown as ApiRoutes;
  const api = serveByTable(routes, {
    trackCharge: (call) => {
      const answered = call();
      seen.tracked.push(calling);
      return answered;
    },
    showSale: (saleId) => seen.shown.push(`${calling}:${saleId}`),
    pushDisplay: () => (seen.pushed += 1),
  });
  const call = (method: ApiMethodName) => (api[method] as () => unknown)();
  return { seen, call };
}

describe("the router does what a row's flags say", () => {
  it('counts exactly the charges in flight, shows a sale paid with no order, pushes the display after its row', async () => {
    const { seen, call } = routerAnswering({ ok: true, saleId: 'S-1', order: null });
    const pushedBy: string[] = [];
    for (const method of apiMethodNames) {
      const before = seen.pushed;
      await call(method);
      if (seen.pushed > before) pushedBy.push(method);
    }
    expect(seen.called).toEqual(apiMethodNames);
    expect(seen.tracked).toEqual(flagged('charge'));
    expect(seen.shown).toEqual(flagged('showsPaidSale').map((m) => `${m}:S-1`));
    expect(pushedBy).toEqual(flagged('pushesDisplay'));
    expect(pushedBy.length).toBeGreaterThan(0);
  });

  it('a paid sale with an order, or a refused charge, leaves the display to the order', async () => {
    for (const answer of [
      { ok: true, saleId: 'S-2', order: { id: 'T01-1' } },
      { ok: false, saleId: null },
    ]) {
      const { seen, call } = routerAnswering(answer);
      for (const method of flagged('showsPaidSale')) await call(method);
      expect(seen.shown).toEqual([]);
    }
  });

  it('a method with no flag after its answer is answered as its service answered it, not made a promise', () => {
    const { call } = routerAnswering('plain');
    const plain = apiMethodNames.find((m) => {
      const spec = apiMethodSpec(m);
      return !spec.charge && !spec.showsPaidSale && !spec.pushesDisplay;
    })!;
    expect(call(plain)).toBe('plain');
  });
});

describe('the app host', () => {
  let dir: ReturnType<typeof tempDir> | undefined;
  let host: AppHost | undefined;
  afterEach(async () => {
    await host?.close();
    dir?.remove();
  });

  it('pushes the cart to the display as it is saved, and the change of a cash sale once charged', async () => {
    dir = tempDir('loket-routing-');
    const ledger = new MemoryCashLedger();
    ledger.shiftId = 'SHIFT-1';
    host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {}, cashLedger: () => ledger });
    const events: LiveEvent[] = [];
    host.app.subscribe((event) => events.push(event));

    const product = await host.app.productByCode({ code: 'KOPI-SUSU' });
    const cart = { lines: [lineOfProduct(product!, 'l1', 2)], saleDiscount: null };
    await host.app.saveCart({ cart });
    expect(events.filter((e) => e.type === 'display')).toEqual([
      expect.objectContaining({
        state: expect.objectContaining({
          cart: { lines: [{ name: 'Kopi susu', qty: 2, total: 36_000 }], total: 36_000 },
        }),
      }),
    ]);

    const charged = await host.app.chargeSale({ cart, tenders: [{ kind: 'cash', handed: 50_000 }] });
    expect(charged).toMatchObject({ ok: true, order: null });
    expect(events.at(-1)).toMatchObject({
      type: 'display',
      state: { order: null, sale: { total: 36_000, change: 14_000, cash: true, complete: true } },
    });
  });
});
