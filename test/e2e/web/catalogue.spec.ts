// The manager's catalogue end to end in browser mode (docs/catalogue.md, "In the app"): a product added (a mistyped
// check digit named first), its price changed, then found by the cashier's search with the new price; a file with a
// bad check digit shows its issue (line, column, rule) and imports nothing; a good file is checked, then imported;
// the export downloads a CSV that holds the changed product. Then the screen at the store's sizes in both languages:
// screenshots to /tmp/shots/catalogue-ui/ (looked at, never compared), nothing cut off or covered, 44 px targets.
import { mkdirSync, readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { BrowserContext, Page } from '@playwright/test';
import { withCheckDigit } from '../../../src-main/common/barcode';
import { expect, seriousViolations, startLoket, stubPrint, test, type LoketServer } from './fixtures';
import { layoutProblems, name, resize, type Size } from './layout-checks';

const MANAGER = { name: 'Bu Sri', pin: '97531864' };
const SHOTS = '/tmp/shots/catalogue-ui';
const TEH = withCheckDigit('899276110001');
/** The same code with its last digit off by one: a mistyped digit. */
const mistyped = (code: string) => code.slice(0, -1) + String((Number(code.at(-1)) + 1) % 10);

let loket: LoketServer;
let context: BrowserContext;
let page: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  loket = await startLoket();
  context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  page = await context.newPage();
  await stubPrint(page);
  await page.goto(loket.cashierUrl);
  await expect(page.getByRole('button', { name: /^Tagih/ })).toBeVisible();
  await page.keyboard.press('F8');
  const setup = page.getByTestId('manager-setup');
  await setup.getByLabel('Nama', { exact: true }).fill(MANAGER.name);
  await setup.getByLabel('PIN (4–8 angka)').fill(MANAGER.pin);
  await setup.getByLabel('Ulangi PIN').fill(MANAGER.pin);
  await page.getByTestId('setup-submit').click();
  await expect(page.getByTestId('manager-title')).toHaveText(`Manajer: ${MANAGER.name}`);
  await page.getByTestId('nav-catalogue').click();
  await expect(page.locator('#catalogue-title')).toBeFocused();
});

test.afterAll(async () => {
  await context?.close();
  await loket?.stop();
});

/** A manager session of the test's own, through the API. */
async function managerToken(): Promise<string> {
  const till = await loket.call('tillStatus');
  const manager = till.staffList.find((s) => s.role === 'manager')!;
  const unlocked = await loket.call('unlockManager', manager.id, MANAGER.pin);
  if (!unlocked.ok) throw new Error('the test could not unlock the manager screens');
  return unlocked.session.token;
}

const row = (sku: string) => page.locator(`tr[data-sku="${sku}"]`);

test('a product added (its check digit named first), its price changed, found at the cashier with the new price', async () => {
  // The quick items of resources/items.json are the catalogue's first products.
  await expect(page.getByTestId('catalogue-count')).toContainText('8 produk di katalog');
  await page.getByTestId('product-add').click();
  await expect(page.locator('#product-sku')).toBeFocused();
  await page.locator('#product-sku').fill('TEH-BOTOL');
  await page.locator('#product-name').fill('Teh botol 350 ml');
  await page.locator('#product-price').fill('6.000');
  await page.locator('#product-category').fill('Minuman');
  await page.locator('#product-barcodes').fill(mistyped(TEH));
  await page.getByTestId('product-save').click();
  await expect(page.locator('#product-barcodes-issue')).toContainText(
    `${mistyped(TEH)}: angka pemeriksa (angka terakhir) seharusnya ${TEH.at(-1)}`,
  );
  await expect(page.locator('#product-barcodes')).toBeFocused();
  // A SKU that is taken, named with whose it is (only the server knows).
  await page.locator('#product-barcodes').fill(TEH);
  await page.locator('#product-sku').fill('kopi-susu');
  await page.getByTestId('product-save').click();
  await expect(page.locator('#product-sku-issue')).toContainText('SKU ini sudah dipakai Kopi susu');
  await page.locator('#product-sku').fill('TEH-BOTOL');
  await page.getByTestId('product-save').click();
  await expect(page.getByTestId('catalogue-notice')).toContainText('Teh botol 350 ml ditambahkan.');
  await expect(row('TEH-BOTOL')).toContainText('Rp6.000');
  await expect(row('TEH-BOTOL')).toContainText(TEH);

  await row('TEH-BOTOL').getByTestId('product-edit').click();
  await expect(page.locator('#product-name')).toBeFocused();
  await page.locator('#product-price').fill('6500');
  await page.getByTestId('product-save').click();
  await expect(page.getByTestId('catalogue-notice')).toContainText('Teh botol 350 ml disimpan.');
  await expect(row('TEH-BOTOL')).toContainText('Rp6.500');

  // Each change an audit record with the manager's name.
  const audit = await loket.call('auditLog', await managerToken(), { limit: 10 });
  expect(audit.filter((e) => e.action.startsWith('product.')).map((e) => [e.action, e.actor.name])).toEqual([
    ['product.changed', MANAGER.name],
    ['product.added', MANAGER.name],
  ]);

  // The cashier, in a page of their own, finds it by name with the new price.
  const cashier = await context.newPage();
  try {
    await cashier.goto(loket.cashierUrl);
    await expect(cashier.getByTestId('cart')).toHaveAttribute('data-loaded', 'true');
    await cashier.getByTestId('cart-search').click();
    await cashier.keyboard.type('teh bot');
    const option = cashier.getByTestId('cart-results').getByRole('option').first();
    await expect(option).toContainText('Teh botol 350 ml');
    await expect(option).toContainText('6.500');
  } finally {
    await cashier.close();
  }
});

test('a file with a bad check digit: its line, column and rule shown, nothing imported; a good file imported', async () => {
  const file = page.getByTestId('catalogue-file');
  const bad = mistyped(withCheckDigit('899276110002'));
  await file.setInputFiles({
    name: 'produk-salah.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `sku;nama;kode batang;harga\nAIR-1;Air 1 L;${withCheckDigit('899276110003')};7000\nAIR-2;Air 2 L;${bad};-5\n`,
    ),
  });
  const issues = page.getByTestId('import-issues');
  await expect(issues).toContainText('produk-salah.csv: 2 masalah. Tidak ada yang diimpor');
  await expect(issues.locator('li[data-rule="barcode_check_digit"]')).toContainText(
    `Baris 3, kolom barcode: ${bad}: angka pemeriksa (angka terakhir) seharusnya ${withCheckDigit('899276110002').at(-1)}`,
  );
  await expect(issues.locator('li[data-rule="price"]')).toContainText('Baris 3, kolom price: Rupiah utuh');
  await expect(page.getByTestId('import-run')).toHaveCount(0);
  expect((await loket.call('catalogueList', await managerToken(), { search: 'AIR-1' })).products).toEqual([]);

  await file.setInputFiles({
    name: 'produk.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `sku,name,barcode,category,price,tax\nAIR-1,Air mineral 1 L,${withCheckDigit('899276110003')},Minuman,7000,ppn\n` +
        'TEH-BOTOL,Teh botol 350 ml,,Minuman,7000,ppn\n',
    ),
  });
  await expect(page.getByTestId('import-ready')).toContainText(
    'produk.csv: 2 baris tanpa masalah. Impor akan menambah 1 produk, mengubah 1',
  );
  // The dry run changed nothing.
  await expect(row('TEH-BOTOL')).toContainText('Rp6.500');
  await page.getByTestId('import-run').click();
  await expect(page.getByTestId('import-done')).toContainText('Diimpor 2 baris: 1 baru, 1 diubah');
  await page.getByTestId('catalogue-search').fill('air mineral');
  await expect(row('AIR-1')).toContainText('Rp7.000');
  await page.getByTestId('catalogue-search').fill('');
  await expect(page.getByTestId('catalogue-count')).toContainText('10 produk di katalog');
});

test('deactivated, the cashier no longer finds it; the export downloads every product', async () => {
  await row('AIR-1').getByTestId('product-deactivate').click();
  await expect(page.getByTestId('catalogue-notice')).toContainText('dinonaktifkan');
  await expect(row('AIR-1')).toContainText('Nonaktif');
  expect(await loket.call('searchProducts', { text: 'Air mineral 1' })).toEqual([]);

  const download = page.waitForEvent('download');
  await page.getByTestId('catalogue-export-run').click();
  const csv = await download;
  expect(csv.suggestedFilename()).toMatch(/^loket-products-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(page.getByTestId('catalogue-export-status')).toContainText(`${csv.suggestedFilename()} diunduh`);
  const rows = parse(readFileSync(await csv.path()), { delimiter: ';', columns: true, bom: true }) as Record<
    string,
    string
  >[];
  expect(rows).toHaveLength(10);
  expect(rows.find((r) => r.sku === 'TEH-BOTOL')).toMatchObject({ price: '7000', barcode: '', active: '1' });
  expect(rows.find((r) => r.sku === 'AIR-1')).toMatchObject({ active: '0' });
  expect(await seriousViolations(page), 'catalogue').toEqual([]);
});

test('the screen at the store’s sizes, both languages: nothing cut off or covered, 44 px targets; screenshots', async () => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const sizes: Size[] = [
    { width: 1024, height: 600 },
    { width: 1366, height: 768 },
    { width: 1920, height: 1080 },
    { width: 600, height: 1024 },
  ];
  // The form open with an issue, and the import's issues, so both are looked at too.
  await row('TEH-BOTOL').getByTestId('product-edit').click();
  await page.locator('#product-barcodes').fill(mistyped(TEH));
  await page.getByTestId('product-save').click();
  await page.getByTestId('catalogue-file').setInputFiles({
    name: 'produk-salah.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`sku;nama;harga\nX;;18.5\n`),
  });
  await expect(page.getByTestId('import-issues')).toBeVisible();
  for (const lang of ['id', 'en'] as const) {
    await page.locator('#ui-lang').selectOption(lang);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    for (const size of sizes) {
      await resize(page, size);
      await page.evaluate(() => document.querySelector('.tabpanel:not([hidden])')?.scrollTo(0, 0));
      await page.screenshot({ path: `${SHOTS}/catalogue-${lang}-${name(size)}.png` });
      const panel = page.locator('.tabpanel:not([hidden])');
      if (await panel.evaluate((el) => el.scrollHeight > el.clientHeight + 1)) {
        await page.getByTestId('product-list').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/catalogue-${lang}-${name(size)}-list.png` });
        await page.getByTestId('catalogue-import').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/catalogue-${lang}-${name(size)}-import.png` });
      }
      expect(await layoutProblems(page), `${lang}, ${name(size)}`).toEqual([]);
    }
    if (lang === 'en') {
      const text = await page.getByTestId('section-catalogue').innerText();
      for (const word of ['Muat ulang', 'Produk baru', 'Simpan', 'Baris', 'Ekspor', 'Aktif'])
        expect(text).not.toContain(word);
    }
  }
  await page.locator('#ui-lang').selectOption('id');
  await resize(page, { width: 1366, height: 768 });
});
