/**
 * The catalogue of benchmark (i) (docs/benchmarks.md): products built from a shop's words, and the import of 100,000
 * of them (the catalogue import's core functions on a real SQLite file) against a bare insert of the same rows.
 */
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { withCheckDigit } from '../../src-main/common/barcode';
import { skuKey, type ProductFields } from '../../src-main/common/product';
import { systemClock } from '../../src-main/core/ports';
import { writeCatalogueCsv } from '../../src-main/core/products/catalogue-export';
import { importCatalogue } from '../../src-main/core/products/catalogue-import';
import { foldName, ProductStore } from '../../src-main/core/products/product-store';
import { openDatabase } from '../../src-main/db/open';
import { makeTempDir } from './temp';

// 25 × 40 × 20 × 10 = 200,000 names, none twice: a shop's brands, goods, variants and sizes.
const BRANDS = [
  'Indomie', 'Sedaap', 'Kapal Api', 'ABC', 'Sosro', 'Aqua', 'Le Minerale', 'Ultra', 'Frisian Flag', 'Indomilk',
  'Chitato', 'Taro', 'Oreo', 'Roma', 'Khong Guan', 'Sunlight', 'Rinso', 'Lifebuoy', 'Pepsodent', 'Sariwangi',
  'Bimoli', 'Filma', 'Gulaku', 'Rose Brand', 'Dancow',
]; // prettier-ignore
const GOODS = [
  'Mi Goreng', 'Mi Kuah', 'Kopi Susu', 'Kopi Hitam', 'Teh Manis', 'Air Mineral', 'Susu Cokelat', 'Susu Stroberi',
  'Keripik Kentang', 'Biskuit Kelapa', 'Wafer Cokelat', 'Sabun Cair', 'Deterjen Bubuk', 'Pasta Gigi', 'Minyak Goreng',
  'Gula Pasir', 'Tepung Terigu', 'Kecap Manis', 'Saus Sambal', 'Sarden', 'Kornet', 'Roti Tawar', 'Selai Kacang',
  'Margarin', 'Sampo', 'Tisu Basah', 'Popok Bayi', 'Beras Pulen', 'Telur Ayam', 'Kacang Atom', 'Permen Jahe',
  'Cokelat Batang', 'Sirup Melon', 'Jus Jeruk', 'Yoghurt', 'Es Krim', 'Sosis Sapi', 'Nugget Ayam', 'Bakso Sapi',
  'Garam Dapur',
]; // prettier-ignore
const VARIANTS = [
  'Original', 'Pedas', 'Rendang', 'Ayam Bawang', 'Soto', 'Jumbo', 'Mini', 'Extra', 'Lite', 'Gold', 'Premium',
  'Spesial', 'Keju', 'Balado', 'Barbeque', 'Vanila', 'Melon', 'Jeruk', 'Apel', 'Mint',
]; // prettier-ignore
const SIZES = ['50 g', '75 g', '85 g', '100 g', '250 ml', '600 ml', '1 L', '1 kg', '5 kg', '12 pcs'];
const NAMES = BRANDS.length * GOODS.length * VARIANTS.length * SIZES.length;
/** Spreads neighbouring products over the names (prime, so coprime with 200,000: no name twice). */
const SPREAD = 7919;

/** Product `i` (0-based) of the benchmark's catalogue: the same product whatever the catalogue's size. */
export function benchProduct(i: number): ProductFields {
  if (i >= NAMES) throw new Error(`the benchmark's catalogue has ${NAMES} names at most`);
  const c = (i * SPREAD) % NAMES;
  const brand = BRANDS[c % BRANDS.length]!;
  const goods = GOODS[Math.floor(c / BRANDS.length) % GOODS.length]!;
  const variant = VARIANTS[Math.floor(c / (BRANDS.length * GOODS.length)) % VARIANTS.length]!;
  const size = SIZES[Math.floor(c / (BRANDS.length * GOODS.length * VARIANTS.length))]!;
  const digits = String(i).padStart(9, '0');
  return {
    sku: `SKU-${String(i).padStart(6, '0')}`,
    name: `${brand} ${goods} ${variant} ${size}`,
    barcodes:
      i % 3 === 0 ? [withCheckDigit(`899${digits}`), withCheckDigit(`898${digits}`)] : [withCheckDigit(`899${digits}`)],
    category: goods.split(' ')[0]!,
    price: 1000 + ((i * 37) % 400) * 250,
    taxCategory: i % 10 === 0 ? 'exempt' : 'ppn',
    active: true,
  };
}

/**
 * The big catalogue's products 0 … rows−1; the small one takes every (rows / smallRows)-th of them, so both hold the
 * products the screens' benchmark types (its targets are taken from the small one) and the same mix of names.
 */
export function benchCatalogue(rows: number, every = 1): ProductFields[] {
  const out: ProductFields[] = [];
  for (let i = 0; i < rows; i += every) out.push(benchProduct(i));
  return out;
}

/** The catalogue as the file a store imports: CSV with `;` and a BOM, as Excel set to Indonesian saves it. */
export async function catalogueCsv(products: readonly ProductFields[]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await writeCatalogueCsv(products, { delimiter: ';', bom: true }, out);
  return Buffer.concat(chunks);
}

export interface ImportRun {
  /** The whole import: the file's bytes read and checked, then merged into the catalogue in one transaction. */
  ms: number;
  /** Of it: importCatalogue (parse and check every row). */
  parseMs: number;
  /** Of it: ProductStore.importProducts (the merge, the rows, their events, the name index rebuilt once). */
  storeMs: number;
}

export interface ImportBenchResult {
  rows: number;
  barcodes: number;
  fileBytes: number;
  pairs: number;
  /** Each pair's import, and its bare insert. */
  imports: ImportRun[];
  bare: number[];
  /** Information: the name index (FTS5 trigram) built once over the bare file's rows, after its insert. */
  ftsRebuildMs: number[];
  /** Throughput ratio import / bare of each pair (bare ms / import ms); the median is held against the target. */
  ratios: number[];
}

/** The target of issue 19: the import at least half the bare insert's rows per second. */
export const IMPORT_TARGET = 0.5;

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * (i) import: `pairs` pairs of the catalogue import (CSV bytes → importCatalogue → ProductStore.importProducts, as
 * `catalogue import` runs them) and a bare insert of the same rows (products and their barcodes, prepared INSERTs, one
 * transaction), each on a fresh database file with Loket's schema (openDatabase: WAL, synchronous=FULL). Which goes
 * first alternates, so a slow spell of the machine hits both.
 */
export async function benchImport(
  products: readonly ProductFields[],
  pairs: number,
  say: (line: string) => void,
): Promise<ImportBenchResult> {
  const csv = await catalogueCsv(products);
  const barcodes = products.reduce((n, p) => n + p.barcodes.length, 0);
  // The bare insert's rows, ready before its clock starts: it does nothing but write them.
  const now = systemClock.now().toISOString();
  const rows = products.map((p) => [
    p.sku,
    skuKey(p.sku),
    p.name,
    foldName(p.name),
    p.category,
    p.price,
    p.taxCategory,
    p.active ? 1 : 0,
    now,
    now,
  ]);
  const dir = makeTempDir('sale-import');
  const result: ImportBenchResult = {
    rows: products.length,
    barcodes,
    fileBytes: csv.length,
    pairs,
    imports: [],
    bare: [],
    ftsRebuildMs: [],
    ratios: [],
  };
  let file = 0;
  const fresh = () => openDatabase(join(dir, `catalogue-${file++}.db`), { check: 'none' });

  const runImport = async (): Promise<ImportRun> => {
    const db = fresh();
    try {
      const store = new ProductStore(db, systemClock);
      const started = performance.now();
      const parsed = await importCatalogue(csv, { defaultTaxCategory: 'ppn' });
      const parsedAt = performance.now();
      if (!parsed.ok) throw new Error(`the benchmark's catalogue did not import: ${parsed.issues[0]?.message}`);
      const outcome = store.importProducts(parsed.products, { actor: 'bench' });
      const ended = performance.now();
      if (!outcome.ok || outcome.created !== products.length)
        throw new Error(`the benchmark's catalogue did not import: ${JSON.stringify(outcome)}`);
      return { ms: ended - started, parseMs: parsedAt - started, storeMs: ended - parsedAt };
    } finally {
      db.close();
    }
  };
  const runBare = (): { ms: number; ftsMs: number } => {
    const db = fresh();
    try {
      const product = db.prepare(
        `INSERT INTO products (sku, sku_key, name, name_folded, category, price, tax_category, active, created_at,
           updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const barcode = db.prepare('INSERT INTO product_barcodes (code, product_id, position) VALUES (?, ?, ?)');
      const started = performance.now();
      db.transaction(() => {
        for (let i = 0; i < rows.length; i++) {
          const id = product.run(...rows[i]!).lastInsertRowid;
          products[i]!.barcodes.forEach((code, k) => barcode.run(code, id, k));
        }
      })();
      const ms = performance.now() - started;
      const ftsStarted = performance.now();
      db.prepare("INSERT INTO products_search (products_search) VALUES ('rebuild')").run();
      return { ms, ftsMs: performance.now() - ftsStarted };
    } finally {
      db.close();
    }
  };

  for (let i = 0; i < pairs; i++) {
    let imported: ImportRun;
    let bare: { ms: number; ftsMs: number };
    if (i % 2 === 0) {
      imported = await runImport();
      bare = runBare();
    } else {
      bare = runBare();
      imported = await runImport();
    }
    result.imports.push(imported);
    result.bare.push(bare.ms);
    result.ftsRebuildMs.push(bare.ftsMs);
    result.ratios.push(bare.ms / imported.ms);
    say(
      `    pair ${i + 1}: import ${(imported.ms / 1000).toFixed(2)} s (parse ${(imported.parseMs / 1000).toFixed(2)} s, ` +
        `store ${(imported.storeMs / 1000).toFixed(2)} s), bare insert ${(bare.ms / 1000).toFixed(2)} s: ` +
        `${(bare.ms / imported.ms).toFixed(2)}x`,
    );
  }
  return result;
}

export function importSummary(r: ImportBenchResult) {
  const pick = (f: (x: ImportRun) => number) => median(r.imports.map(f));
  return {
    importMs: pick((x) => x.ms),
    parseMs: pick((x) => x.parseMs),
    storeMs: pick((x) => x.storeMs),
    bareMs: median(r.bare),
    ftsRebuildMs: median(r.ftsRebuildMs),
    ratio: median(r.ratios),
  };
}

export function renderImport(r: ImportBenchResult): string {
  const s = importSummary(r);
  const rate = (ms: number) => `${Math.round(r.rows / (ms / 1000)).toLocaleString('en-US')} rows/s`;
  const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`.padStart(8);
  return [
    `(i) import: ${r.rows.toLocaleString('en-US')} products (${r.barcodes.toLocaleString('en-US')} barcodes, ` +
      `CSV ${(r.fileBytes / 1e6).toFixed(1)} MB), ${r.pairs} pairs, medians; real SQLite files (WAL, synchronous=FULL)`,
    `catalogue import (parse, check, merge)  ${sec(s.importMs)}  ${rate(s.importMs)}`,
    `  of which importCatalogue (CSV, rules) ${sec(s.parseMs)}`,
    `  of which importProducts (rows, events, name index) ${sec(s.storeMs)}`,
    `bare INSERTs, one transaction           ${sec(s.bareMs)}  ${rate(s.bareMs)}`,
    `  (information: the name index built once over those rows: ${sec(s.ftsRebuildMs).trim()})`,
    `ratio import/bare (rows per second): ${s.ratio.toFixed(2)}x ` +
      `(pairs ${r.ratios.map((x) => x.toFixed(2)).join(', ')}; target ≥ ${IMPORT_TARGET}: ${s.ratio >= IMPORT_TARGET ? 'MET' : 'NOT MET'})`,
  ].join('\n');
}
