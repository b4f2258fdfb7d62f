import { checkBarcode } from './barcode';
import { MAX_NAME_CHARS, MAX_UNIT_PRICE, NAME_RULE, nameProblem } from './sale-line';
import { characterCount } from './settings';
import { badTextReason } from './strict-json';
import { isTaxCategory, TAX_CATEGORIES } from './tax';

/**
 * The rules of a product's fields, once: the manager's form (product-form.ts), the catalogue file's import
 * (core/products/catalogue-rows.ts) and the stored product's schema (product.ts) all ask these. Each rule answers
 * nothing when the value keeps it, or the rule it breaks: its name (the form and the import share the names,
 * docs/catalogue.md), its words in English and its numbers, so that a screen words it in its own language. Each
 * caller says where (a field, a file's line) and what it got in its own way.
 */

export const SKU_RULE = '1 to 40 characters, without control characters or spaces at either end';
export const CATEGORY_RULE = 'at most 40 characters, without control characters or spaces at either end';
export const ITEM_ID_RULE = '1 to 50 characters, without control characters or spaces';
export const PRICE_RULE = 'a whole number of rupiah from 0 to 10000000000, without decimals';
export const SKU_MAX = 40;
export const CATEGORY_MAX = 40;
export const ITEM_ID_MAX = 50;
export const MAX_BARCODES = 20;

export type ProductField = 'sku' | 'name' | 'barcodes' | 'category' | 'price' | 'taxCategory' | 'itemId';

/** What a field's own rule says of its value (the rules below). */
export type FieldRule =
  | 'required'
  | 'sku'
  | 'name'
  | 'barcode_digits'
  | 'barcode_length'
  | 'barcode_check_digit'
  | 'barcode_count'
  | 'category'
  | 'price'
  | 'tax'
  | 'item_id';

/** A field's rule, or what only the catalogue knows: a SKU or a barcode another product has. */
export type ProductRule =
  | FieldRule
  | 'sku_duplicate'
  | 'barcode_duplicate'
  /** The product is no longer there (another window changed the catalogue). */
  | 'not_found';

export interface ProductIssueParams {
  /** The barcode the issue is about, as typed. */
  code?: string;
  /** The check digit a barcode should end in. */
  expected?: number;
  /** The digits a barcode has (a length issue). */
  length?: number;
  /** A length's or a count's limit. */
  max?: number;
  /** The product that has the SKU or barcode already. */
  otherSku?: string;
  otherName?: string;
  /** An import file's line (or sheet row) that has the SKU or barcode already. */
  otherLine?: number;
}

/** A rule a value breaks: its name, its words (English: the log, the command line) and its numbers. */
export interface BrokenRule {
  rule: FieldRule;
  problem: string;
  params?: ProductIssueParams;
}

/** Text of at most `max` characters, without control characters or spaces at either end. */
function cleanText(text: string, max: number): boolean {
  // A string of at most `max` UTF-16 units has no more code points: counted only when it might be over.
  const fits = text.length <= max || characterCount(text) <= max;
  return text.trim() === text && fits && badTextReason(text) === undefined;
}

export function skuRule(sku: string): BrokenRule | undefined {
  if (sku === '') return { rule: 'required', problem: `must not be empty (${SKU_RULE})` };
  if (!cleanText(sku, SKU_MAX)) return { rule: 'sku', problem: SKU_RULE, params: { max: SKU_MAX } };
  return undefined;
}

export function nameRule(name: string): BrokenRule | undefined {
  if (name.trim() === '') return { rule: 'required', problem: 'must not be empty: the name printed on the receipt' };
  const problem = nameProblem(name) ?? (name.trim() !== name ? `${NAME_RULE}, without spaces at either end` : null);
  return problem === null ? undefined : { rule: 'name', problem, params: { max: MAX_NAME_CHARS } };
}

export function categoryRule(category: string): BrokenRule | undefined {
  return cleanText(category, CATEGORY_MAX)
    ? undefined
    : { rule: 'category', problem: CATEGORY_RULE, params: { max: CATEGORY_MAX } };
}

// eslint-disable-next-line no-control-regex -- control characters are part of the rule
const ITEM_ID = /^[^\s\u0000-\u001f\u007f-\u009f]{1,50}$/u;

export function itemIdRule(itemId: string): BrokenRule | undefined {
  return ITEM_ID.test(itemId) ? undefined : { rule: 'item_id', problem: ITEM_ID_RULE, params: { max: ITEM_ID_MAX } };
}

/** A price in whole rupiah, 0 to MAX_UNIT_PRICE. */
export function priceRule(price: number): BrokenRule | undefined {
  const params = { max: MAX_UNIT_PRICE };
  if (!Number.isSafeInteger(price)) return { rule: 'price', problem: PRICE_RULE, params };
  if (price < 0) return { rule: 'price', problem: 'must not be negative', params };
  if (price > MAX_UNIT_PRICE) return { rule: 'price', problem: PRICE_RULE, params };
  return undefined;
}

/** A tax category's name, as stored (lower case). */
export function taxRule(taxCategory: string): BrokenRule | undefined {
  return isTaxCategory(taxCategory) ? undefined : { rule: 'tax', problem: `one of ${TAX_CATEGORIES.join(', ')}` };
}

export function barcodeCountRule(count: number): BrokenRule | undefined {
  return count > MAX_BARCODES
    ? {
        rule: 'barcode_count',
        problem: `at most ${MAX_BARCODES} barcodes (got ${count})`,
        params: { max: MAX_BARCODES },
      }
    : undefined;
}

/** A barcode as typed: valid, with its stored form (a UPC-A as its EAN-13), or the rule it breaks. */
export function barcodeRule(code: string): { ok: true; stored: string } | { ok: false; broken: BrokenRule } {
  const check = checkBarcode(code);
  if (check.ok) return { ok: true, stored: check.code };
  return {
    ok: false,
    broken: {
      rule: `barcode_${check.rule}`,
      problem: check.message,
      params: {
        code,
        ...(check.expected !== undefined ? { expected: check.expected } : {}),
        ...(check.rule === 'length' ? { length: code.length } : {}),
      },
    },
  };
}
