import { z } from 'zod';
import { characterCount } from './settings';
import { badTextReason } from './strict-json';
import { taxCategorySchema, type TaxCategory } from './tax';
import { hiddenCharacterReason } from './visible-text';
import { MAX_RUPIAH, rupiahRule, rupiahSchema, type RupiahRange } from './whole-rupiah';

/**
 * A line of a sale (the cart) and a discount, as types and zod schemas for the API and the stored sale. The math
 * on them is in sale-totals.ts; their limits are here, once.
 *
 * Decided here: a unit price is at most Rp10.000.000.000 (ten billion) and 0 is allowed (a free item); a name is 1 to
 * 80 characters (code points) without control characters, invisible or text-direction characters, the same rule as a
 * product's name; a line id is 1 to 64 characters (the cart makes them; a UUID fits).
 */

export const MAX_QTY = 9999;
export const MAX_UNIT_PRICE = 10_000_000_000;
export const MAX_NAME_CHARS = 80;

export const UNIT_PRICE_RANGE: RupiahRange = { min: 0, max: MAX_UNIT_PRICE };
/** A discount in rupiah: never more than the line or the sale it is of (sale-totals.ts says so); this bounds it. */
export const DISCOUNT_AMOUNT_RANGE: RupiahRange = { min: 0, max: MAX_RUPIAH };

export const QTY_RULE = `a whole number from 1 to ${MAX_QTY}`;
export const UNIT_PRICE_RULE = rupiahRule(UNIT_PRICE_RANGE);
export const NAME_RULE = `1 to ${MAX_NAME_CHARS} characters, without control, invisible or text-direction characters`;
export const PERCENT_RULE = 'a whole number of basis points from 0 to 10000 (1000 = 10%)';
export const DISCOUNT_AMOUNT_RULE = rupiahRule(DISCOUNT_AMOUNT_RANGE);

/**
 * A name's problem (the rule in words), or undefined when it is a good name of a line or a product. A name is
 * printed on the struk and shown on the customer's screen, so a right-to-left override or a zero-width character
 * is refused as the gateway's item_name refuses it (visible-text.ts), named by its code point.
 */
export function nameProblem(name: string): string | undefined {
  const bad = badTextReason(name) ?? hiddenCharacterReason(name); // "must not contain …"
  if (bad !== undefined) return `${NAME_RULE}: it ${bad.replace(/^must not contain/, 'contains')}`;
  if (name.trim() === '') return `${NAME_RULE} (it is empty)`;
  const n = characterCount(name);
  if (n > MAX_NAME_CHARS) return `${NAME_RULE} (got ${n})`;
  return undefined;
}

/** A discount: an amount in rupiah, or a percentage in basis points (1000 = 10%). */
export type Discount = { kind: 'amount'; value: number } | { kind: 'percent'; valueBp: number };

export const discountSchema = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('amount'),
        value: rupiahSchema(DISCOUNT_AMOUNT_RANGE),
      })
      .strict(),
    z
      .object({
        kind: z.literal('percent'),
        valueBp: z
          .number({ error: PERCENT_RULE })
          .int({ error: PERCENT_RULE })
          .min(0, { error: PERCENT_RULE })
          .max(10_000, { error: PERCENT_RULE }),
      })
      .strict(),
  ],
  { error: "a discount is { kind: 'amount', value } or { kind: 'percent', valueBp }" },
);

/** A line of the cart. */
export interface SaleLine {
  lineId: string;
  /** The catalogue product it came from; absent for a free-typed line. */
  productId?: string;
  sku?: string;
  /** The barcode it was scanned by, when it was scanned. */
  barcode?: string;
  name: string;
  unitPrice: number;
  qty: number;
  taxCategory: TaxCategory;
  /** A fixed-denomination product (airtime): its gateway item_id. */
  fixedDenomination?: { itemId: string };
  discount?: Discount;
}

const shortText = (max: number) => {
  const rule = `1 to ${max} characters, without control characters`;
  return z
    .string({ error: rule })
    .refine((s) => s !== '' && characterCount(s) <= max && badTextReason(s) === undefined, { error: rule });
};

export const saleLineSchema = z
  .object({
    lineId: shortText(64),
    productId: shortText(64).optional(),
    sku: shortText(40).optional(),
    barcode: z
      .string()
      .regex(/^(\d{8}|\d{13})$/, { error: 'a stored barcode: 8 or 13 digits' })
      .optional(),
    // The refusal says which rule and, for a hidden character, which one (U+202E), as an item name's does.
    name: z.string({ error: NAME_RULE }).refine((s) => nameProblem(s) === undefined, {
      error: (issue) => (typeof issue.input === 'string' ? nameProblem(issue.input) : undefined) ?? NAME_RULE,
    }),
    unitPrice: rupiahSchema(UNIT_PRICE_RANGE),
    qty: z
      .number({ error: QTY_RULE })
      .int({ error: QTY_RULE })
      .min(1, { error: QTY_RULE })
      .max(MAX_QTY, { error: QTY_RULE }),
    taxCategory: taxCategorySchema,
    fixedDenomination: z
      .object({ itemId: shortText(50) })
      .strict()
      .optional(),
    discount: discountSchema.optional(),
  })
  .strict();
