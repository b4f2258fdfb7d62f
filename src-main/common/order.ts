import type { KindInstruction } from './payment-kinds/answer-shapes';
import type { PaymentKind } from './payment-kinds/kind-names';

/**
 * An order's life (docs/orders.md; its rules are in order-policy.ts). `creating` is logged before the request leaves; `unknown` means it
 * may or may not have reached the gateway and is resolved by reconciliation or a manager.
 */
export const ORDER_STATES = [
  'creating',
  'awaiting_payment',
  'rejected',
  'unknown',
  'paid',
  'expired',
  'cancelled',
  'failed',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** Who or what caused an event: kept with every row of the event log. */
export const EVENT_SOURCES = [
  'cashier',
  'gateway',
  'callback',
  'poll',
  'inquiry',
  'manager',
  'startup',
  'reconcile',
  'cli',
  'system',
] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

/**
 * Whether the request left Loket: `pending` before the call (after a crash we cannot tell), `not_sent`
 * when it certainly did not reach the gateway (refused, DNS) and may be re-sent with the same id,
 * `sent` when it left and no answer came, `answered` when the gateway answered.
 */
export type Delivery = 'pending' | 'not_sent' | 'sent' | 'answered';

/**
 * What the customer needs to pay, parsed by the response's shape (never by method id). Field names and
 * values are the gateway's, as it sent them; unknown extra fields are kept in `extra`. A kind's instruction
 * (common/payment-kinds/answer-shapes.ts), or a V1 order's payment page, which fits every kind.
 */
export type PaymentInstruction = (KindInstruction | { type: 'payment_page'; url: string; token: string }) & {
  extra?: Record<string, unknown>;
};

export interface Rejection {
  retcode?: string;
  message: string;
  httpStatus?: number;
}

export interface Order {
  /** The merchant_transaction_id. */
  id: string;
  terminalId: string;
  api: 'v1' | 'v2';
  state: OrderState;
  methodId: string;
  kind: PaymentKind;
  amount: number;
  currency: string;
  itemName: string;
  itemId?: string;
  userId: string;
  customerName?: string;
  phone?: string;
  /** Orders against the embedded sandbox are training orders. */
  training: boolean;
  /** Who sold it: the staff member signed in at the till (training orders too: docs/roles.md). */
  staffId?: number;
  delivery: Delivery;
  gatewayTransactionId?: string;
  instruction?: PaymentInstruction;
  rejection?: Rejection;
  /** UTC ISO-8601. */
  expiresAt?: string;
  paidAt?: string;
  /** A payment reported after the order was cancelled or expired: kept, and flagged for the manager. */
  latePayment: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface OrderEvent {
  seq: number;
  orderId: string;
  at: string;
  type: 'created' | 'state_changed' | 'late_payment' | 'delivery' | 'note';
  from?: OrderState;
  to?: OrderState;
  source: EventSource;
  actor?: string;
  reason?: string;
  payload?: unknown;
}
