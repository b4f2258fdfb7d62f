// The payment slip a customer takes to an ATM or to a convenience store: what it says (the code grouped for
// reading, the bank or store, the amount, how to pay, the deadline in the store's zone), and its two renderings
// (ESC/POS bytes and HTML) against golden files.
import { describe, expect, it } from 'vitest';
import type { Order } from '../../src-main/common/order';
import type { PaymentMethod } from '../../src-main/common/payment-methods';
import { renderEscPos } from '../../src-main/core/receipts/receipt-escpos';
import { estimatePageHeightMm, renderReceiptHtml } from '../../src-main/core/receipts/receipt-html';
import type { PaperWidth, Receipt } from '../../src-main/core/receipts/receipt-model';
import { hasPaymentSlip } from '../../src-main/common/payment-instruction';
import { buildPaymentSlip, type SlipContext } from '../../src-main/core/receipts/slip-model';
import { checkGolden, checkGoldenText, GOLDEN_DIR, printedLines } from './helpers/golden';
import { receiptContext, vaOrder } from './helpers/receipt-fixtures';

const ALFAMART: PaymentMethod = {
  id: 'va_alfamart',
  kind: 'va_cstore',
  provider: 'Alfamart',
  label: { id: 'Bayar di Alfamart', en: 'Pay at Alfamart' },
  requiresCustomerName: false,
  requiresPhone: false,
  hasShortCode: false,
  returnsBackUrl: true,
  enabled: true,
  minAmount: 10000,
  maxAmount: 5_000_000,
};

/** A BCA virtual account waiting for payment, due 2026-11-24 01:29:55 in Jakarta (18:29:55 UTC the day before). */
const VA: Order = vaOrder({
  state: 'awaiting_payment',
  paidAt: undefined,
  updatedAt: '2026-11-22T18:29:56Z',
  expiresAt: '2026-11-23T18:29:55Z',
  instruction: {
    type: 'virtual_account',
    va: '8808123456789012',
    customer_name: 'Budi Santoso',
    expired_date: '2026-11-24 01:29:55',
  },
});

const CSTORE: Order = vaOrder({
  state: 'awaiting_payment',
  methodId: 'va_alfamart',
  kind: 'va_cstore',
  amount: 150000,
  itemName: 'Beras premium 5 kg',
  itemId: undefined,
  customerName: undefined,
  paidAt: undefined,
  gatewayTransactionId: undefined,
  expiresAt: '2026-11-23T18:29:55Z',
  instruction: { type: 'virtual_account', va: 'ALF7712039485', transaction_id: 'GW-99' },
});

const ctx = (over: Partial<SlipContext> = {}): SlipContext => {
  const { copy: _copy, ...rest } = receiptContext();
  return { ...rest, ...over };
};

describe('the payment slip', () => {
  it('a bank VA: the number in groups of four, the bank, the name, the amount, steps and the deadline in WIB', () => {
    const slip = buildPaymentSlip(VA, ctx());
    expect(slip.title).toBe('SLIP PEMBAYARAN');
    expect(slip.code).toEqual({ label: 'No. VA', text: '8808 1234 5678 9012' });
    expect(slip.lines).toEqual([
      { key: 'provider', label: 'Bank', value: 'BCA' },
      { key: 'customer', label: 'Nama', value: 'Budi Santoso' },
      { key: 'deadline', label: 'Batas bayar', value: '24/11/2026 01.29 WIB' },
      { key: 'item', label: 'Barang', value: 'Kopi susu gula aren' },
      { key: 'order', label: 'No. pesanan', value: 'T01-20261122-182955001-7F3K' },
    ]);
    expect(slip.total).toEqual({ label: 'JUMLAH YANG DIBAYAR', amount: 25000, text: 'Rp25.000' });
    expect(slip.steps?.title).toBe('Cara membayar');
    // The time never breaks across lines: no-break hyphens and spaces (the printer prints - and space).
    expect(slip.steps?.items).toContain('Bayar Rp25.000 sebelum 24/11/2026\u00a001.29\u00a0WIB.');
    expect(slip.steps?.items[0]).toBe('Buka ATM, m-banking atau internet banking BCA.');
    expect(slip.paid).toBe(false);
    expect(slip.notes).toContain('Bukan bukti pembayaran.');
    expect(slip.marks).toEqual([]);
  });

  it('a store code: "Pay at" the store, the payment code, the store’s steps; in English; WITA in Makassar', () => {
    const slip = buildPaymentSlip(CSTORE, ctx({ method: ALFAMART, lang: 'en', timeZone: 'Asia/Makassar' }));
    expect(slip.title).toBe('PAYMENT SLIP');
    expect(slip.code).toEqual({ label: 'Payment code', text: 'ALF7 7120 3948 5' });
    expect(slip.lines.find((l) => l.key === 'provider')).toEqual({
      key: 'provider',
      label: 'Pay at',
      value: 'Alfamart',
    });
    expect(slip.lines.find((l) => l.key === 'deadline')?.value).toBe('24/11/2026 02:29 WITA');
    expect(slip.lines.some((l) => l.key === 'customer')).toBe(false);
    expect(slip.steps?.items[0]).toBe('Go to the cashier at any Alfamart.');
    expect(slip.steps?.items).toContain('Pay Rp150.000 before 24/11/2026\u00a002:29\u00a0WITA.');
    expect(slip.total.label).toBe('AMOUNT TO PAY');
  });

  it('a training order is marked SANDBOX; a slip is never marked COPY', () => {
    const slip = buildPaymentSlip({ ...VA, training: true }, ctx());
    expect(slip.marks).toEqual([{ kind: 'sandbox', text: 'SANDBOX — BUKAN TRANSAKSI NYATA' }]);
  });

  it('exists only for a VA or store code waiting for payment; any other order is refused with the reason', () => {
    expect(hasPaymentSlip(VA)).toBe(true);
    expect(hasPaymentSlip(CSTORE)).toBe(true);
    for (const order of [
      { ...VA, state: 'paid' as const },
      { ...VA, state: 'expired' as const },
      { ...VA, state: 'unknown' as const },
      { ...VA, instruction: { type: 'payment_page' as const, url: 'http://gw.test/p', token: 'tok' } },
      vaOrder({ state: 'awaiting_payment', kind: 'qris', instruction: { type: 'qr', qrString: '000201' } }),
    ]) {
      expect(hasPaymentSlip(order)).toBe(false);
      expect(() => buildPaymentSlip(order, ctx())).toThrow(/payment slip is printed only for a virtual account/);
    }
  });

  it('a VA without a deadline says to pay the amount, without a time', () => {
    const slip = buildPaymentSlip({ ...VA, expiresAt: undefined }, ctx());
    expect(slip.lines.some((l) => l.key === 'deadline')).toBe(false);
    expect(slip.steps?.items).toContain('Bayar Rp25.000.');
  });
});

const GOLDEN: { name: string; paper: PaperWidth; slip: () => Receipt }[] = [
  { name: 'slip-va-id-58', paper: 58, slip: () => buildPaymentSlip(VA, ctx()) },
  { name: 'slip-va-id-80', paper: 80, slip: () => buildPaymentSlip(VA, ctx()) },
  {
    name: 'slip-cstore-sandbox-en-58',
    paper: 58,
    slip: () => buildPaymentSlip({ ...CSTORE, training: true }, ctx({ method: ALFAMART, lang: 'en' })),
  },
  { name: 'slip-cstore-en-80', paper: 80, slip: () => buildPaymentSlip(CSTORE, ctx({ method: ALFAMART, lang: 'en' })) },
];

describe('the payment slip on paper', () => {
  it.each(GOLDEN)('ESC/POS: $name equals its golden file byte for byte', ({ name, paper, slip }) => {
    checkGolden(GOLDEN_DIR, name, renderEscPos(slip(), { paper }));
  });

  it.each(GOLDEN)('HTML: $name equals its golden file', ({ name, paper, slip }) => {
    checkGoldenText(GOLDEN_DIR, `${name}.html`, renderReceiptHtml(slip(), { paper }));
  });

  it.each(GOLDEN)('ESC/POS: $name fits its paper, and the code is never split inside a group', ({ paper, slip }) => {
    const lines = printedLines(renderEscPos(slip(), { paper }));
    const columns = paper === 58 ? 32 : 48;
    for (const line of lines) expect(line.columns, line.text).toBeLessThanOrEqual(columns);
    const code = slip().code!.text;
    const printed = lines.map((l) => l.text.trim());
    // Every group of four is on one line, whole.
    for (const group of code.split(' '))
      expect(
        printed.some((l) => l.split(' ').includes(group)),
        group,
      ).toBe(true);
    // Each step starts with its number; its next lines are indented under its text.
    slip().steps!.items.forEach((_, i) => expect(printed.filter((l) => l.startsWith(`${i + 1}. `))).toHaveLength(1));
  });

  it('HTML: the code is large and breaks only between groups; the steps are a numbered list; the page holds them', () => {
    const slip = buildPaymentSlip(VA, ctx());
    const html = renderReceiptHtml(slip, { paper: 58 });
    expect(html).toContain('<div class="code-value">8808 1234 5678 9012</div>');
    expect(html).toMatch(/\.code-value \{[^}]*word-break: keep-all/);
    expect(html).toContain('<ol><li>Buka ATM, m-banking atau internet banking BCA.</li>');
    const withoutSlipParts = estimatePageHeightMm({ ...slip, code: undefined, steps: undefined }, 58);
    expect(estimatePageHeightMm(slip, 58)).toBeGreaterThan(withoutSlipParts + 30);
  });
});
