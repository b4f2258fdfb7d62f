import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { settingsIssues } from '../../src-main/common/settings';
import {
  DEFAULT_TAX_SETTINGS,
  categoryTax,
  formatRateBp,
  isNpwp,
  taxSettingsSchema,
  type TaxSettings,
} from '../../src-main/common/tax';
import { propertyParams } from './helpers/property';
import { taxSettingsArb } from './helpers/sale-arbitraries';

const settings = (over: Record<string, unknown>): TaxSettings => taxSettingsSchema.parse(over);

describe('tax settings', () => {
  it('default to PPN 12% × 11/12 on prices that include it, PBJT off at 10%, service off at 5%, not PKP', () => {
    expect(DEFAULT_TAX_SETTINGS).toEqual({
      ppn: { rateBp: 1200, dpp: { num: 11, den: 12 } },
      pricesIncludeTax: true,
      pbjt: { enabled: false, rateBp: 1000 },
      service: { enabled: false, rateBp: 500 },
      pkp: { enabled: false, sellerName: '', address: '', npwp: '' },
      defaultCategory: 'ppn',
    });
    expect(taxSettingsSchema.parse({ pbjt: { enabled: true } }).pbjt).toEqual({ enabled: true, rateBp: 1000 });
  });

  it('name each field that breaks its rule', () => {
    const r = taxSettingsSchema.safeParse({
      ppn: { rateBp: 12.5, dpp: { num: 12, den: 11 } },
      pricesIncludeTax: 'yes',
      pbjt: { enabled: true, rateBp: 10_001 },
      service: { rateBp: -1 },
      defaultCategory: 'vat',
      surprise: 1,
    });
    expect(r.success).toBe(false);
    const messages = settingsIssues(r.error!, ['tax']).map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'tax.ppn.rateBp: a whole number of basis points from 0 to 10000 (1200 = 12%)',
        'tax.ppn.dpp: whole numbers with 1 ≤ num ≤ den ≤ 10000 (11/12: the tax base is 11/12 of the price)',
        'tax.pricesIncludeTax: on or off (true or false)',
        'tax.pbjt.rateBp: a whole number of basis points from 0 to 10000 (1200 = 12%)',
        'tax.service.rateBp: a whole number of basis points from 0 to 10000 (1200 = 12%)',
        'tax.defaultCategory: ppn (ordinary goods: PPN), pbjt (restaurant food and drink: PBJT and the service charge) or exempt (no tax)',
        'tax.surprise: not a setting Loket knows',
      ]),
    );
  });

  it('require the seller, address and NPWP of a PKP store', () => {
    const r = taxSettingsSchema.safeParse({ pkp: { enabled: true, sellerName: 'PT Loket', npwp: '12.345' } });
    const messages = settingsIssues(r.error!, ['tax']).map((i) => i.message);
    expect(messages).toEqual([
      "tax.pkp.npwp: the NPWP's 15 or 16 digits, optionally with dots, dashes or spaces between them (01.234.567.8-901.000)",
      'tax.pkp.address: required for a PKP store: the registered address, at most 120 characters on at most 3 lines',
    ]);
    const r2 = taxSettingsSchema.safeParse({ pkp: { enabled: true } });
    expect(settingsIssues(r2.error!, ['tax']).map((i) => i.field)).toEqual([
      'tax.pkp.sellerName',
      'tax.pkp.address',
      'tax.pkp.npwp',
    ]);
    const ok = taxSettingsSchema.parse({
      pkp: {
        enabled: true,
        sellerName: 'PT Toko Loket',
        address: 'Jl. Merdeka 1\nJakarta',
        npwp: '01.234.567.8-901.000',
      },
    });
    expect(ok.pkp.enabled).toBe(true);
  });

  it('know an NPWP of 15 or 16 digits', () => {
    expect(isNpwp('01.234.567.8-901.000')).toBe(true);
    expect(isNpwp('012345678901000')).toBe(true);
    expect(isNpwp('3171234567890001')).toBe(true);
    expect(isNpwp('01234567890100')).toBe(false);
    expect(isNpwp('01.234.567.8-901.000.')).toBe(false);
    expect(isNpwp('NPWP 012345678901000')).toBe(false);
  });

  it('format rates for people', () => {
    expect(formatRateBp(1200)).toBe('12%');
    expect(formatRateBp(1250)).toBe('12.5%');
    expect(formatRateBp(1)).toBe('0.01%');
    expect(formatRateBp(0)).toBe('0%');
    expect(formatRateBp(10_000)).toBe('100%');
  });
});

describe('categoryTax: one worked example per case (docs/tax.md)', () => {
  it('ppn, prices include tax: S = 111.000 gives PPN 11.000, net 100.000, DPP 91.667', () => {
    expect(categoryTax('ppn', 111_000, DEFAULT_TAX_SETTINGS)).toEqual({
      category: 'ppn',
      sum: 111_000,
      net: 100_000,
      dpp: 91_667,
      ppn: 11_000,
      pbjt: 0,
      service: 0,
      total: 111_000,
    });
  });

  it('ppn, prices include tax, with rounding: S = 18.000 gives PPN 1.784 (1.783,78), net 16.216, DPP 14.865', () => {
    expect(categoryTax('ppn', 18_000, DEFAULT_TAX_SETTINGS)).toMatchObject({
      ppn: 1784,
      net: 16_216,
      dpp: 14_865,
      total: 18_000,
    });
  });

  it('ppn, prices exclude tax: S = 100.000 adds PPN 11.000 on DPP 91.667; S = 18.000 adds 1.980', () => {
    const exclusive = settings({ pricesIncludeTax: false });
    expect(categoryTax('ppn', 100_000, exclusive)).toEqual({
      category: 'ppn',
      sum: 100_000,
      net: 100_000,
      dpp: 91_667,
      ppn: 11_000,
      pbjt: 0,
      service: 0,
      total: 111_000,
    });
    expect(categoryTax('ppn', 18_000, exclusive)).toMatchObject({ ppn: 1980, dpp: 16_500, total: 19_980 });
  });

  it('pbjt on, prices include tax, no service: the customer pays the shelf price', () => {
    expect(categoryTax('pbjt', 110_000, settings({ pbjt: { enabled: true } }))).toEqual({
      category: 'pbjt',
      sum: 110_000,
      net: 100_000,
      dpp: 0,
      ppn: 0,
      pbjt: 10_000,
      service: 0,
      total: 110_000,
    });
  });

  it('pbjt on, prices include tax, service 5%: service on the net, PBJT on the service added', () => {
    expect(
      categoryTax('pbjt', 110_000, settings({ pbjt: { enabled: true }, service: { enabled: true } })),
    ).toMatchObject({
      net: 100_000,
      service: 5000,
      pbjt: 10_500,
      total: 115_500,
    });
  });

  it('pbjt on, prices exclude tax, service 5%: PBJT on the sum and the service', () => {
    expect(
      categoryTax(
        'pbjt',
        100_000,
        settings({ pricesIncludeTax: false, pbjt: { enabled: true }, service: { enabled: true } }),
      ),
    ).toMatchObject({ net: 100_000, service: 5000, pbjt: 10_500, ppn: 0, total: 115_500 });
  });

  it('pbjt off: no tax, and the service charge when it is on', () => {
    expect(categoryTax('pbjt', 100_000, DEFAULT_TAX_SETTINGS)).toMatchObject({
      net: 100_000,
      pbjt: 0,
      service: 0,
      total: 100_000,
    });
    expect(categoryTax('pbjt', 100_000, settings({ service: { enabled: true } }))).toMatchObject({
      net: 100_000,
      pbjt: 0,
      service: 5000,
      total: 105_000,
    });
  });

  it('exempt: no tax, no service', () => {
    expect(categoryTax('exempt', 50_000, settings({ pbjt: { enabled: true }, service: { enabled: true } }))).toEqual({
      category: 'exempt',
      sum: 50_000,
      net: 50_000,
      dpp: 0,
      ppn: 0,
      pbjt: 0,
      service: 0,
      total: 50_000,
    });
  });

  it('a ppn line never carries PBJT, a pbjt line never PPN', () => {
    const both = settings({ pbjt: { enabled: true }, service: { enabled: true } });
    expect(categoryTax('ppn', 100_000, both)).toMatchObject({ pbjt: 0, service: 0 });
    expect(categoryTax('pbjt', 100_000, both)).toMatchObject({ ppn: 0, dpp: 0 });
  });

  it('rounds half up', () => {
    // S = 5: 5 × 11/111 = 0.495 → 0; S = 50: 4.95 → 5.
    expect(categoryTax('ppn', 5, DEFAULT_TAX_SETTINGS).ppn).toBe(0);
    expect(categoryTax('ppn', 50, DEFAULT_TAX_SETTINGS).ppn).toBe(5);
    // 10% exclusive of 15 = 1.5 → 2 (half up).
    expect(
      categoryTax('ppn', 15, settings({ pricesIncludeTax: false, ppn: { rateBp: 1000, dpp: { num: 1, den: 1 } } })).ppn,
    ).toBe(2);
  });

  it('parts sum to the total, every figure a whole rupiah, 0 ≤ ppn ≤ S (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('ppn' as const, 'pbjt' as const, 'exempt' as const),
        fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 10_000_000_000_000 })),
        taxSettingsArb,
        (category, sum, s) => {
          const t = categoryTax(category, sum, s);
          for (const v of Object.values(t))
            if (typeof v === 'number') expect(Number.isSafeInteger(v) && v >= 0).toBe(true);
          expect(t.net + t.ppn + t.pbjt + t.service).toBe(t.total);
          expect(t.ppn).toBeLessThanOrEqual(sum);
          expect(t.net).toBeLessThanOrEqual(sum);
          // Prices that include tax: the customer pays the shelf price, unless a service charge is added.
          if (s.pricesIncludeTax && !(category === 'pbjt' && s.service.enabled)) expect(t.total).toBe(sum);
          if (category !== 'pbjt') expect(t.service).toBe(0);
          if (category !== 'ppn') expect(t.ppn).toBe(0);
        },
      ),
      propertyParams(2000),
    );
  });
});
