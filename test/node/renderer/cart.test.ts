// The cart on the cashier's screen: edits are pure (cart-edit.ts); the state saves each change, quotes the server
// for every figure, and a scan adds the product or one more of the last line.
import { describe, expect, it } from 'vitest';
import type { Product } from '../../../src-main/common/product';
import type { Cart, SaleQuote } from '../../../src-main/common/sale';
import * as edit from '../../../src-renderer/src/lib/cart-edit';
import { CartState, type CartApi } from '../../../src-renderer/src/state/cart.svelte';

const product = (id: string, price = 5000): Product =>
  ({
    id,
    sku: `SKU-${id}`,
    name: `Product ${id}`,
    barcodes: [],
    category: '',
    price,
    taxCategory: 'ppn',
    active: true,
  }) as unknown as Product;

function fakeApi(products: Record<string, Product>) {
  const saved: Cart[] = [];
  const quoted: Cart[] = [];
  let stored: Cart = { lines: [], saleDiscount: null };
  const api: CartApi = {
    searchProducts: async ({ text }) => Object.values(products).filter((p) => p.name.includes(text)),
    productByCode: async ({ code }) => products[code] ?? null,
    currentCart: async () => stored,
    saveCart: async ({ cart }) => {
      saved.push(cart);
      stored = cart;
      return cart;
    },
    quoteSale: async ({ cart }) => {
      quoted.push(cart);
      const total = cart.lines.reduce((s, l) => s + l.unitPrice * l.qty, 0);
      return { ok: true, figures: { total }, lines: cart.lines, overLimit: [], itemName: 'x' } as unknown as SaleQuote;
    },
  };
  return { api, saved, quoted };
}

function cartState(products: Record<string, Product> = {}) {
  const fake = fakeApi(products);
  let n = 0;
  const state = new CartState({ api: fake.api, newLineId: () => `L${++n}`, quoteDelayMs: 0 });
  return { state, ...fake };
}

describe('cart edits', () => {
  it('adds one more of the last line for the same product, a new line otherwise', () => {
    let cart = edit.addProduct(edit.EMPTY_CART, product('a'), 'L1');
    cart = edit.addProduct(cart, product('a'), 'L2');
    cart = edit.addProduct(cart, product('b'), 'L3');
    cart = edit.addProduct(cart, product('a'), 'L4');
    expect(cart.lines.map((l) => [l.lineId, l.qty])).toEqual([
      ['L1', 2],
      ['L3', 1],
      ['L4', 1],
    ]);
  });

  it('keeps a quantity within 1 to 9999', () => {
    const cart = edit.addProduct(edit.EMPTY_CART, product('a'), 'L1');
    expect(edit.setQty(cart, 'L1', 0).lines[0]!.qty).toBe(1);
    expect(edit.setQty(cart, 'L1', 12000).lines[0]!.qty).toBe(9999);
    expect(edit.stepQty(cart, 'L1', -1).lines[0]!.qty).toBe(1);
    expect(edit.stepQty(cart, 'L1', 1).lines[0]!.qty).toBe(2);
  });

  it('removes a line, sets and drops discounts', () => {
    let cart = edit.addFreeLine(edit.EMPTY_CART, 'Es teh', 5000, 'L1');
    cart = edit.addFreeLine(cart, 'Kopi', 8000, 'L2');
    cart = edit.setLineDiscount(cart, 'L2', { kind: 'amount', value: 500 });
    expect(cart.lines[1]!.discount).toEqual({ kind: 'amount', value: 500 });
    expect(edit.setLineDiscount(cart, 'L2', null).lines[1]).not.toHaveProperty('discount');
    expect(edit.removeLine(cart, 'L1').lines.map((l) => l.name)).toEqual(['Kopi']);
    expect(edit.setSaleDiscount(cart, { kind: 'percent', valueBp: 1000 }).saleDiscount).toEqual({
      kind: 'percent',
      valueBp: 1000,
    });
  });

  it.each([
    ['10%', { kind: 'percent', valueBp: 1000 }],
    ['12,5%', { kind: 'percent', valueBp: 1250 }],
    ['5.000', { kind: 'amount', value: 5000 }],
    ['Rp2500', { kind: 'amount', value: 2500 }],
    ['', null],
  ])('reads the discount %j', (text, discount) => {
    expect(edit.readDiscount(text)).toEqual({ ok: true, discount });
  });

  it.each(['101%', '5,000', '-3', 'abc', '1.2%3'])('refuses the discount %j', (text) => {
    expect(edit.readDiscount(text)).toEqual({ ok: false });
  });

  it('shows a discount as it reads back', () => {
    for (const text of ['10%', '12,5%', '5000']) {
      const read = edit.readDiscount(text);
      expect(read.ok && edit.discountText(read.discount)).toBe(text);
    }
  });
});

describe('CartState', () => {
  it('saves every change and shows the figures of the last quote', async () => {
    const { state, saved } = cartState();
    state.addFree('Es teh', 5000);
    state.addFree('Kopi', 8000);
    state.setQty('L2', 3);
    await state.settled();
    await state.quoteNow();
    expect(saved.at(-1)!.lines.map((l) => [l.name, l.qty])).toEqual([
      ['Es teh', 1],
      ['Kopi', 3],
    ]);
    expect(state.quote?.ok && state.quote.figures.total).toBe(29000);
  });

  it('restores the stored cart', async () => {
    const first = cartState();
    first.state.addFree('Es teh', 5000);
    await first.state.settled();
    const again = new CartState({ api: first.api, newLineId: () => 'x', quoteDelayMs: 0 });
    await again.load();
    expect(again.lines.map((l) => l.name)).toEqual(['Es teh']);
  });

  it('adds a scanned product, one more on a second scan, and nothing for an unknown code', async () => {
    const { state } = cartState({ '8991234567891': product('a') });
    expect(await state.scan('8991234567891')).toBe(true);
    expect(await state.scan('8991234567891')).toBe(true);
    expect(state.lines.map((l) => [l.productId, l.qty, l.barcode])).toEqual([['a', 2, '8991234567891']]);
    expect(await state.scan('1234567')).toBe(false);
    expect(state.notice).toEqual({ kind: 'unknown', code: '1234567' });
    expect(state.lines).toHaveLength(1);
  });

  it('keeps the newest search answer', async () => {
    const { state } = cartState({ a: product('a'), b: product('b') });
    await state.search('Product a');
    expect(state.results.map((p) => p.id)).toEqual(['a']);
    await state.search('  ');
    expect(state.results).toEqual([]);
  });

  it('a quick item shows at once as typed, then becomes its product line; a line removed meanwhile stays removed', async () => {
    const pulsa = { ...product('p', 51500), sku: 'PULSA-50', itemId: 'PULSA-50' } as Product;
    const { state, saved } = cartState({ 'PULSA-50': pulsa, OTHER: { ...pulsa, itemId: 'OTHER' } as Product });
    state.addQuickItem({ itemId: 'PULSA-50', name: 'Pulsa 50.000', unitPrice: 51500 });
    expect(state.lines).toEqual([{ lineId: 'L1', name: 'Pulsa 50.000', unitPrice: 51500, qty: 1, taxCategory: 'ppn' }]);
    state.setQty('L1', 2);
    await state.settled();
    expect(state.lines).toEqual([
      {
        lineId: 'L1',
        productId: 'p',
        sku: 'PULSA-50',
        name: 'Product p',
        unitPrice: 51500,
        qty: 2,
        taxCategory: 'ppn',
        fixedDenomination: { itemId: 'PULSA-50' },
      },
    ]);
    expect(saved.at(-1)).toEqual(state.cart);

    // Removed before its product came back: nothing comes back with it.
    state.addQuickItem({ itemId: 'PULSA-50', name: 'Pulsa 50.000', unitPrice: 51500 });
    state.remove('L2');
    await state.settled();
    expect(state.lines.map((l) => l.lineId)).toEqual(['L1']);

    // A code whose product is another item, or an unknown one: the line stays as typed.
    state.addQuickItem({ itemId: 'OTHER', name: 'Other', unitPrice: 1000 });
    state.addQuickItem({ itemId: 'NOPE', name: 'Nope', unitPrice: 1000 });
    await state.settled();
    expect(state.lines.slice(1).map((l) => [l.name, l.productId, l.fixedDenomination])).toEqual([
      ['Other', undefined, undefined],
      ['Nope', undefined, undefined],
    ]);
  });

  it("a quick item's product is its own only at its item_id and price, and active", () => {
    const p = { ...product('p', 51500), itemId: 'PULSA-50' } as Product;
    expect(edit.isQuickItemProduct(p, { itemId: 'PULSA-50', unitPrice: 51500 })).toBe(true);
    expect(edit.isQuickItemProduct(p, { itemId: 'PULSA-50', unitPrice: 60000 })).toBe(false);
    expect(edit.isQuickItemProduct(p, { itemId: 'PULSA-100', unitPrice: 51500 })).toBe(false);
    expect(edit.isQuickItemProduct({ ...p, active: false }, { itemId: 'PULSA-50', unitPrice: 51500 })).toBe(false);
  });
});
