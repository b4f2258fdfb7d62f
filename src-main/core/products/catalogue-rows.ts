import { checkBarcode } from '../../common/barcode';
import {
  CATEGORY_RULE,
  ITEM_ID_RULE,
  MAX_BARCODES,
  PRICE_RULE,
  SKU_RULE,
  skuKey,
  type ProductFields,
} from '../../common/product';
import type { ProductIssueParams } from '../../common/product-form';
import { MAX_UNIT_PRICE, nameProblem } from '../../common/sale-line';
import { characterCount } from '../../common/settings';
import { badTextReason } from '../../common/strict-json';
import { TAX_CATEGORIES, isTaxCategory, type TaxCategory } from '../../common/tax';

/**
 * The catalogue file's columns and the rules of its rows, whatever the file's format (CSV or XLSX): the readers
 * (catalogue-csv.ts, catalogue-xlsx.ts) hand each row's cells here with its line number, and `CatalogueRows`
 * checks them all before anything is imported — all or nothing.
 *
 * Columns are found by their header, in any order, letter case and spaces at either end ignored, in English or
 * Indonesian: sku (kode), name (nama), barcode (barcodes, kode batang), category (kategori), price (harga), tax
 * (pajak), active (aktif), item_id (itemid, item id). sku, name and price are required; the others may be left out.
 * A column of another name is ignored (a note in `warnings`), so a sheet may carry the store's own notes.
 *
 * Decided here (the issue left them open):
 * - price: a whole number of rupiah. Digits, optionally grouped in threes by dots (18.000, as Indonesian Excel
 *   writes thousands) or by commas (18,000, as English Excel does), optionally after "Rp". Anything with decimals
 *   ("18.5", "18.000,00") is refused rather than guessed at. An XLSX number cell must be a whole number.
 * - active: 1/0, true/false, ya/tidak, yes/no, in any letter case; empty: active.
 * - tax: ppn, pbjt or exempt, in any letter case; empty: the store's default category.
 * - barcode: several separated by |; empty parts are skipped. A barcode Excel turned into a number in scientific
 *   notation (8.99123E+12) is named as such, since its digits are lost.
 * - A leading ' before = + - @ or ' is dropped from a text cell: the export adds it so a spreadsheet does not read a
 *   name such as "=SUM(...)" as a formula (the same guard as the books' export), and the import takes it off again.
 * - An empty row (every cell empty) is skipped; a file with no product rows is refused.
 * - Issues are collected up to MAX_ISSUES, with the count of the rest.
 */

export const MAX_ISSUES = 200;

export const COLUMNS = ['sku', 'name', 'barcode', 'category', 'price', 'tax', 'active', 'item_id'] as const;
export type ColumnName = (typeof COLUMNS)[number];
export const REQUIRED_COLUMNS: readonly ColumnName[] = ['sku', 'name', 'price'];

const ALIASES: Record<string, ColumnName> = {
  sku: 'sku',
  kode: 'sku',
  name: 'name',
  nama: 'name',
  barcode: 'barcode',
  barcodes: 'barcode',
  'kode batang': 'barcode',
  category: 'category',
  kategori: 'category',
  price: 'price',
  harga: 'price',
  tax: 'tax',
  pajak: 'tax',
  active: 'active',
  aktif: 'active',
  item_id: 'item_id',
  itemid: 'item_id',
  'item id': 'item_id',
};

export type CatalogueRule =
  | 'file'
  | 'header'
  | 'columns'
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
  | 'active'
  | 'item_id'
  | 'cell';

export interface CatalogueIssue {
  /** The line of a CSV file or the row of a sheet (from 1, the header's); null for the file as a whole. */
  line: number | null;
  /** The column's name (its header as Loket knows it), or null. */
  column: ColumnName | null;
  rule: CatalogueRule;
  /** "line 12, price: a whole number of rupiah … (got "18.5")". */
  message: string;
  /** The rule's numbers, for a screen to word it (the manager's import): the barcode, its check digit, the first line. */
  params?: ProductIssueParams;
}

/** A cell as a reader hands it over: a CSV cell is always text; an XLSX cell may be a number or a boolean. */
export type Cell = string | number | boolean | null | { error: string };

/** The words for a value in a message: quoted text, cut at 40 characters. */
export function shown(cell: Cell): string {
  if (cell === null) return 'nothing';
  if (typeof cell === 'object') return `the error ${cell.error}`;
  if (typeof cell !== 'string') return String(cell);
  return JSON.stringify(characterCount(cell) > 40 ? [...cell].slice(0, 40).join('') + '…' : cell);
}

/** `'=x` → `=x`: the inverse of the export's guard (catalogue-export.ts). */
export function unguard(text: string): string {
  return text.length > 1 && text[0] === "'" && "=+-@'".includes(text[1]!) ? text.slice(1) : text;
}

/** `=x` → `'=x`, and `'=x` → `''=x`, so that unguard(guard(x)) = x for every text. */
export function guard(text: string): string {
  const c = text[0];
  if (c === undefined) return text;
  if ('=+-@'.includes(c)) return `'${text}`;
  if (c === "'" && text.length > 1 && "=+-@'".includes(text[1]!)) return `'${text}`;
  return text;
}

const PLAIN = /^\d+$/;
const DOTS = /^\d{1,3}(?:\.\d{3})+$/;
const COMMAS = /^\d{1,3}(?:,\d{3})+$/;
const SCIENTIFIC = /^\d+(?:[.,]\d+)?e\+?\d+$/i;

type Parsed<T> = { ok: true; value: T } | { ok: false; rule: CatalogueRule; problem: string };
const fail = <T>(rule: CatalogueRule, problem: string): Parsed<T> => ({ ok: false, rule, problem });

/** A price cell as whole rupiah. */
export function parsePrice(cell: Cell): Parsed<number> {
  const rule = `${PRICE_RULE}, e.g. 18000`;
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell) || !Number.isInteger(cell)) return fail('price', `${rule} (got ${cell})`);
    if (cell < 0) return fail('price', `must not be negative (got ${cell})`);
    if (cell > MAX_UNIT_PRICE) return fail('price', `${rule} (got ${cell})`);
    return { ok: true, value: cell };
  }
  if (typeof cell !== 'string') return fail('price', `${rule} (got ${shown(cell)})`);
  if (cell.length <= 11 && PLAIN.test(cell) && Number(cell) <= MAX_UNIT_PRICE) return { ok: true, value: Number(cell) }; // "18000"
  const trimmed = cell.trim();
  const text = /^rp/i.test(trimmed) ? trimmed.replace(/^rp\.?\s*/i, '') : trimmed;
  let digits: string | undefined;
  if (PLAIN.test(text)) digits = text;
  else if (DOTS.test(text)) digits = text.replaceAll('.', '');
  else if (COMMAS.test(text)) digits = text.replaceAll(',', '');
  if (digits === undefined) {
    if (/^[-−]\s*(rp\.?\s*)?[\d.,]+$/i.test(text)) return fail('price', `must not be negative (got ${shown(cell)})`);
    return fail('price', `${rule} (got ${shown(cell)})`);
  }
  const value = Number(digits);
  if (value > MAX_UNIT_PRICE) return fail('price', `${rule} (got ${shown(cell)})`);
  return { ok: true, value };
}

const ACTIVE_WORDS: Record<string, boolean> = {
  '1': true,
  true: true,
  ya: true,
  yes: true,
  '0': false,
  false: false,
  tidak: false,
  no: false,
};
const ACTIVE_RULE = '1 or 0, true or false, ya or tidak, yes or no (empty: active)';

export function parseActive(cell: Cell): Parsed<boolean> {
  if (cell === null) return { ok: true, value: true };
  if (typeof cell === 'boolean') return { ok: true, value: cell };
  if (typeof cell === 'number' && (cell === 0 || cell === 1)) return { ok: true, value: cell === 1 };
  if (typeof cell === 'string') {
    const word = cell.trim().toLowerCase();
    if (word === '') return { ok: true, value: true };
    const value = ACTIVE_WORDS[word];
    if (value !== undefined) return { ok: true, value };
  }
  return fail('active', `${ACTIVE_RULE} (got ${shown(cell)})`);
}

export function parseTax(cell: Cell, fallback: TaxCategory): Parsed<TaxCategory> {
  const word = typeof cell === 'string' ? cell.trim().toLowerCase() : cell;
  if (word === null || word === '') return { ok: true, value: fallback };
  if (isTaxCategory(word)) return { ok: true, value: word };
  return fail('tax', `one of ${TAX_CATEGORIES.join(', ')} (got ${shown(cell)}); empty: ${fallback}`);
}

/** The text of a text cell (a number cell's digits), trimmed, with the export's guard taken off. */
function textOf(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'string') return unguard(cell.trim());
  if (typeof cell === 'number') return Number.isInteger(cell) ? cell.toFixed(0) : String(cell);
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  return '';
}

const isEmpty = (cell: Cell | undefined): boolean =>
  cell === undefined || cell === null || cell === '' || (typeof cell === 'string' && cell.trim() === '');

/** At most `max` characters (code points); a string of at most `max` UTF-16 units has no more code points. */
const fits = (text: string, max: number): boolean => text.length <= max || characterCount(text) <= max;

// eslint-disable-next-line no-control-regex -- control characters are part of the rule
const ITEM_ID = /^[^\s\u0000-\u001f\u007f-\u009f]{1,50}$/u;

export interface ImportOptions {
  /** The category of a row whose tax cell is empty: the store's default (tax settings). */
  defaultTaxCategory?: TaxCategory;
}

export type RowsResult =
  | { ok: true; products: ProductFields[]; warnings: string[] }
  | { ok: false; issues: CatalogueIssue[]; moreIssues: number; warnings: string[] };

/** The header and rows of one catalogue file, checked as they come; `result()` at the end. */
export class CatalogueRows {
  private columns: (ColumnName | undefined)[] | undefined;
  private readonly at = new Map<ColumnName, number>();
  private readonly issues: CatalogueIssue[] = [];
  private more = 0;
  private readonly warnings: string[] = [];
  private readonly products: ProductFields[] = [];
  private readonly skuLines = new Map<string, number>();
  private readonly barcodeLines = new Map<string, number>();
  private readonly fallback: TaxCategory;
  private headerLine = 0;
  private width = 0;
  private headerOk = false;

  constructor(
    /** How a person names a line of this file: "line" (CSV) or "row" (a sheet). */
    private readonly lineWord: 'line' | 'row',
    options: ImportOptions = {},
  ) {
    this.fallback = options.defaultTaxCategory ?? 'ppn';
  }

  /** An issue of the file as a whole or of one of its lines. */
  issue(
    line: number | null,
    column: ColumnName | null,
    rule: CatalogueRule,
    problem: string,
    params?: ProductIssueParams,
  ): void {
    if (this.issues.length >= MAX_ISSUES) {
      this.more++;
      return;
    }
    const where = [line === null ? '' : `${this.lineWord} ${line}`, column ?? ''].filter((s) => s !== '').join(', ');
    this.issues.push({
      line,
      column,
      rule,
      message: where === '' ? problem : `${where}: ${problem}`,
      ...(params ? { params } : {}),
    });
  }

  get hasHeader(): boolean {
    return this.columns !== undefined;
  }

  /** Takes the first non-empty row as the header; later rows as products. */
  row(cells: readonly Cell[], line: number): void {
    if (cells.every(isEmpty)) return;
    if (this.columns === undefined) this.header(cells, line);
    else this.product(cells, line);
  }

  private header(cells: readonly Cell[], line: number): void {
    this.headerLine = line;
    this.width = cells.length;
    this.columns = cells.map((cell, i) => {
      const name = textOf(cell).toLowerCase().replace(/\s+/g, ' ');
      const column = ALIASES[name];
      if (column === undefined) {
        if (name !== '')
          this.warnings.push(
            `${this.lineWord} ${line}: column ${i + 1} (${shown(cell)}) is not one Loket reads; it is ignored`,
          );
        return undefined;
      }
      if (this.at.has(column)) {
        this.issue(
          line,
          column,
          'header',
          `the column ${column} is there twice (columns ${this.at.get(column)! + 1} and ${i + 1})`,
        );
        return undefined;
      }
      this.at.set(column, i);
      return column;
    });
    this.headerOk = REQUIRED_COLUMNS.every((c) => this.at.has(c));
    for (const column of REQUIRED_COLUMNS)
      if (!this.at.has(column))
        this.issue(
          line,
          null,
          'header',
          `the header has no ${column} column; it needs sku, name and price, and may have ${COLUMNS.filter((c) => !REQUIRED_COLUMNS.includes(c)).join(', ')}`,
        );
  }

  /** The cell of `column` in a row, null when the file has no such column or the row stops before it. */
  private cellOf(cells: readonly Cell[], column: ColumnName): Cell {
    const i = this.at.get(column);
    return i === undefined ? null : (cells[i] ?? null);
  }

  /** True (and an issue) when the cell holds a spreadsheet error such as #N/A. */
  private errorIn(cell: Cell, line: number, column: ColumnName): boolean {
    if (cell === null || typeof cell !== 'object') return false;
    this.issue(line, column, 'cell', `the cell holds the spreadsheet error ${cell.error}`);
    return true;
  }

  // One method, no closures per row: a 100,000-row file runs through here (see docs/catalogue.md for its time).
  private product(cells: readonly Cell[], line: number): void {
    if (cells.length > this.width && cells.slice(this.width).some((c) => !isEmpty(c))) {
      this.issue(
        line,
        null,
        'columns',
        `${cells.length} fields, but the header (${this.lineWord} ${this.headerLine}) names ${this.width}`,
      );
      return;
    }
    if (!this.headerOk) return; // the header's issue says it already
    const before = this.issues.length + this.more;

    let sku = '';
    let cell = this.cellOf(cells, 'sku');
    if (!this.errorIn(cell, line, 'sku')) {
      sku = textOf(cell);
      if (sku === '') this.issue(line, 'sku', 'required', `must not be empty (${SKU_RULE})`);
      else if (!fits(sku, 40) || badTextReason(sku) !== undefined)
        this.issue(line, 'sku', 'sku', `${SKU_RULE} (got ${shown(sku)})`);
      else {
        const key = skuKey(sku);
        const first = this.skuLines.get(key);
        if (first !== undefined)
          this.issue(
            line,
            'sku',
            'sku_duplicate',
            `${shown(sku)} is the SKU of ${this.lineWord} ${first} already; each product has its own`,
            { otherLine: first },
          );
        else this.skuLines.set(key, line);
      }
    }

    let name = '';
    cell = this.cellOf(cells, 'name');
    if (!this.errorIn(cell, line, 'name')) {
      name = textOf(cell);
      if (name === '') this.issue(line, 'name', 'required', 'must not be empty: the name printed on the receipt');
      else {
        const problem = nameProblem(name);
        if (problem) this.issue(line, 'name', 'name', problem);
      }
    }

    const barcodes: string[] = [];
    cell = this.cellOf(cells, 'barcode');
    if (!this.errorIn(cell, line, 'barcode')) {
      const text = textOf(cell);
      const parts =
        text === ''
          ? []
          : text.includes('|')
            ? text
                .split('|')
                .map((p) => p.trim())
                .filter((p) => p !== '')
            : [text];
      if (parts.length > MAX_BARCODES)
        this.issue(line, 'barcode', 'barcode_count', `at most ${MAX_BARCODES} barcodes (got ${parts.length})`);
      for (const part of parts) this.barcode(part, typeof cell === 'number', line, barcodes);
    }

    let category = '';
    cell = this.cellOf(cells, 'category');
    if (!this.errorIn(cell, line, 'category')) {
      category = textOf(cell);
      if (!fits(category, 40) || badTextReason(category) !== undefined)
        this.issue(line, 'category', 'category', `${CATEGORY_RULE} (got ${shown(category)})`);
    }

    let price = 0;
    cell = this.cellOf(cells, 'price');
    if (!this.errorIn(cell, line, 'price')) {
      if (isEmpty(cell)) this.issue(line, 'price', 'required', `must not be empty (${PRICE_RULE})`);
      else {
        const parsed = parsePrice(cell);
        if (parsed.ok) price = parsed.value;
        else this.issue(line, 'price', parsed.rule, parsed.problem);
      }
    }

    let taxCategory: TaxCategory = this.fallback;
    cell = this.cellOf(cells, 'tax');
    if (!this.errorIn(cell, line, 'tax')) {
      const parsed = parseTax(cell, this.fallback);
      if (parsed.ok) taxCategory = parsed.value;
      else this.issue(line, 'tax', parsed.rule, parsed.problem);
    }

    let active = true;
    cell = this.cellOf(cells, 'active');
    if (!this.errorIn(cell, line, 'active')) {
      const parsed = parseActive(cell);
      if (parsed.ok) active = parsed.value;
      else this.issue(line, 'active', parsed.rule, parsed.problem);
    }

    let itemId: string | undefined;
    cell = this.cellOf(cells, 'item_id');
    if (!this.errorIn(cell, line, 'item_id')) {
      const text = textOf(cell);
      if (text !== '') {
        if (!ITEM_ID.test(text)) this.issue(line, 'item_id', 'item_id', `${ITEM_ID_RULE} (got ${shown(text)})`);
        else itemId = text;
      }
    }

    if (this.issues.length + this.more > before) return;
    const product: ProductFields = { sku, name, barcodes, category, price, taxCategory, active };
    if (itemId !== undefined) product.itemId = itemId;
    this.products.push(product);
  }

  /** One barcode of a row: valid, in its stored form, and not a barcode of another row (or twice in this one). */
  private barcode(part: string, numberCell: boolean, line: number, out: string[]): void {
    const check = checkBarcode(part);
    if (!check.ok) {
      if (check.rule === 'digits' && SCIENTIFIC.test(part))
        this.issue(
          line,
          'barcode',
          'barcode_digits',
          `${shown(part)} is a number Excel wrote in scientific notation, and its digits are lost: format the column as Text and save again`,
          { code: part },
        );
      else {
        const hint =
          numberCell && check.rule === 'length'
            ? ' (the cell is a number, so a leading 0 may have been dropped: format the column as Text)'
            : '';
        this.issue(line, 'barcode', `barcode_${check.rule}`, `${shown(part)}: ${check.message}${hint}`, {
          code: part,
          ...(check.expected !== undefined ? { expected: check.expected } : {}),
          ...(check.rule === 'length' ? { length: part.length } : {}),
        });
      }
      return;
    }
    const first = this.barcodeLines.get(check.code);
    if (first !== undefined) {
      const where = first === line ? 'this row' : `${this.lineWord} ${first}`;
      this.issue(
        line,
        'barcode',
        'barcode_duplicate',
        `${shown(part)} is already a barcode of ${where}; a barcode finds one product`,
        first === line ? { code: part } : { code: part, otherLine: first },
      );
      return;
    }
    this.barcodeLines.set(check.code, line);
    out.push(check.code);
  }

  /** Every issue (up to MAX_ISSUES, and the count of the rest), or every product. */
  result(): RowsResult {
    if (this.columns === undefined) {
      if (this.issues.length === 0)
        this.issue(
          null,
          null,
          'header',
          'the file is empty: it needs a header line (sku, name, price, …) and the products',
        );
    } else if (this.issues.length === 0 && this.products.length === 0)
      this.issue(null, null, 'file', 'the file has a header but no product rows');
    if (this.issues.length > 0 || this.more > 0)
      return { ok: false, issues: this.issues, moreIssues: this.more, warnings: this.warnings };
    return { ok: true, products: this.products, warnings: this.warnings };
  }
}
