import type { Database, Statement } from 'better-sqlite3';
import type { CatalogueItem } from '../../common/api';
import { checkBarcode } from '../../common/barcode';
import { quickItemsAsProducts, skuKey, type Product, type ProductFields } from '../../common/product';
import type { ProductIssue } from '../../common/product-form';
import type { TaxCategory } from '../../common/tax';
import type { Clock } from '../ports';

/**
 * The store's catalogue in SQLite (migration 10: products, product_barcodes, products_search, product_events), in the
 * store's books (loket.db): training sells the store's real products.
 *
 * Finding a product (the cashier types, the scanner sends a code):
 * - `byCode`: a barcode in any form a scanner sends (a UPC-A is found by its EAN-13 form), else a SKU ignoring case.
 * - `search`: the code's product first; then names that start with the text, then names that contain it anywhere
 *   (case and accents ignored: "kopi susu" finds "Kopi Süsu"), then SKUs and barcodes that start with it. A name's
 *   start is found through an index of the folded name; a part of a name (three characters or more) through the
 *   trigram index (products_search); shorter parts scan the names, stopping at `limit`. Active products only.
 *
 * An import (`importProducts`) merges the file into the catalogue by SKU, in one transaction: a SKU not yet known is a
 * new product, a known one is updated where it differs (its barcodes replaced by the file's), a product the file does
 * not list stays as it is. A barcode the file gives one product and the catalogue another product the file does not
 * list is refused, naming both: a barcode finds one product. Every created or updated product gets its event.
 */

export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
}

export interface ProductConflict {
  field: 'barcode';
  rule: 'barcode_duplicate';
  message: string;
}

export type ImportOutcome = ({ ok: true } & ImportCounts) | { ok: false; issues: ProductConflict[] };

interface ProductRow {
  id: number;
  sku: string;
  name: string;
  category: string;
  price: number;
  tax_category: TaxCategory;
  item_id: string | null;
  active: number;
}

const COLUMNS = 'p.id, p.sku, p.name, p.category, p.price, p.tax_category, p.item_id, p.active';

/** A name as the search compares it: without accents, in lower case ("Süsu" → "susu"). */
export function foldName(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The last key before which every text starting with `prefix` sorts (for a range scan of an index). */
const afterPrefix = (prefix: string): string => prefix + '\u{10ffff}';

/** Text as an FTS5 phrase: quoted, its quotes doubled, so no character of it is read as the query language. */
const phrase = (text: string): string => `"${text.replaceAll('"', '""')}"`;

/** A product the manager's form saved: as stored now, whether it is new, and which fields changed. */
export interface SavedProduct {
  product: Product;
  created: boolean;
  changed: (keyof ProductFields)[];
}

const FIELD_NAMES = ['sku', 'name', 'barcodes', 'category', 'price', 'taxCategory', 'active', 'itemId'] as const;

/** The fields in which `p` differs from the stored `before`. */
function changedFields(before: Product, p: ProductFields): (keyof ProductFields)[] {
  return FIELD_NAMES.filter((f) =>
    f === 'barcodes' ? before.barcodes.join('|') !== p.barcodes.join('|') : before[f] !== p[f],
  );
}

function notFoundIssue(id: string): ProductIssue {
  return { field: 'sku', rule: 'not_found', message: `product ${id}: no such product` };
}

export const DEFAULT_SEARCH_LIMIT = 20;
/** An import changing more products than this rebuilds the name index once instead of row by row. */
const REBUILD_ABOVE = 500;
export const MAX_SEARCH_LIMIT = 200;

export class ProductStore {
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  count(options: { includeInactive?: boolean } = {}): number {
    return this.stmt<[], number>(`SELECT count(*) FROM products${options.includeInactive ? '' : ' WHERE active = 1'}`)
      .pluck()
      .get()!;
  }

  get(id: string): Product | undefined {
    if (!/^\d{1,15}$/.test(id)) return undefined;
    const row = this.stmt<[number], ProductRow>(`SELECT ${COLUMNS} FROM products p WHERE p.id = ?`).get(Number(id));
    return row ? this.withBarcodes([row])[0] : undefined;
  }

  /**
   * Several products by id in two statements whatever their number (a cart's lines: one read, not one per line),
   * keyed by the id as given; an id `get` would not find is absent.
   */
  getMany(ids: readonly string[]): Map<string, Product> {
    const wanted = [...new Set(ids.filter((id) => /^\d{1,15}$/.test(id)).map(Number))];
    const byId = new Map<number, Product>();
    if (wanted.length > 0) {
      const rows = this.stmt<[string], ProductRow>(
        `SELECT ${COLUMNS} FROM products p WHERE p.id IN (SELECT value FROM json_each(?))`,
      ).all(JSON.stringify(wanted));
      for (const p of this.withBarcodes(rows)) byId.set(Number(p.id), p);
    }
    const out = new Map<string, Product>();
    for (const id of ids) {
      const p = /^\d{1,15}$/.test(id) ? byId.get(Number(id)) : undefined;
      if (p) out.set(id, p);
    }
    return out;
  }

  /** The product of a barcode (any form a scanner sends) or of a SKU (ignoring case); null when none, or inactive. */
  byCode(code: string, options: { includeInactive?: boolean } = {}): Product | null {
    const text = code.trim();
    if (text === '') return null;
    const row = this.rowByCode(text);
    if (!row || (!row.active && !options.includeInactive)) return null;
    return this.withBarcodes([row])[0]!;
  }

  private rowByCode(text: string): ProductRow | undefined {
    const check = checkBarcode(text);
    if (check.ok) {
      const row = this.stmt<[string], ProductRow>(
        `SELECT ${COLUMNS} FROM product_barcodes b JOIN products p ON p.id = b.product_id WHERE b.code = ?`,
      ).get(check.code);
      if (row) return row;
    }
    return this.stmt<[string], ProductRow>(`SELECT ${COLUMNS} FROM products p WHERE p.sku_key = ?`).get(skuKey(text));
  }

  /**
   * Active products matching `text` as the cashier types it (see the module's comment), at most `limit`; with
   * `includeInactive` (the manager's list), inactive ones too.
   */
  search(text: string, limit = DEFAULT_SEARCH_LIMIT, options: { includeInactive?: boolean } = {}): Product[] {
    const max = Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(limit)));
    // `p.active >= ?`: 1 for the cashier (active only), 0 for the manager (all); one statement text either way.
    const minActive = options.includeInactive ? 0 : 1;
    const query = text.trim();
    const rows: ProductRow[] = [];
    const seen = new Set<number>();
    const take = (found: readonly ProductRow[]) => {
      for (const row of found) {
        if (rows.length >= max) return;
        if (seen.has(row.id) || row.active < minActive) continue;
        seen.add(row.id);
        rows.push(row);
      }
    };
    if (query === '') {
      take(
        this.stmt<[number, number], ProductRow>(
          `SELECT ${COLUMNS} FROM products p WHERE p.active >= ? ORDER BY p.name_folded LIMIT ?`,
        ).all(minActive, max),
      );
      return this.withBarcodes(rows);
    }
    const exact = this.rowByCode(query);
    if (exact) take([exact]);
    const folded = foldName(query);
    if (rows.length < max)
      take(
        this.stmt<[string, string, number, number], ProductRow>(
          `SELECT ${COLUMNS} FROM products p WHERE p.name_folded >= ? AND p.name_folded < ? AND p.active >= ?
           ORDER BY p.name_folded LIMIT ?`,
        ).all(folded, afterPrefix(folded), minActive, max),
      );
    if (rows.length < max) {
      const want = max - rows.length + seen.size;
      take(
        [...folded].length >= 3
          ? this.stmt<[string, number, number], ProductRow>(
              `SELECT ${COLUMNS} FROM products_search s JOIN products p ON p.id = s.rowid
               WHERE products_search MATCH ? AND p.active >= ? LIMIT ?`,
            ).all(phrase(query), minActive, want)
          : this.stmt<[string, number, number], ProductRow>(
              `SELECT ${COLUMNS} FROM products p WHERE instr(p.name_folded, ?) > 0 AND p.active >= ? LIMIT ?`,
            ).all(folded, minActive, want),
      );
    }
    if (rows.length < max) {
      const key = skuKey(query);
      take(
        this.stmt<[string, string, number, number], ProductRow>(
          `SELECT ${COLUMNS} FROM products p WHERE p.sku_key >= ? AND p.sku_key < ? AND p.active >= ?
           ORDER BY p.sku_key LIMIT ?`,
        ).all(key, afterPrefix(key), minActive, max),
      );
    }
    if (rows.length < max && /^\d+$/.test(query)) {
      // A barcode typed in part; a UPC-A's digits are found in its EAN-13 form (a leading 0).
      for (const prefix of query.length <= 12 ? [query, `0${query}`] : [query])
        take(
          this.stmt<[string, string, number, number], ProductRow>(
            `SELECT ${COLUMNS} FROM product_barcodes b JOIN products p ON p.id = b.product_id
             WHERE b.code >= ? AND b.code < ? AND p.active >= ? ORDER BY b.code LIMIT ?`,
          ).all(prefix, afterPrefix(prefix), minActive, max),
        );
    }
    return this.withBarcodes(rows);
  }

  /**
   * One page of every product (active or not) in SKU order, for the manager's list: `offset` rows skipped. The SKU's
   * unique index walks the rows, so a page deep in 100,000 products costs a few milliseconds.
   */
  page(offset: number, limit: number): Product[] {
    return this.withBarcodes(
      this.stmt<[number, number], ProductRow>(
        `SELECT ${COLUMNS} FROM products p ORDER BY p.sku_key LIMIT ? OFFSET ?`,
      ).all(Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(limit))), Math.max(0, Math.floor(offset))),
    );
  }

  /**
   * Saves one product from the manager's form: a new one (`id` null) or a change to one, checked against the others
   * (a SKU, ignoring case, and each barcode belong to one product). A change that changes nothing writes nothing.
   * Each write is an event (`created` or `updated`, with who did it); `also` runs in the same transaction (the
   * audit record), so the change and its record are written together or not at all.
   */
  save(
    id: string | null,
    fields: ProductFields,
    options: { actor: string; also?: (saved: SavedProduct) => void },
  ): { ok: true; saved: SavedProduct } | { ok: false; issues: ProductIssue[] } {
    return this.db
      .transaction(() => {
        const before = id === null ? undefined : this.get(id);
        if (id !== null && before === undefined) return { ok: false as const, issues: [notFoundIssue(id)] };
        const issues: ProductIssue[] = [];
        const skuOwner = this.stmt<[string], ProductRow>(`SELECT ${COLUMNS} FROM products p WHERE p.sku_key = ?`).get(
          skuKey(fields.sku),
        );
        if (skuOwner && String(skuOwner.id) !== id)
          issues.push({
            field: 'sku',
            rule: 'sku_duplicate',
            message: `sku: ${JSON.stringify(fields.sku)} is the SKU of ${JSON.stringify(skuOwner.name)} already`,
            params: { otherSku: skuOwner.sku, otherName: skuOwner.name },
          });
        for (const code of fields.barcodes) {
          const owner = this.stmt<[string], ProductRow>(
            `SELECT ${COLUMNS} FROM product_barcodes b JOIN products p ON p.id = b.product_id WHERE b.code = ?`,
          ).get(code);
          if (owner && String(owner.id) !== id)
            issues.push({
              field: 'barcodes',
              rule: 'barcode_duplicate',
              message: `barcodes: ${code} is already the barcode of ${JSON.stringify(owner.name)} (SKU ${JSON.stringify(owner.sku)})`,
              params: { code, otherSku: owner.sku, otherName: owner.name },
            });
        }
        if (issues.length > 0) return { ok: false as const, issues };
        if (before) {
          const changed = changedFields(before, fields);
          if (changed.length === 0) return { ok: true as const, saved: { product: before, created: false, changed } };
          const now = this.clock.now().toISOString();
          const n = Number(before.id);
          this.stmt<[number]>('DELETE FROM product_barcodes WHERE product_id = ?').run(n);
          this.update(n, fields, now, true);
          this.addBarcodes(n, fields.barcodes);
          this.event(n, now, 'updated', options.actor, fields);
          const saved = { product: this.get(before.id)!, created: false, changed };
          options.also?.(saved);
          return { ok: true as const, saved };
        }
        const now = this.clock.now().toISOString();
        const n = this.insert(fields, now, true);
        this.addBarcodes(n, fields.barcodes);
        this.event(n, now, 'created', options.actor, fields);
        const saved = { product: this.get(String(n))!, created: true, changed: [] };
        options.also?.(saved);
        return { ok: true as const, saved };
      })
      .immediate();
  }

  /** Every product (active or not), by SKU: for the export. Read in pages, so 100,000 products never sit in memory. */
  *all(pageSize = 1000): Generator<Product> {
    let after = '';
    for (;;) {
      const page = this.stmt<[string, number], ProductRow>(
        `SELECT ${COLUMNS}, p.sku_key FROM products p WHERE p.sku_key > ? ORDER BY p.sku_key LIMIT ?`,
      ).all(after, pageSize) as (ProductRow & { sku_key: string })[];
      if (page.length === 0) return;
      yield* this.withBarcodes(page);
      after = page[page.length - 1]!.sku_key;
    }
  }

  /** Merges `products` into the catalogue by SKU, all or nothing (see the module's comment). */
  importProducts(products: readonly ProductFields[], options: { actor: string; dryRun?: boolean }): ImportOutcome {
    const run = () => {
      const existing = new Map<string, { row: ProductRow; barcodes: string[] }>();
      for (const row of this.stmt<[], ProductRow & { sku_key: string }>(
        `SELECT ${COLUMNS}, p.sku_key FROM products p`,
      ).all())
        existing.set(row.sku_key, { row, barcodes: [] });
      const ownerOf = new Map<string, string>();
      for (const b of this.stmt<[], { code: string; sku_key: string }>(
        `SELECT b.code, p.sku_key FROM product_barcodes b JOIN products p ON p.id = b.product_id ORDER BY b.product_id, b.position`,
      ).all()) {
        ownerOf.set(b.code, b.sku_key);
        existing.get(b.sku_key)?.barcodes.push(b.code);
      }
      const inFile = new Set(products.map((p) => skuKey(p.sku)));
      const issues: ProductConflict[] = [];
      for (const p of products)
        for (const code of p.barcodes) {
          const owner = ownerOf.get(code);
          if (owner !== undefined && owner !== skuKey(p.sku) && !inFile.has(owner)) {
            const other = existing.get(owner)!.row;
            issues.push({
              field: 'barcode',
              rule: 'barcode_duplicate',
              message:
                `SKU ${JSON.stringify(p.sku)}, barcode: ${code} is already the barcode of ${JSON.stringify(other.name)} ` +
                `(SKU ${JSON.stringify(other.sku)}), which the file does not list; a barcode finds one product`,
            });
          }
        }
      if (issues.length > 0) return { ok: false as const, issues };

      const counts: ImportCounts = { created: 0, updated: 0, unchanged: 0 };
      const changed: { p: ProductFields; id: number | undefined }[] = [];
      for (const p of products) {
        const known = existing.get(skuKey(p.sku));
        if (!known) {
          counts.created++;
          changed.push({ p, id: undefined });
        } else if (differs(known.row, known.barcodes, p)) {
          counts.updated++;
          changed.push({ p, id: known.row.id });
        } else counts.unchanged++;
      }
      if (options.dryRun) return { ok: true as const, ...counts };

      const now = this.clock.now().toISOString();
      const dropBarcodes = this.stmt<[number]>('DELETE FROM product_barcodes WHERE product_id = ?');
      // Barcodes move between products of the file: every changed product's old ones go before any new one is added.
      for (const c of changed) if (c.id !== undefined) dropBarcodes.run(c.id);
      // Row by row the name index costs ten times the rows' own writes; past a few hundred it is rebuilt once.
      const rebuild = changed.length > REBUILD_ABOVE;
      // Barcodes and events go in multi-row INSERTs (BatchInsert), both flushed before the transaction ends.
      const barcodes = new BatchInsert(this.db, 'INSERT INTO product_barcodes (code, product_id, position)', 3, 100);
      const events = new BatchInsert(
        this.db,
        'INSERT INTO product_events (product_id, at, type, actor, payload)',
        5,
        100,
      );
      for (const c of changed) {
        const id = c.id === undefined ? this.insert(c.p, now, !rebuild) : this.update(c.id, c.p, now, !rebuild);
        c.p.barcodes.forEach((code, i) => barcodes.add(code, id, i));
        events.add(id, now, c.id === undefined ? 'created' : 'updated', options.actor, JSON.stringify(c.p));
      }
      barcodes.flush();
      events.flush();
      if (rebuild) this.stmt("INSERT INTO products_search (products_search) VALUES ('rebuild')").run();
      return { ok: true as const, ...counts };
    };
    return this.db.transaction(run).immediate();
  }

  /**
   * Today's quick items (resources/items.json) become products, once: the first time the catalogue is opened after
   * the upgrade. A quick item whose id is already a SKU is left as it is. Returns how many were added.
   */
  seedQuickItems(items: readonly CatalogueItem[], taxCategory: TaxCategory): number {
    return this.db
      .transaction(() => {
        const done = this.stmt<[], number>("SELECT count(*) FROM product_events WHERE type = 'seeded'").pluck().get()!;
        if (done > 0 || items.length === 0) return 0;
        const now = this.clock.now().toISOString();
        let added = 0;
        const known = this.stmt<[string], number>('SELECT id FROM products WHERE sku_key = ?').pluck();
        const products = quickItemsAsProducts(items, taxCategory);
        for (const p of products) {
          const had = known.get(skuKey(p.sku));
          if (had !== undefined) {
            this.event(had, now, 'seeded', 'system', { kept: true });
            continue;
          }
          const id = this.insert(p, now, true);
          this.event(id, now, 'seeded', 'system', p);
          added++;
        }
        return added;
      })
      .immediate();
  }

  private insert(p: ProductFields, now: string, index: boolean): number {
    const id = Number(
      this.stmt(
        `INSERT INTO products (sku, sku_key, name, name_folded, category, price, tax_category, item_id, active,
           created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        p.sku,
        skuKey(p.sku),
        p.name,
        foldName(p.name),
        p.category,
        p.price,
        p.taxCategory,
        p.itemId ?? null,
        p.active ? 1 : 0,
        now,
        now,
      ).lastInsertRowid,
    );
    if (index) this.stmt('INSERT INTO products_search (rowid, name) VALUES (?, ?)').run(id, p.name);
    return id;
  }

  private update(id: number, p: ProductFields, now: string, index: boolean): number {
    const before = this.stmt<[number], string>('SELECT name FROM products WHERE id = ?').pluck().get(id)!;
    this.stmt(
      `UPDATE products SET sku = ?, name = ?, name_folded = ?, category = ?, price = ?, tax_category = ?, item_id = ?,
         active = ?, updated_at = ? WHERE id = ?`,
    ).run(
      p.sku,
      p.name,
      foldName(p.name),
      p.category,
      p.price,
      p.taxCategory,
      p.itemId ?? null,
      p.active ? 1 : 0,
      now,
      id,
    );
    if (index && before !== p.name) {
      // An external-content index forgets a row by being told the words it indexed.
      this.stmt("INSERT INTO products_search (products_search, rowid, name) VALUES ('delete', ?, ?)").run(id, before);
      this.stmt('INSERT INTO products_search (rowid, name) VALUES (?, ?)').run(id, p.name);
    }
    return id;
  }

  /** One product's barcodes (the manager's form: a handful; the import batches its own). */
  private addBarcodes(id: number, codes: readonly string[]): void {
    const insert = this.stmt<[string, number, number]>(
      'INSERT INTO product_barcodes (code, product_id, position) VALUES (?, ?, ?)',
    );
    codes.forEach((code, i) => insert.run(code, id, i));
  }

  private event(id: number, at: string, type: 'created' | 'updated' | 'seeded', actor: string, payload: unknown): void {
    this.stmt('INSERT INTO product_events (product_id, at, type, actor, payload) VALUES (?, ?, ?, ?, ?)').run(
      id,
      at,
      type,
      actor,
      JSON.stringify(payload),
    );
  }

  private withBarcodes(rows: readonly ProductRow[]): Product[] {
    if (rows.length === 0) return [];
    const codes = new Map<number, string[]>();
    const ids = rows.map((r) => r.id);
    // One query for the page: bound as a JSON array, so the statement is prepared once whatever the page's size.
    for (const b of this.stmt<[string], { product_id: number; code: string }>(
      'SELECT product_id, code FROM product_barcodes WHERE product_id IN (SELECT value FROM json_each(?)) ORDER BY product_id, position',
    ).all(JSON.stringify(ids))) {
      const list = codes.get(b.product_id);
      if (list) list.push(b.code);
      else codes.set(b.product_id, [b.code]);
    }
    return rows.map((r) => toProduct(r, codes.get(r.id) ?? []));
  }

  private stmt<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R> {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s as unknown as Statement<P, R>;
  }
}

/**
 * Rows of one table written `batch` to a statement (a multi-row INSERT) instead of a statement run per row: an import
 * of 100,000 products writes 100,000 events and as many barcodes, and the statement's own cost per run is a good part
 * of each. The same rows in the same order: each row gets the next rowid (seq), as one INSERT per row would give it.
 */
class BatchInsert {
  private readonly values: (number | string)[] = [];
  private full: Statement | undefined;

  constructor(
    private readonly db: Database,
    /** `INSERT INTO table (a, b, c)`, without VALUES. */
    private readonly insert: string,
    private readonly columns: number,
    private readonly batch: number,
  ) {}

  add(...row: (number | string)[]): void {
    this.values.push(...row);
    if (this.values.length === this.batch * this.columns) this.write();
  }

  /** Writes what is left; call before anything reads the table. */
  flush(): void {
    if (this.values.length > 0) this.write();
  }

  private write(): void {
    const rows = this.values.length / this.columns;
    const statement = rows === this.batch ? (this.full ??= this.prepare(rows)) : this.prepare(rows);
    statement.run(this.values);
    this.values.length = 0;
  }

  private prepare(rows: number): Statement {
    const row = `(${Array<string>(this.columns).fill('?').join(', ')})`;
    return this.db.prepare(`${this.insert} VALUES ${Array<string>(rows).fill(row).join(', ')}`);
  }
}

function toProduct(r: ProductRow, barcodes: string[]): Product {
  const p: Product = {
    id: String(r.id),
    sku: r.sku,
    name: r.name,
    barcodes,
    category: r.category,
    price: r.price,
    taxCategory: r.tax_category,
    active: r.active === 1,
  };
  if (r.item_id !== null) p.itemId = r.item_id;
  return p;
}

function differs(row: ProductRow, barcodes: readonly string[], p: ProductFields): boolean {
  return (
    row.sku !== p.sku ||
    row.name !== p.name ||
    row.category !== p.category ||
    row.price !== p.price ||
    row.tax_category !== p.taxCategory ||
    (row.item_id ?? undefined) !== p.itemId ||
    (row.active === 1) !== p.active ||
    barcodes.join('|') !== p.barcodes.join('|')
  );
}
