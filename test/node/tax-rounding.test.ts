import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeSale } from '../../src-main/common/sale-totals';
import {
  DEFAULT_TAX_SETTINGS,
  TAX_CATEGORIES,
  categoryTax,
  taxSettingsSchema,
  type TaxSettings,
} from '../../src-main/common/tax';
import { propertyParams } from './helpers/property';
import { taxSettingsArb } from './helpers/sale-arbitraries';

/**
 * The rounding rule of docs/tax.md ("Rounding"): the PPN printed is the rate times the DPP printed, rounded half-up
 * (what Coretax checks), on every price, and every sum still closes to the rupiah. Checked against a second, simple
 * computation written here (plain integer arithmetic and a sweep over the prices without tax), on every price from 1
 * to 2.000.000 for the default PPN (12% × 11/12) and the luxury one (12% of the full price), both price modes, and on
 * a random sample plus the boundaries for other rates and factors.
 */

const MAX = 2_000_000;
/** Two million prices take a few seconds on a quiet machine; a shared one can be ten times slower. */
const EVERY_PRICE_TIMEOUT = 180_000;

/** round(a / b) half-up, for a ≥ 0 and b > 0, in plain integers (all products here stay below 2^53). */
const roundDiv = (a: number, b: number): number => Math.floor((2 * a + b) / (2 * b));

const withSettings = (over: Record<string, unknown>): TaxSettings => taxSettingsSchema.parse(over);

/** The oracle's PPN of a price without tax: DPP first, then the rate times the DPP. */
function oraclePpn(price: number, r: number, num: number, den: number): { dpp: number; ppn: number } {
  const dpp = roundDiv(price * num, den);
  return { dpp, ppn: roundDiv(dpp * r, 10_000) };
}

/**
 * For every shelf price S in [0, max] that includes tax: the largest price without tax N with N + PPN(N) ≤ S, found
 * by walking N upward (N + PPN(N) never falls), and whether S is one that no N reaches exactly.
 */
function sweep(max: number, r: number, num: number, den: number): { n: Int32Array; skipped: Uint8Array } {
  const n = new Int32Array(max + 1);
  const skipped = new Uint8Array(max + 1);
  let price = 0;
  let at = oraclePpn(0, r, num, den).ppn; // N + PPN(N) for N = price
  for (let s = 0; s <= max; s++) {
    while (price + 1 + oraclePpn(price + 1, r, num, den).ppn <= s) {
      price++;
      at = price + oraclePpn(price, r, num, den).ppn;
    }
    n[s] = price;
    skipped[s] = at === s ? 0 : 1;
  }
  return { n, skipped };
}

/** Checks one price of the ppn category against the oracle; returns whether the shelf price was a skipped one. */
function checkPpnPrice(s: number, settings: TaxSettings, oracle?: ReturnType<typeof sweep>): boolean {
  const { rateBp: r, dpp: f } = settings.ppn;
  const t = categoryTax('ppn', s, settings);
  // The rule Coretax checks, on the figures as printed.
  if (t.ppn !== roundDiv(t.dpp * r, 10_000))
    throw new Error(`S = ${s}: PPN ${t.ppn} is not ${r / 100}% of DPP ${t.dpp}`);
  if (t.net + t.ppn !== t.total) throw new Error(`S = ${s}: net ${t.net} + PPN ${t.ppn} ≠ total ${t.total}`);
  if (!settings.pricesIncludeTax) {
    const want = oraclePpn(s, r, f.num, f.den);
    if (t.net !== s || t.dpp !== want.dpp || t.ppn !== want.ppn || t.total !== s + want.ppn)
      throw new Error(`S = ${s} (excluding tax): got ${JSON.stringify(t)}, want ${JSON.stringify(want)}`);
    return false;
  }
  if (t.total !== s) throw new Error(`S = ${s} (including tax): the customer pays ${t.total}, not the shelf price`);
  // Brute force when no sweep is at hand: N is within a few rupiah of the exact share (and at most S).
  let n: number;
  let skipped: boolean;
  if (oracle) {
    n = oracle.n[s]!;
    skipped = oracle.skipped[s] === 1;
  } else {
    const exact = Math.floor((s * 10_000 * f.den) / (10_000 * f.den + r * f.num));
    n = Math.min(s, exact + 4);
    while (n > 0 && n + oraclePpn(n, r, f.num, f.den).ppn > s) n--;
    skipped = n + oraclePpn(n, r, f.num, f.den).ppn !== s;
  }
  const want = oraclePpn(n, r, f.num, f.den);
  if (t.dpp !== want.dpp || t.ppn !== want.ppn || t.net !== s - want.ppn)
    throw new Error(`S = ${s} (including tax): got ${JSON.stringify(t)}, want N = ${n} ${JSON.stringify(want)}`);
  // The net is the price without tax N, or N + 1 on a shelf price no N reaches (the rupiah over stays in it).
  if (t.net !== n + (skipped ? 1 : 0)) throw new Error(`S = ${s}: net ${t.net}, N = ${n}, skipped ${skipped}`);
  return skipped;
}

function checkOtherCategories(s: number, settings: TaxSettings): void {
  for (const category of ['pbjt', 'exempt'] as const) {
    const t = categoryTax(category, s, settings);
    if (t.ppn !== 0 || t.dpp !== 0) throw new Error(`S = ${s}: ${category} carries PPN ${t.ppn} on DPP ${t.dpp}`);
    if (t.net + t.ppn + t.pbjt + t.service !== t.total) throw new Error(`S = ${s}: ${category}'s parts ≠ its total`);
    const addsService = category === 'pbjt' && settings.service.enabled;
    if (settings.pricesIncludeTax && !addsService && t.total !== s)
      throw new Error(`S = ${s}: ${category} pays ${t.total}, not the shelf price`);
  }
}

const EVERY_PRICE: [string, Record<string, unknown>][] = [
  ['12% × 11/12 (DPP nilai lain, the default)', {}],
  ['12% of the full price (luxury goods)', { ppn: { rateBp: 1200, dpp: { num: 1, den: 1 } } }],
];

describe('the printed PPN is the rate times the printed DPP', () => {
  for (const [name, over] of EVERY_PRICE)
    for (const include of [true, false])
      it(
        `on every price from 1 to 2.000.000: ${name}, prices ${include ? 'including' : 'excluding'} tax`,
        () => {
          const settings = withSettings({
            ...over,
            pricesIncludeTax: include,
            pbjt: { enabled: true },
            service: { enabled: true },
          });
          const { rateBp: r, dpp: f } = settings.ppn;
          const oracle = include ? sweep(MAX, r, f.num, f.den) : undefined;
          let skipped = 0;
          for (let s = 1; s <= MAX; s++) {
            if (checkPpnPrice(s, settings, oracle)) skipped++;
            if (s % 7 === 0) checkOtherCategories(s, settings);
          }
          // Prices including tax: N + PPN(N) skips a shelf price each time PPN(N) grows, about r·n/d of the prices in
          // 1 + r·n/d (1 in 10 at 11%): those are the prices whose DPP is that of net − 1.
          const effective = (r * f.num) / (10_000 * f.den);
          if (include) expect(skipped / MAX).toBeCloseTo(effective / (1 + effective), 3);
          else expect(skipped).toBe(0);
        },
        EVERY_PRICE_TIMEOUT,
      );

  it('on a random sample and the boundaries, for any rate, factor and price mode', () => {
    const boundary = fc.constantFrom(0, 1, 2, 5, 9, 10, 11, 99, 100, 101, 1041, 9999, 10_000, 10_001, MAX);
    fc.assert(
      fc.property(
        fc.oneof(boundary, fc.integer({ min: 0, max: MAX }), fc.integer({ min: 0, max: 100_000_000 })),
        taxSettingsArb,
        (s, settings) => {
          checkPpnPrice(s, settings);
          checkOtherCategories(s, settings);
        },
      ),
      propertyParams(20_000),
    );
  });

  it('on the sum of each category of a cart, and so on the struk: PPN = round(rate × DPP), parts = total', () => {
    const lines = fc.array(
      fc.record({
        unitPrice: fc.integer({ min: 0, max: 2_000_000 }),
        qty: fc.integer({ min: 1, max: 12 }),
        taxCategory: fc.constantFrom(...TAX_CATEGORIES),
      }),
      { minLength: 1, maxLength: 8 },
    );
    fc.assert(
      fc.property(lines, taxSettingsArb, (drafts, settings) => {
        const r = computeSale(
          drafts.map((d, i) => ({ lineId: `L${i + 1}`, ...d })),
          null,
          settings,
        );
        if (!r.ok) throw new Error(JSON.stringify(r.issues));
        const sale = r.sale;
        // Only the ppn category carries PPN, so the sale's PPN and DPP (what the struk prints) obey the rule too.
        expect(sale.ppn).toBe(roundDiv(sale.dpp * settings.ppn.rateBp, 10_000));
        expect(sale.net + sale.ppn + sale.pbjt + sale.service).toBe(sale.total);
        for (const c of sale.categories) {
          expect(c.ppn).toBe(roundDiv(c.dpp * settings.ppn.rateBp, 10_000));
          expect(c.net + c.ppn + c.pbjt + c.service).toBe(c.total);
        }
      }),
      propertyParams(3000),
    );
  });
});

describe('the worked examples of docs/tax.md ("Rounding")', () => {
  const excluding = withSettings({ pricesIncludeTax: false });

  it('Rp11.100 including tax: PPN Rp1.100 on DPP Rp9.167, net Rp10.000', () => {
    expect(categoryTax('ppn', 11_100, DEFAULT_TAX_SETTINGS)).toMatchObject({
      net: 10_000,
      dpp: 9167,
      ppn: 1100,
      total: 11_100,
    });
  });

  it('Rp1.000.000 excluding tax: DPP nilai lain Rp916.667, PPN Rp110.000, the customer pays Rp1.110.000', () => {
    expect(categoryTax('ppn', 1_000_000, excluding)).toMatchObject({
      net: 1_000_000,
      dpp: 916_667,
      ppn: 110_000,
      total: 1_110_000,
    });
  });

  it('3 × Rp25.000 including tax: rounded once on the sum (PPN 7.432), not 3 × the PPN of one (3 × 2.477)', () => {
    const three = computeSale(
      [{ lineId: 'a', unitPrice: 25_000, qty: 3, taxCategory: 'ppn' }],
      null,
      DEFAULT_TAX_SETTINGS,
    );
    expect(three.ok && three.sale).toMatchObject({ net: 67_568, dpp: 61_937, ppn: 7432, total: 75_000 });
    // One of them alone is a shelf price no price without tax reaches: N = 22.522 (22.522 + 2.477 = 24.999), so the
    // DPP and PPN are N's and the rupiah over stays in the net.
    expect(categoryTax('ppn', 25_000, DEFAULT_TAX_SETTINGS)).toMatchObject({
      net: 22_523,
      dpp: 20_645,
      ppn: 2477,
      total: 25_000,
    });
  });

  it("the issue's price: Rp1.041 excluding tax gives DPP 954 and PPN 114 (12% × 954 = 114,48), not 115", () => {
    expect(categoryTax('ppn', 1041, excluding)).toMatchObject({ dpp: 954, ppn: 114, total: 1155 });
  });
});
