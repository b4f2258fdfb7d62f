import { z } from 'zod';
import {
  barcodeRule,
  categoryRule,
  CATEGORY_RULE,
  itemIdRule,
  ITEM_ID_RULE,
  MAX_BARCODES,
  nameRule,
  priceRule,
  PRICE_RULE,
  skuRule,
  SKU_RULE,
  type BrokenRule,
} from './product-rules';
import { NAME_RULE } from './sale-line';
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

export { CATEGORY_RULE, ITEM_ID_RULE, MAX_BARCODES, PRICE_RULE, SKU_RULE } from './product-rules';

/** A field's schema that refuses what its rule (product-rules.ts) refuses, with the rule's words. */
function keeping<S extends z.ZodType>(
  schema: S,
  rule: (value: z.output<S>) => BrokenRule | undefined,
  words: string,
): S {
  return schema.refine((value) => rule(value) === undefined, { error: words });
}

export const skuSchema = keeping(z.string({ error: SKU_RULE }), skuRule, SKU_RULE);
export const categorySchema = keeping(z.string({ error: CATEGORY_RULE }), categoryRule, CATEGORY_RULE);
export const itemIdSchema = keeping(z.string({ error: ITEM_ID_RULE }), itemIdRule, ITEM_ID_RULE);

/** A barcode in its stored form: valid, and a UPC-A written as its EAN-13. */
export const storedBarcodeSchema = z.string().superRefine((code, ctx) => {
  const barcode = barcodeRule(code);
  if (!barcode.ok) ctx.addIssue({ code: 'custom', message: barcode.broken.problem });
  else if (barcode.stored !== code)
    ctx.addIssue({ code: 'custom', message: `a UPC-A is kept as its EAN-13: ${barcode.stored}` });
});

export const productFieldsSchema = z
  .object({
    sku: skuSchema,
    name: keeping(z.string({ error: NAME_RULE }), nameRule, `${NAME_RULE}, without spaces at either end`),
    barcodes: z
      .array(storedBarcodeSchema)
      .max(MAX_BARCODES, { error: `at most ${MAX_BARCODES} barcodes` })
      .refine((b) => new Set(b).size === b.length, { error: 'each barcode once' }),
    category: categorySchema,
    price: keeping(z.number({ error: PRICE_RULE }), priceRule, PRICE_RULE),
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
