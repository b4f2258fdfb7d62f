// The one CSV writer (csv-writer.ts) formats its records itself, with no callback per field: byte for byte what
// csv-stringify gave with the exports' options, for any cells, with either delimiter, a BOM or not. The orders, the
// sale lines, refunds and tenders, and the catalogue were written by three writers (two of them csv-stringify itself):
// each file is the same bytes through the one writer.
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { COLUMN_NAMES } from '../../src-main/core/export/columns';
import { csvRecord, quoteRule, writeCsvRows } from '../../src-main/core/export/csv-writer';
import type { CsvCells } from '../../src-main/core/export/row-cells';
import { writeTableCsv } from '../../src-main/core/export/table-writers';
import { ZoneClock } from '../../src-main/core/export/zone-time';
import { SALE_LINE_COLUMNS } from '../../src-main/core/export/sale-lines-export';
import { catalogueRecord, writeCatalogueCsv } from '../../src-main/core/products/catalogue-export';
import { COLUMNS as CATALOGUE_COLUMNS } from '../../src-main/core/products/catalogue-rows';
import type { ProductFields } from '../../src-main/common/product';

/** Text with what makes quoting matter: both delimiters, quotes, CR, LF, CRLF, and other characters. */
const tricky = fc
  .array(fc.constantFrom(',', ';', '"', '\r', '\n', '\r\n', 'a', ' ', '=', 'é', '0', "'", '\t', ''), {
    maxLength: 8,
  })
  .map((parts) => parts.join(''));
const cell = fc.oneof(tricky, fc.string(), fc.constant(null), fc.integer({ min: 0, max: 100_000_000 }));

function byCsvStringify(
  records: (string | number | null)[][],
  delimiter: ',' | ';',
  bom: boolean,
  columns: readonly string[] = COLUMN_NAMES,
): Buffer {
  const text = stringify(records, {
    delimiter,
    bom,
    header: true,
    columns: [...columns],
    record_delimiter: '\r\n',
  });
  return Buffer.from(text);
}

/** What a writer writes into a stream, and what it says it wrote. */
async function written<T>(write: (out: Writable) => Promise<T>): Promise<{ bytes: Buffer; result: T }> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, next) {
      chunks.push(chunk);
      next();
    },
  });
  const result = await write(out);
  return { bytes: Buffer.concat(chunks), result };
}

describe('CSV records without csv-stringify', () => {
  it('each record is the text csv-stringify writes', () => {
    fc.assert(
      fc.property(
        fc.array(cell, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(',' as const, ';' as const),
        (cells, d) => {
          const expected = stringify([cells], { delimiter: d, record_delimiter: '\r\n' });
          expect(csvRecord(cells, d, quoteRule(d))).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a whole export (header, BOM, rows) is byte for byte the same', async () => {
    const row = fc.array(cell, { minLength: COLUMN_NAMES.length, maxLength: COLUMN_NAMES.length });
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { maxLength: 30 }),
        fc.constantFrom(',' as const, ';' as const),
        fc.boolean(),
        async (records, delimiter, bom) => {
          // The cells are given as they are: the formatting is what is compared, not RowCells.
          const { bytes, result } = await written((out) =>
            writeCsvRows(records, COLUMN_NAMES, (r) => r as CsvCells, { delimiter, bom }, out),
          );
          const expected = byCsvStringify(records, delimiter, bom);
          expect(bytes.equals(expected)).toBe(true);
          expect(result).toEqual({ rows: records.length, bytes: expected.length });
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a table's CSV (the sale lines', refunds', tenders') is the bytes csv-stringify wrote for it", async () => {
    // Its cells as text, as the files give them once their times are written (the writer's own cells: export-cells).
    const columns = SALE_LINE_COLUMNS.map((c) => ({ ...c, kind: 'text' as const }));
    const row = fc.array(cell, { minLength: columns.length, maxLength: columns.length });
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { maxLength: 20 }),
        fc.constantFrom(',' as const, ';' as const),
        fc.boolean(),
        async (records, delimiter, bom) => {
          const { bytes, result } = await written((out) =>
            writeTableCsv(records, columns, (r) => r, new ZoneClock('Asia/Jakarta'), { delimiter, bom }, out),
          );
          const expected = byCsvStringify(
            records,
            delimiter,
            bom,
            columns.map((c) => c.name),
          );
          expect(bytes.equals(expected)).toBe(true);
          expect(result).toEqual({ rows: records.length, bytes: expected.length });
        },
      ),
      { numRuns: 200 },
    );
  });

  it("the catalogue's CSV is the bytes csv-stringify wrote for it", async () => {
    const product: fc.Arbitrary<ProductFields> = fc.record({
      sku: tricky,
      name: fc.oneof(tricky, fc.string()),
      barcodes: fc.array(fc.stringMatching(/^[0-9]{8,14}$/), { maxLength: 3 }),
      category: tricky,
      price: fc.integer({ min: 0, max: 100_000_000 }),
      taxCategory: fc.constantFrom('ppn' as const, 'pbjt' as const, 'exempt' as const),
      active: fc.boolean(),
      itemId: fc.option(tricky, { nil: undefined }),
    }) as fc.Arbitrary<ProductFields>;
    await fc.assert(
      fc.asyncProperty(
        fc.array(product, { maxLength: 20 }),
        fc.constantFrom(',' as const, ';' as const),
        fc.boolean(),
        async (products, delimiter, bom) => {
          const { bytes, result } = await written((out) => writeCatalogueCsv(products, { delimiter, bom }, out));
          const expected = byCsvStringify(products.map(catalogueRecord), delimiter, bom, CATALOGUE_COLUMNS);
          expect(bytes.equals(expected)).toBe(true);
          expect(result).toEqual({ rows: products.length });
        },
      ),
      { numRuns: 200 },
    );
  });
});
