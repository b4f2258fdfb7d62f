// Both screens at the sizes stores run them on, from an 800×480 pole display to a full-HD monitor, landscape and
// portrait: nothing scrolls sideways, nothing covers a control or a message, every control can be reached and
// is at least 44 px, and the display's QR code is wholly on screen and reads back (jsQR, from a screenshot of
// the whole viewport) as the exact text of the order. Screenshots of each go to /tmp/loket-shots-11/.
import type { Page } from '@playwright/test';
import type { Order } from '../../../src-main/common/order';
import { chargeToPanel, decodeQr, expect, fillSale, test } from './fixtures';
import {
  layoutProblems,
  lineCount,
  name,
  notShownWithoutScrolling,
  offScreen,
  resize,
  scrollingInside,
  shot,
  type Size,
} from './layout-checks';

const CASHIER_SIZES: Size[] = [
  { width: 800, height: 480 },
  { width: 800, height: 600 },
  { width: 1024, height: 600 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 768, height: 1024 },
  { width: 600, height: 1024 },
  { width: 1080, height: 1920 },
];

const DISPLAY_SIZES: Size[] = [
  { width: 600, height: 1024 },
  { width: 800, height: 480 },
  { width: 800, height: 600 },
  { width: 480, height: 800 },
  { width: 1024, height: 600 },
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 1080, height: 1920 },
];

async function checkCashier(page: Page, state: string): Promise<void> {
  for (const size of CASHIER_SIZES) {
    await resize(page, size);
    await shot(page, 'cashier', size, state);
    expect(await layoutProblems(page), `cashier, ${state}, ${name(size)}`).toEqual([]);
  }
  await resize(page, { width: 1280, height: 800 });
}

test('cashier: the sale form, its field errors and an open outcome at every size', async ({ cashier, loket }) => {
  test.setTimeout(120_000);
  await checkCashier(cashier, 'idle');

  await fillSale(cashier, { amount: 5, item: 'Sepatu', method: 'va_bca' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  await expect(cashier.locator('#sale-customer-error')).toBeVisible();
  await expect(cashier.locator('#sale-amount-error')).toBeVisible();
  await checkCashier(cashier, 'field-errors');

  // The largest message the form shows: an order whose fate is unknown ("do not charge again").
  await loket.setFaults({ drop_after_store: true, count: 3 });
  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  await expect(cashier.getByTestId('charge-problem')).toHaveAttribute('data-kind', 'unknown');
  await checkCashier(cashier, 'unknown-outcome');
});

/** What a cashier needs for a whole sale, every one of them: the fields, each method, the keypad, Charge. */
const SALE_PARTS = [
  '#sale-amount',
  '#sale-item',
  '[role="toolbar"] button',
  'input[name="payment-method"]',
  '.keypad button',
  '#sale-v1',
  '#sale-customer',
  '#sale-phone',
  '[data-testid="charge"]',
];

test('the whole sale fits without scrolling at 1366×768 and 1024×768; at 800×600 the keypad and Charge are on screen', async ({
  cashier,
}) => {
  test.setTimeout(120_000);
  for (const lang of ['id', 'en'] as const) {
    if (lang === 'en') await cashier.getByLabel('Bahasa').selectOption('en');
    // The tallest the form gets without a message: a method that asks for a name, one that asks for the phone.
    for (const method of ['qris_dynamic', 'va_bca', 'airtime_xl']) {
      await cashier.locator(`input[type=radio][data-method="${method}"]`).check();
      for (const size of [
        { width: 1366, height: 768 },
        { width: 1024, height: 768 },
      ]) {
        await resize(cashier, size);
        await shot(cashier, 'cashier', size, `sale-${method}-${lang}`);
        const at = `${lang}, ${method}, ${name(size)}`;
        expect(await scrollingInside(cashier, '[data-testid="sale-form"]'), at).toEqual([]);
        for (const part of SALE_PARTS.filter(
          (p) => (p !== '#sale-customer' || method === 'va_bca') && (p !== '#sale-phone' || method === 'airtime_xl'),
        ))
          expect(await notShownWithoutScrolling(cashier, part), `${part}, ${at}`).toEqual([]);
      }
    }
    await cashier.locator('input[type=radio][data-method="qris_dynamic"]').check();
    const small = { width: 800, height: 600 };
    await resize(cashier, small);
    await shot(cashier, 'cashier', small, `sale-${lang}`);
    for (const part of ['#sale-amount', '.keypad button', '[data-testid="charge"]'])
      expect(await notShownWithoutScrolling(cashier, part), `${part}, ${lang}, 800x600`).toEqual([]);
  }
});

test('a tall portrait screen (1080×1920): the sale form uses the height — large keys, not a screen of empty space', async ({
  cashier,
}) => {
  for (const lang of ['id', 'en'] as const) {
    if (lang === 'en') await cashier.getByLabel('Bahasa').selectOption('en');
    const size = { width: 1080, height: 1920 };
    await resize(cashier, size);
    await shot(cashier, 'cashier', size, `sale-${lang}`);
    expect(await layoutProblems(cashier), lang).toEqual([]);
    const key = (await cashier.locator('.keypad button').first().boundingBox())!;
    expect(key.height, `keypad key height, ${lang}`).toBeGreaterThanOrEqual(80);
    // What is left empty between the form's last part and the Charge bar: at most a fifth of the screen.
    const spare = await cashier.evaluate(() => {
      const parts = Array.from(document.querySelectorAll('#sale-entry > *, #sale-pay > *'));
      const last = Math.max(...parts.map((el) => el.getBoundingClientRect().bottom));
      return document.querySelector('[data-testid="charge"]')!.getBoundingClientRect().top - last;
    });
    expect(spare, `empty height above Charge, ${lang}`).toBeLessThanOrEqual(1920 / 5);
  }
});

test('cashier: waiting for payment, paid, and today at every size', async ({ cashier, loket }) => {
  test.setTimeout(120_000);
  // A day with more orders than fit: today's list scrolls under its sticky headings.
  for (let i = 1; i <= 12; i++) {
    const made = await loket.call('createOrder', { methodId: 'va_bni', amount: 10_000 * i, itemName: `Barang ${i}` });
    if (made.order) await loket.call('parkSale', made.order.id);
  }
  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  await chargeToPanel(cashier);
  await expect(cashier.getByTestId('preview-qr')).toBeVisible();
  await checkCashier(cashier, 'waiting');

  await cashier.getByRole('button', { name: /Simulasikan pembayaran/ }).click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'paid');
  await checkCashier(cashier, 'paid');

  await cashier.getByRole('tab', { name: /Hari ini/ }).click();
  await expect(cashier.getByTestId('today-table')).toBeVisible();
  await checkCashier(cashier, 'today');
});

/**
 * At each size: the layout, and (for a code) the code wholly on screen, large, and read back exactly; a VA number
 * or store code on one line from 800 px wide.
 */
async function checkDisplay(page: Page, state: string, qrText?: string): Promise<void> {
  for (const size of DISPLAY_SIZES) {
    await resize(page, size);
    if (state === 'virtual-account' || state === 'store-code') {
      if (size.width >= 800)
        expect(await lineCount(page, '[data-testid="display-va"]'), `VA lines at ${name(size)}`).toBe(1);
      expect(await offScreen(page, '[data-testid="display-va"]'), name(size)).toBeNull();
    }
    if (qrText !== undefined) {
      // Redrawn for the new size: it reads back from a screenshot of the whole screen, as a phone would.
      await expect
        .poll(async () => decodeQr(await page.screenshot()), { message: `QR at ${name(size)}`, timeout: 10_000 })
        .toBe(qrText);
      expect(await offScreen(page, '[data-testid="display-qr"]'), name(size)).toBeNull();
      const box = (await page.getByTestId('display-qr').boundingBox())!;
      // As large as the screen allows: at least half of its shorter side.
      expect(box.width, `QR size at ${name(size)}`).toBeGreaterThanOrEqual(0.5 * Math.min(size.width, size.height));
      await expect(page.locator('[data-qr-text]'), 'one code on screen').toHaveCount(1);
    }
    await shot(page, 'display', size, state);
    expect(await layoutProblems(page), `display, ${state}, ${name(size)}`).toEqual([]);
    if (!['idle', 'paid', 'cancelled'].includes(state)) {
      // The amount stays prominent: at least 8% of the screen's shorter side.
      const amount = page.getByTestId('display-amount');
      expect(await offScreen(page, '[data-testid="display-amount"]'), name(size)).toBeNull();
      const px = await amount.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      expect(px, `amount at ${name(size)}`).toBeGreaterThanOrEqual(0.08 * Math.min(size.width, size.height));
    }
  }
}

async function charged(page: Page, loket: { call: (m: 'getOrder', id: string) => Promise<Order | null> }) {
  const id = await chargeToPanel(page);
  return (await loket.call('getOrder', id))!;
}

test('display: idle, a QRIS code, an e-wallet, a payment page, a virtual account and paid at every size', async ({
  cashier,
  display,
  loket,
}) => {
  test.setTimeout(180_000);
  await checkDisplay(display, 'idle');

  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  const qris = await charged(cashier, loket);
  expect(qris.instruction?.type).toBe('qr');
  await checkDisplay(display, 'qris', (qris.instruction as { qrString: string }).qrString);
  await cashier.getByRole('button', { name: 'Batalkan pesanan' }).click();
  await cashier.getByRole('textbox', { name: 'Alasan pembatalan' }).fill('uji layar');
  await cashier.getByRole('button', { name: 'Ya, batalkan' }).click();
  await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'cancelled');
  await checkDisplay(display, 'cancelled');
  await cashier.getByRole('button', { name: /Penjualan baru/ }).click();

  // An e-wallet that answers with both a link for its app and a QRIS image: one code, the link's.
  await fillSale(cashier, { amount: 41000, item: 'Nasi goreng', method: 'ewallet_shopeepay' });
  const wallet = await charged(cashier, loket);
  const given = wallet.instruction as { type: string; redirect: string; qrisUrl?: string };
  expect(given.type).toBe('ewallet');
  expect(given.qrisUrl).toBeTruthy();
  await checkDisplay(display, 'ewallet', given.redirect);
  await expect(display.getByTestId('display-qris-image')).toHaveCount(0);
  await cashier.getByRole('button', { name: /Simulasikan pembayaran/ }).click();
  await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'paid');
  await checkDisplay(display, 'paid');
  await cashier.getByRole('button', { name: /Penjualan baru/ }).click();

  await fillSale(cashier, { amount: 12500, item: 'Es teh manis', method: 'qris_dynamic', hostedPage: true });
  const page = await charged(cashier, loket);
  await checkDisplay(display, 'payment-page', (page.instruction as { url: string }).url);
  await cashier.getByRole('button', { name: /Simulasikan pembayaran/ }).click();
  await cashier.getByRole('button', { name: /Penjualan baru/ }).click();

  await fillSale(cashier, { amount: 150000, item: 'Beras premium 5 kg', method: 'va_bni' });
  await charged(cashier, loket);
  await expect(display.getByTestId('display-va')).toBeVisible();
  await checkDisplay(display, 'virtual-account');
  await cashier.getByRole('button', { name: 'Parkir' }).click();

  await fillSale(cashier, { amount: 60000, item: 'Token listrik', method: 'va_indomaret' });
  await charged(cashier, loket);
  await expect(display.getByTestId('display-va')).toBeVisible();
  await checkDisplay(display, 'store-code');
});

test("the manager's screens at the small sizes and full HD: every control reachable, uncovered, 44 px", async ({
  cashier,
}) => {
  test.setTimeout(120_000);
  await cashier.keyboard.press('F8');
  const setup = cashier.getByTestId('manager-setup');
  await setup.getByLabel('Nama', { exact: true }).fill('Bu Sri');
  await setup.getByLabel('PIN (4–8 angka)').fill('97531864');
  await setup.getByLabel('Ulangi PIN').fill('97531864');
  await cashier.getByTestId('setup-submit').click();
  await expect(cashier.getByTestId('manager-title')).toBeFocused();
  const sizes: Size[] = [
    { width: 800, height: 480 },
    { width: 1024, height: 600 },
    { width: 600, height: 1024 },
    { width: 1920, height: 1080 },
  ];
  for (const section of ['gateway', 'store', 'methods', 'printer', 'display', 'staff', 'access', 'audit']) {
    await cashier.getByTestId(`nav-${section}`).click();
    await expect(cashier.locator(`#${section}-title`)).toBeFocused();
    for (const size of sizes) {
      await resize(cashier, size);
      if (section === 'gateway' || section === 'printer') await shot(cashier, 'cashier', size, `manager-${section}`);
      expect(await layoutProblems(cashier), `manager, ${section}, ${name(size)}`).toEqual([]);
    }
    await resize(cashier, { width: 1280, height: 800 });
  }
});
