import type { Product, ProductFields } from './product';
import {
  barcodeCountRule,
  barcodeRule,
  categoryRule,
  itemIdRule,
  nameRule,
  priceRule,
  skuRule,
  taxRule,
  type BrokenRule,
  type ProductField,
  type ProductIssueParams,
  type ProductRule,
} from './product-rules';
import type { TaxCategory } from './tax';

export {
  CATEGORY_MAX,
  ITEM_ID_MAX,
  SKU_MAX,
  type ProductField,
  type ProductIssueParams,
  type ProductRule,
} from './product-rules';

/**
 * A product as the manager's form sends it (the API's `saveProduct`), and the rules its fields break as typed issues:
 * the field, the rule and the rule's numbers (product-rules.ts: the same rules as the catalogue file's import), so
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

export interface ProductIssue {
  field: ProductField;
  rule: ProductRule;
  /** English, for the log and the command line; a screen words the rule and its params. */
  message: string;
  params?: ProductIssueParams;
}

/**
 * Every rule `input` breaks, each barcode's on its own; with none, the product's fields as stored (each barcode in
 * its stored form: a UPC-A as its EAN-13).
 */
export function checkProductInput(
  input: ProductInput,
): { ok: true; fields: ProductFields } | { ok: false; issues: ProductIssue[] } {
  const issues: ProductIssue[] = [];
  const add = (
    field: ProductField,
    broken: (Omit<BrokenRule, 'rule'> & { rule: ProductRule }) | undefined,
    got?: string,
  ) => {
    if (broken === undefined) return;
    const message = `${field}: ${broken.problem}${got === undefined ? '' : ` (got ${got})`}`;
    issues.push({ field, rule: broken.rule, message, ...(broken.params ? { params: broken.params } : {}) });
  };

  add('sku', skuRule(input.sku));
  add('name', nameRule(input.name));
  const stored: string[] = [];
  add('barcodes', barcodeCountRule(input.barcodes.length));
  for (const code of input.barcodes) {
    const barcode = barcodeRule(code);
    if (!barcode.ok)
      add('barcodes', { ...barcode.broken, problem: `${JSON.stringify(code)}: ${barcode.broken.problem}` });
    else if (stored.includes(barcode.stored))
      add('barcodes', {
        rule: 'barcode_duplicate',
        problem: `${JSON.stringify(code)} is there twice`,
        params: { code },
      });
    else stored.push(barcode.stored);
  }
  add('category', categoryRule(input.category));
  add('price', priceRule(input.price));
  add('taxCategory', taxRule(input.taxCategory), JSON.stringify(input.taxCategory));
  if (input.itemId !== undefined) add('itemId', itemIdRule(input.itemId));
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
