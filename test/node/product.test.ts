import { describe, expect, it } from 'vitest';
import { productFieldsSchema, productSchema, quickItemsAsProducts, skuKey } from '../../src-main/common/product';
import { loadItemCatalogue } from '../../src-main/core/catalogue';

const kopi = {
  sku: 'KOPI-SUSU',
  name: 'Kopi susu',
  barcodes: ['8992761111113'],
  category: 'Minuman',
  price: 18_000,
  taxCategory: 'ppn',
  active: true,
};

describe('product schema', () => {
  it('accepts a product, with or without an id and an itemId', () => {
    expect(productFieldsSchema.parse(kopi)).toEqual(kopi);
    expect(productSchema.parse({ ...kopi, id: 'p1', itemId: 'KOPI' })).toMatchObject({ id: 'p1', itemId: 'KOPI' });
  });

  it('names every field that breaks its rule', () => {
    const r = productFieldsSchema.safeParse({
      sku: ' A1',
      name: '',
      barcodes: ['4006381333932', '036000291452', '96385074', '96385074'],
      category: 'x'.repeat(41),
      price: 18.5,
      taxCategory: 'vat',
      active: 'ya',
      itemId: 'has space',
      extra: 1,
    });
    expect(r.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'sku: 1 to 40 characters, without control characters or spaces at either end',
      'name: 1 to 80 characters, without control, invisible or text-direction characters, without spaces at either end',
      'barcodes.0: the check digit (the last one) should be 1 (got 2): a digit is mistyped',
      'barcodes.1: a UPC-A is kept as its EAN-13: 0036000291452',
      'barcodes: each barcode once',
      'category: at most 40 characters, without control characters or spaces at either end',
      'price: a whole number of rupiah from 0 to 10000000000, without decimals',
      'taxCategory: ppn (ordinary goods: PPN), pbjt (restaurant food and drink: PBJT and the service charge) or exempt (no tax)',
      'active: true or false',
      'itemId: 1 to 50 characters, without control characters or spaces',
      ': Unrecognized key: "extra"',
    ]);
  });

  it("refuses a name with a right-to-left override or a zero-width space, as a sale line's name (it becomes one)", () => {
    for (const name of ['Kopi\u202egnp.exe', 'Kopi\u200bsusu'])
      expect(productFieldsSchema.safeParse({ ...kopi, name }).error?.issues[0]).toMatchObject({ path: ['name'] });
    expect(productFieldsSchema.safeParse({ ...kopi, name: 'Chef \u{1f469}\u200d\u{1f373}' }).success).toBe(true);
  });

  it('a SKU is unique ignoring letter case', () => {
    expect(skuKey('Kopi-Susu')).toBe(skuKey('KOPI-SUSU'));
  });
});

describe("today's quick items as products", () => {
  it('keep name, price and item_id, with the item id as SKU, no barcode, the default category, active', () => {
    const items = loadItemCatalogue();
    const products = quickItemsAsProducts(items, 'ppn');
    expect(products).toHaveLength(items.length);
    expect(products.find((p) => p.sku === 'PULSA-50')).toEqual({
      sku: 'PULSA-50',
      name: 'Pulsa 50.000',
      barcodes: [],
      category: '',
      price: 51_500,
      taxCategory: 'ppn',
      active: true,
      itemId: 'PULSA-50',
    });
    for (const p of products) expect(productFieldsSchema.safeParse(p).success).toBe(true);
    expect(quickItemsAsProducts(items, 'exempt').every((p) => p.taxCategory === 'exempt')).toBe(true);
  });
});
