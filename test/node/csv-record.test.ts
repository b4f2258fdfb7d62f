// The CSV export formats its records itself (csv-export.ts, no callback per field): byte for byte what csv-stringify
// gave with the export's options, for any cells, with either delimiter, a BOM or not.
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { COLUMN_NAMES } from '../../src-main/core/export/columns';
import { csvRecord, quoteRule, writeCsv } from '../../src-main/core/export/csv-export';
import type { ExportRow } from '../../src-main/core/export/order-query';
import type { CsvCells, RowCells } from '../../src-main/core/export/row-cells';

/** Text with what makes quoting matter: both delimiters, quotes, CR, LF, CRLF, and other characters. */
const tricky = fc
  .array(fc.constantFrom(',', ';', '"', '\r', '\n', '\r\n', 'a', ' ', '=', 'é', '0', "'", '\t', ''), {
    maxLength: 8,
  })
  .map((parts) => parts.join(''));
const cell = fc.oneof(tricky, fc.string(), fc.constant(null), fc.integer({ min: 0, max: 100_000_000 }));

function byCsvStringify(records: CsvCells[], delimiter: ',' | ';', bom: boolean): Buffer {
  const text = stringify(records, {
    delimiter,
    bom,
    header: true,
    columns: [...COLUMN_NAMES],
    record_delimiter: '\r\n',
  });
  return Buffer.from(text);
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
          const chunks: Buffer[] = [];
          const out = new Writable({
            write(chunk: Buffer, _enc, next) {
              chunks.push(chunk);
              next();
            },
          });
          // The cells are given as they are: the formatting is what is compared, not RowCells.
          const cells = { csv: (r: unknown) => r as CsvCells } as unknown as RowCells;
          const written = await writeCsv(records as unknown as ExportRow[], cells, { delimiter, bom }, out);
          const expected = byCsvStringify(records, delimiter, bom);
          expect(Buffer.concat(chunks).equals(expected)).toBe(true);
          expect(written).toEqual({ rows: records.length, bytes: expected.length });
        },
      ),
      { numRuns: 200 },
    );
  });
});
