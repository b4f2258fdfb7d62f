import fc from 'fast-check';
import { mulDivFloor } from '../../../src-main/common/money-math';
import type { Discount, SaleLine } from '../../../src-main/common/sale-line';
import { TAX_CATEGORIES, taxSettingsSchema, type TaxSettings } from '../../../src-main/common/tax';

/**
 * fast-check generators of carts, discounts and tax settings, shared by the property tests of the sale's figures,
 * the tenders and the refunds. Amounts are mostly shop-sized, sometimes huge (near the limits), so both the number
 * and the BigInt paths of money-math are exercised.
 */

const price = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 500_000 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 200 }).map((n) => n * 500) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 10_000_000_000 }) },
);
const qty = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1, max: 12 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 9999 }) },
);

/** A line discount that is valid for its line: an amount up to the gross (as a share of it), or a percentage. */
const lineDiscount = fc.option(
  fc.oneof(
    fc.record({ kind: fc.constant('percent' as const), valueBp: fc.integer({ min: 0, max: 10_000 }) }),
    fc.record({ kind: fc.constant('amount' as const), share: fc.integer({ min: 0, max: 10_000 }) }),
  ),
  { nil: undefined },
);

export const lineArb = fc
  .record({
    unitPrice: price,
    qty,
    taxCategory: fc.constantFrom(...TAX_CATEGORIES),
    discount: lineDiscount,
    name: fc.constantFrom('Kopi susu', 'Nasi goreng', 'Beras 5 kg', 'Es teh', 'Pulsa 50.000'),
  })
  .map(({ discount, ...rest }) => ({ ...rest, discountShape: discount }));

export type LineDraft = typeof lineArb extends fc.Arbitrary<infer T> ? T : never;

/** Turns drafts into cart lines (an amount discount becomes that share of the line's gross). */
export function toLines(drafts: readonly LineDraft[]): SaleLine[] {
  return drafts.map((d, i) => {
    const line: SaleLine = {
      lineId: `L${i + 1}`,
      name: d.name,
      unitPrice: d.unitPrice,
      qty: d.qty,
      taxCategory: d.taxCategory,
    };
    const shape = d.discountShape;
    if (shape?.kind === 'percent') line.discount = { kind: 'percent', valueBp: shape.valueBp };
    if (shape?.kind === 'amount') {
      const gross = d.unitPrice * d.qty;
      line.discount = { kind: 'amount', value: mulDivFloor(gross, shape.share, 10_000) };
    }
    return line;
  });
}

export const cartArb = fc.array(lineArb, { minLength: 1, maxLength: 25 });

/** A sale discount shape; `saleDiscountFor` makes it valid for a cart. */
export const saleDiscountArb = fc.option(
  fc.oneof(
    fc.record({ kind: fc.constant('percent' as const), valueBp: fc.integer({ min: 0, max: 10_000 }) }),
    fc.record({ kind: fc.constant('amount' as const), share: fc.integer({ min: 0, max: 10_000 }) }),
  ),
  { nil: undefined },
);

export function saleDiscountFor(
  shape: { kind: 'percent'; valueBp: number } | { kind: 'amount'; share: number } | undefined,
  afterLineDiscounts: number,
): Discount | undefined {
  if (!shape) return undefined;
  if (shape.kind === 'percent') return shape;
  return { kind: 'amount', value: mulDivFloor(afterLineDiscounts, shape.share, 10_000) };
}

const rate = fc.oneof(fc.constantFrom(0, 500, 1000, 1100, 1200), fc.integer({ min: 0, max: 10_000 }));

export const taxSettingsArb: fc.Arbitrary<TaxSettings> = fc
  .record({
    rateBp: rate,
    num: fc.integer({ min: 1, max: 10_000 }),
    den: fc.integer({ min: 1, max: 10_000 }),
    usualDpp: fc.boolean(),
    pricesIncludeTax: fc.boolean(),
    pbjtOn: fc.boolean(),
    pbjtBp: rate,
    serviceOn: fc.boolean(),
    serviceBp: rate,
  })
  .map((r) =>
    taxSettingsSchema.parse({
      ppn: {
        rateBp: r.rateBp,
        dpp: r.usualDpp ? { num: 11, den: 12 } : { num: Math.min(r.num, r.den), den: Math.max(r.num, r.den) },
      },
      pricesIncludeTax: r.pricesIncludeTax,
      pbjt: { enabled: r.pbjtOn, rateBp: r.pbjtBp },
      service: { enabled: r.serviceOn, rateBp: r.serviceBp },
    }),
  );
