import type { Database } from 'better-sqlite3';
import { ApiError } from '../../common/api';
import { reason } from '../../common/reasons';

/**
 * The one guard of the counter (docs/sale.md, "One counter"): while an order of this till may have been charged and
 * its outcome is not known, no new charge of any tender goes through — cash and a card slip included — until it is
 * settled: Check again finds it, or a manager decides it (mark paid, cancel, or set it aside: each audited). A charge
 * being sent right now (an order still `creating`) holds the till the same way. Read inside the counter's write
 * transaction, from the order log itself, so it holds across reloads, restarts and processes (the CLI's `sale`
 * beside the app's), not in one host's memory.
 *
 * An order recorded as never sent (`delivery = 'not_sent'`: an outage, the request certainly never left) charged
 * nothing and does not hold the till; Retry sends it again, with the same id.
 */
export interface Blocker {
  orderId: string;
  state: 'creating' | 'unknown';
}

/** The order that holds this till now, or undefined. */
export function chargeBlocker(db: Database, terminalId: string): Blocker | undefined {
  const row = db
    .prepare<[string], Blocker>(
      `SELECT o.id AS orderId, o.state AS state FROM orders o
       WHERE o.terminal_id = ? AND (o.state = 'creating' OR (o.state = 'unknown' AND o.delivery <> 'not_sent'))
         AND NOT EXISTS (SELECT 1 FROM order_events e WHERE e.order_id = o.id AND e.type = 'note'
                         AND json_extract(e.payload, '$.tillReleased') = 1)
       ORDER BY o.created_at, o.id LIMIT 1`,
    )
    .get(terminalId);
  return row ?? undefined;
}

/** The refusal of a charge while `blocker` holds the till: nothing was written or sent. */
export function heldError(blocker: Blocker): ApiError {
  if (blocker.state === 'creating')
    return new ApiError(
      'conflict',
      `Another charge is being sent to the gateway right now (order ${blocker.orderId}): wait for its answer; ` +
        'nothing was sent or taken for this one.',
      reason('sale.in_flight', { orderId: blocker.orderId }),
    );
  return new ApiError(
    'conflict',
    `The outcome of order ${blocker.orderId} is still unknown: it may have been charged, so Loket takes no other ` +
      'payment (cash, card or gateway) until it is settled. Check it again, or ask a manager to decide it ' +
      '(Manager → Attention: mark paid, cancel, or set aside; at the command line: npm run cli -- reconcile). ' +
      'Nothing was written or taken for this sale.',
    reason('sale.held', { orderId: blocker.orderId }),
  );
}
