import { PassThrough, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import type { ProductFields } from '../../common/product';
import { writeCsvRows } from '../export/csv-writer';
import { DrainWaiter, settled } from '../export/streams';
import { sheetInput } from '../export/xlsx-export';
import { COLUMNS, guard } from './catalogue-rows';
import type { Delimiter } from './catalogue-csv';

/**
 * Writes the catalogue in the format the import reads (catalogue-rows.ts), so an export imports back to the same
 * products: the header sku,name,barcode,category,price,tax,active,item_id; barcodes in their stored form separated by
 * |; the price as plain digits (18000), a number cell in XLSX; active as 1 or 0; a text that a spreadsheet would read
 * as a formula (it starts with = + - @) gets a leading ', which the import takes off again.
 */

export const PRODUCTS_SHEET = 'Products';

export function catalogueRecord(p: ProductFields): (string | number)[] {
  return [
    guard(p.sku),
    guard(p.name),
    p.barcodes.join('|'),
    guard(p.category),
    p.price,
    p.taxCategory,
    p.active ? 1 : 0,
    guard(p.itemId ?? ''),
  ];
}

export interface CatalogueCsvOptions {
  /** `,` by default; `;` for Excel set to Indonesian. */
  delimiter?: Delimiter;
  /** The UTF-8 byte-order mark, which Excel needs to read accents right when the file is double-clicked. */
  bom?: boolean;
}

/** The catalogue as CSV (CR LF line ends, RFC 4180 quoting: the one CSV writer, csv-writer.ts) into `out`. */
export async function writeCatalogueCsv(
  products: Iterable<ProductFields>,
  options: CatalogueCsvOptions,
  out: Writable,
): Promise<{ rows: number }> {
  const written = await writeCsvRows(
    products,
    COLUMNS,
    catalogueRecord,
    { delimiter: options.delimiter ?? ',', bom: options.bom ?? false },
    out,
  );
  return { rows: written.rows };
}

const WIDTHS: Record<(typeof COLUMNS)[number], number> = {
  sku: 16,
  name: 36,
  barcode: 18,
  category: 16,
  price: 12,
  tax: 8,
  active: 8,
  item_id: 14,
};

/**
 * The catalogue as an XLSX workbook of one sheet, Products, into `out`: exceljs's streaming writer, read only as fast
 * as `out` takes the zip (as the books' export is).
 */
export async function writeCatalogueXlsx(products: Iterable<ProductFields>, out: Writable): Promise<{ rows: number }> {
  const zip = new PassThrough();
  const done = settled(pipeline(zip, out));
  const drain = new DrainWaiter(done);
  let rows = 0;
  try {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: zip, useStyles: true, useSharedStrings: false });
    workbook.creator = 'Loket';
    const sheet = workbook.addWorksheet(PRODUCTS_SHEET, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = COLUMNS.map((c) => ({
      header: c,
      key: c,
      width: WIDTHS[c],
      // Text, so Excel neither drops a barcode's leading 0 nor writes it as 8.99E+12.
      ...(c === 'barcode' || c === 'sku' ? { style: { numFmt: '@' } } : {}),
      ...(c === 'price' ? { style: { numFmt: '0' } } : {}),
    }));
    const input = sheetInput(sheet);
    for (const p of products) {
      sheet.addRow(catalogueRecord(p).map((v) => (v === '' ? undefined : v))).commit();
      rows++;
      // As the books' export does (xlsx-export.ts): wait for the zip's input and its way out, every 32 rows.
      if (rows % 32 === 0) {
        if (input.needsDrain()) await drain.wait(input.stream);
        if (zip.writableNeedDrain) await drain.wait(zip);
      }
    }
    sheet.commit();
    await Promise.race([workbook.commit(), done]);
  } catch (err) {
    zip.destroy(err as Error);
    await done.catch(() => undefined);
    throw err;
  }
  await done;
  return { rows };
}
