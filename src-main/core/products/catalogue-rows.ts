import { skuKey, type ProductFields } from '../../common/product';
import {
  barcodeCountRule,
  barcodeRule,
  categoryRule,
  itemIdRule,
  nameRule,
  PRICE_RULE,
  priceRule,
  skuRule,
  taxRule,
  type FieldRule,
  type ProductIssueParams,
} from '../../common/product-rules';
import { characterCount } from '../../common/settings';
import type { TaxCategory } from '../../common/tax';

/**
 * The catalogue file's columns and the rules of its rows, whatever the file's format (CSV or XLSX): the readers
 * (catalogue-csv.ts, catalogue-xlsx.ts) hand each row's cells here with its line number, and `CatalogueRows`
 * checks them all before anything is imported — all or nothing. A field's rules are the product's own
 * (common/product-rules.ts, as the manager's form checks them); here, how a file writes a field (a price's dots, the
 * active column's words, several barcodes in a cell) and the rules across rows (a SKU or a barcode once).
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

/** A field's rule (common/product-rules.ts; the form's too), one across the rows, or one of the file. */
export type CatalogueRule =
  FieldRule | 'sku_duplicate' | 'barcode_duplicate' | 'file' | 'header' | 'columns' | 'active' | 'cell';

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

type Parsed<T> =
  { ok: true; value: T } | { ok: false; rule: CatalogueRule; problem: string; params?: ProductIssueParams };
const fail = <T>(rule: CatalogueRule, problem: string): Parsed<T> => ({ ok: false, rule, problem });

/** A minus sign before an amount, however its digits are grouped. */
const NEGATIVE = /^[-−]\s*(rp\.?\s*)?[\d.,]+$/i;

/**
 * A price cell as whole rupiah: read as a file writes one, then judged by the product's price rule
 * (common/product-rules.ts), which words every refusal: a cell that is no whole number is judged as one (NaN), a
 * negative amount as a negative price.
 */
export function parsePrice(cell: Cell): Parsed<number> {
  if (typeof cell === 'number') return priced(cell, cell);
  if (typeof cell !== 'string') return priced(Number.NaN, cell);
  if (cell.length <= 11 && PLAIN.test(cell)) return priced(Number(cell), cell); // "18000"
  const trimmed = cell.trim();
  const text = /^rp/i.test(trimmed) ? trimmed.replace(/^rp\.?\s*/i, '') : trimmed;
  let digits: string | undefined;
  if (PLAIN.test(text)) digits = text;
  else if (DOTS.test(text)) digits = text.replaceAll('.', '');
  else if (COMMAS.test(text)) digits = text.replaceAll(',', '');
  if (digits === undefined) return priced(NEGATIVE.test(text) ? -1 : Number.NaN, cell);
  return priced(Number(digits), cell);
}

/** A price read off a cell, by the product's price rule; the words add how a file writes a price. */
function priced(value: number, cell: Cell): Parsed<number> {
  const broken = priceRule(value);
  if (broken === undefined) return { ok: true, value };
  const example = broken.problem === PRICE_RULE ? ', e.g. 18000' : '';
  return {
    ok: false,
    rule: broken.rule,
    problem: `${broken.problem}${example} (got ${shown(cell)})`,
    params: broken.params,
  };
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
  const broken = typeof word === 'string' ? taxRule(word) : taxRule('');
  if (broken === undefined) return { ok: true, value: word as TaxCategory };
  return fail('tax', `${broken.problem} (got ${shown(cell)}); empty: ${fallback}`);
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
      const broken = skuRule(sku);
      if (broken?.rule === 'required') this.issue(line, 'sku', broken.rule, broken.problem);
      else if (broken) this.issue(line, 'sku', broken.rule, `${broken.problem} (got ${shown(sku)})`, broken.params);
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
      const broken = nameRule(name);
      if (broken) this.issue(line, 'name', broken.rule, broken.problem, broken.params);
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
      const tooMany = barcodeCountRule(parts.length);
      if (tooMany) this.issue(line, 'barcode', tooMany.rule, tooMany.problem, tooMany.params);
      for (const part of parts) this.barcode(part, typeof cell === 'number', line, barcodes);
    }

    let category = '';
    cell = this.cellOf(cells, 'category');
    if (!this.errorIn(cell, line, 'category')) {
      category = textOf(cell);
      const broken = categoryRule(category);
      if (broken)
        this.issue(line, 'category', broken.rule, `${broken.problem} (got ${shown(category)})`, broken.params);
    }

    let price = 0;
    cell = this.cellOf(cells, 'price');
    if (!this.errorIn(cell, line, 'price')) {
      if (isEmpty(cell)) this.issue(line, 'price', 'required', `must not be empty (${PRICE_RULE})`);
      else {
        const parsed = parsePrice(cell);
        if (parsed.ok) price = parsed.value;
        else this.issue(line, 'price', parsed.rule, parsed.problem, parsed.params);
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
      const broken = text === '' ? undefined : itemIdRule(text);
      if (broken) this.issue(line, 'item_id', broken.rule, `${broken.problem} (got ${shown(text)})`, broken.params);
      else if (text !== '') itemId = text;
    }

    if (this.issues.length + this.more > before) return;
    const product: ProductFields = { sku, name, barcodes, category, price, taxCategory, active };
    if (itemId !== undefined) product.itemId = itemId;
    this.products.push(product);
  }

  /** One barcode of a row: valid, in its stored form, and not a barcode of another row (or twice in this one). */
  private barcode(part: string, numberCell: boolean, line: number, out: string[]): void {
    const barcode = barcodeRule(part);
    if (!barcode.ok) {
      const { rule, problem, params } = barcode.broken;
      if (rule === 'barcode_digits' && SCIENTIFIC.test(part))
        this.issue(
          line,
          'barcode',
          'barcode_digits',
          `${shown(part)} is a number Excel wrote in scientific notation, and its digits are lost: format the column as Text and save again`,
          { code: part },
        );
      else {
        const hint =
          numberCell && rule === 'barcode_length'
            ? ' (the cell is a number, so a leading 0 may have been dropped: format the column as Text)'
            : '';
        this.issue(line, 'barcode', rule, `${shown(part)}: ${problem}${hint}`, params);
      }
      return;
    }
    const first = this.barcodeLines.get(barcode.stored);
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
    this.barcodeLines.set(barcode.stored, line);
    out.push(barcode.stored);
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
