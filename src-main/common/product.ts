import { z } from 'zod';
import { checkBarcode } from './barcode';
import { MAX_UNIT_PRICE, NAME_RULE, nameProblem } from './sale-line';
import { characterCount } from './settings';
import { badTextReason } from './strict-json';
import { taxCategorySchema, type TaxCategory } from './tax';

/**
 * A product of the store's catalogue, as a type and a zod schema (the API, the manager's edit form, the stored
 * catalogue). The catalogue file's import and export are in core/products; docs/catalogue.md has every rule.
 *
 * Decided here: a SKU is 1 to 40 characters without control characters or spaces at either end, unique in the
 * catalogue ignoring letter case ("abc-1" and "ABC-1" are one SKU, as a person searching types either); a name 1 to
 * 80 characters; a category 0 to 40 (empty: none); at most 20 barcodes, each a valid EAN-13, EAN-8 or UPC-A kept in
 * its stored form (a UPC-A as its EAN-13); a price 0 to Rp10.000.000.000; itemId (the gateway's item_id of a
 * fixed-denomination product such as airtime) 1 to 50 characters.
 */

export const SKU_RULE = '1 to 40 characters, without control characters or spaces at either end';
export const CATEGORY_RULE = 'at most 40 characters, without control characters or spaces at either end';
export const ITEM_ID_RULE = '1 to 50 characters, without control characters or spaces';
export const PRICE_RULE = 'a whole number of rupiah from 0 to 10000000000, without decimals';
export const MAX_BARCODES = 20;

function trimmedText(min: number, max: number, rule: string) {
  return z
    .string({ error: rule })
    .refine(
      (s) => s.trim() === s && characterCount(s) >= min && characterCount(s) <= max && badTextReason(s) === undefined,
      { error: rule },
    );
}

export const skuSchema = trimmedText(1, 40, SKU_RULE);
export const categorySchema = trimmedText(0, 40, CATEGORY_RULE);
export const itemIdSchema = z
  .string({ error: ITEM_ID_RULE })
  .regex(/^[^\s\u0000-\u001f\u007f-\u009f]{1,50}$/u, { error: ITEM_ID_RULE }); // eslint-disable-line no-control-regex

/** A barcode in its stored form: valid, and a UPC-A written as its EAN-13. */
export const storedBarcodeSchema = z.string().superRefine((code, ctx) => {
  const check = checkBarcode(code);
  if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message });
  else if (check.code !== code)
    ctx.addIssue({ code: 'custom', message: `a UPC-A is kept as its EAN-13: ${check.code}` });
});

export const productFieldsSchema = z
  .object({
    sku: skuSchema,
    name: z.string({ error: NAME_RULE }).refine((s) => nameProblem(s) === undefined && s.trim() === s, {
      error: `${NAME_RULE}, without spaces at either end`,
    }),
    barcodes: z
      .array(storedBarcodeSchema)
      .max(MAX_BARCODES, { error: `at most ${MAX_BARCODES} barcodes` })
      .refine((b) => new Set(b).size === b.length, { error: 'each barcode once' }),
    category: categorySchema,
    price: z
      .number({ error: PRICE_RULE })
      .int({ error: PRICE_RULE })
      .min(0, { error: PRICE_RULE })
      .max(MAX_UNIT_PRICE, { error: PRICE_RULE }),
    taxCategory: taxCategorySchema,
    active: z.boolean({ error: 'true or false' }),
    itemId: itemIdSchema.optional(),
  })
  .strict();

export const productSchema = productFieldsSchema
  .extend({ id: z.string().min(1, { error: 'an id' }).max(64, { error: 'at most 64 characters' }) })
  .strict();

/** A product before the store gives it an id (an imported row, a new product in the form). */
export type ProductFields = z.infer<typeof productFieldsSchema>;
export type Product = z.infer<typeof productSchema>;

/** The key a SKU is unique by. */
export function skuKey(sku: string): string {
  return sku.toLowerCase();
}

/** An item of the store's quick-item catalogue (resources/items.json): fixed price, `item_id` sent along. */
export interface CatalogueItem {
  itemId: string;
  name: string;
  price: number;
}

/**
 * Today's quick items (resources/items.json) as catalogue products: the item's id becomes the SKU and stays its
 * gateway item_id (a quick item sent item_id before, so a sale of one such item sends the same order as today), no
 * barcode or category, the store's default tax category, active.
 */
export function quickItemsAsProducts(items: readonly CatalogueItem[], taxCategory: TaxCategory): ProductFields[] {
  return items.map((item) => ({
    sku: item.itemId,
    name: item.name,
    barcodes: [],
    category: '',
    price: item.price,
    taxCategory,
    active: true,
    itemId: item.itemId,
  }));
}
