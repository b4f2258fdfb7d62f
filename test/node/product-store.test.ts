import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withCheckDigit } from '../../src-main/common/barcode';
import type { ProductFields } from '../../src-main/common/product';
import { ProductStore } from '../../src-main/core/products/product-store';
import { openDatabase, type Database } from '../../src-main/db/open';
import { FakeClock } from './helpers/fake-clock';

let dir: string;
let db: Database;
let store: ProductStore;
const clock = new FakeClock();

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loket-products-'));
  db = openDatabase(join(dir, 'loket.db'));
  store = new ProductStore(db, clock);
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const EAN = withCheckDigit('899276111111');
const UPC = withCheckDigit('03600029145'); // 12 digits: a UPC-A

function product(sku: string, name: string, over: Partial<ProductFields> = {}): ProductFields {
  return { sku, name, barcodes: [], category: '', price: 10_000, taxCategory: 'ppn', active: true, ...over };
}

describe('the catalogue in SQLite', () => {
  it('imports products, finds them by barcode (a UPC-A by its EAN-13 form too), by SKU in any case', () => {
    const outcome = store.importProducts(
      [
        product('KOPI-1', 'Kopi Susu Gula Aren', { barcodes: [EAN], category: 'Minuman', price: 18_000 }),
        product('SODA', 'Soda Gembira', { barcodes: [`0${UPC}`] }),
      ],
      { actor: 'test' },
    );
    expect(outcome).toEqual({ ok: true, created: 2, updated: 0, unchanged: 0 });
    expect(store.byCode(EAN)).toMatchObject({ sku: 'KOPI-1', price: 18_000, barcodes: [EAN], category: 'Minuman' });
    expect(store.byCode(UPC)?.sku).toBe('SODA');
    expect(store.byCode(`0${UPC}`)?.sku).toBe('SODA');
    expect(store.byCode('kopi-1')?.sku).toBe('KOPI-1');
    expect(store.byCode('9999999999994')).toBeNull();
    expect(store.byCode('nothing')).toBeNull();
    // Every created product has its event.
    expect(db.prepare("SELECT count(*) FROM product_events WHERE type = 'created'").pluck().get()).toBe(2);
  });

  it('searches names by any part, ignoring case and accents; prefix matches first; SKUs and barcodes by their start', () => {
    store.importProducts(
      [
        product('A1', 'Es Kopi Süsu', { barcodes: [EAN] }),
        product('A2', 'Kopi Hitam'),
        product('B7', 'Teh Manis'),
        product('B8', 'Kopi Luwak', { active: false }),
      ],
      { actor: 'test' },
    );
    expect(store.search('kopi').map((p) => p.sku)).toEqual(['A2', 'A1']); // "Kopi Hitam" starts with it; inactive left out
    expect(store.search('SUSU').map((p) => p.sku)).toEqual(['A1']);
    expect(store.search('süs').map((p) => p.sku)).toEqual(['A1']);
    expect(store.search('ko').map((p) => p.sku)).toEqual(['A2', 'A1']); // two characters: a scan of the folded names
    expect(store.search('b').map((p) => p.sku)).toEqual(['B7']); // a SKU's start
    expect(store.search(EAN.slice(0, 6)).map((p) => p.sku)).toEqual(['A1']); // a barcode's start
    expect(store.search('"; DROP TABLE products; --')).toEqual([]);
    expect(store.search('kopi', 1)).toHaveLength(1);
  });

  it('an import merges by SKU: changed products are updated and their barcodes replaced, the rest kept', () => {
    store.importProducts([product('A1', 'Kopi', { barcodes: [EAN] }), product('A2', 'Teh')], { actor: 'test' });
    const again = store.importProducts(
      [product('a1', 'Kopi', { barcodes: [], price: 12_000 }), product('A3', 'Air', { barcodes: [EAN] })],
      { actor: 'test' },
    );
    expect(again).toEqual({ ok: true, created: 1, updated: 1, unchanged: 0 });
    expect(store.byCode(EAN)?.sku).toBe('A3'); // the barcode moved with the file
    expect(store.byCode('A1')).toMatchObject({ sku: 'a1', price: 12_000, barcodes: [] });
    expect(store.byCode('A2')?.name).toBe('Teh');
    expect(store.importProducts([product('A2', 'Teh')], { actor: 'test' })).toEqual({
      ok: true,
      created: 0,
      updated: 0,
      unchanged: 1,
    });
    // A renamed product is found by its new name only.
    store.importProducts([product('A2', 'Wedang Jahe')], { actor: 'test' });
    expect(store.search('jahe').map((p) => p.sku)).toEqual(['A2']);
    expect(store.search('teh')).toEqual([]);
  });

  it('refuses, all or nothing, a barcode that belongs to a product the file does not list', () => {
    store.importProducts([product('A1', 'Kopi', { barcodes: [EAN] })], { actor: 'test' });
    const outcome = store.importProducts([product('NEW', 'Baru'), product('A2', 'Teh', { barcodes: [EAN] })], {
      actor: 'test',
    });
    expect(outcome).toMatchObject({ ok: false, issues: [{ field: 'barcode', rule: 'barcode_duplicate' }] });
    expect(!outcome.ok && outcome.issues[0]!.message).toMatch(/SKU "A2", barcode: .* "Kopi" \(SKU "A1"\)/);
    expect(store.byCode('NEW')).toBeNull();
    expect(store.count()).toBe(1);
  });

  it('a dry run counts and changes nothing', () => {
    expect(store.importProducts([product('A1', 'Kopi')], { actor: 'test', dryRun: true })).toEqual({
      ok: true,
      created: 1,
      updated: 0,
      unchanged: 0,
    });
    expect(store.count({ includeInactive: true })).toBe(0);
  });

  it("today's quick items become products once", () => {
    const items = [{ itemId: 'PULSA10', name: 'Pulsa 10rb', price: 10_000 }];
    expect(store.seedQuickItems(items, 'exempt')).toBe(1);
    expect(store.byCode('PULSA10')).toMatchObject({ name: 'Pulsa 10rb', itemId: 'PULSA10', taxCategory: 'exempt' });
    store.importProducts([product('PULSA10', 'Pulsa 10rb', { active: false, itemId: 'PULSA10' })], { actor: 'm' });
    expect(store.seedQuickItems(items, 'exempt')).toBe(0);
    expect(store.byCode('PULSA10')).toBeNull(); // deactivated, and not brought back
  });

  it('finds a name among 100,000 products through its indexes (the query plans), and reports the time', () => {
    const many: ProductFields[] = [];
    for (let i = 0; i < 100_000; i++)
      many.push(
        product(`SKU-${i}`, `Produk ${i % 7 === 0 ? 'Kopi' : 'Teh'} nomor ${i}`, {
          barcodes: [withCheckDigit(`899${String(i).padStart(9, '0')}`)],
        }),
      );
    const started = process.hrtime.bigint();
    store.importProducts(many, { actor: 'bench' });
    const importMs = Number(process.hrtime.bigint() - started) / 1e6;
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan("SELECT id FROM products WHERE name_folded >= 'kop' AND name_folded < 'kop\u{10ffff}'")).toMatch(
      /products_name_folded/,
    );
    expect(plan('SELECT rowid FROM products_search WHERE products_search MATCH \'"nomor 4242"\'')).toMatch(
      /VIRTUAL TABLE INDEX/,
    );
    const times: number[] = [];
    for (const text of ['kopi', 'nomor 4242', 'SKU-999', '8990000', 'teh nomor 99999', 'zzz']) {
      const t0 = process.hrtime.bigint();
      const found = store.search(text, 20);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (text === 'nomor 4242') expect(found.map((p) => p.sku)).toContain('SKU-4242');
      if (text === 'teh nomor 99999') expect(found.map((p) => p.sku)).toEqual(['SKU-99999']);
    }
    expect(store.byCode(withCheckDigit('899000054321'))?.sku).toBe('SKU-54321');
    console.log(
      `catalogue of 100,000: import ${importMs.toFixed(0)} ms; searches ${times.map((t) => t.toFixed(2)).join(', ')} ms`,
    );
  });
});
