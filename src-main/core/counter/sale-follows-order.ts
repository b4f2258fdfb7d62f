import type { Database, Statement } from 'better-sqlite3';
import type { OrderState } from '../../common/order';
import type { SaleView } from '../../common/sale';
import type { OrderChange } from '../orders/order-change';
import type { Clock } from '../ports';
import { SaleStore, type SaleEventMeta } from '../sales/sale-store';
import { ShiftBook } from '../shifts/shift-book';

/**
 * A sale's consequence of its gateway order's change, written by the order log inside the transaction of that change
 * (core/orders/order-log.ts runs it for every state change and late payment, in whichever process makes it: the app, the
 * CLI's `order pay`, reconcile, a callback, polling, start-up recovery). So the books never wait for a listener:
 * - the order paid: its tender is paid, and the sale completes when every tender is;
 * - the order ended unpaid (rejected, failed, cancelled, expired): its tender fails, the sale is voided, and the cash
 *   its other tenders put in the drawer goes back to the customer — a `cash_void` movement of the shift that took it,
 *   in the same transaction (a kill cannot leave the void without its cash, or the cash without its void);
 * - a payment after all for an order given up on (a late payment): the tender is marked, the sale stays voided.
 * Nothing for an order that is no sale's (an order made before every charge was a sale).
 */
export function followSale(db: Database, clock: Clock, change: OrderChange): void {
  const parts = partsOf(db, clock);
  if (!parts) return;
  const orderId = change.order.id;
  const meta: SaleEventMeta = { actor: change.meta.actor ?? change.meta.source };
  if (change.type === 'late_payment') {
    parts.sales.markLatePayment(orderId, { ...meta, payload: { orderState: change.order.state } });
    return;
  }
  const to = change.order.state;
  if (to !== 'paid' && !UNPAID_END.includes(to)) return;
  const before = parts.tenderOf.get(orderId);
  if (!before || before.state !== 'pending') return;
  const after = parts.sales.settleTender(orderId, to === 'paid' ? 'paid' : 'failed', {
    ...meta,
    payload: { orderState: to, ...(change.meta.reason ? { why: change.meta.reason } : {}) },
  });
  if (after?.state === 'voided') giveCashBack(parts, after, clock);
}

/** Order states in which a gateway tender will never be paid: its sale is voided. */
export const UNPAID_END: readonly OrderState[] = ['rejected', 'failed', 'cancelled', 'expired'];

/**
 * The cash a voided sale's cash tenders put in the drawer (handed less change, per shift), back to the customer out of
 * the shift that took it. That shift is open: a shift with a sale still being paid cannot be closed. Should it be
 * closed all the same (a log from before that rule), the cash to give back is a note of the sale for the manager.
 */
function giveCashBack(parts: Parts, sale: SaleView, clock: Clock): void {
  const taken = parts.cashTaken.all(sale.id);
  if (taken.length === 0) return;
  const at = clock.now().toISOString();
  for (const { shiftId, net } of taken) {
    if (net <= 0) continue;
    const shift = parts.shifts.get(shiftId);
    if (shift?.state === 'open') {
      parts.shifts.append(shiftId, { type: 'cash_void', at, amount: net, documentId: sale.id, by: null });
      parts.sales.note(sale.id, { actor: 'system', payload: { cashReturned: net, shiftId } });
    } else {
      parts.sales.note(sale.id, {
        actor: 'system',
        payload: { cashReturned: 0, cashToReturn: net, shiftId, problem: `shift ${shiftId} is closed` },
      });
    }
  }
}

interface Parts {
  sales: SaleStore;
  shifts: ShiftBook;
  tenderOf: Statement<[string], { state: string }>;
  cashTaken: Statement<[string], { shiftId: string; net: number }>;
}

/** One set of stores and statements per connection and clock (preparing costs more than running). */
const cache = new WeakMap<Database, WeakMap<Clock, Parts | null>>();

function partsOf(db: Database, clock: Clock): Parts | undefined {
  let byClock = cache.get(db);
  if (!byClock) cache.set(db, (byClock = new WeakMap()));
  let parts = byClock.get(clock);
  if (parts === undefined) {
    // A log without the sale tables (a file opened read-only at an old version) has no sale to follow.
    const hasSales =
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sale_tenders'").get() !== undefined;
    parts = hasSales
      ? {
          sales: new SaleStore(db, clock),
          shifts: new ShiftBook(db),
          tenderOf: db.prepare('SELECT state FROM sale_tenders WHERE order_id = ?'),
          cashTaken: db.prepare(
            `SELECT shift_id AS shiftId, SUM(amount - change) AS net FROM shift_events
             WHERE document_id = ? AND type = 'cash_tender' GROUP BY shift_id ORDER BY MIN(seq)`,
          ),
        }
      : null;
    byClock.set(clock, parts);
  }
  return parts ?? undefined;
}
