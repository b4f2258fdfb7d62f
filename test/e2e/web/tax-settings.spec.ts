// The manager's Tax section and the day's Sales block end to end in browser mode (docs/tax.md, docs/end-of-day.md
// "Sales"): the manager sets prices excluding PPN on the screen (a PKP store without its NPWP is refused at the field,
// in the screen's words, and nothing is saved), a sale is rung up through the cashier API and paid, and the day
// screen's Sales block agrees with the day report's JSON to the rupiah. Then both screens at the store's sizes in both
// languages: nothing cut off or covered, 44 px targets; screenshots to /tmp/shots/tax-day-ui/ (looked at).
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from '@playwright/test';
import { dayIn } from '../../../src-main/common/gateway-time';
import { formatRupiah } from '../../../src-main/common/money';
import { lineOfProduct } from '../../../src-main/common/sale';
import { expect, seriousViolations, startLoket, stubPrint, test, type LoketServer } from './fixtures';
import { layoutProblems, name, resize, type Size } from './layout-checks';

const MANAGER = { name: 'Bu Sri', pin: '97531864' };
const SHOTS = '/tmp/shots/tax-day-ui';

let loket: LoketServer;
let context: BrowserContext;
let page: Page;
let today: string;

test.describe.configure({ mode: 'serial' });

async function managerToken(): Promise<string> {
  const till = await loket.call('tillStatus');
  const manager = till.staffList.find((s) => s.role === 'manager')!;
  const unlocked = await loket.call('unlockManager', manager.id, MANAGER.pin);
  if (!unlocked.ok) throw new Error('the test could not unlock the manager screens');
  return unlocked.session.token;
}

async function section(id: 'tax' | 'day'): Promise<void> {
  await page.getByTestId(`nav-${id}`).click();
  await expect(page.locator(`#${id}-title`)).toBeFocused();
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  loket = await startLoket();
  today = dayIn(new Date(), 'Asia/Jakarta');
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
});

test.afterAll(async () => {
  await context?.close();
  await loket?.stop();
});

test('the Tax section: prices excluding PPN saved; a PKP store without its NPWP refused at the field', async () => {
  await section('tax');
  await expect(page.locator('#tax-ppnRate')).toHaveValue('12');
  await expect(page.locator('#tax-dpp')).toHaveValue('11/12');
  // The effect of the settings on the form, before saving: Rp111.000 with tax inside.
  await expect(page.getByTestId('tax-example')).toContainText('PPN Rp11.000');

  await page.locator('#tax-pricesIncludeTax').selectOption('exclude');
  await expect(page.getByTestId('tax-example')).toContainText('pelanggan membayar Rp111.000');
  await page.getByLabel('Toko terdaftar sebagai PKP: struk berlaku sebagai faktur pajak').check();
  await page.locator('#tax-sellerName').fill('PT Toko Maju');
  await page.locator('#tax-sellerAddress').fill('Jl. Merdeka 1\nBandung');
  await page.getByTestId('tax-save').click();
  // Refused at the NPWP, in Indonesian words from the rule (never the server's English), the focus there.
  await expect(page.locator('#tax-npwp')).toBeFocused();
  await expect(page.locator('#tax-npwp')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#tax-npwp-issue')).toContainText('NPWP: 15 atau 16 angka');
  await expect(page.locator('#tax-npwp-issue')).toContainText('wajib untuk toko PKP');
  const token = await managerToken();
  expect((await loket.call('managerView', token)).sale.tax.pricesIncludeTax).toBe(true);
  expect(await seriousViolations(page), 'tax, refused').toEqual([]);

  await page.locator('#tax-npwp').fill('01.234.567.8-901.000');
  await page.getByTestId('tax-save').click();
  await expect(page.getByTestId('tax-status')).toContainText('Tersimpan');
  const sale = (await loket.call('managerView', token)).sale;
  expect(sale.tax).toMatchObject({
    pricesIncludeTax: false,
    pkp: { enabled: true, sellerName: 'PT Toko Maju', address: 'Jl. Merdeka 1\nBandung', npwp: '01.234.567.8-901.000' },
  });
  // Audited, field by field, with who made the change.
  const audit = await loket.call('auditLog', token, {});
  expect(audit.filter((e) => e.action === 'settings.changed').map((e) => e.field)).toEqual(
    expect.arrayContaining(['tax.pricesIncludeTax', 'tax.pkp.enabled', 'tax.pkp.npwp']),
  );
});

test("a sale rung up under PPN added at the till: the day screen's Sales block agrees with the report to the rupiah", async () => {
  const kopi = await loket.call('productByCode', { code: 'KOPI-SUSU' });
  const esTeh = await loket.call('productByCode', { code: 'ES-TEH' });
  const cart = { lines: [lineOfProduct(kopi!, 'l1', 2), lineOfProduct(esTeh!, 'l2', 1)], saleDiscount: null };
  await loket.call('showOnDisplay', null);
  const charged = await loket.call('chargeSale', { cart, methodId: 'qris_dynamic' });
  if (!charged.ok) throw new Error(JSON.stringify(charged));
  await loket.call('simulatePayment', charged.order!.id);

  const report = await loket.call('dayReport', await managerToken(), today);
  const sales = report.sales!;
  expect(sales.completed.count).toBe(1);
  // PPN added to the shelf prices: the total is more than the subtotal, by the PPN.
  expect(sales.total).toBe(sales.subtotal - sales.discounts + sales.tax.ppn);
  expect(sales.tax.ppn).toBeGreaterThan(0);
  expect(charged.order!.amount).toBe(sales.total);

  await section('day');
  const block = page.getByTestId('day-sales');
  await expect(block).toBeVisible();
  const figures: [string, number][] = [
    ['completed', sales.completed.amount],
    ['subtotal', sales.subtotal],
    ['discounts', -sales.discounts],
    ['net', sales.net],
    ['total', sales.total],
    ['dpp', sales.tax.dpp],
    ['ppn', sales.tax.ppn],
    ['pbjt', sales.tax.pbjt],
    ['service', sales.tax.service],
  ];
  for (const [key, amount] of figures) {
    await expect(block.getByTestId(`sales-${key}`), key).toHaveAttribute('data-amount', String(amount));
    await expect(block.getByTestId(`sales-${key}`), key).toHaveText(formatRupiah(amount));
  }
  // How it was paid is the money taken, which the day screen leads with (DayTaken.svelte).
  const tenders = page.getByTestId('day-taken-tenders');
  await expect(tenders.locator('tr[data-key="method:qris_dynamic"] td').last()).toHaveText(formatRupiah(sales.total));
  await expect(tenders.locator('tr[data-key="method:qris_dynamic"]')).toContainText('QRIS');
  await expect(block.getByTestId('day-sales-top')).toContainText('Kopi susu');
  expect(await seriousViolations(page), 'day with sales').toEqual([]);

  // The A4 page carries the same block.
  const { html } = await loket.call('dayReportHtml', await managerToken(), today);
  expect(html).toContain('<section id="sales">');
  expect(html).toContain(`<td>PPN</td><td class="num"></td><td class="num">${formatRupiah(sales.tax.ppn)}</td>`);
});

test('the Tax section and the day screen at the store’s sizes, in both languages: nothing cut off or covered', async () => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const sizes: Size[] = [
    { width: 1024, height: 600 },
    { width: 1366, height: 768 },
    { width: 1920, height: 1080 },
    { width: 600, height: 1024 },
  ];
  for (const screen of ['tax', 'day'] as const) {
    await section(screen);
    for (const lang of ['id', 'en'] as const) {
      await page.locator('#ui-lang').selectOption(lang);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      for (const size of sizes) {
        await resize(page, size);
        await page.screenshot({ path: `${SHOTS}/${screen}-${lang}-${name(size)}.png` });
        // And scrolled to its end, for a look at what lies below the first screenful.
        const panel = page.locator('.tabpanel:not([hidden])');
        if (await panel.evaluate((el) => el.scrollHeight > el.clientHeight + 1)) {
          await panel.evaluate((el) => el.scrollTo(0, el.scrollHeight));
          await page.screenshot({ path: `${SHOTS}/${screen}-${lang}-${name(size)}-end.png` });
          await panel.evaluate((el) => el.scrollTo(0, 0));
        }
        expect(await layoutProblems(page), `${screen}, ${lang}, ${name(size)}`).toEqual([]);
        await page.evaluate(() => document.querySelector('.tabpanel:not([hidden])')?.scrollTo(0, 0));
      }
      await resize(page, { width: 1366, height: 768 });
    }
    await page.locator('#ui-lang').selectOption('id');
  }
  // In English, none of our Indonesian words left on the Tax section.
  await page.locator('#ui-lang').selectOption('en');
  await section('tax');
  for (const word of ['Tarif PPN', 'Harga di rak', 'Pembulatan tunai', 'Simpan'])
    await expect(page.locator('body')).not.toContainText(word);
  await page.locator('#ui-lang').selectOption('id');
});
