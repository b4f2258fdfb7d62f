import type { Database, Statement } from 'better-sqlite3';
import { appendToOutbox, type OutboxRow } from '../outbox/outbox';

/**
 * An order event's outbox row (core/outbox/outbox.ts), written by the order log in the transaction of the event,
 * after the order's row has its new values. The event is the `order_events` row; the snapshot is the `orders` row
 * as the event left it, every column but the request and response bodies (kept on the till), plus the name of the
 * staff member who sold (staff are the till's own: the store book has no other way to name them). Both keep the
 * column names and SQL values (0/1 flags, null for nothing), the JSON columns as JSON: a wire format that changes
 * only by adding members. Migration 7 builds the same objects for the events written before it (tested).
 */

/** The `order_events` row as written (its payload as JSON text, or null). */
export interface OrderEventRow {
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

const SNAPSHOT_SQL = `SELECT o.terminal_id AS terminal, json_object('id', o.id, 'terminal_id', o.terminal_id,
  'api', o.api, 'state', o.state, 'method_id', o.method_id, 'kind', o.kind, 'amount', o.amount,
  'currency', o.currency, 'item_name', o.item_name, 'item_id', o.item_id, 'user_id', o.user_id,
  'customer_name', o.customer_name, 'phone', o.phone, 'training', o.training, 'delivery', o.delivery,
  'gateway_transaction_id', o.gateway_transaction_id, 'instruction', json(o.instruction),
  'rejection_retcode', o.rejection_retcode, 'rejection_message', o.rejection_message,
  'rejection_http_status', o.rejection_http_status, 'expires_at', o.expires_at, 'paid_at', o.paid_at,
  'late_payment', o.late_payment, 'staff_id', o.staff_id, 'staff_name', s.name,
  'created_at', o.created_at, 'updated_at', o.updated_at) AS snapshot
FROM orders o LEFT JOIN staff s ON s.id = o.staff_id WHERE o.id = ?`;

const statements = new WeakMap<Database, Statement<[string], { terminal: string; snapshot: string }>>();

/** The order's outbox row for `event`, read from the order as it is now in this transaction. */
export function appendOrderEvent(db: Database, event: OrderEventRow): OutboxRow {
  let snapshotOf = statements.get(db);
  if (snapshotOf === undefined) {
    snapshotOf = db.prepare<[string], { terminal: string; snapshot: string }>(SNAPSHOT_SQL);
    statements.set(db, snapshotOf);
  }
  const order = snapshotOf.get(event.order_id);
  if (!order) throw new Error(`outbox: order ${event.order_id} is not in the log`);
  return appendToOutbox(db, {
    terminalId: order.terminal,
    stream: 'order',
    streamId: event.order_id,
    type: event.type,
    at: event.at,
    event: { ...event, payload: event.payload === null ? null : (JSON.parse(event.payload) as unknown) },
    snapshot: JSON.parse(order.snapshot) as unknown,
  });
}
