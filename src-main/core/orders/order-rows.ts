import type {
  Delivery,
  EventSource,
  Order,
  OrderEvent,
  OrderState,
  PaymentInstruction,
  Rejection,
} from '../../common/order';
import type { PaymentKind } from '../../common/payment-methods';

/** What is known of an order before its request is sent. */
export type NewOrder = Pick<
  Order,
  | 'id'
  | 'terminalId'
  | 'api'
  | 'methodId'
  | 'kind'
  | 'amount'
  | 'currency'
  | 'itemName'
  | 'itemId'
  | 'userId'
  | 'customerName'
  | 'phone'
  | 'training'
  | 'staffId'
> & {
  /** The exact JSON bytes sent to the gateway (never a secret). */
  requestBody: string;
};

/** What a state change may learn. A field left out keeps its stored value; none can be cleared. */
export interface OrderPatch {
  delivery?: Delivery;
  gatewayTransactionId?: string;
  instruction?: PaymentInstruction;
  /** The gateway's raw answer, as received. */
  responseBody?: string;
  rejection?: Rejection;
  expiresAt?: string;
  paidAt?: string;
}

export type SqlValue = string | number | null;

/** The orders columns that make an Order: the request and response bodies are read on their own. */
export const ORDER_COLUMNS = [
  'id',
  'terminal_id',
  'api',
  'state',
  'method_id',
  'kind',
  'amount',
  'currency',
  'item_name',
  'item_id',
  'user_id',
  'customer_name',
  'phone',
  'training',
  'delivery',
  'gateway_transaction_id',
  'instruction',
  'rejection_retcode',
  'rejection_message',
  'rejection_http_status',
  'expires_at',
  'paid_at',
  'late_payment',
  'staff_id',
  'created_at',
  'updated_at',
].join(', ');

export interface OrderRow {
  id: string;
  terminal_id: string;
  api: string;
  state: string;
  method_id: string;
  kind: string;
  amount: number;
  currency: string;
  item_name: string;
  item_id: string | null;
  user_id: string;
  customer_name: string | null;
  phone: string | null;
  training: number;
  delivery: string;
  gateway_transaction_id: string | null;
  instruction: string | null;
  rejection_retcode: string | null;
  rejection_message: string | null;
  rejection_http_status: number | null;
  expires_at: string | null;
  paid_at: string | null;
  late_payment: number;
  staff_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface EventRow {
  seq: number;
  order_id: string;
  at: string;
  type: string;
  from_state: string | null;
  to_state: string | null;
  source: string;
  actor: string | null;
  reason: string | null;
  payload: string | null;
}

// The casts below are safe because the schema checks every column they read: CHECK lists hold api, state,
// delivery, type, from_state and to_state (since migration 1), kind and source (since migration 4);
// training and late_payment are 0 or 1; instruction and payload are valid JSON. Since migration 4 the tables
// are STRICT too, so a column declared INTEGER or TEXT holds nothing else. (db/migrations/)

export function rowToOrder(r: OrderRow): Order {
  const order: Order = {
    id: r.id,
    terminalId: r.terminal_id,
    api: r.api as Order['api'],
    state: r.state as OrderState,
    methodId: r.method_id,
    kind: r.kind as PaymentKind,
    amount: r.amount,
    currency: r.currency,
    itemName: r.item_name,
    userId: r.user_id,
    training: r.training === 1,
    delivery: r.delivery as Delivery,
    latePayment: r.late_payment === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  if (r.item_id !== null) order.itemId = r.item_id;
  if (r.customer_name !== null) order.customerName = r.customer_name;
  if (r.phone !== null) order.phone = r.phone;
  if (r.gateway_transaction_id !== null) order.gatewayTransactionId = r.gateway_transaction_id;
  if (r.instruction !== null) order.instruction = JSON.parse(r.instruction) as PaymentInstruction;
  if (r.rejection_message !== null) {
    const rejection: Rejection = { message: r.rejection_message };
    if (r.rejection_retcode !== null) rejection.retcode = r.rejection_retcode;
    if (r.rejection_http_status !== null) rejection.httpStatus = r.rejection_http_status;
    order.rejection = rejection;
  }
  if (r.expires_at !== null) order.expiresAt = r.expires_at;
  if (r.paid_at !== null) order.paidAt = r.paid_at;
  if (r.staff_id !== null) order.staffId = r.staff_id;
  return order;
}

export const NEW_ORDER_COLUMNS = [
  'id',
  'terminal_id',
  'api',
  'state',
  'method_id',
  'kind',
  'amount',
  'currency',
  'item_name',
  'item_id',
  'user_id',
  'customer_name',
  'phone',
  'training',
  'staff_id',
  'request_body',
  'delivery',
  'created_at',
  'updated_at',
] as const;

/** Named parameters for inserting a new order in state `creating`. */
export function newOrderParams(o: NewOrder, now: string): Record<(typeof NEW_ORDER_COLUMNS)[number], SqlValue> {
  return {
    id: o.id,
    terminal_id: o.terminalId,
    api: o.api,
    state: 'creating',
    method_id: o.methodId,
    kind: o.kind,
    amount: o.amount,
    currency: o.currency,
    item_name: o.itemName,
    item_id: o.itemId ?? null,
    user_id: o.userId,
    customer_name: o.customerName ?? null,
    phone: o.phone ?? null,
    training: o.training ? 1 : 0,
    staff_id: o.staffId ?? null,
    request_body: o.requestBody,
    delivery: 'pending',
    created_at: now,
    updated_at: now,
  };
}

/** The row a new order is, before anything else is known: what `SELECT` would read right after the insert. */
export function newOrderRow(o: NewOrder, now: string): OrderRow {
  const { request_body: _body, ...params } = newOrderParams(o, now);
  return {
    ...(params as Omit<
      OrderRow,
      | 'gateway_transaction_id'
      | 'instruction'
      | 'rejection_retcode'
      | 'rejection_message'
      | 'rejection_http_status'
      | 'expires_at'
      | 'paid_at'
      | 'late_payment'
    >),
    gateway_transaction_id: null,
    instruction: null,
    rejection_retcode: null,
    rejection_message: null,
    rejection_http_status: null,
    expires_at: null,
    paid_at: null,
    late_payment: 0,
  } as OrderRow;
}

/** The columns a patch sets, by column name; only fields present in the patch appear. */
export function patchColumns(p: OrderPatch): Record<string, SqlValue> {
  const cols: Record<string, SqlValue> = {};
  if (p.delivery !== undefined) cols.delivery = p.delivery;
  if (p.gatewayTransactionId !== undefined) cols.gateway_transaction_id = p.gatewayTransactionId;
  if (p.instruction !== undefined) cols.instruction = JSON.stringify(p.instruction);
  if (p.responseBody !== undefined) cols.response_body = p.responseBody;
  if (p.rejection !== undefined) {
    // A rejection replaces the previous one whole, so no retcode of an earlier answer lingers.
    cols.rejection_retcode = p.rejection.retcode ?? null;
    cols.rejection_message = p.rejection.message;
    cols.rejection_http_status = p.rejection.httpStatus ?? null;
  }
  if (p.expiresAt !== undefined) cols.expires_at = p.expiresAt;
  if (p.paidAt !== undefined) cols.paid_at = p.paidAt;
  return cols;
}

export function rowToEvent(r: EventRow): OrderEvent {
  const event: OrderEvent = {
    seq: r.seq,
    orderId: r.order_id,
    at: r.at,
    type: r.type as OrderEvent['type'],
    source: r.source as EventSource,
  };
  if (r.from_state !== null) event.from = r.from_state as OrderState;
  if (r.to_state !== null) event.to = r.to_state as OrderState;
  if (r.actor !== null) event.actor = r.actor;
  if (r.reason !== null) event.reason = r.reason;
  if (r.payload !== null) event.payload = JSON.parse(r.payload);
  return event;
}
