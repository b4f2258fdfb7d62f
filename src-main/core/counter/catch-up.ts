import type { Database } from 'better-sqlite3';
import type { OrderState } from '../../common/order';
import type { OrderLog } from '../orders/order-log';
import { followSale, UNPAID_END } from './sale-follows-order';

/**
 * At start-up, in every process that holds the data folder (runtime.ts, openLoket): sales whose gateway order settled
 * while nothing wrote the sale's side — a log written by a Loket from before the counter, whose sale followed its order
 * from one host's memory (a sale paid by `order pay` or `reconcile` at the command line stayed `tendering`), and a late
 * payment its sale never heard of — get their consequence now, each in one transaction with a note of why. Since the
 * counter, the order log writes it with the order's change, so this finds nothing. Returns the sales caught up.
 */
export function catchUpSales(log: OrderLog): string[] {
  const db = log.db;
  if (!hasTenders(db)) return [];
  const stale = db
    .prepare<[], { saleId: string; orderId: string; state: OrderState }>(
      `SELECT t.sale_id AS saleId, t.order_id AS orderId, o.state AS state
       FROM sale_tenders t JOIN sales s ON s.id = t.sale_id JOIN orders o ON o.id = t.order_id
       WHERE s.state = 'tendering' AND t.state = 'pending' AND o.state IN ('paid', ${UNPAID_END.map((s) => `'${s}'`).join(', ')})
       ORDER BY s.created_at, t.tender_no`,
    )
    .all();
  const late = db
    .prepare<[], { saleId: string; orderId: string }>(
      `SELECT t.sale_id AS saleId, t.order_id AS orderId FROM sale_tenders t JOIN orders o ON o.id = t.order_id
       WHERE t.state = 'failed' AND t.late_payment = 0 AND o.late_payment = 1`,
    )
    .all();
  const meta = { source: 'startup' as const, reason: 'caught up at start-up: the order settled before its sale knew' };
  for (const { orderId } of stale)
    log.atomically(() => {
      const order = log.get(orderId);
      if (order) followSale(db, log.clock, { type: 'state_changed', order, from: 'unknown', meta });
    });
  for (const { orderId } of late)
    log.atomically(() => {
      const order = log.get(orderId);
      if (order) followSale(db, log.clock, { type: 'late_payment', order, meta });
    });
  return [...new Set([...stale, ...late].map((r) => r.saleId))];
}

function hasTenders(db: Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sale_tenders'").get() !== undefined;
}
