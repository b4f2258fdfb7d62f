import { checkBarcode } from './barcode';
import {
  CATEGORY_RULE,
  ITEM_ID_RULE,
  itemIdSchema,
  MAX_BARCODES,
  PRICE_RULE,
  SKU_RULE,
  type Product,
  type ProductFields,
} from './product';
import { MAX_NAME_CHARS, MAX_UNIT_PRICE, NAME_RULE, nameProblem } from './sale-line';
import { characterCount } from './settings';
import { badTextReason } from './strict-json';
import { isTaxCategory, TAX_CATEGORIES, type TaxCategory } from './tax';

/**
 * A product as the manager's form sends it (the API's `saveProduct`), and the rules its fields break as typed issues:
 * the field, the rule (the same names as the catalogue file's import, docs/catalogue.md) and the rule's numbers, so
 * that a screen words each in its own language. The server checks again (and the uniqueness of SKU and barcodes,
 * which only the catalogue knows); the renderer checks first, to say it before sending.
 */

/** What the form sends: the tax category as text (the rules refuse an unknown one, naming it). */
export interface ProductInput {
  sku: string;
  name: string;
  barcodes: string[];
  category: string;
  price: number;
  taxCategory: string;
  active: boolean;
  itemId?: string;
}

export type ProductField = 'sku' | 'name' | 'barcodes' | 'category' | 'price' | 'taxCategory' | 'itemId';

export type ProductRule =
  | 'required'
  | 'sku'
  | 'sku_duplicate'
  | 'name'
  | 'barcode_digits'
  | 'barcode_length'
  | 'barcode_check_digit'
  | 'barcode_duplicate'
  | 'barcode_count'
  | 'category'
  | 'price'
  | 'tax'
  | 'item_id'
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

export interface ProductIssue {
  field: ProductField;
  rule: ProductRule;
  /** English, for the log and the command line; a screen words the rule and its params. */
  message: string;
  params?: ProductIssueParams;
}

export const SKU_MAX = 40;
export const CATEGORY_MAX = 40;
export const ITEM_ID_MAX = 50;

const cleanText = (s: string, max: number) =>
  s.trim() === s && characterCount(s) <= max && badTextReason(s) === undefined;

/**
 * Every rule `input` breaks, each barcode's on its own; with none, the product's fields as stored (each barcode in
 * its stored form: a UPC-A as its EAN-13).
 */
export function checkProductInput(
  input: ProductInput,
): { ok: true; fields: ProductFields } | { ok: false; issues: ProductIssue[] } {
  const issues: ProductIssue[] = [];
  const add = (field: ProductField, rule: ProductRule, message: string, params?: ProductIssueParams) =>
    issues.push({ field, rule, message: `${field}: ${message}`, ...(params ? { params } : {}) });

  if (input.sku === '') add('sku', 'required', 'must not be empty');
  else if (!cleanText(input.sku, SKU_MAX)) add('sku', 'sku', SKU_RULE, { max: SKU_MAX });
  const nameBad = nameProblem(input.name);
  if (input.name.trim() === '') add('name', 'required', 'must not be empty: the name printed on the receipt');
  else if (nameBad !== undefined || input.name.trim() !== input.name)
    add('name', 'name', nameBad ?? `${NAME_RULE}, without spaces at either end`, { max: MAX_NAME_CHARS });

  const stored: string[] = [];
  if (input.barcodes.length > MAX_BARCODES)
    add('barcodes', 'barcode_count', `at most ${MAX_BARCODES} barcodes (got ${input.barcodes.length})`, {
      max: MAX_BARCODES,
    });
  for (const code of input.barcodes) {
    const check = checkBarcode(code);
    if (!check.ok) {
      const rule = check.rule === 'digits' ? 'barcode_digits' : check.rule === 'length' ? 'barcode_length' : null;
      add('barcodes', rule ?? 'barcode_check_digit', `${JSON.stringify(code)}: ${check.message}`, {
        code,
        ...(check.expected !== undefined ? { expected: check.expected } : {}),
        ...(check.rule === 'length' ? { length: code.length } : {}),
      });
    } else if (stored.includes(check.code))
      add('barcodes', 'barcode_duplicate', `${JSON.stringify(code)} is there twice`, { code });
    else stored.push(check.code);
  }
  if (!cleanText(input.category, CATEGORY_MAX)) add('category', 'category', CATEGORY_RULE, { max: CATEGORY_MAX });
  if (!Number.isSafeInteger(input.price) || input.price < 0 || input.price > MAX_UNIT_PRICE)
    add('price', 'price', PRICE_RULE, { max: MAX_UNIT_PRICE });
  if (!isTaxCategory(input.taxCategory))
    add('taxCategory', 'tax', `one of ${TAX_CATEGORIES.join(', ')} (got ${JSON.stringify(input.taxCategory)})`);
  if (input.itemId !== undefined && !itemIdSchema.safeParse(input.itemId).success)
    add('itemId', 'item_id', ITEM_ID_RULE, { max: ITEM_ID_MAX });
  if (issues.length > 0) return { ok: false, issues };
  const fields: ProductFields = {
    sku: input.sku,
    name: input.name,
    barcodes: stored,
    category: input.category,
    price: input.price,
    taxCategory: input.taxCategory as ProductFields['taxCategory'],
    active: input.active,
  };
  if (input.itemId !== undefined) fields.itemId = input.itemId;
  return { ok: true, fields };
}

// ------------------------------------------------------------ the manager's catalogue over the API

/** A page of the manager's product list: a page of all products by SKU, or what a search found (at most `limit`). */
export interface CataloguePage {
  products: Product[];
  /** Every product (active or not) in the catalogue. */
  total: number;
  offset: number;
  /** A search's answer: `products` is all it shows (the first MAX matches), not a page of `total`. */
  search: string;
  /** The store's default tax category (tax settings): a new product's in the form. */
  defaultTaxCategory: TaxCategory;
}

export type ProductSaveResult =
  { ok: true; product: Product; created: boolean } | { ok: false; issues: ProductIssue[] };

/** A chunk of an import file taken (the file crosses the API in base64 chunks: browser mode reads 64 KiB a call). */
export type CatalogueUploadResult =
  { ok: true; uploadId: string; bytes: number } | { ok: false; problem: 'too_large' | 'gone'; maxBytes: number };

/** One issue of an import, as the screen words it: its line (or row), its column and its rule. */
export interface CatalogueImportIssue {
  /** null: the file as a whole, or the catalogue (a barcode of a product the file does not list). */
  line: number | null;
  column: string | null;
  rule: string;
  /** English, for the log; the screen words the rule. */
  message: string;
  params?: ProductIssueParams;
}

export type CatalogueImportResult =
  | {
      ok: true;
      dryRun: boolean;
      format: 'csv' | 'xlsx';
      rows: number;
      created: number;
      updated: number;
      unchanged: number;
    }
  | { ok: false; format: 'csv' | 'xlsx' | null; issues: CatalogueImportIssue[]; moreIssues: number }
  /** The upload is gone (imported already, or older than its 10 minutes): pick the file again. */
  | { ok: false; problem: 'gone' };

/** How many bytes of an import file the app takes (8.3 MB is 100,000 products as CSV; 4.5 MB as XLSX). */
export const CATALOGUE_UPLOAD_MAX_BYTES = 32 * 1024 * 1024;
/** One chunk's base64 text: under browser mode's 64 KiB a call, with room for the call's JSON. */
export const CATALOGUE_CHUNK_CHARS = 48_000;
/** The manager's list: products a page, and at most this many a search shows. */
export const CATALOGUE_PAGE_SIZE = 50;
