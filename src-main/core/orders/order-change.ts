import type { Database } from 'better-sqlite3';
import type { EventSource, Order, OrderState } from '../../common/order';
import type { Clock } from '../ports';

/**
 * One change of an order as the order log wrote it, handed to its followers inside the same transaction: a state
 * change (with the state it left), or a late payment flagged on an order given up on.
 */
export type OrderChange =
  | { type: 'state_changed'; order: Order; from: OrderState; meta: ChangeMeta }
  | { type: 'late_payment'; order: Order; meta: ChangeMeta };

export interface ChangeMeta {
  source: EventSource;
  actor?: string | undefined;
  reason?: string | undefined;
}

/**
 * What an order's change writes besides itself, in its transaction (a sale's consequence). It writes through `db`,
 * which has the transaction open; a throw rolls the order's change back too.
 */
export type OrderFollower = (db: Database, clock: Clock, change: OrderChange) => void;
