/**
 * `npx tsx scripts/catalogue-timing.ts [ROWS]`: how long the catalogue file takes to export and to import (parse and
 * validate) at 100,000 products (docs/catalogue.md, "Performance"). Prints wall and CPU time of each step, several runs
 * of the import; asserts nothing. Not part of `npm test` or `npm run bench` (whose benchmark (i) times the whole
 * import, stored, against a bare insert of the same rows: scripts/bench/sale-catalogue.ts).
 */
import { PassThrough } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';
import { withCheckDigit } from '../src-main/common/barcode';
import type { ProductFields } from '../src-main/common/product';
import { writeCatalogueCsv, writeCatalogueXlsx } from '../src-main/core/products/catalogue-export';
import { importCatalogue } from '../src-main/core/products/catalogue-import';

const rows = Number(process.argv[2] ?? 100_000);
if (!Number.isSafeInteger(rows) || rows < 1)
  throw new Error(`ROWS must be a whole number above 0 (got ${process.argv[2]})`);

const categories = ['Minuman', 'Makanan', 'Sembako', 'Rokok', 'Sabun'];
const products: ProductFields[] = Array.from({ length: rows }, (_, i) => {
  const digits = String(i).padStart(9, '0');
  return {
    sku: `SKU-${String(i).padStart(6, '0')}`,
    name: `Produk nomor ${i} ukuran ${i % 7} kg`,
    barcodes:
      i % 3 === 0 ? [withCheckDigit(`899${digits}`), withCheckDigit(`898${digits}`)] : [withCheckDigit(`899${digits}`)],
    category: categories[i % categories.length]!,
    price: 1000 + (i % 500) * 500,
    taxCategory: i % 10 === 0 ? 'exempt' : 'ppn',
    active: i % 17 !== 0,
  };
});

async function collect(write: (out: PassThrough) => Promise<unknown>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await write(out);
  return Buffer.concat(chunks);
}

async function timed<T>(label: string, run: () => Promise<T>, describe: (result: T) => string): Promise<T> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await run();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  console.log(
    `${label.padEnd(22)} wall ${wall.toFixed(0).padStart(6)} ms  cpu ${((used.user + used.system) / 1000).toFixed(0).padStart(6)} ms  ${describe(result)}`,
  );
  return result;
}

const mb = (b: Buffer) => `${(b.length / 1e6).toFixed(1)} MB`;
const outcome = (r: Awaited<ReturnType<typeof importCatalogue>>) =>
  r.ok ? `${r.products.length} products` : `${r.issues.length + r.moreIssues} issues`;

console.log(
  `${rows} products; ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${loadavg()[0]!.toFixed(1)}`,
);
const csv = await timed(
  'CSV export (;, BOM)',
  () => collect((o) => writeCatalogueCsv(products, { delimiter: ';', bom: true }, o)),
  mb,
);
const xlsx = await timed('XLSX export', () => collect((o) => writeCatalogueXlsx(products, o)), mb);
for (let i = 1; i <= 3; i++) await timed(`CSV import #${i}`, () => importCatalogue(csv), outcome);
for (let i = 1; i <= 2; i++) await timed(`XLSX import #${i}`, () => importCatalogue(xlsx), outcome);
const bad = Buffer.from(csv.toString('utf8').replaceAll(';ppn;', ';vat;'));
await timed('CSV import, bad rows', () => importCatalogue(bad), outcome);
