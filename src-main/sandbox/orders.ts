import { randomBytes, randomInt } from 'node:crypto';
import type { OrderRequest } from '../common/order-request';
import { kindSpec, PAYMENT_KINDS, type PaymentKind } from '../common/payment-kinds';
import type { SandboxPayment } from '../common/payment-kinds/kind-spec';
import type { PaymentMethod } from '../common/payment-methods';

/** The sandbox's own order states (the aggregator's interface shows none; Loket's callbacks and inquiry name PAID/EXPIRED/FAILED). */
export type SandboxStatus = 'PENDING' | 'PAID' | 'EXPIRED' | 'FAILED';

/** Everything the sandbox hands the payer, whichever of it a V2 response shows for the method's kind. */
export type PaymentData = SandboxPayment;

export interface SandboxOrder {
  api: 'v1' | 'v2';
  token: string;
  transactionId: string;
  request: OrderRequest;
  method: PaymentMethod;
  status: SandboxStatus;
  createdAt: Date;
  expiresAt: Date;
  paidAt?: Date;
  statusChangedAt: Date;
  payment: PaymentData;
}

/** Lifetimes per kind, in seconds (the interface gives none: docs/sandbox.md): each kind's own. */
export const DEFAULT_TTL_SECONDS = Object.fromEntries(
  PAYMENT_KINDS.map((k) => [k, kindSpec(k).lifetimeSeconds]),
) as Record<PaymentKind, number>;

/** Realistic-looking prefixes so numbers read like the real thing on a receipt; none is a real account. */
const VA_PREFIX: Record<string, string> = {
  va_bca: '39358',
  va_bni: '8808',
  va_bri: '26215',
  va_mandiri: '89508',
  va_permata: '8625',
  va_cimb: '5919',
  va_alfamart: '31900',
  va_indomaret: '31800',
};
const SHORT_CODE: Record<string, string> = { airtime_telkomsel: '99899', airtime_indosat: '98765' };
const SMS_KEYWORD = 'BAYAR';
const SMS_TRX_TYPE = 'SMS_REPLY';

/** In-memory order book. One order per merchant_transaction_id, ever: that is the duplicate rule. */
export class OrderBook {
  private readonly byMtid = new Map<string, SandboxOrder>();
  private readonly byToken = new Map<string, SandboxOrder>();
  private readonly vaInUse = new Set<string>();
  private sequence = 0;

  get(mtid: string): SandboxOrder | undefined {
    return this.byMtid.get(mtid);
  }

  byPageToken(token: string): SandboxOrder | undefined {
    return this.byToken.get(token);
  }

  all(): SandboxOrder[] {
    return [...this.byMtid.values()];
  }

  add(order: SandboxOrder): void {
    if (this.byMtid.has(order.request.merchant_transaction_id)) throw new Error('duplicate merchant_transaction_id');
    this.byMtid.set(order.request.merchant_transaction_id, order);
    this.byToken.set(order.token, order);
    if (order.payment.va) this.vaInUse.add(order.payment.va);
  }

  newToken(): string {
    return randomBytes(16).toString('hex');
  }

  newTransactionId(now: Date): string {
    this.sequence += 1;
    const day = now.toISOString().slice(0, 10).replaceAll('-', '');
    return `SBX${day}${String(this.sequence).padStart(6, '0')}${randomInt(100, 1000)}`;
  }

  /** A 16-digit number starting with the bank's or store's prefix, unique in this book. */
  newVirtualAccount(methodId: string): string {
    const prefix = VA_PREFIX[methodId] ?? '7777';
    for (;;) {
      let digits = prefix;
      while (digits.length < 16) digits += String(randomInt(0, 10));
      if (!this.vaInUse.has(digits)) return digits;
    }
  }
}

export function smsDetails(
  method: PaymentMethod,
): Pick<PaymentData, 'keyword' | 'sms_code' | 'trx_type' | 'short_code'> {
  const details: Pick<PaymentData, 'keyword' | 'sms_code' | 'trx_type' | 'short_code'> = {
    keyword: SMS_KEYWORD,
    sms_code: String(randomInt(0, 1_000_000)).padStart(6, '0'),
    trx_type: SMS_TRX_TYPE,
  };
  if (method.hasShortCode) details.short_code = SHORT_CODE[method.id] ?? '99000';
  return details;
}
