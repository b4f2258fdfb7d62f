/**
 * The payment kinds' names: apart from the registry (index.ts), which imports every kind's module, so that the
 * types a kind's module reads (an order, a payment method) can name a kind without importing the registry.
 */
export const PAYMENT_KINDS = [
  'qris',
  'ewallet_redirect',
  'ewallet_qr_redirect',
  'airtime_sms',
  'airtime',
  'va_bank',
  'va_cstore',
] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];
