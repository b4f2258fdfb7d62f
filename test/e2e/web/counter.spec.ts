// The counter as a store lives it: a reload (or a second tab) in the middle of a sale loses nothing and never
// shows two different sales, a second charge waits until the first is finished or parked, one click prints
// once (and the automatic receipt prints once per sale), each screen speaks its own language, and the small
// things: charge again, the V1 choice, the method's limits, the display's welcome after "thank you".
import type { Page } from '@playwright/test';
import type { Order } from '../../../src-main/common/order';
import { chargeToPanel, expect, fillSale, prints, stubPrint, test, type LoketServer } from './fixtures';

/** A manager's session on this Loket (the first manager, set up through the API). */
async function manager(loket: LoketServer): Promise<string> {
  const session = await loket.call('setupManager', { name: 'Bu Sri', pin: '97531864' });
  return session.token;
}

/** Another cashier tab on the same till (the token travels in its URL, as the printed one does). */
async function secondCashier(page: Page, loket: LoketServer): Promise<Page> {
  const other = await page.context().newPage();
  await stubPrint(other);
  await other.setViewportSize({ width: 1280, height: 800 });
  await other.goto(loket.cashierUrl);
  await expect(other.getByTestId('cashier')).toBeVisible();
  return other;
}

async function refusedByServer(loket: LoketServer): Promise<string> {
  try {
    await loket.call('createOrder', { methodId: 'qris_dynamic', amount: 1000, itemName: 'Permen' });
    return 'accepted';
  } catch (err) {
    return (err as Error).message;
  }
}

test.describe('nothing lost on a reload', () => {
  test('waiting for payment: both screens come back to the same sale; a second one waits until this is parked', async ({
    cashier,
    display,
    loket,
  }) => {
    await fillSale(cashier, { amount: 22000, item: 'Roti bakar cokelat', method: 'qris_dynamic' });
    const id = await chargeToPanel(cashier);
    const qr = await display.getByTestId('display-qr').getAttribute('data-qr-text');

    await cashier.reload();
    const panel = cashier.getByTestId('payment-panel');
    await expect(panel).toHaveAttribute('data-order-id', id);
    await expect(panel).toHaveAttribute('data-state', 'awaiting_payment');
    await expect(cashier.getByTestId('payment-notice')).toHaveText('Penjualan yang sedang berjalan dipulihkan.');
    await expect(cashier.getByTestId('payment-countdown')).toBeVisible();
    await display.reload();
    await expect(display.getByTestId('display-amount')).toHaveText('Rp22.000');
    await expect(display.getByTestId('display-qr')).toHaveAttribute('data-qr-text', qr!);

    // A second tab on the till shows the same sale, not an empty form; the server refuses a second charge.
    const other = await secondCashier(cashier, loket);
    await expect(other.getByTestId('payment-panel')).toHaveAttribute('data-order-id', id);
    await other.close();
    expect(await refusedByServer(loket)).toMatch(/409: Another sale is still waiting for payment/);

    // Parked: off the display, the form is back, and the next sale can be charged.
    await cashier.getByRole('button', { name: 'Parkir' }).click();
    await expect(cashier.getByTestId('payment-panel')).toHaveCount(0);
    await expect(cashier.getByTestId('parked-notice')).toBeVisible();
    await expect(cashier.getByRole('textbox', { name: /^Jumlah/ })).toBeFocused();
    await expect(display.getByTestId('display-idle')).toBeVisible();
    await fillSale(cashier, { amount: 5000, item: 'Air mineral', method: 'qris_dynamic' });
    const next = await chargeToPanel(cashier);
    expect(next).not.toBe(id);
    // The parked sale is still waiting, and found in today's list.
    expect((await loket.call('getOrder', id))!.state).toBe('awaiting_payment');
  });

  test('an unknown outcome: it comes back as "do not charge again", the same order, on both screens', async ({
    cashier,
    display,
    loket,
  }) => {
    await loket.setFaults({ drop_after_store: true, count: 2 });
    await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
    await cashier.getByRole('button', { name: /^Tagih/ }).click();
    await expect(cashier.getByTestId('charge-problem')).toHaveAttribute('data-kind', 'unknown');
    const [order] = await loket.call('listOrders', {});

    await cashier.reload();
    const problem = cashier.getByTestId('charge-problem');
    await expect(problem).toHaveAttribute('data-kind', 'unknown');
    await expect(problem).toContainText('JANGAN tagih lagi');
    await expect(cashier.getByTestId('problem-order-id')).toHaveText(order!.id);
    await expect(cashier.getByRole('button', { name: /^Tagih/ })).toHaveAttribute('aria-disabled', 'true');
    await display.reload();
    await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'unknown');
    expect(await refusedByServer(loket)).toMatch(/409: Another sale is still open/);

    // Check again settles it: the same order, waiting, on both screens.
    await cashier.getByRole('button', { name: 'Periksa lagi' }).click();
    await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-order-id', order!.id);
    await expect(display.getByTestId('display-qr')).toBeVisible();
    expect(await loket.call('listOrders', {})).toHaveLength(1);
  });

  test('paid, receipt not printed: the paid sale comes back with its Print button; printing once marks it', async ({
    cashier,
    display,
    loket,
  }) => {
    await fillSale(cashier, { amount: 18000, item: 'Kopi susu', method: 'qris_dynamic' });
    const id = await chargeToPanel(cashier);
    await cashier.getByRole('button', { name: /Simulasikan pembayaran/ }).click();
    await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'paid');

    await cashier.reload();
    await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-order-id', id);
    await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'paid');
    await expect(cashier.getByTestId('receipt-printed')).toHaveCount(0);
    await display.reload();
    await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'paid');

    await cashier.getByRole('button', { name: 'Cetak struk' }).click();
    await expect.poll(() => prints(cashier)).toHaveLength(1);
    await expect(cashier.getByTestId('receipt-printed')).toBeVisible();
    expect((await loket.call('currentSale'))?.receiptPrinted).toBe(true);
    await cashier.reload();
    await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-order-id', id);
    await expect(cashier.getByTestId('receipt-printed')).toHaveText('✓ Struk sudah dicetak.');
  });
});

test.describe('printing', () => {
  test('one click prints once, with no dialog in between; each click is one print, and every reprint says SALINAN', async ({
    cashier,
  }) => {
    await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
    await chargeToPanel(cashier);
    await cashier.getByRole('button', { name: /Simulasikan pembayaran/ }).click();
    const print = cashier.getByTestId('print-receipt');
    await expect(print).toHaveText('Cetak struk');
    await print.click();
    await expect.poll(() => prints(cashier)).toHaveLength(1);
    await expect(cashier.getByRole('dialog')).toHaveCount(0);
    // The original is out: the button now prints a copy, and says so.
    await expect(print).toHaveText('Cetak salinan');
    await print.click();
    await expect.poll(() => prints(cashier)).toHaveLength(2);
    const [first, second] = await prints(cashier);
    // A typed amount is a one-line sale: its receipt is the sale's struk (the tax invoice).
    expect(first).toContain('STRUK PENJUALAN');
    expect(first).toContain('Rp25.000');
    expect(first).not.toContain('SALINAN');
    expect(second).toContain('STRUK PENJUALAN');
    expect(second).toContain('SALINAN');

    // After a reload, the paid sale's receipt is still a copy, and Today's reprint is one too.
    await cashier.reload();
    await expect(print).toHaveText('Cetak salinan');
    await print.click();
    await expect.poll(() => prints(cashier)).toHaveLength(1);
    expect((await prints(cashier))[0]).toContain('SALINAN');
    await cashier.getByRole('tab', { name: /Hari ini/ }).click();
    await cashier.getByRole('button', { name: /^Cetak ulang struk/ }).click();
    await expect.poll(() => prints(cashier)).toHaveLength(2);
    expect((await prints(cashier))[1]).toContain('SALINAN');
  });

  test('the automatic receipt: printed once when the sale is paid, and not again after a reload', async ({
    cashier,
    loket,
  }) => {
    const token = await manager(loket);
    const result = await loket.call('updateSettings', token, 'printer', { autoPrint: true });
    expect(result.ok).toBe(true);
    await cashier.reload();
    await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
    const id = await chargeToPanel(cashier);
    expect(await prints(cashier)).toEqual([]);
    await cashier.getByRole('button', { name: /Simulasikan pembayaran/ }).click();
    await expect.poll(() => prints(cashier)).toHaveLength(1);
    expect((await prints(cashier))[0]).toContain('LUNAS');
    await expect(cashier.getByTestId('receipt-printed')).toBeVisible();

    // The server knows it was printed: a reload restores the paid sale and does not print it again.
    await cashier.reload();
    await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-order-id', id);
    await expect(cashier.getByTestId('receipt-printed')).toBeVisible();
    expect(await prints(cashier)).toEqual([]);
    // A copy is still one click away, and says so.
    await cashier.getByRole('button', { name: 'Cetak salinan' }).click();
    await expect.poll(() => prints(cashier)).toHaveLength(1);
    expect((await prints(cashier))[0]).toContain('SALINAN');
  });
});

/** English words that must not appear on an Indonesian screen (whole words). */
const ENGLISH = [
  'Charge',
  'Amount',
  'Item',
  'Payment',
  'Waiting',
  'Paid',
  'Cancel',
  'Print',
  'Receipt',
  'New sale',
  'Today',
  'Thank',
  'Scan',
  'Time left',
  'Park',
  'Retry',
  'Sign in',
  'Language',
  'Quick items',
  'Customer',
  'Method',
  'Welcome',
  'Please',
  'the',
  'and',
  'with',
  'your',
];
/** Indonesian words that must not appear on an English screen. */
const INDONESIAN = [
  'Tagih',
  'Jumlah',
  'Barang',
  'Pembayaran',
  'pembayaran',
  'Menunggu',
  'Lunas',
  'Batalkan',
  'Cetak',
  'Penjualan',
  'Hari ini',
  'Terima kasih',
  'Pindai',
  'Sisa waktu',
  'Selamat datang',
  'Silakan',
  'dengan',
  'yang',
];

async function wordsOn(page: Page, words: readonly string[]): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return words.filter((word) => new RegExp(`(^|[^\\p{L}])${word}([^\\p{L}]|$)`, 'u').test(text));
}

test.describe('one language per screen', () => {
  test('Indonesian: no English on the cashier or the display, in each state', async ({ cashier, display }) => {
    expect(await wordsOn(cashier, ENGLISH), 'cashier, idle').toEqual([]);
    expect(await wordsOn(display, ENGLISH), 'display, idle').toEqual([]);
    await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
    await chargeToPanel(cashier);
    await expect(display.getByTestId('display-qr')).toBeVisible();
    expect(await wordsOn(cashier, ENGLISH), 'cashier, waiting').toEqual([]);
    expect(await wordsOn(display, ENGLISH), 'display, waiting').toEqual([]);
    await cashier.getByRole('button', { name: /Simulasikan pembayaran/ }).click();
    await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'paid');
    expect(await wordsOn(cashier, ENGLISH), 'cashier, paid').toEqual([]);
    expect(await wordsOn(display, ENGLISH), 'display, paid').toEqual([]);
    await cashier.getByRole('tab', { name: /Hari ini/ }).click();
    await expect(cashier.getByTestId('today-table')).toBeVisible();
    expect(await wordsOn(cashier, ENGLISH), 'cashier, today').toEqual([]);
  });

  test("each screen its own: an English cashier, the display in the store's display language, the receipt in the store's", async ({
    cashier,
    display,
    loket,
  }) => {
    // The cashier's own preference.
    await cashier.getByLabel('Bahasa').selectOption('en');
    await fillSale2(cashier);
    await cashier.getByRole('button', { name: /^Charge/ }).click();
    await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');
    await expect(display.getByTestId('display-qr')).toBeVisible();
    // The display stays Indonesian (its own setting), the cashier is English.
    await expect(display.locator('html')).toHaveAttribute('lang', 'id');
    expect(await wordsOn(display, ENGLISH), 'display').toEqual([]);
    expect(
      await wordsOn(
        cashier,
        INDONESIAN.filter((w) => w !== 'Barang'),
      ),
      'cashier',
    ).toEqual([]);

    // The store sets the display to English: the display follows at once, the cashier is unchanged.
    const token = await manager(loket);
    expect((await loket.call('updateSettings', token, 'display', { lang: 'en' })).ok).toBe(true);
    await expect(display.locator('html')).toHaveAttribute('lang', 'en');
    await expect(display.getByText('Scan with any QRIS app')).toBeVisible();
    expect(await wordsOn(display, INDONESIAN), 'display in English').toEqual([]);
    await expect(cashier.locator('html')).toHaveAttribute('lang', 'en');

    // The receipt follows the store's language (Indonesian), whatever the cashier's.
    await cashier.getByRole('button', { name: /Simulate payment/ }).click();
    await expect(display.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await cashier.getByRole('button', { name: 'Print receipt' }).click();
    await expect.poll(() => prints(cashier)).toHaveLength(1);
    expect((await prints(cashier))[0]).toContain('STRUK PENJUALAN');
  });
});

async function fillSale2(page: Page): Promise<void> {
  await page.getByRole('textbox', { name: /^Amount/ }).fill('25000');
  await page.getByLabel('Item name').fill('Kopi susu');
  await page.locator('input[type=radio][data-method="qris_dynamic"]').check();
}

test.describe('small things', () => {
  test('charge again after a cancelled sale: the form with the same amount, item and method', async ({
    cashier,
    display,
    loket,
  }) => {
    await fillSale(cashier, { amount: 41000, item: 'Nasi goreng', method: 'ewallet_dana' });
    const first = await chargeToPanel(cashier);
    await cashier.getByRole('button', { name: 'Batalkan pesanan' }).click();
    await cashier.getByRole('textbox', { name: 'Alasan pembatalan' }).fill('salah metode');
    await cashier.getByRole('button', { name: 'Ya, batalkan' }).click();
    await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'cancelled');
    await cashier.getByRole('button', { name: 'Tagih lagi' }).click();
    await expect(display.getByTestId('display-idle')).toBeVisible();
    await expect(cashier.getByRole('textbox', { name: /^Jumlah/ })).toHaveValue('41.000');
    await expect(cashier.getByRole('textbox', { name: 'Nama barang' })).toHaveValue('Nasi goreng');
    await expect(cashier.locator('input[data-method="ewallet_dana"]')).toBeChecked();
    // Another method this time.
    await cashier.locator('input[type=radio][data-method="qris_dynamic"]').check();
    const second = await chargeToPanel(cashier);
    expect(second).not.toBe(first);
    expect(await loket.call('getOrder', second)).toMatchObject({ amount: 41000, itemName: 'Nasi goreng' });
  });

  test('the V1 choice is for one sale: the next sale starts without it', async ({ cashier, loket }) => {
    await fillSale(cashier, { amount: 12500, item: 'Es teh manis', method: 'qris_dynamic', hostedPage: true });
    const id = await chargeToPanel(cashier);
    expect(((await loket.call('getOrder', id)) as Order).api).toBe('v1');
    await cashier.getByRole('button', { name: /Simulasikan pembayaran/ }).click();
    await cashier.getByRole('button', { name: /Penjualan baru/ }).click();
    await expect(cashier.getByLabel('Gunakan halaman pembayaran (V1)')).not.toBeChecked();
  });

  test("the amount field shows the chosen method's limits before Charge", async ({ cashier }) => {
    const limits = cashier.getByTestId('amount-limits');
    await cashier.locator('input[type=radio][data-method="airtime_tri"]').check();
    await expect(limits).toHaveText('Batas Pulsa Tri: Rp1.000 – Rp500.000');
    await cashier.getByRole('textbox', { name: /^Jumlah/ }).fill('600000');
    await expect(limits).toHaveClass(/outside/);
    await cashier.locator('input[type=radio][data-method="qris_dynamic"]').check();
    await expect(limits).toHaveText('Batas QRIS (semua aplikasi): Rp1 – Rp10.000.000');
    await expect(limits).not.toHaveClass(/outside/);
  });

  test('"thank you", then the display goes back to its welcome by itself; times carry the store\'s zone', async ({
    cashier,
    display,
  }) => {
    await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
    await chargeToPanel(cashier);
    await expect(cashier.getByTestId('payment-panel').locator('dd').last()).toHaveText(/^\d{2}\.\d{2} WIB$/);
    await cashier.getByRole('button', { name: /Simulasikan pembayaran/ }).click();
    await expect(display.getByRole('heading', { name: 'Terima kasih!' })).toBeVisible();
    await expect(display.getByTestId('display-idle')).toBeVisible({ timeout: 15_000 });
    // The cashier still has the paid sale, to print its receipt.
    await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'paid');
  });
});
