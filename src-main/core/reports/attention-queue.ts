import type { Database } from 'better-sqlite3';
import type { Lang } from '../../common/app-info';
import type { Order } from '../../common/order';
import type { PaymentMethod } from '../../common/payment-methods';
import type { AttentionAction, AttentionItem, AttentionKind } from '../../common/reports';
import { ORDER_COLUMNS, rowToOrder, type OrderRow, type SqlValue } from '../orders/order-rows';
import { issueSummary, issueWhat, orderSummary, orderWhat, type MismatchNote, type OrderKind } from './attention-words';
import { CallbackIssues, type CallbackIssue } from './callback-issues';
import { dbOf, stmt, type Books } from './sql';

/**
 * The attention queue (docs/end-of-day.md, "Attention"): which items are open — from the orders (unknown, overdue, a
 * late payment or a mismatch not acknowledged) and from the callback problems — each with the actions that fit it.
 * Acting on one is attention-actions.ts.
 */

export const ATTENTION_ACTIONS: readonly AttentionAction[] = [
  'check',
  'mark_paid',
  'cancel',
  'acknowledge',
  'set_aside',
];

/** What each kind of item allows (a callback problem is checked only when this log has its order). */
export const ACTIONS_BY_KIND: Readonly<Record<AttentionKind, readonly AttentionAction[]>> = {
  unknown: ['check', 'mark_paid', 'cancel', 'set_aside'],
  overdue: ['check', 'mark_paid', 'cancel'],
  late_payment: ['acknowledge'],
  callback_problem: ['check', 'acknowledge'],
  mismatch: ['check', 'acknowledge'],
};

/** The note a late payment is acknowledged with (its payload); the next late payment of the order opens a new item. */
export const LATE_PAYMENT_ACKNOWLEDGED = { acknowledged: 'late_payment' } as const;
/**
 * The note a manager's "set aside" writes on an order whose outcome is unknown: the till that charged it may sell
 * again (AppService's hold), while the order stays unknown and in the queue.
 */
export const TILL_RELEASED = { tillReleased: true } as const;

/** The note a gateway mismatch is acknowledged with; a different mismatch noted later opens a new item. */
export const MISMATCH_ACKNOWLEDGED = { acknowledged: 'mismatch' } as const;

export interface AttentionOptions {
  /** The language of the summaries: the store's. Default 'en'. */
  lang?: Lang;
  /** For the method's name in the summaries; its id otherwise. */
  methods?: readonly PaymentMethod[];
  /**
   * Only the items of orders created in [from, to) (a callback about an order this log lacks counts when it
   * was received); the whole queue by default.
   */
  from?: Date;
  to?: Date;
}

const EARLIEST = '0000-01-01T00:00:00.000Z';
const LATEST = '9999-12-31T23:59:59.999Z';

type OrderWithSince = OrderRow & { since: string | null };

/** The four queues' SQL, each optionally for one order (`id = ?`), of orders created in [from, to). */
function orderItems(db: Database, now: Date, from: string, to: string, orderId?: string) {
  const one = orderId === undefined ? '' : ' AND id = ?';
  const extra: SqlValue[] = orderId === undefined ? [] : [orderId];
  const unknown = stmt<SqlValue[], OrderWithSince>(
    db,
    `SELECT ${ORDER_COLUMNS},
       (SELECT MAX(at) FROM order_events e WHERE e.order_id = orders.id AND e.to_state = 'unknown') AS since
     FROM orders WHERE state = 'unknown' AND created_at >= ? AND created_at < ?${one}`,
  ).all(from, to, ...extra);
  const overdue = stmt<SqlValue[], OrderWithSince>(
    db,
    `SELECT ${ORDER_COLUMNS}, expires_at AS since
     FROM orders WHERE state = 'awaiting_payment' AND created_at >= ? AND created_at < ? AND expires_at < ?${one}`,
  ).all(from, to, now.toISOString(), ...extra);
  // A late payment is open until a note acknowledges it after the last late payment the order received.
  const late = stmt<SqlValue[], OrderWithSince>(
    db,
    `SELECT ${ORDER_COLUMNS},
       (SELECT MAX(at) FROM order_events l WHERE l.order_id = orders.id AND l.type = 'late_payment') AS since
     FROM orders WHERE late_payment = 1 AND created_at >= ? AND created_at < ?${one}
       AND NOT EXISTS (
         SELECT 1 FROM order_events a
         WHERE a.order_id = orders.id AND a.type = 'note' AND json_extract(a.payload, '$.acknowledged') = 'late_payment'
           AND a.seq > COALESCE((SELECT MAX(seq) FROM order_events l WHERE l.order_id = orders.id AND l.type = 'late_payment'), 0))`,
  ).all(from, to, ...extra);
  // A mismatch is open until a note acknowledges it after the last mismatch noted on the order (read through the
  // partial index order_events_mismatch, migration 7).
  const mismatch = stmt<SqlValue[], OrderWithSince & { note: string }>(
    db,
    `SELECT ${ORDER_COLUMNS}, m.since AS since, m.note AS note
     FROM (SELECT e.order_id, e.seq, e.at AS since, json_extract(e.payload, '$.mismatch') AS note FROM order_events e
           WHERE e.type = 'note' AND json_extract(e.payload, '$.mismatch') IS NOT NULL
             AND e.seq = (SELECT MAX(x.seq) FROM order_events x WHERE x.order_id = e.order_id AND x.type = 'note'
                            AND json_extract(x.payload, '$.mismatch') IS NOT NULL)) m
     JOIN orders ON orders.id = m.order_id
     WHERE created_at >= ? AND created_at < ?${one}
       AND NOT EXISTS (
         SELECT 1 FROM order_events a
         WHERE a.order_id = orders.id AND a.type = 'note' AND json_extract(a.payload, '$.acknowledged') = 'mismatch'
           AND a.seq > m.seq)`,
  ).all(from, to, ...extra);
  return { unknown, overdue, late, mismatch };
}

interface IssueWithOrder {
  id: number;
  order_created_at: string | null;
}

function openIssues(db: Database, orderId?: string): { issue: CallbackIssue; orderCreatedAt: string | null }[] {
  const rows = stmt<SqlValue[], IssueWithOrder>(
    db,
    `SELECT ci.id, o.created_at AS order_created_at FROM callback_issues ci LEFT JOIN orders o ON o.id = ci.order_id
     WHERE ci.acknowledged_at IS NULL${orderId === undefined ? '' : ' AND ci.order_id = ?'} ORDER BY ci.received_at, ci.id`,
  ).all(...(orderId === undefined ? [] : [orderId]));
  const store = new CallbackIssues(db);
  return rows.map((r) => ({ issue: store.get(r.id)!, orderCreatedAt: r.order_created_at }));
}

export function openItems(db: Database, now: Date, options: AttentionOptions, orderId?: string): AttentionItem[] {
  const lang = options.lang ?? 'en';
  const from = options.from?.toISOString() ?? EARLIEST;
  const to = options.to?.toISOString() ?? LATEST;
  const items: AttentionItem[] = [];
  const queues = orderItems(db, now, from, to, orderId);
  const add = (kind: OrderKind, rows: (OrderWithSince & { note?: string })[]) => {
    for (const row of rows) {
      const order = rowToOrder(row);
      const note = row.note === undefined ? undefined : (JSON.parse(row.note) as MismatchNote);
      items.push({
        kind,
        orderId: order.id,
        order,
        since: row.since ?? order.updatedAt,
        summary: orderSummary(kind, order, options, note),
        what: orderWhat(kind, order),
        actions: [...ACTIONS_BY_KIND[kind]],
      });
    }
  };
  add('unknown', queues.unknown);
  add('overdue', queues.overdue);
  add('late_payment', queues.late);
  add('mismatch', queues.mismatch);
  for (const { issue, orderCreatedAt } of openIssues(db, orderId)) {
    // An issue belongs to the day of its order, or — for an order this log lacks — to the day it came.
    const when = orderCreatedAt ?? issue.receivedAt;
    if (when < from || when >= to) continue;
    const order = orderCreatedAt === null ? undefined : rowToOrderById(db, issue.orderId);
    items.push({
      kind: 'callback_problem',
      orderId: issue.orderId,
      ...(order ? { order } : {}),
      since: issue.receivedAt,
      summary: issueSummary(issue, order, lang),
      what: issueWhat(issue, order),
      actions: order ? ['check', 'acknowledge'] : ['acknowledge'],
      issueId: issue.id,
    });
  }
  // Oldest first; at the same moment, the items of orders first (as they were made), then callback problems as
  // they came.
  const key = (i: AttentionItem) => [
    i.since,
    String(i.issueId ?? 0).padStart(16, '0'),
    i.order?.createdAt ?? '',
    i.orderId,
  ];
  return items.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let n = 0; n < ka.length; n++) if (ka[n] !== kb[n]) return ka[n]! < kb[n]! ? -1 : 1;
    return 0;
  });
}

function rowToOrderById(db: Database, id: string): Order | undefined {
  const row = stmt<[string], OrderRow>(db, `SELECT ${ORDER_COLUMNS} FROM orders WHERE id = ?`).get(id);
  return row && rowToOrder(row);
}

/**
 * The attention queue (docs/end-of-day.md, "Attention"): what needs a person before the day is closed, oldest
 * first — orders whose outcome is unknown, late payments not yet acknowledged, orders still awaiting payment
 * past their deadline (`expires_at` before `now`), and authentic callbacks that could not be applied and are
 * not acknowledged. Each item lists the actions that fit it (resolveAttention runs them).
 */
export function attention(books: Books, now: Date, options: AttentionOptions = {}): AttentionItem[] {
  return openItems(dbOf(books), now, options);
}
