import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { withCheckDigit } from '../../src-main/common/barcode';
import { detectDelimiter } from '../../src-main/core/products/catalogue-csv';
import { importCatalogue, type CatalogueImport } from '../../src-main/core/products/catalogue-import';
import { parseActive, parsePrice } from '../../src-main/core/products/catalogue-rows';

const csv = (text: string) => Buffer.from(text, 'utf8');
const BOM = '\ufeff';

function products(r: CatalogueImport) {
  if (!r.ok) throw new Error(r.issues.map((i) => i.message).join('\n'));
  return r.products;
}
function messages(r: CatalogueImport): string[] {
  if (r.ok) throw new Error('expected issues, got products');
  return r.issues.map((i) => i.message);
}

describe('catalogue import: CSV', () => {
  it('reads ; with a BOM, Indonesian headers in any order and case, 18.000 prices, ya/tidak, a UPC-A kept as EAN-13', async () => {
    const file = [
      `${BOM}Nama;SKU;Harga;Kode Batang;Kategori;Pajak;Aktif`,
      'Kopi susu;KOPI-SUSU;18.000;8992761111113|036000291452;Minuman;ppn;ya',
      'Nasi goreng spesial;NASI-GORENG;35000;;Makanan;PBJT;Tidak',
      'Beras premium 5 kg;BERAS-5;Rp 78.000;96385074;Sembako;;',
    ].join('\r\n');
    const r = await importCatalogue(csv(file));
    expect(r).toMatchObject({ ok: true, format: 'csv', delimiter: ';', warnings: [] });
    expect(products(r)).toEqual([
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
        sku: 'NASI-GORENG',
        name: 'Nasi goreng spesial',
        barcodes: [],
        category: 'Makanan',
        price: 35_000,
        taxCategory: 'pbjt',
        active: false,
      },
      {
        sku: 'BERAS-5',
        name: 'Beras premium 5 kg',
        barcodes: ['96385074'],
        category: 'Sembako',
        price: 78_000,
        taxCategory: 'ppn',
        active: true,
      },
    ]);
  });

  it('reads , without a BOM, LF line ends, quoted fields, an item_id, and the store default tax category', async () => {
    const file =
      'sku,name,price,tax,active,item_id\n"P-50","Pulsa 50.000","51,500",,1,PULSA-50\nX1,"Roti ""bakar"", cokelat",22000,,0,\n';
    const r = await importCatalogue(csv(file), { defaultTaxCategory: 'exempt' });
    expect(r).toMatchObject({ ok: true, delimiter: ',' });
    expect(products(r)).toEqual([
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
      {
        sku: 'X1',
        name: 'Roti "bakar", cokelat',
        barcodes: [],
        category: '',
        price: 22_000,
        taxCategory: 'exempt',
        active: false,
      },
    ]);
  });

  it('notes a column it does not read, and skips empty rows', async () => {
    const r = await importCatalogue(csv('sku;name;price;stok;\r\nA;Kopi;1000;5;\r\n;;;;\r\n\r\nB;Teh;2000;1;\r\n'));
    expect(products(r).map((p) => p.sku)).toEqual(['A', 'B']);
    expect(r.warnings).toEqual(['line 1: column 4 ("stok") is not one Loket reads; it is ignored']);
    const late = await importCatalogue(csv('\r\n\r\nsku;name;price\r\nA;Kopi;-1\r\n'));
    expect(messages(late)).toEqual(['line 4, price: must not be negative (got "-1")']);
  });

  it('names the line, the column and the rule of every bad row, and imports nothing', async () => {
    const good = withCheckDigit('899100000001');
    const file = [
      'sku;name;barcode;category;price;tax;active',
      `A1;Kopi;${good};;18000;ppn;1`, // 2: fine
      'A2;Teh;4006381333932;;8000;ppn;1', // 3: check digit
      `a1;Susu;${good}|12345;;-5;vat;maybe`, // 4: sku twice, barcode twice, barcode length, negative, tax, active
      'A3;;;;18.5;;', // 5: empty name, a decimal price
      'A4;Roti;89912 34;;18.000,00;;', // 6: digits only, a decimal price
      `A5;Gula;8.99123E+12;;1000;;`, // 7: Excel's scientific notation
      `;Garam;;;;;`, // 8: empty sku and price
      `A6;Air;96385074|96385074;;1000;;`, // 9: the same barcode twice in one row
      `${'S'.repeat(41)};Minyak\u0007;;${'c'.repeat(41)};1000;;`, // 10: long sku, control character, long category
      'A7;Mie;;;1000;;;extra', // 11: more fields than the header
    ].join('\r\n');
    const r = await importCatalogue(csv(file));
    expect(r.ok).toBe(false);
    expect(messages(r)).toEqual([
      'line 3, barcode: "4006381333932": the check digit (the last one) should be 1 (got 2): a digit is mistyped',
      'line 4, sku: "a1" is the SKU of line 2 already; each product has its own',
      `line 4, barcode: "${good}" is already a barcode of line 2; a barcode finds one product`,
      'line 4, barcode: "12345": 13 digits (EAN-13), 12 (UPC-A) or 8 (EAN-8) (got 5)',
      'line 4, price: must not be negative (got "-5")',
      'line 4, tax: one of ppn, pbjt, exempt (got "vat"); empty: ppn',
      'line 4, active: 1 or 0, true or false, ya or tidak, yes or no (empty: active) (got "maybe")',
      'line 5, name: must not be empty: the name printed on the receipt',
      'line 5, price: a whole number of rupiah from 0 to 10000000000, without decimals, e.g. 18000 (got "18.5")',
      'line 6, barcode: "89912 34": digits only (found a space at position 6)',
      'line 6, price: a whole number of rupiah from 0 to 10000000000, without decimals, e.g. 18000 (got "18.000,00")',
      'line 7, barcode: "8.99123E+12" is a number Excel wrote in scientific notation, and its digits are lost: format the column as Text and save again',
      'line 8, sku: must not be empty (1 to 40 characters, without control characters or spaces at either end)',
      'line 8, price: must not be empty (a whole number of rupiah from 0 to 10000000000, without decimals)',
      'line 9, barcode: "96385074" is already a barcode of this row; a barcode finds one product',
      `line 10, sku: 1 to 40 characters, without control characters or spaces at either end (got "${'S'.repeat(40)}…")`,
      'line 10, name: 1 to 80 characters, without control, invisible or text-direction characters: it contains control characters (found U+0007)',
      `line 10, category: at most 40 characters, without control characters or spaces at either end (got "${'c'.repeat(40)}…")`,
      'line 11: 8 fields, but the header (line 1) names 7',
    ]);
    if (!r.ok) {
      expect(r.issues[0]).toEqual({
        line: 3,
        column: 'barcode',
        rule: 'barcode_check_digit',
        message: expect.any(String),
        // The rule's numbers, for a screen to word it: the code as written and the digit it should end in.
        params: { code: expect.any(String), expected: expect.any(Number) },
      });
      expect(r.issues.map((i) => i.rule)).toContain('sku_duplicate');
      expect(r.moreIssues).toBe(0);
    }
  });

  it('names a line by where it starts, after a line break inside quotes and blank lines', async () => {
    const r = await importCatalogue(csv('sku,name,price\r\nA,"Kopi\r\nsusu",1000\r\n\r\nB,Teh,-1\r\n'));
    expect(messages(r)).toEqual([
      'line 2, name: 1 to 80 characters, without control, invisible or text-direction characters: it contains control characters (found U+000D)',
      'line 5, price: must not be negative (got "-1")',
    ]);
    // LF only, a lone LF inside quotes, and CR only (old Mac files).
    expect(messages(await importCatalogue(csv('sku,name,price\nA,"Kopi\nsusu\n",1000\n\n\nB,Teh,-1')))).toEqual([
      'line 2, name: 1 to 80 characters, without control, invisible or text-direction characters: it contains control characters (found U+000A)',
      'line 7, price: must not be negative (got "-1")',
    ]);
    expect(messages(await importCatalogue(csv('sku,name,price\rA,Kopi,1\rB,Teh,-1\r')))).toEqual([
      'line 3, price: must not be negative (got "-1")',
    ]);
  });

  it('stops at 200 issues and counts the rest', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `S${i};Item ${i};-1`);
    const r = await importCatalogue(csv(['sku;name;price', ...rows].join('\n')));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues).toHaveLength(200);
    expect(r.moreIssues).toBe(100);
    expect(r.issues[199]!.message).toBe('line 201, price: must not be negative (got "-1")');
  });

  it('names a header that lacks a required column or has one twice', async () => {
    expect(messages(await importCatalogue(csv('sku;nama;barcode\r\nA;Kopi;\r\n')))).toEqual([
      'line 1: the header has no price column; it needs sku, name and price, and may have barcode, category, tax, active, item_id',
    ]);
    expect(messages(await importCatalogue(csv('sku;name;price;harga\r\nA;Kopi;1;2\r\n')))).toEqual([
      'line 1, price: the column price is there twice (columns 3 and 4)',
    ]);
  });

  it('names a file that is not a catalogue', async () => {
    expect(messages(await importCatalogue(csv('')))).toEqual([
      'the file is empty: it needs a header line (sku, name, price, …) and the products',
    ]);
    expect(messages(await importCatalogue(csv(`${BOM}sku;name;price\r\n`)))).toEqual([
      'the file has a header but no product rows',
    ]);
    expect(messages(await importCatalogue(Buffer.from([0x73, 0x6b, 0x75, 0x3b, 0xff, 0xfe, 0x0a])))).toEqual([
      'the file is not UTF-8 text: save it as "CSV UTF-8" (or as XLSX)',
    ]);
    expect(messages(await importCatalogue(csv('sku;name;price\r\nA;"Kopi;1000\r\n')))).toEqual([
      'line 2: a field opens a quote (") that is never closed',
    ]);
    expect(
      messages(await importCatalogue(csv('sku;name;price\r\nA;"Ko\r\npi";1\r\n\r\nB;"Teh;1\r\nC;D;1\r\n'))),
    ).toEqual(['line 5: a field opens a quote (") that is never closed']);
    const xls = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0]);
    expect(messages(await importCatalogue(xls))).toEqual([
      'an old Excel workbook (.xls): save it as XLSX or as CSV UTF-8',
    ]);
    expect(messages(await importCatalogue(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])))[0]).toMatch(
      /^the workbook cannot be read \(.*\); save it again as XLSX or CSV$/,
    );
  });
});

describe('catalogue import: the cells', () => {
  it('prices: digits, thousands by dots or commas, an Rp in front; never a guess at decimals', () => {
    const ok = (cell: string | number) => {
      const r = parsePrice(cell);
      return r.ok ? r.value : r.problem;
    };
    expect(ok('18000')).toBe(18_000);
    expect(ok(' 18.000 ')).toBe(18_000);
    expect(ok('1.234.567')).toBe(1_234_567);
    expect(ok('18,000')).toBe(18_000);
    expect(ok('Rp18.000')).toBe(18_000);
    expect(ok('Rp. 18.000')).toBe(18_000);
    expect(ok('0')).toBe(0);
    expect(ok(18_000)).toBe(18_000);
    for (const bad of ['18.5', '18,5', '18.00', '1.8000', '18 000', '18.000,00', '1,234.5', '', 'abc', '1e4'])
      expect(ok(bad)).toMatch(/^a whole number of rupiah/);
    expect(ok('-18.000')).toBe('must not be negative (got "-18.000")');
    expect(ok(-1)).toBe('must not be negative (got -1)');
    expect(ok(18.5)).toMatch(/^a whole number of rupiah .* \(got 18\.5\)$/);
    expect(ok('10000000001')).toMatch(/^a whole number of rupiah from 0 to 10000000000/);
  });

  it('active: the accepted words, in any case, and empty', () => {
    for (const yes of ['1', 'true', 'TRUE', 'ya', 'Ya', 'yes', 'YES', '', '  ', null, true, 1] as const)
      expect(parseActive(yes)).toEqual({ ok: true, value: true });
    for (const no of ['0', 'false', 'tidak', 'TIDAK', 'no', false, 0] as const)
      expect(parseActive(no)).toEqual({ ok: true, value: false });
    for (const bad of ['y', 'n', 'aktif', '2', 2]) expect(parseActive(bad).ok).toBe(false);
  });

  it('the delimiter is what the header line has more of, outside quotes', () => {
    expect(detectDelimiter('sku;name;price\r\na,b,c,d,e')).toBe(';');
    expect(detectDelimiter('sku,name,price')).toBe(',');
    expect(detectDelimiter('"s;k;u;x",name,price')).toBe(',');
    expect(detectDelimiter('sku')).toBe(',');
    expect(detectDelimiter('\r\n\r\nsku;name;price\r\n')).toBe(';');
  });
});

describe('catalogue import: XLSX', () => {
  async function workbook(rows: ExcelJS.CellValue[][], build?: (sheet: ExcelJS.Worksheet) => void): Promise<Buffer> {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Produk');
    for (const row of rows) sheet.addRow(row);
    build?.(sheet);
    wb.addWorksheet('Notes').addRow(['not read']);
    return Buffer.from(await wb.xlsx.writeBuffer());
  }

  it('reads the first sheet: number and text cells, booleans, formulas, rich text', async () => {
    const bytes = await workbook([
      ['SKU', 'Name', 'Barcode', 'Price', 'Tax', 'Active'],
      [
        'KOPI',
        { richText: [{ text: 'Kopi ' }, { text: 'susu', font: { bold: true } }] },
        '8992761111113',
        18_000,
        'ppn',
        true,
      ],
      ['TEH', 'Es teh', Number(withCheckDigit('899276111112')), { formula: '4000*2', result: 8000 }, 'PBJT', 0],
    ]);
    const r = await importCatalogue(bytes);
    expect(r).toMatchObject({ ok: true, format: 'xlsx', delimiter: null });
    expect(products(r)).toEqual([
      {
        sku: 'KOPI',
        name: 'Kopi susu',
        barcodes: ['8992761111113'],
        category: '',
        price: 18_000,
        taxCategory: 'ppn',
        active: true,
      },
      {
        sku: 'TEH',
        name: 'Es teh',
        barcodes: [withCheckDigit('899276111112')],
        category: '',
        price: 8000,
        taxCategory: 'pbjt',
        active: false,
      },
    ]);
  });

  it('names rows by the sheet’s row numbers, a number cell that lost its leading 0, an error cell, a decimal price', async () => {
    const bytes = await workbook([
      [],
      ['sku', 'name', 'barcode', 'price'],
      ['A', 'UPC as number', 36000291452, 1000], // 036000291452 typed into a number cell
      ['B', { error: '#N/A' }, null, 1000.5],
    ]);
    expect(messages(await importCatalogue(bytes))).toEqual([
      'row 3, barcode: "36000291452": 13 digits (EAN-13), 12 (UPC-A) or 8 (EAN-8) (got 11) ' +
        '(the cell is a number, so a leading 0 may have been dropped: format the column as Text)',
      'row 4, name: the cell holds the spreadsheet error #N/A',
      'row 4, price: a whole number of rupiah from 0 to 10000000000, without decimals, e.g. 18000 (got 1000.5)',
    ]);
  });
});
