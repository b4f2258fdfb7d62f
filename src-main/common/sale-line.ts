import { z } from 'zod';
import { characterCount } from './settings';
import { badTextReason } from './strict-json';
import { taxCategorySchema, type TaxCategory } from './tax';

/**
 * A line of a sale (the cart) and a discount, as types and zod schemas for the API and the stored sale. The math
 * on them is in sale-totals.ts; their limits are here, once.
 *
 * Decided here: a unit price is at most Rp10.000.000.000 (ten billion) and 0 is allowed (a free item); a name is 1 to
 * 80 characters (code points) without control characters, the same rule as a product's name; a line id is 1 to 64
 * characters (the cart makes them; a UUID fits).
 */

export const MAX_QTY = 9999;
export const MAX_UNIT_PRICE = 10_000_000_000;
export const MAX_NAME_CHARS = 80;

export const QTY_RULE = `a whole number from 1 to ${MAX_QTY}`;
export const UNIT_PRICE_RULE = 'a whole number of rupiah from 0 to 10000000000';
export const NAME_RULE = `1 to ${MAX_NAME_CHARS} characters, without control characters`;
export const PERCENT_RULE = 'a whole number of basis points from 0 to 10000 (1000 = 10%)';
export const DISCOUNT_AMOUNT_RULE = 'a whole number of rupiah, 0 or more';

/** A name's problem (the rule in words), or undefined when it is a good name of a line or a product. */
export function nameProblem(name: string): string | undefined {
  const bad = badTextReason(name); // "must not contain …"
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
        value: z
          .number({ error: DISCOUNT_AMOUNT_RULE })
          .int({ error: DISCOUNT_AMOUNT_RULE })
          .min(0, { error: DISCOUNT_AMOUNT_RULE })
          .max(Number.MAX_SAFE_INTEGER, { error: DISCOUNT_AMOUNT_RULE }),
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
    name: z.string({ error: NAME_RULE }).refine((s) => nameProblem(s) === undefined, { error: NAME_RULE }),
    unitPrice: z
      .number({ error: UNIT_PRICE_RULE })
      .int({ error: UNIT_PRICE_RULE })
      .min(0, { error: UNIT_PRICE_RULE })
      .max(MAX_UNIT_PRICE, { error: UNIT_PRICE_RULE }),
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
