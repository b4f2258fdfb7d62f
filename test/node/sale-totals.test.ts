import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { SaleLine } from '../../src-main/common/sale-line';
import { saleLineSchema } from '../../src-main/common/sale-line';
import {
  DEFAULT_DISCOUNT_LIMITS,
  computeSale,
  discountLimitsSchema,
  discountsOverLimit,
  type SaleFigures,
} from '../../src-main/common/sale-totals';
import { DEFAULT_TAX_SETTINGS, taxSettingsSchema, type TaxSettings } from '../../src-main/common/tax';
import { propertyParams } from './helpers/property';
import { cartArb, saleDiscountArb, saleDiscountFor, taxSettingsArb, toLines } from './helpers/sale-arbitraries';

const line = (
  id: string,
  unitPrice: number,
  qty: number,
  taxCategory: SaleLine['taxCategory'],
  extra: Partial<SaleLine> = {},
): SaleLine => ({
  lineId: id,
  name: id,
  unitPrice,
  qty,
  taxCategory,
  ...extra,
});

function sale(...args: Parameters<typeof computeSale>): SaleFigures {
  const r = computeSale(...args);
  if (!r.ok) throw new Error(r.issues.map((i) => i.message).join('\n'));
  return r.sale;
}

describe('computeSale: hand-computed sales', () => {
  it('one line of Rp111.000 with PPN included: PPN 11.000, net 100.000, DPP 91.667', () => {
    const s = sale([line('a', 111_000, 1, 'ppn')], null, DEFAULT_TAX_SETTINGS);
    expect(s).toMatchObject({
      subtotal: 111_000,
      discounts: 0,
      net: 100_000,
      dpp: 91_667,
      ppn: 11_000,
      total: 111_000,
    });
    expect(s.lines).toEqual([
      {
        lineId: 'a',
        taxCategory: 'ppn',
        qty: 1,
        gross: 111_000,
        lineDiscount: 0,
        saleDiscount: 0,
        net: 111_000,
        total: 111_000,
      },
    ]);
  });

  it('a mixed cart with a line discount, an amount discount, a sale discount, PBJT and service (docs/tax.md)', () => {
    const settings = taxSettingsSchema.parse({ pbjt: { enabled: true }, service: { enabled: true } });
    const s = sale(
      [
        line('kopi', 18_000, 2, 'ppn', { discount: { kind: 'percent', valueBp: 1000 } }),
        line('nasi', 35_000, 1, 'pbjt'),
        line('beras', 78_000, 1, 'exempt', { discount: { kind: 'amount', value: 3000 } }),
      ],
      { kind: 'amount', value: 5000 },
      settings,
    );
    // Sale discount 5.000 over 32.400, 35.000, 75.000 (Σ 142.400): 1137.64, 1228.93, 2633.43 → 1138, 1229, 2633.
    expect(s.lines.map((l) => [l.gross, l.lineDiscount, l.saleDiscount, l.net, l.total])).toEqual([
      [36_000, 3600, 1138, 31_262, 31_262],
      [35_000, 0, 1229, 33_771, 35_460],
      [78_000, 3000, 2633, 72_367, 72_367],
    ]);
    expect(s.categories).toEqual([
      // 31.262 × 11/111 = 3098.04; DPP 28.164 × 11/12 = 25.817
      { category: 'ppn', sum: 31_262, net: 28_164, dpp: 25_817, ppn: 3098, pbjt: 0, service: 0, total: 31_262 },
      // PBJT in 33.771: 3070.09 → 3.070; service 5% of 30.701 = 1535.05 → 1.535; PBJT on it 153.5 → 154
      { category: 'pbjt', sum: 33_771, net: 30_701, dpp: 0, ppn: 0, pbjt: 3224, service: 1535, total: 35_460 },
      { category: 'exempt', sum: 72_367, net: 72_367, dpp: 0, ppn: 0, pbjt: 0, service: 0, total: 72_367 },
    ]);
    expect(s).toMatchObject({
      subtotal: 149_000,
      lineDiscounts: 6600,
      saleDiscount: 5000,
      discounts: 11_600,
      afterDiscounts: 137_400,
      net: 131_232,
      dpp: 25_817,
      ppn: 3098,
      pbjt: 3224,
      service: 1535,
      total: 139_089,
    });
  });

  it('prices excluding tax: the tax is added, and each line total carries its share', () => {
    const s = sale(
      [line('a', 10_000, 1, 'ppn'), line('b', 20_000, 1, 'ppn')],
      undefined,
      taxSettingsSchema.parse({ pricesIncludeTax: false }),
    );
    expect(s).toMatchObject({ net: 30_000, dpp: 27_500, ppn: 3300, total: 33_300 });
    expect(s.lines.map((l) => l.total)).toEqual([11_100, 22_200]);
  });

  it('a percentage sale discount is of the sum after line discounts, rounded half up', () => {
    const s = sale(
      [line('a', 10_005, 1, 'exempt', { discount: { kind: 'amount', value: 5 } }), line('b', 5, 1, 'exempt')],
      { kind: 'percent', valueBp: 1250 },
      DEFAULT_TAX_SETTINGS,
    );
    // 12.5% of 10.005 = 1250.625 → 1251
    expect(s.saleDiscount).toBe(1251);
    expect(s.total).toBe(10_005 - 1251);
  });

  it('an empty sale is valid and every figure is 0', () => {
    expect(sale([], null, DEFAULT_TAX_SETTINGS)).toMatchObject({ lines: [], categories: [], subtotal: 0, total: 0 });
  });

  it('a free line (price 0) and a 100% discount are fine', () => {
    const s = sale(
      [line('a', 0, 3, 'ppn'), line('b', 5000, 1, 'ppn', { discount: { kind: 'percent', valueBp: 10_000 } })],
      { kind: 'amount', value: 0 },
      DEFAULT_TAX_SETTINGS,
    );
    expect(s.total).toBe(0);
    expect(s.ppn).toBe(0);
  });

  it('a sale discount of everything leaves every line at 0', () => {
    const s = sale(
      [line('a', 1000, 3, 'ppn'), line('b', 7, 1, 'pbjt')],
      { kind: 'percent', valueBp: 10_000 },
      DEFAULT_TAX_SETTINGS,
    );
    expect(s.lines.map((l) => l.net)).toEqual([0, 0]);
    expect(s.total).toBe(0);
  });
});

describe('computeSale: bad input gives issues naming the field and the rule', () => {
  it('names each bad field of each line, lines counted from 1', () => {
    const r = computeSale(
      [
        line('a', -1, 0, 'vat' as 'ppn'),
        line('a', 1.5, 10_000, 'ppn'),
        line('c', 1000, 2, 'ppn', { discount: { kind: 'amount', value: 2001 } }),
        line('d', 1000, 1, 'ppn', { discount: { kind: 'percent', valueBp: 10_001 } }),
        line('e', 1000, 1, 'ppn', { discount: { kind: 'bogus' } as unknown as SaleLine['discount'] }),
        line('', 1, 1, 'ppn'),
      ],
      null,
      DEFAULT_TAX_SETTINGS,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues).toEqual([
      {
        field: 'lines[0].unitPrice',
        rule: 'unit_price',
        message: 'line 1, unitPrice: a whole number of rupiah from 0 to 10000000000 (got -1)',
      },
      { field: 'lines[0].qty', rule: 'qty', message: 'line 1, qty: a whole number from 1 to 9999 (got 0)' },
      {
        field: 'lines[0].taxCategory',
        rule: 'tax_category',
        message:
          'line 1, taxCategory: ppn (ordinary goods: PPN), pbjt (restaurant food and drink: PBJT and the service charge) or exempt (no tax) (got "vat")',
      },
      {
        field: 'lines[1].lineId',
        rule: 'line_id',
        message: 'line 2, lineId: "a" is used by an earlier line; each line has its own id',
      },
      {
        field: 'lines[1].unitPrice',
        rule: 'unit_price',
        message: 'line 2, unitPrice: a whole number of rupiah from 0 to 10000000000 (got 1.5)',
      },
      { field: 'lines[1].qty', rule: 'qty', message: 'line 2, qty: a whole number from 1 to 9999 (got 10000)' },
      {
        field: 'lines[2].discount',
        rule: 'discount',
        message: "line 3, discount: at most the line's Rp2.000 (got Rp2.001)",
      },
      {
        field: 'lines[3].discount',
        rule: 'discount',
        message: 'line 4, discount: a whole number of basis points from 0 to 10000 (1000 = 10%) (got 10001)',
      },
      {
        field: 'lines[4].discount',
        rule: 'discount',
        message: `line 5, discount: kind is 'amount' or 'percent' (got "bogus")`,
      },
      { field: 'lines[5].lineId', rule: 'line_id', message: 'line 6, lineId: must not be empty' },
    ]);
  });

  it('refuses a sale discount above the sum after line discounts', () => {
    const r = computeSale(
      [line('a', 1000, 2, 'ppn', { discount: { kind: 'amount', value: 500 } })],
      { kind: 'amount', value: 1501 },
      DEFAULT_TAX_SETTINGS,
    );
    expect(r).toEqual({
      ok: false,
      issues: [
        {
          field: 'saleDiscount',
          rule: 'sale_discount',
          message: 'saleDiscount: at most the sum after line discounts, Rp1.500 (got Rp1.501)',
        },
      ],
    });
    expect(computeSale([], { kind: 'percent', valueBp: -1 }, DEFAULT_TAX_SETTINGS)).toMatchObject({
      ok: false,
      issues: [{ field: 'saleDiscount', rule: 'sale_discount' }],
    });
  });

  it('refuses a sale too large to be counted exactly', () => {
    const lines = Array.from({ length: 101 }, (_, i) => line(`l${i}`, 10_000_000_000, 9999, 'ppn'));
    const r = computeSale(lines, null, DEFAULT_TAX_SETTINGS);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues[0]).toMatchObject({ field: 'lines', rule: 'too_large' });
    expect(r.ok || r.issues[0]!.message.startsWith("lines: the sale's sum is at most Rp10.000.000.000.000")).toBe(true);
  });

  it('refuses settings that break their schema, naming the setting', () => {
    const bad = { ...DEFAULT_TAX_SETTINGS, ppn: { rateBp: 1.5, dpp: { num: 11, den: 12 } } } as TaxSettings;
    expect(computeSale([line('a', 1, 1, 'ppn')], null, bad)).toEqual({
      ok: false,
      issues: [
        {
          field: 'tax.ppn.rateBp',
          rule: 'settings',
          message: 'tax.ppn.rateBp: a whole number of basis points from 0 to 10000 (1200 = 12%)',
        },
      ],
    });
  });

  it('refuses what is not a list of lines', () => {
    expect(computeSale(null as unknown as SaleLine[], null, DEFAULT_TAX_SETTINGS)).toMatchObject({
      ok: false,
      issues: [{ field: 'lines', rule: 'lines' }],
    });
    expect(computeSale([null as unknown as SaleLine], null, DEFAULT_TAX_SETTINGS)).toMatchObject({
      ok: false,
      issues: [{ field: 'lines[0]', rule: 'lines', message: 'line 1: a line (got null)' }],
    });
  });
});

describe('discount limits', () => {
  const lines = [
    line('a', 10_000, 1, 'ppn', { discount: { kind: 'percent', valueBp: 1000 } }), // 10%: at the limit
    line('b', 10_000, 1, 'ppn', { discount: { kind: 'amount', value: 1001 } }), // 10.01%: above
    line('c', 15, 1, 'ppn', { discount: { kind: 'percent', valueBp: 1000 } }), // 10% of 15 = 2 after rounding: still 10%
    line('d', 3, 1, 'ppn', { discount: { kind: 'amount', value: 1 } }), // 33.34%
  ];

  it('default to 10% of a line and 10% of the sale', () => {
    expect(DEFAULT_DISCOUNT_LIMITS).toEqual({ lineBp: 1000, saleBp: 1000 });
    expect(discountLimitsSchema.safeParse({ lineBp: 10_001 }).success).toBe(false);
  });

  it('name each discount above the limit: it needs a manager PIN', () => {
    const s = sale(lines, { kind: 'amount', value: 1800 }, DEFAULT_TAX_SETTINGS);
    // The sale after line discounts: 9000 + 8999 + 13 + 2 = 18.014; 1.800 is 9.99%: not above.
    expect(discountsOverLimit(lines, { kind: 'amount', value: 1800 }, s, DEFAULT_DISCOUNT_LIMITS)).toEqual([
      {
        field: 'lines[1].discount',
        lineId: 'b',
        percentBp: 1001,
        limitBp: 1000,
        message: "line 2, discount: 10.01% of the line is above the 10% a cashier may give; a manager's PIN is needed",
      },
      {
        field: 'lines[3].discount',
        lineId: 'd',
        percentBp: 3334,
        limitBp: 1000,
        message: "line 4, discount: 33.34% of the line is above the 10% a cashier may give; a manager's PIN is needed",
      },
    ]);
    const s2 = sale(lines, { kind: 'percent', valueBp: 1500 }, DEFAULT_TAX_SETTINGS);
    expect(discountsOverLimit(lines, { kind: 'percent', valueBp: 1500 }, s2, { lineBp: 10_000, saleBp: 1000 })).toEqual(
      [
        {
          field: 'saleDiscount',
          percentBp: 1500,
          limitBp: 1000,
          message: "saleDiscount: 15% of the sale is above the 10% a cashier may give; a manager's PIN is needed",
        },
      ],
    );
  });

  it('a limit of 100% never asks for a PIN', () => {
    const s = sale(lines, { kind: 'percent', valueBp: 10_000 }, DEFAULT_TAX_SETTINGS);
    expect(
      discountsOverLimit(lines, { kind: 'percent', valueBp: 10_000 }, s, { lineBp: 10_000, saleBp: 10_000 }),
    ).toEqual([]);
  });
});

describe('saleLineSchema', () => {
  it('accepts a line of the cart and names what is wrong', () => {
    expect(
      saleLineSchema.safeParse(line('a', 1000, 1, 'ppn', { fixedDenomination: { itemId: 'PULSA-50' } })).success,
    ).toBe(true);
    const r = saleLineSchema.safeParse({
      lineId: 'a',
      name: ' ',
      unitPrice: 1,
      qty: 1,
      taxCategory: 'ppn',
      barcode: '123',
    });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['barcode', 'a stored barcode: 8 or 13 digits'],
      ['name', '1 to 80 characters, without control, invisible or text-direction characters (it is empty)'],
    ]);
  });
});

describe('computeSale: properties over random carts, discounts and settings', () => {
  const run = (
    drafts: Parameters<typeof toLines>[0],
    shape: Parameters<typeof saleDiscountFor>[0],
    settings: TaxSettings,
  ) => {
    const lines = toLines(drafts);
    const afterLine = computeSale(lines, null, settings);
    if (!afterLine.ok) {
      // Huge prices × huge quantities can pass the sale's limit: that must be the only issue, and then the case is out.
      expect(afterLine.issues).toMatchObject([{ field: 'lines', rule: 'too_large' }]);
      fc.pre(false);
      throw new Error('unreachable');
    }
    const discount = saleDiscountFor(shape, afterLine.sale.afterDiscounts);
    const r = computeSale(lines, discount, settings);
    if (!r.ok) throw new Error(r.issues[0]!.message);
    return { lines, discount, s: r.sale };
  };

  it('base + taxes + service = total to the rupiah; shares and line totals sum exactly; no line below 0; 0 ≤ ppn ≤ S', () => {
    fc.assert(
      fc.property(cartArb, saleDiscountArb, taxSettingsArb, (drafts, shape, settings) => {
        const { s } = run(drafts, shape, settings);
        const whole = (v: number) => Number.isSafeInteger(v) && v >= 0;
        for (const [k, v] of Object.entries(s)) if (typeof v === 'number') expect(whole(v), k).toBe(true);
        for (const l of s.lines) {
          for (const v of [l.gross, l.lineDiscount, l.saleDiscount, l.net, l.total]) expect(whole(v)).toBe(true);
          expect(l.net).toBe(l.gross - l.lineDiscount - l.saleDiscount);
          expect(l.lineDiscount + l.saleDiscount).toBeLessThanOrEqual(l.gross);
        }
        expect(s.net + s.ppn + s.pbjt + s.service).toBe(s.total);
        expect(s.lines.reduce((a, l) => a + l.saleDiscount, 0)).toBe(s.saleDiscount);
        expect(s.lines.reduce((a, l) => a + l.total, 0)).toBe(s.total);
        expect(s.lines.reduce((a, l) => a + l.net, 0)).toBe(s.afterDiscounts);
        expect(s.subtotal - s.discounts).toBe(s.afterDiscounts);
        for (const c of s.categories) {
          expect(c.net + c.ppn + c.pbjt + c.service).toBe(c.total);
          expect(c.ppn).toBeGreaterThanOrEqual(0);
          expect(c.ppn).toBeLessThanOrEqual(c.sum);
        }
        if (settings.pricesIncludeTax && !(settings.service.enabled && s.categories.some((c) => c.category === 'pbjt')))
          expect(s.total).toBe(s.afterDiscounts);
      }),
      propertyParams(500),
    );
  });

  it('monotonic in quantity: one more of a line never lowers the total or a tax (no sale discount, or one category)', () => {
    fc.assert(
      fc.property(
        cartArb,
        saleDiscountArb,
        taxSettingsArb,
        fc.nat(),
        fc.integer({ min: 1, max: 50 }),
        (drafts, shape, settings, pick, more) => {
          const oneCategory = drafts.map((d) => ({ ...d, taxCategory: drafts[0]!.taxCategory }));
          for (const [cart, discountShape] of [
            [drafts, undefined],
            [oneCategory, shape?.kind === 'amount' ? shape : undefined],
          ] as const) {
            const i = pick % cart.length;
            fc.pre(cart[i]!.qty + more <= 9999);
            const before = run(cart, discountShape, settings);
            const bigger = toLines(cart.map((d, k) => (k === i ? { ...d, qty: d.qty + more } : d)));
            // The same sale discount amount as before (not re-derived from the bigger cart).
            const r = computeSale(bigger, before.discount, settings);
            if (!r.ok && r.issues[0]!.rule === 'too_large') continue;
            if (!r.ok) throw new Error(r.issues[0]!.message);
            expect(r.sale.total).toBeGreaterThanOrEqual(before.s.total);
            expect(r.sale.ppn + r.sale.pbjt).toBeGreaterThanOrEqual(before.s.ppn + before.s.pbjt);
          }
        },
      ),
      propertyParams(300),
    );
  });
});
