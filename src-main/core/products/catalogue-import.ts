import { readCatalogueCsv, type Delimiter } from './catalogue-csv';
import { CatalogueRows, type ImportOptions, type RowsResult } from './catalogue-rows';
import { readCatalogueXlsx } from './catalogue-xlsx';

/**
 * Reads a catalogue file, CSV or XLSX, and checks every row: either every product, or every issue (each naming its
 * line, column and rule) and nothing imported. The format is read from the bytes, not the file's name: an XLSX
 * workbook is a zip (it starts with "PK"); an old .xls workbook is named as such and refused; anything else is read
 * as CSV. Storing the products (replacing or merging the catalogue) is the caller's.
 */

export type CatalogueFormat = 'csv' | 'xlsx';

export type CatalogueImport = RowsResult & { format: CatalogueFormat | null; delimiter: Delimiter | null };

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);

export function detectCatalogueFormat(bytes: Uint8Array): CatalogueFormat | 'xls' {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'xlsx';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'xls';
  return 'csv';
}

export async function importCatalogue(bytes: Uint8Array, options: ImportOptions = {}): Promise<CatalogueImport> {
  const format = detectCatalogueFormat(bytes);
  if (format === 'xls') {
    const rows = new CatalogueRows('row', options);
    rows.issue(null, null, 'file', 'an old Excel workbook (.xls): save it as XLSX or as CSV UTF-8');
    return { ...rows.result(), format: null, delimiter: null };
  }
  if (format === 'xlsx') return { ...(await readCatalogueXlsx(bytes, options)), format, delimiter: null };
  return { ...readCatalogueCsv(bytes, options), format };
}
