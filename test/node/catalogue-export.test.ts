import { describe, expect, it } from 'vitest';
import { PassThrough, type Writable } from 'node:stream';
import fc from 'fast-check';
import ExcelJS from 'exceljs';
import { withCheckDigit } from '../../src-main/common/barcode';
import { productFieldsSchema, quickItemsAsProducts, type ProductFields } from '../../src-main/common/product';
import { TAX_CATEGORIES } from '../../src-main/common/tax';
import { loadItemCatalogue } from '../../src-main/core/catalogue';
import { writeCatalogueCsv, writeCatalogueXlsx } from '../../src-main/core/products/catalogue-export';
import { importCatalogue } from '../../src-main/core/products/catalogue-import';
import { guard, unguard } from '../../src-main/core/products/catalogue-rows';
import { propertyParams } from './helpers/property';

async function collect(write: (out: Writable) => Promise<unknown>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await write(out);
  return Buffer.concat(chunks);
}
const toCsv = (products: ProductFields[], options: Parameters<typeof writeCatalogueCsv>[1] = {}) =>
  collect((out) => writeCatalogueCsv(products, options, out));
const toXlsx = (products: ProductFields[]) => collect((out) => writeCatalogueXlsx(products, out));

const sample: ProductFields[] = [
  {
    sku: 'KOPI-SUSU',
    name: 'Kopi susu',
    barcodes: ['8992761111113', '0036000291452'],
    category: 'Minuman',
    price: 18_000,
    taxCategory: 'ppn',
    active: true,
  },
  {
    sku: 'P-50',
    name: 'Pulsa 50.000',
    barcodes: [],
    category: '',
    price: 51_500,
    taxCategory: 'exempt',
    active: true,
    itemId: 'PULSA-50',
  },
  // Names that a spreadsheet would take for a formula, quotes, both delimiters, an emoji, an apostrophe.
  {
    sku: '-10',
    name: '=SUM(A1) "promo"; 2, 3',
    barcodes: ['96385074'],
    category: '+Diskon',
    price: 0,
    taxCategory: 'pbjt',
    active: false,
  },
  {
    sku: "'=x",
    name: "'90s kopi ☕ l'été",
    barcodes: [],
    category: '@home',
    price: 10_000_000_000,
    taxCategory: 'ppn',
    active: true,
  },
];

describe('catalogue export', () => {
  it('writes the import’s format: header, | between barcodes, plain-digit prices, 1/0, CR LF, and a guard before formulas', async () => {
    const text = (await toCsv(sample)).toString('utf8');
    expect(text.split('\r\n')).toEqual([
      'sku,name,barcode,category,price,tax,active,item_id',
      'KOPI-SUSU,Kopi susu,8992761111113|0036000291452,Minuman,18000,ppn,1,',
      'P-50,Pulsa 50.000,,,51500,exempt,1,PULSA-50',
      `'-10,"'=SUM(A1) ""promo""; 2, 3",96385074,'+Diskon,0,pbjt,0,`,
      `''=x,'90s kopi ☕ l'été,,'@home,10000000000,ppn,1,`,
      '',
    ]);
  });

  it('writes ; and a BOM for Excel set to Indonesian', async () => {
    const bytes = await toCsv(sample.slice(0, 1), { delimiter: ';', bom: true });
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8').split('\r\n')[1]).toBe(
      'KOPI-SUSU;Kopi susu;8992761111113|0036000291452;Minuman;18000;ppn;1;',
    );
  });

  it('writes a workbook with one Products sheet: barcodes as text, prices as whole numbers', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await toXlsx(sample)) as unknown as ArrayBuffer);
    expect(wb.worksheets.map((s) => s.name)).toEqual(['Products']);
    const sheet = wb.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      'sku',
      'name',
      'barcode',
      'category',
      'price',
      'tax',
      'active',
      'item_id',
    ]);
    expect((sheet.getRow(2).values as unknown[]).slice(1)).toEqual([
      'KOPI-SUSU',
      'Kopi susu',
      '8992761111113|0036000291452',
      'Minuman',
      18_000,
      'ppn',
      1,
    ]);
    expect(sheet.getCell('E2').numFmt).toBe('0');
  });

  it('round-trips through CSV (both delimiters, with and without BOM) and XLSX', async () => {
    for (const options of [{}, { delimiter: ';' as const, bom: true }, { delimiter: ',' as const, bom: true }]) {
      const r = await importCatalogue(await toCsv(sample, options));
      expect(r.ok && r.products).toEqual(sample);
    }
    const x = await importCatalogue(await toXlsx(sample));
    expect(x.ok && x.products).toEqual(sample);
  });

  it("round-trips today's quick items", async () => {
    const items = quickItemsAsProducts(loadItemCatalogue(), 'ppn');
    const r = await importCatalogue(await toCsv(items));
    expect(r.ok && r.products).toEqual(items);
  });

  it('the guard is undone by the import for every text', () => {
    for (const t of ['', "'", "''", "'=", '=', '-1', "'-1", "''=x", "'a", 'a', '@', "'@'"])
      expect(unguard(guard(t))).toBe(t);
  });

  it('round-trips any valid catalogue (property)', async () => {
    const cut = (s: string, n: number) => [...s].slice(0, n).join(''); // by code points: never half a character
    const text = fc
      .string({
        unit: fc.constantFrom('a', 'Z', ' ', '"', ';', ',', '|', "'", '=', '+', '-', '@', 'é', '☕', '👩🏽‍💻', '1'),
        minLength: 1,
        maxLength: 30,
      })
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const product = fc.record({
      sku: text.map((s) => cut(s, 20)).filter((s) => s.trim() === s && s !== ''),
      name: text,
      barcodes: fc.uniqueArray(fc.stringMatching(/^\d{12}$/).map(withCheckDigit), { maxLength: 3 }),
      category: fc.oneof(
        fc.constant(''),
        text.map((s) => cut(s, 10).trim()),
      ),
      price: fc.integer({ min: 0, max: 10_000_000_000 }),
      taxCategory: fc.constantFrom(...TAX_CATEGORIES),
      active: fc.boolean(),
      itemId: fc.option(fc.stringMatching(/^[A-Z0-9-]{1,12}$/), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(product, {
          minLength: 1,
          maxLength: 20,
          selector: (p) => p.sku.toLowerCase(),
        }),
        fc.constantFrom('csv,', 'csv;', 'xlsx'),
        async (drafts, format) => {
          // Barcodes unique across the catalogue, as the import requires.
          const seen = new Set<string>();
          const catalogue: ProductFields[] = drafts.map(({ itemId, ...p }) => {
            const barcodes = p.barcodes.filter((b) => !seen.has(b) && seen.add(b));
            return itemId === undefined ? { ...p, barcodes } : { ...p, barcodes, itemId };
          });
          for (const p of catalogue) expect(productFieldsSchema.safeParse(p).error).toBeUndefined();
          const bytes =
            format === 'xlsx'
              ? await toXlsx(catalogue)
              : await toCsv(catalogue, { delimiter: format === 'csv;' ? ';' : ',', bom: format === 'csv;' });
          const r = await importCatalogue(bytes);
          if (!r.ok) throw new Error(r.issues.map((i) => i.message).join('\n'));
          expect(r.products).toEqual(catalogue);
        },
      ),
      propertyParams(60),
    );
  });
});
