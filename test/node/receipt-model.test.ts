import { describe, expect, it } from 'vitest';
import type { OrderState } from '../../src-main/common/order';
import type { PaymentMethod } from '../../src-main/common/payment-methods';
import { buildReceipt, RECEIPT_STATUS, type Receipt } from '../../src-main/core/receipts/receipt-model';
import { receiptContext, VA_BCA, vaOrder } from './helpers/receipt-fixtures';

const QRIS: PaymentMethod = {
  ...VA_BCA,
  id: 'qris_dynamic',
  kind: 'qris',
  provider: 'QRIS',
  label: { id: 'QRIS (semua aplikasi)', en: 'QRIS (any app)' },
  requiresCustomerName: false,
};

const ctx = receiptContext;

const value = (r: Receipt, key: string) => r.lines.find((l) => l.key === key)?.value;
const label = (r: Receipt, key: string) => r.lines.find((l) => l.key === key)?.label;

describe('receipt model', () => {
  it('a paid virtual-account order in Bahasa Indonesia: LUNAS, store-zone time, Rp amount, VA number', () => {
    const r = buildReceipt(vaOrder(), ctx());
    expect(r.lang).toBe('id');
    expect(r.header).toEqual({ storeName: 'Toko Sinar Jaya', storeAddress: 'Jl. Merdeka 17, Bandung' });
    expect(r.title).toBe('STRUK PEMBAYARAN');
    expect(r.paid).toBe(true);
    expect(r.marks).toEqual([]);
    expect(r.lines.map((l) => l.key)).toEqual([
      'order',
      'time',
      'item',
      'itemId',
      'method',
      'va',
      'customer',
      'transaction',
      'status',
    ]);
    expect(value(r, 'order')).toBe('T01-20261122-182955001-7F3K');
    // 18:30:05 UTC is 01:30 the next day in Jakarta (UTC+7).
    expect(label(r, 'time')).toBe('Dibayar');
    expect(value(r, 'time')).toBe('23/11/2026 01.30 WIB');
    expect(value(r, 'item')).toBe('Kopi susu gula aren');
    expect(value(r, 'itemId')).toBe('KOPI-01');
    expect(value(r, 'method')).toBe('Virtual Account BCA');
    expect(label(r, 'va')).toBe('No. VA');
    expect(value(r, 'va')).toBe('8808123456789012');
    expect(value(r, 'transaction')).toBe('GW-8812345');
    expect(value(r, 'status')).toBe('LUNAS');
    expect(r.total).toEqual({ label: 'TOTAL', amount: 25000, text: 'Rp25.000' });
    expect(r.notes).toEqual([]);
    expect(r.footer).toBe('Terima kasih');
    expect(r.printedAt).toEqual({ label: 'Dicetak', value: '23/11/2026 01.31 WIB' });
  });

  it('the same order in English', () => {
    const r = buildReceipt(vaOrder(), ctx({ lang: 'en' }));
    expect(r.lang).toBe('en');
    expect(r.title).toBe('PAYMENT RECEIPT');
    expect(value(r, 'method')).toBe('BCA Virtual Account');
    expect(label(r, 'va')).toBe('VA number');
    expect(label(r, 'time')).toBe('Paid at');
    expect(value(r, 'status')).toBe('PAID');
    expect(r.total.text).toBe('Rp25.000');
    expect(r.footer).toBe('Thank you');
    expect(r.printedAt.label).toBe('Printed');
  });

  it('shows times in the store zone, whatever it is', () => {
    expect(value(buildReceipt(vaOrder(), ctx({ timeZone: 'Asia/Makassar' })), 'time')).toBe('23/11/2026 02.30 WITA');
    expect(value(buildReceipt(vaOrder(), ctx({ timeZone: 'Asia/Jayapura' })), 'time')).toBe('23/11/2026 03.30 WIT');
    expect(value(buildReceipt(vaOrder(), ctx({ timeZone: 'Europe/Amsterdam' })), 'time')).toBe(
      '22/11/2026 19.30 GMT+1',
    );
  });

  it('only a paid order says LUNAS/PAID; every other state prints its state plainly and is not a proof of payment', () => {
    const expected: Record<Exclude<OrderState, 'paid'>, [string, string]> = {
      creating: ['BELUM DIBAYAR', 'NOT PAID'],
      awaiting_payment: ['BELUM DIBAYAR', 'NOT PAID'],
      unknown: ['BELUM DIKONFIRMASI', 'NOT CONFIRMED'],
      rejected: ['DITOLAK', 'REJECTED'],
      expired: ['KEDALUWARSA', 'EXPIRED'],
      cancelled: ['DIBATALKAN', 'CANCELLED'],
      failed: ['GAGAL', 'FAILED'],
    };
    for (const [state, [id, en]] of Object.entries(expected) as [OrderState, [string, string]][]) {
      const order = vaOrder({ state, paidAt: undefined });
      const rid = buildReceipt(order, ctx());
      const ren = buildReceipt(order, ctx({ lang: 'en' }));
      expect(rid.paid, state).toBe(false);
      expect(value(rid, 'status'), state).toBe(id);
      expect(value(ren, 'status'), state).toBe(en);
      expect(rid.title, state).toBe('RINCIAN PESANAN');
      expect(ren.title, state).toBe('ORDER DETAILS');
      expect(rid.notes, state).toContain('Bukan bukti pembayaran.');
      expect(ren.notes, state).toContain('This is not a proof of payment.');
      for (const r of [rid, ren])
        expect(JSON.stringify(r), state).not.toMatch(/LUNAS|"PAID"|PAYMENT RECEIPT|STRUK PEMBAYARAN/);
      // Without a payment time, the time shown is when the order was made.
      expect(label(rid, 'time')).toBe('Dibuat');
      expect(value(rid, 'time')).toBe('23/11/2026 01.29 WIB');
    }
    expect(RECEIPT_STATUS.paid).toEqual({ id: 'LUNAS', en: 'PAID' });
  });

  it('a rejected order shows the gateway reason; a late payment is noted', () => {
    const rejected = buildReceipt(
      vaOrder({ state: 'rejected', paidAt: undefined, rejection: { retcode: '1005', message: 'amount out of range' } }),
      ctx(),
    );
    expect(value(rejected, 'reason')).toBe('amount out of range (1005)');
    const late = buildReceipt(vaOrder({ state: 'cancelled', latePayment: true }), ctx({ lang: 'en' }));
    expect(value(late, 'status')).toBe('CANCELLED');
    expect(late.notes).toEqual(['This is not a proof of payment.', 'A late payment was recorded: see the manager.']);
  });

  it('marks COPY/SALINAN and SANDBOX, in the receipt language', () => {
    const id = buildReceipt(vaOrder(), ctx({ copy: true, training: true }));
    expect(id.marks).toEqual([
      { kind: 'sandbox', text: 'SANDBOX — BUKAN TRANSAKSI NYATA' },
      { kind: 'copy', text: 'SALINAN' },
    ]);
    const en = buildReceipt(vaOrder(), ctx({ copy: true, training: true, lang: 'en' }));
    expect(en.marks).toEqual([
      { kind: 'sandbox', text: 'SANDBOX — NOT A REAL PAYMENT' },
      { kind: 'copy', text: 'COPY' },
    ]);
    expect(buildReceipt(vaOrder(), ctx({ copy: true })).marks.map((m) => m.kind)).toEqual(['copy']);
    // A training order stays marked even if printed outside training mode.
    expect(buildReceipt(vaOrder({ training: true }), ctx()).marks.map((m) => m.kind)).toEqual(['sandbox']);
  });

  it('a store-code order shows a payment code; a QRIS order has no VA line; an unknown method shows its id', () => {
    const cstore = buildReceipt(
      vaOrder({
        kind: 'va_cstore',
        methodId: 'va_alfamart',
        customerName: undefined,
        instruction: { type: 'virtual_account', va: 'ALFA123456' },
      }),
      ctx({ method: undefined }),
    );
    expect(label(cstore, 'paymentCode')).toBe('Kode bayar');
    expect(value(cstore, 'paymentCode')).toBe('ALFA123456');
    expect(value(cstore, 'va')).toBeUndefined();
    expect(value(cstore, 'method')).toBe('va_alfamart');

    const qris = buildReceipt(
      vaOrder({
        kind: 'qris',
        methodId: 'qris_dynamic',
        customerName: undefined,
        itemId: undefined,
        gatewayTransactionId: undefined,
        instruction: { type: 'qr', qrString: '000201...' },
      }),
      ctx({ method: QRIS }),
    );
    expect(qris.lines.map((l) => l.key)).toEqual(['order', 'time', 'item', 'method', 'status']);
    expect(value(qris, 'method')).toBe('QRIS (semua aplikasi)');
  });

  it('airtime: the SMS code and a masked phone number', () => {
    const r = buildReceipt(
      vaOrder({
        kind: 'airtime_sms',
        methodId: 'airtime_telkomsel',
        customerName: undefined,
        phone: '081234567890',
        instruction: { type: 'sms_reply', keyword: 'PAY', sms_code: '123456' },
      }),
      ctx({ method: undefined }),
    );
    expect(value(r, 'smsCode')).toBe('123456');
    expect(value(r, 'phone')).toBe('********7890');
  });

  it('large amounts and no address', () => {
    const r = buildReceipt(vaOrder({ amount: 1_234_567 }), ctx({ storeAddress: undefined }));
    expect(r.total.text).toBe('Rp1.234.567');
    expect(r.header).toEqual({ storeName: 'Toko Sinar Jaya' });
  });

  it('is pure and plain data: the same input gives the same receipt, and it survives JSON', () => {
    const order = vaOrder();
    const before = JSON.stringify(order);
    const a = buildReceipt(order, ctx({ copy: true, training: true }));
    const b = buildReceipt(order, ctx({ copy: true, training: true }));
    expect(a).toEqual(b);
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
    expect(JSON.stringify(order)).toBe(before);
  });
});
