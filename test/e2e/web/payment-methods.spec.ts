// One whole sale per kind of payment method, through the real browser mode and the embedded sandbox: the
// cashier charges, the customer display shows the right instruction, a simulated payment shows "paid" on both
// screens, and the receipt says so.
import type { Page } from '@playwright/test';
import type { Order } from '../../../src-main/common/order';
import { formatRupiah } from '../../../src-main/common/money';
import { chargeToPanel, decodeQr, expect, fillSale, prints, test, type SaleInput } from './fixtures';

interface Case {
  title: string;
  sale: SaleInput;
  /** What the customer display must show for this order. */
  check: (display: Page, order: Order) => Promise<void>;
}

/** The QR on the display encodes `text` exactly: in its attribute, and as a phone would read it from the screen. */
async function expectQr(display: Page, text: string): Promise<void> {
  const qr = display.getByTestId('display-qr');
  await expect(qr).toBeVisible();
  await expect(qr).toHaveAttribute('data-qr-text', text);
  const box = (await qr.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(320);
  expect(decodeQr(await qr.screenshot())).toBe(text);
  // The only code on the screen: a phone pointed at the display reads this one.
  await expect(display.locator('[data-qr-text]')).toHaveCount(1);
  expect(decodeQr(await display.screenshot())).toBe(text);
}

function instruction<T extends NonNullable<Order['instruction']>['type']>(order: Order, type: T) {
  expect(order.instruction?.type).toBe(type);
  return order.instruction as Extract<NonNullable<Order['instruction']>, { type: T }>;
}

const cases: Case[] = [
  {
    title: 'QRIS (qris_dynamic)',
    sale: { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' },
    check: async (display, order) => {
      await expectQr(display, instruction(order, 'qr').qrString);
      await expect(display.getByText('Pindai dengan aplikasi QRIS apa saja')).toBeVisible();
    },
  },
  {
    title: 'e-wallet redirect (ewallet_ovo)',
    sale: { amount: 32000, item: 'Roti bakar', method: 'ewallet_ovo' },
    check: async (display, order) => {
      await expectQr(display, instruction(order, 'ewallet').redirect);
      await expect(display.getByText('Pindai dengan ponsel Anda untuk membayar dengan OVO')).toBeVisible();
      await expect(display.getByTestId('display-qris-image')).toHaveCount(0);
    },
  },
  {
    title: 'e-wallet QR + redirect (ewallet_shopeepay)',
    sale: { amount: 41000, item: 'Nasi goreng', method: 'ewallet_shopeepay' },
    check: async (display, order) => {
      // It answers with both a link for its app and a QRIS image: the display shows one code, the link's.
      const given = instruction(order, 'ewallet');
      expect(given.qrisUrl).toBeTruthy();
      await expectQr(display, given.redirect);
      await expect(display.getByTestId('display-qris-image')).toHaveCount(0);
    },
  },
  {
    title: 'carrier SMS reply (airtime_telkomsel)',
    // An SMS reply needs no phone number (the catalogue's requiresPhone is false for it): the form asks for none.
    sale: { amount: 20000, item: 'Pulsa 20.000', method: 'airtime_telkomsel' },
    check: async (display, order) => {
      const sms = instruction(order, 'sms_reply');
      expect(sms.short_code).toBeTruthy();
      await expect(display.getByTestId('display-sms')).toHaveText(
        `${sms.keyword} ${sms.sms_code} ke ${sms.short_code}`,
      );
      await expect(display.getByText('Kirim SMS')).toBeVisible();
    },
  },
  {
    title: 'carrier SMS reply without a short code (airtime_xl)',
    // XL texts the customer, who replies to that SMS: the form asks for the number, and the display names it.
    sale: { amount: 15000, item: 'Pulsa 15.000', method: 'airtime_xl', phone: '081798765432' },
    check: async (display, order) => {
      const sms = instruction(order, 'sms_reply');
      expect(sms.short_code).toBeUndefined();
      expect(order.phone).toBe('081798765432');
      await expect(display.getByText('Balas SMS yang masuk ke nomor ********5432 dengan')).toBeVisible();
      await expect(display.getByTestId('display-sms')).toHaveText(`${sms.keyword} ${sms.sms_code}`);
      await expect(display.getByText('Balas SMS yang Anda terima dengan')).toHaveCount(0);
    },
  },
  {
    title: 'carrier billing (airtime_tri)',
    sale: { amount: 10000, item: 'Pulsa Tri', method: 'airtime_tri', phone: '089612345678' },
    check: async (display, order) => {
      instruction(order, 'carrier_billing');
      await expect(display.getByText('Konfirmasi tagihan di ponsel Anda')).toBeVisible();
    },
  },
  {
    title: 'bank virtual account (va_bni)',
    sale: { amount: 150000, item: 'Beras premium 5 kg', method: 'va_bni' },
    check: async (display, order) => {
      const va = instruction(order, 'virtual_account').va;
      await expect(display.getByTestId('display-va')).toHaveText(va.replace(/(.{4})(?=.)/g, '$1 '));
      await expect(display.getByText('Transfer ke virtual account ini')).toBeVisible();
      await expect(display.getByText('Bank BNI')).toBeVisible();
      await expect(display.getByTestId('display-countdown')).toHaveText(/^\d{2}:\d{2}:\d{2}$/);
      // The store's time (Asia/Jakarta), whatever zone the display's own clock is set to (this browser: UTC).
      const jakarta = new Intl.DateTimeFormat('id-ID', {
        timeZone: 'Asia/Jakarta',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(order.expiresAt!));
      await expect(display.getByText(/^Bayar sebelum /)).toContainText(jakarta);
    },
  },
  {
    title: 'bank virtual account with customer name (va_bca)',
    sale: { amount: 275000, item: 'Sepatu', method: 'va_bca', customerName: 'Budi Santoso' },
    check: async (display, order) => {
      expect(order.customerName).toBe('Budi Santoso');
      const va = instruction(order, 'virtual_account').va;
      await expect(display.getByTestId('display-va')).toHaveText(va.replace(/(.{4})(?=.)/g, '$1 '));
      await expect(display.getByText('Bank BCA')).toBeVisible();
    },
  },
  {
    title: 'convenience store code (va_indomaret)',
    sale: { amount: 60000, item: 'Token listrik', method: 'va_indomaret' },
    check: async (display, order) => {
      const va = instruction(order, 'virtual_account').va;
      await expect(display.getByTestId('display-va')).toHaveText(va.replace(/(.{4})(?=.)/g, '$1 '));
      await expect(display.getByText('Tunjukkan kode ini di kasir Indomaret')).toBeVisible();
    },
  },
  {
    title: 'hosted payment page, V1 (qris_dynamic)',
    sale: { amount: 12500, item: 'Es teh manis', method: 'qris_dynamic', hostedPage: true },
    check: async (display, order) => {
      expect(order.api).toBe('v1');
      await expectQr(display, instruction(order, 'payment_page').url);
      await expect(display.getByText('Pindai untuk membuka halaman pembayaran')).toBeVisible();
    },
  },
];

for (const c of cases) {
  test(`${c.title}: charge → instruction on the display → simulated payment → paid on both → receipt`, async ({
    loket,
    cashier,
    display,
  }) => {
    await fillSale(cashier, c.sale);
    const id = await chargeToPanel(cashier);
    const order = (await loket.call('getOrder', id))!;
    expect(order).toMatchObject({
      state: 'awaiting_payment',
      methodId: c.sale.method,
      amount: c.sale.amount,
      itemName: c.sale.item,
    });

    // The customer display follows without a reload.
    await expect(display.getByTestId('display')).toHaveAttribute('data-screen', 'order');
    await expect(display.getByTestId('display-amount')).toHaveText(formatRupiah(c.sale.amount));
    await expect(display.getByTestId('display-item')).toHaveText(c.sale.item);
    await c.check(display, order);
    // The cashier sees a preview of the same instruction.
    await expect(cashier.getByTestId('preview-instruction')).toHaveAttribute('data-type', order.instruction!.type);

    await cashier.getByRole('button', { name: 'Simulasikan pembayaran' }).click();
    await expect(cashier.getByTestId('payment-state')).toHaveText('✓ Lunas');
    await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'paid');
    await expect(display.getByRole('heading', { name: 'Terima kasih!' })).toBeVisible();
    await expect(display.getByText('Pembayaran diterima')).toBeVisible();

    await cashier.getByRole('button', { name: 'Cetak struk' }).click();
    await expect.poll(() => prints(cashier)).toHaveLength(1);
    const [receipt] = await prints(cashier);
    expect(receipt).toContain(c.sale.item);
    expect(receipt).toContain(formatRupiah(c.sale.amount));
    expect(receipt).toContain('LUNAS');
    expect(receipt).not.toContain('SALINAN');
  });
}

test('XL (an SMS reply without a short code) asks for the number the SMS goes to, and refuses a charge without one', async ({
  cashier,
  loket,
}) => {
  await fillSale(cashier, { amount: 15000, item: 'Pulsa', method: 'airtime_xl' });
  const phone = cashier.getByRole('textbox', { name: 'Nomor HP pelanggan' });
  await expect(phone).toBeVisible();
  await expect(cashier.locator('#sale-phone-hint')).toHaveText(
    'XL Axiata mengirim SMS ke nomor ini; pelanggan membalas SMS itu untuk membayar.',
  );
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  await expect(phone).toHaveAttribute('aria-invalid', 'true');
  await expect(cashier.locator('#sale-phone-error')).toHaveText(/Nomor HP wajib diisi\./);
  expect(await loket.call('listOrders', {})).toEqual([]);
  // A number that is not an Indonesian mobile is refused by the shared validator.
  await phone.fill('12345');
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  await expect(cashier.locator('#sale-phone-error')).toHaveText(/Masukkan nomor HP Indonesia/);
  await phone.fill('0817 9876 5432');
  await chargeToPanel(cashier);
  await expect(cashier.getByTestId('preview-instruction')).toContainText('Balas SMS yang masuk ke nomor ********5432');

  // Telkomsel's SMS goes to a short code from any phone: no number asked.
  await cashier.getByRole('button', { name: 'Parkir' }).click();
  await cashier.locator('input[type=radio][data-method="airtime_telkomsel"]').check();
  await expect(cashier.getByRole('textbox', { name: 'Nomor HP pelanggan' })).toHaveCount(0);
});
