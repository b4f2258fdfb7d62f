import type { Order } from '../../../src-main/common/order';
import type { PaymentMethod } from '../../../src-main/common/payment-methods';
import type { ReceiptContext } from '../../../src-main/core/receipts/receipt-model';

/** The receipt tests' fixed sale: a paid BCA virtual-account order at a Bandung store. */
export const VA_BCA: PaymentMethod = {
  id: 'va_bca',
  kind: 'va_bank',
  provider: 'BCA',
  label: { id: 'Virtual Account BCA', en: 'BCA Virtual Account' },
  requiresCustomerName: true,
  requiresPhone: false,
  hasShortCode: false,
  returnsBackUrl: true,
  enabled: true,
  minAmount: 10000,
  maxAmount: 100_000_000,
};

export function vaOrder(over: Partial<Order> = {}): Order {
  return {
    id: 'T01-20261122-182955001-7F3K',
    terminalId: 'T01',
    api: 'v2',
    state: 'paid',
    methodId: 'va_bca',
    kind: 'va_bank',
    amount: 25000,
    currency: 'IDR',
    itemName: 'Kopi susu gula aren',
    itemId: 'KOPI-01',
    userId: 'kasir1',
    customerName: 'Budi Santoso',
    training: false,
    delivery: 'answered',
    gatewayTransactionId: 'GW-8812345',
    instruction: {
      type: 'virtual_account',
      va: '8808123456789012',
      customer_name: 'Budi Santoso',
      expired_date: '2026-11-24 01:29:55',
    },
    paidAt: '2026-11-22T18:30:05Z',
    latePayment: false,
    createdAt: '2026-11-22T18:29:55Z',
    updatedAt: '2026-11-22T18:30:05Z',
    ...over,
  };
}

export function receiptContext(over: Partial<ReceiptContext> = {}): ReceiptContext {
  return {
    storeName: 'Toko Sinar Jaya',
    storeAddress: 'Jl. Merdeka 17, Bandung',
    method: VA_BCA,
    timeZone: 'Asia/Jakarta',
    lang: 'id',
    copy: false,
    training: false,
    printedAt: new Date('2026-11-22T18:31:00Z'),
    ...over,
  };
}
