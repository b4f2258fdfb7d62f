// A quick item (resources/items.json) added to the cart keeps its item_id: the cashier's sale state (ChargeManager,
// CartState) against the real app host in training mode (its embedded sandbox over HTTP on 127.0.0.1, real SQLite
// files). issue 19 item 5: item_id goes on the gateway order only when the sale is one fixed-denomination item, qty 1.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startAppHost, type AppHost } from '../../../src-main/app-host';
import type { CatalogueItem, LoketApi } from '../../../src-main/common/api';
import type { Order } from '../../../src-main/common/order';
import { ChargeManager } from '../../../src-renderer/src/state/charge.svelte';
import { MemoryCashLedger } from '../helpers/memory-cash-ledger';
import { tempDir } from '../helpers/loket';

let dir: ReturnType<typeof tempDir>;
let host: AppHost;

beforeEach(async () => {
  dir = tempDir('loket-quick-line-');
  const ledger = new MemoryCashLedger();
  host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {}, cashLedger: () => ledger });
});
afterEach(async () => {
  await host.close();
  dir.remove();
});

async function till() {
  const paid: Order[] = [];
  let n = 0;
  const methods = await host.app.listMethods();
  const charge = new ChargeManager({
    // The host answers some methods at once rather than with a promise; the screens await every answer alike.
    api: host.app as unknown as LoketApi,
    newLineId: () => `L${++n}`,
    methods: () => methods,
    blocked: () => false,
    onStart: () => undefined,
    onPayment: (order) => paid.push(order),
  });
  charge.form.offerMethods(methods);
  charge.form.methodId = 'qris_dynamic';
  const items = await host.app.listItems();
  const item = (id: string): CatalogueItem => items.find((i) => i.itemId === id)!;
  return { charge, paid, item };
}

describe('a quick item in the cart', () => {
  it('added to a cart that has lines, it is its product line with its item_id; a sale of two lines sends none', async () => {
    const { charge, paid, item } = await till();
    charge.form.setAmountText('2000');
    charge.form.setItemName('Es batu');
    expect(charge.addTypedLine()).toBe(true);

    charge.form.pickItem(item('PULSA-50'));
    expect(charge.addTypedLine()).toBe(true);
    await charge.cart.settled();

    expect(charge.cart.lines).toHaveLength(2);
    expect(charge.cart.lines[0]).not.toHaveProperty('fixedDenomination');
    expect(charge.cart.lines[1]).toMatchObject({
      lineId: 'L2',
      sku: 'PULSA-50',
      name: 'Pulsa 50.000',
      unitPrice: 51_500,
      qty: 1,
      fixedDenomination: { itemId: 'PULSA-50' },
    });
    expect(charge.cart.lines[1]!.productId).toMatch(/^\d+$/);
    // The stored cart is the one with the product line (a reload keeps the item_id).
    expect((await host.app.currentCart()).lines[1]).toMatchObject({ fixedDenomination: { itemId: 'PULSA-50' } });

    expect(await charge.charge()).toBe('payment');
    expect(paid[0]).toMatchObject({ amount: 53_500, itemName: 'Es batu +1' });
    expect(paid[0]!.itemId).toBeUndefined();
  });

  it('a cart of exactly that one line, qty 1, sends item_id on the gateway order (chargeSale)', async () => {
    const { charge, paid, item } = await till();
    charge.form.pickItem(item('PULSA-50'));
    expect(charge.addTypedLine()).toBe(true);
    expect(charge.cart.empty).toBe(false);

    expect(await charge.charge()).toBe('payment');
    expect(paid[0]).toMatchObject({ amount: 51_500, itemName: 'Pulsa 50.000', itemId: 'PULSA-50' });
  });

  it('two of it send no item_id; a quick item whose amount was changed after the pick is a typed line', async () => {
    const { charge, paid, item } = await till();
    charge.form.pickItem(item('PULSA-50'));
    charge.addTypedLine();
    await charge.cart.settled();
    charge.cart.setQty('L1', 2);
    expect(await charge.charge()).toBe('payment');
    expect(paid[0]).toMatchObject({ amount: 103_000, itemName: 'Pulsa 50.000' });
    expect(paid[0]!.itemId).toBeUndefined();
    await host.app.parkSale(paid[0]!.id);

    charge.form.pickItem(item('PULSA-50'));
    charge.form.setAmountText('60000');
    charge.addTypedLine();
    await charge.cart.settled();
    expect(charge.cart.lines).toEqual([
      { lineId: 'L2', name: 'Pulsa 50.000', unitPrice: 60_000, qty: 1, taxCategory: 'ppn' },
    ]);
    expect(await charge.charge()).toBe('payment');
    expect(paid[1]).toMatchObject({ amount: 60_000 });
    expect(paid[1]!.itemId).toBeUndefined();
  });
});
