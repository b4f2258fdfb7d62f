// The cart on the cashier's screen, for real: a catalogue imported with the CLI, products rung up by scanner
// bursts (keys 5 ms apart) and by the keyboard (search, arrows, Enter), a slow typist's digits staying typing, a
// reload keeping the cart, and a 20-line cart paid by QRIS in the sandbox with the display showing the lines.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { withCheckDigit } from '../../../src-main/common/barcode';
import { expect, startLoket, test as base, type LoketServer } from './fixtures';

const repoRoot = join(import.meta.dirname, '../../..');

/** 30 products: "Produk 01" … "Produk 30", barcode 899000000001x …, Rp1.000 × n. */
const PRODUCTS = Array.from({ length: 30 }, (_, i) => {
  const n = i + 1;
  return {
    sku: `SKU-${String(n).padStart(2, '0')}`,
    name: `Produk ${String(n).padStart(2, '0')}`,
    barcode: withCheckDigit(`899000000${String(n).padStart(3, '0')}`),
    price: 1000 * n,
  };
});

async function catalogueLoket(): Promise<{ server: LoketServer; dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'loket-e2e-cart-'));
  const csv = [
    'sku;name;barcode;category;price;tax;active',
    ...PRODUCTS.map((p) => `${p.sku};${p.name};${p.barcode};Umum;${p.price};ppn;1`),
  ].join('\n');
  await writeFile(join(dataDir, 'catalogue.csv'), csv);
  execFileSync(
    process.execPath,
    ['--import', 'tsx', 'src-main/cli.ts', 'catalogue', 'import', join(dataDir, 'catalogue.csv')],
    {
      cwd: repoRoot,
      env: { ...process.env, LOKET_DATA_DIR: dataDir },
      stdio: 'pipe',
    },
  );
  return { server: await startLoket([], { LOKET_DATA_DIR: dataDir }), dataDir };
}

const test = base.extend({
  // eslint-disable-next-line no-empty-pattern
  loket: async ({}, use) => {
    const { server, dataDir } = await catalogueLoket();
    try {
      await use(server);
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
});

const lines = (page: Page) => page.getByTestId('cart-line');

/** A scanner: the code's digits 5 ms apart, then Enter. */
async function scan(page: Page, code: string): Promise<void> {
  await page.keyboard.type(code, { delay: 5 });
  await page.keyboard.press('Enter');
}

/**
 * A scanner as the hardware sends it: each key stamped 5 ms after the one before (CDP's own time stamps), so the
 * gaps the page sees are the scanner's, however busy this machine is (Playwright's typing waits for each key to be
 * handled before it sends the next: on a loaded machine its "5 ms" become tens of ms).
 */
async function hardwareScan(page: Page, code: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const start = Date.now() / 1000;
  const keys = [...code.split(''), 'Enter'];
  for (const [i, key] of keys.entries()) {
    const timestamp = start + i * 0.005;
    const enter = key === 'Enter';
    const base = {
      key,
      code: enter ? 'Enter' : `Digit${key}`,
      windowsVirtualKeyCode: enter ? 13 : key.charCodeAt(0),
      timestamp,
    };
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...base, text: enter ? '\r' : key });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...base });
  }
  await cdp.detach();
}

/** A scan that adds a line: waits for it (the scans of a real cashier come seconds apart). */
async function scanLine(page: Page, code: string): Promise<void> {
  const before = await lines(page).count();
  await hardwareScan(page, code);
  await expect(lines(page), `the scan of ${code}`).toHaveCount(before + 1);
}

const cartReady = async (page: Page) => expect(page.getByTestId('cart')).toHaveAttribute('data-loaded', 'true');

test('scanner bursts add products whatever has focus; a slow typist is typing; an unknown code adds nothing', async ({
  cashier,
}) => {
  test.setTimeout(90_000);
  await cartReady(cashier);
  const amount = cashier.locator('#sale-amount');
  await amount.click();
  await scan(cashier, PRODUCTS[0]!.barcode);
  await expect(lines(cashier)).toHaveCount(1);
  await expect(amount).toHaveValue('');
  // The same product again is one more of the last line.
  await scan(cashier, PRODUCTS[0]!.barcode);
  await expect(lines(cashier)).toHaveCount(1);
  await expect(lines(cashier).first().getByTestId('line-qty')).toHaveValue('2');

  // In the search field, a scan never stays as text.
  await cashier.getByTestId('cart-search').click();
  await scan(cashier, PRODUCTS[1]!.barcode);
  await expect(lines(cashier)).toHaveCount(2);
  await expect(cashier.getByTestId('cart-search')).toHaveValue('');

  // The same digits typed 120 ms apart are typing: they stay in the amount field.
  await amount.click();
  await cashier.keyboard.type(PRODUCTS[2]!.barcode.slice(0, 7), { delay: 120 });
  await expect(amount).toHaveValue('8.990.000');
  await expect(lines(cashier)).toHaveCount(2);
  await amount.fill('');

  await scan(cashier, '4006381333931');
  await expect(cashier.getByTestId('scan-notice')).toContainText('4006381333931 tidak dikenal');
  await expect(lines(cashier)).toHaveCount(2);
});

test('the keyboard finds a product by name, arrows pick it; the figures are the server’s; a reload keeps the cart', async ({
  cashier,
  loket,
}) => {
  test.setTimeout(90_000);
  await cartReady(cashier);
  const search = cashier.getByTestId('cart-search');
  await search.click();
  await cashier.keyboard.type('Produk 1');
  await expect(cashier.getByTestId('cart-results').getByRole('option')).not.toHaveCount(0);
  await cashier.keyboard.press('ArrowDown');
  await cashier.keyboard.press('Enter');
  await expect(lines(cashier)).toHaveCount(1);
  const picked = await lines(cashier).first().locator('.name').textContent();
  expect(picked).toMatch(/^Produk 1\d$/);

  await lines(cashier)
    .first()
    .getByRole('button', { name: /^Tambah satu/ })
    .click();
  await expect(lines(cashier).first().getByTestId('line-qty')).toHaveValue('2');
  await cashier.getByTestId('sale-discount').fill('10%');
  const cart = await loket.call('currentCart');
  await expect
    .poll(async () => (await loket.call('currentCart')).saleDiscount)
    .toEqual({ kind: 'percent', valueBp: 1000 });
  const quote = await loket.call('quoteSale', { cart: { ...cart, saleDiscount: { kind: 'percent', valueBp: 1000 } } });
  expect(quote.ok).toBe(true);
  if (quote.ok)
    await expect(cashier.getByTestId('cart-total')).toHaveText(`Rp${quote.figures.total.toLocaleString('id-ID')}`);

  await cashier.reload();
  await expect(lines(cashier)).toHaveCount(1);
  await expect(lines(cashier).first().getByTestId('line-qty')).toHaveValue('2');
  await expect(cashier.getByTestId('sale-discount')).toHaveValue('10%');
});

test('a 20-line cart by scanner and keyboard, paid by QRIS: the display shows the lines, then the QR', async ({
  cashier,
  display,
  loket,
}) => {
  test.setTimeout(120_000);
  await cartReady(cashier);
  for (const p of PRODUCTS.slice(0, 18)) await scanLine(cashier, p.barcode);
  await expect(lines(cashier)).toHaveCount(18);
  await cashier.getByTestId('cart-search').click();
  await cashier.keyboard.type('SKU-25');
  await expect(cashier.getByTestId('cart-results').getByRole('option').first()).toContainText('Produk 25');
  await cashier.keyboard.press('Enter');
  // A free-typed line: today's amount and item name, added to the cart.
  await cashier.locator('#sale-amount').fill('7500');
  await cashier.getByLabel('Nama barang').fill('Kantong plastik');
  await cashier.getByTestId('add-line').click();
  await expect(lines(cashier)).toHaveCount(20);

  // The display follows the cart: its lines and the running total.
  await expect(display.getByTestId('display-cart-line')).toHaveCount(20);
  await expect(display.getByTestId('display-cart-line').last()).toContainText('Kantong plastik');
  await expect(display.getByTestId('display-cart-total')).toBeVisible();
  // The newest line is in view (older ones scroll away), also after the window changes size.
  await expect(display.getByTestId('display-cart-line').last()).toBeInViewport();
  await display.setViewportSize({ width: 1366, height: 768 });
  await expect(display.getByTestId('display-cart-line').last()).toBeInViewport();
  await expect(display.getByTestId('display-cart-total')).toBeInViewport();

  const quote = await loket.call('quoteSale', { cart: await loket.call('currentCart') });
  expect(quote.ok).toBe(true);
  const total = quote.ok ? quote.figures.total : 0;
  await cashier.locator('input[type=radio][data-method="qris_dynamic"]').check();
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  const panel = cashier.getByTestId('payment-panel');
  await expect(panel).toHaveAttribute('data-state', 'awaiting_payment');
  const orderId = (await panel.getAttribute('data-order-id'))!;
  const order = await loket.call('getOrder', orderId);
  expect(order?.amount).toBe(total);
  expect(order?.itemName).toBe(quote.ok ? quote.itemName : '');
  await expect(display.getByTestId('display-qr')).toBeVisible();
  expect((await loket.call('currentCart')).lines).toEqual([]);
});
