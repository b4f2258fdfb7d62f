import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { withCheckDigit } from '../../src-main/common/barcode';
import { runCli } from './helpers/cli-child';
import { tempDir } from './helpers/loket';

const dir = tempDir('loket-cli-catalogue-');
const files = tempDir('loket-cli-catalogue-files-');
afterAll(() => {
  dir.remove();
  files.remove();
});

function env(): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('LOKET_')) base[name] = value;
  return { ...base, LOKET_DATA_DIR: dir.path };
}

const cli = (...args: string[]) => runCli(['catalogue', ...args], { env: env() });
const EAN = withCheckDigit('899276111111');
const UPC = withCheckDigit('03600029145');

describe('npm run cli -- catalogue', { timeout: 120_000 }, () => {
  it('import refuses a file with a bad row, naming line, column and rule, and imports nothing', async () => {
    const path = join(files.path, 'bad.csv');
    writeFileSync(path, `sku;name;price;barcode\nA1;Wedang Jahe;18000;${EAN}\nA2;Teh;-5;\nA3;;1000;8992761111112\n`);
    const r = await cli('import', path);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 3, price: must not be negative .*\[price\]/);
    expect(r.stderr).toMatch(/line 4, name: must not be empty/);
    expect(r.stderr).toMatch(/line 4, barcode: .*check digit.*\[barcode_check_digit\]/);
    expect(r.stderr).toMatch(/nothing was imported/);
    const listed = await cli('list', '--search', 'jahe', '--json');
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });

  it('imports (a dry run first), lists by name, SKU and barcode (a UPC-A by its EAN-13), and exports what it imported', async () => {
    const path = join(files.path, 'good.csv');
    writeFileSync(
      path,
      `\ufeffsku,name,barcode,category,price,tax,active\nA1,Bajigur Süsu,${EAN},Minuman,18000,ppn,1\nA2,Teh Poci,${UPC},Minuman,8000,,1\n`,
    );
    const dry = await cli('import', path, '--dry-run', '--json');
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ ok: true, dryRun: true, created: 2 });
    expect(JSON.parse((await cli('list', '--search', 'bajigur', '--json')).stdout)).toEqual([]);

    const real = await cli('import', path);
    expect(real.stderr).toBe('');
    expect(real.stdout).toMatch(/imported 2 product\(s\) \(csv\): 2 new, 0 changed, 0 unchanged/);
    const bySubstring = JSON.parse((await cli('list', '--search', 'GUR SUSU', '--json')).stdout);
    expect(bySubstring).toMatchObject([{ sku: 'A1', name: 'Bajigur Süsu', price: 18000, barcodes: [EAN] }]);
    const byUpc = JSON.parse((await cli('list', '--search', UPC, '--json')).stdout);
    expect(byUpc).toMatchObject([{ sku: 'A2', barcodes: [`0${UPC}`] }]);
    const text = await cli('list', '--search', 'a1');
    expect(text.stdout).toMatch(/^A1 +Bajigur Süsu/m);

    const out = join(files.path, 'out.xlsx');
    const exported = await cli('export', '--out', out);
    expect(exported.code).toBe(0);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(out) as unknown as ArrayBuffer);
    const rows = book.getWorksheet('Products')!.getSheetValues().filter(Boolean) as unknown[][];
    // The header, the quick items taken in once, and the two products.
    expect(rows[0]!.slice(1)).toEqual(['sku', 'name', 'barcode', 'category', 'price', 'tax', 'active', 'item_id']);
    expect(rows.map((r) => r[1])).toEqual(expect.arrayContaining(['A1', 'A2']));
    const again = await cli('export', '--out', out);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/--out: .* exists already/);
    expect((await cli('export', '--out', out, '--format', 'pdf')).stderr).toMatch(/--format: csv or xlsx/);
  });

  it('import refuses a file over 32 MiB by its size, before reading it (a sparse 50 MiB file), and a stream past it', async () => {
    const big = join(files.path, 'big.csv');
    writeFileSync(big, 'sku,name,price\n');
    truncateSync(big, 50 * 1024 * 1024); // sparse: 50 MiB long, next to nothing on the disk
    const r = await cli('import', big);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `FILE: is 50.0 MiB (52428800 bytes), more than the 32 MiB (33554432 bytes) a catalogue file may be; nothing was imported: ${big}`,
    );
    const over = join(files.path, 'over.csv');
    writeFileSync(over, 'sku,name,price\n');
    truncateSync(over, 32 * 1024 * 1024 + 1);
    expect((await cli('import', over)).stderr).toMatch(/FILE: is 32\.0 MiB \(33554433 bytes\), more than the 32 MiB/);
    // No size to check (a device): read until one byte past the limit, then refused the same way.
    const endless = await cli('import', '/dev/zero');
    expect(endless.code).toBe(2);
    expect(endless.stderr).toContain('FILE: is more than the 32 MiB (33554432 bytes) a catalogue file may be');
  });
});
