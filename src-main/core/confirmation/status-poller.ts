import type { Order } from '../../common/order';
import { FINAL_STATES } from '../../common/order-policy';
import type { GatewayClient } from '../gateway/client';
import type { OrderLog } from '../orders/order-log';
import type { OrderService } from '../payments/order-service';
import { systemClock, type Clock } from '../ports';

/**
 * Payment confirmation by status inquiry (docs/orders.md, "How Loket learns paid"): asks the gateway
 * with growing pauses until the order settles — by this inquiry or by any other path (a callback, a
 * manager) — or until the deadline. The poller never decides an expiry itself: that is the gateway's,
 * and a callback or a later inquiry settles an order this poller gave up on.
 *
 * An order cancelled in Loket is not settled at the gateway (the interface has no cancel call): the poller goes on
 * asking until the gateway gives its final word — a payment, kept as a late payment; an expiry or a failure,
 * recorded — or the deadline passes. Every answer is checked against the order first (applyInquiryAnswer).
 */
export interface PollOptions {
  orders: OrderService;
  log: OrderLog;
  /** Only the inquiry is used; the real GatewayClient fits. */
  client: Pick<GatewayClient, 'inquire'> & { readonly config: { readonly inquiryPath: string | null } };
  /** Pause before the first inquiry; it doubles after each one. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** After this the poller stops and hands back the order as it is. */
  deadline: Date;
  signal?: AbortSignal;
  /** Resolves after `ms`, or early when `signal` aborts. Replaceable so a test can step the rounds. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** In [0, 1); drives the jitter. */
  random?: () => number;
  clock?: Clock;
}

export interface PollResult {
  /** As the log has it when polling stopped. */
  order: Order;
  /**
   * `settled`: the order reached a final state (by this poller or another path); `deadline`: still open
   * when the deadline passed, unchanged by the poller; `no_inquiry`: the gateway has no status inquiry
   * configured, so nothing was asked; `aborted`: the signal fired.
   */
  reason: 'settled' | 'deadline' | 'no_inquiry' | 'aborted';
  /** How many inquiries were sent. */
  inquiries: number;
}

/**
 * Equal jitter: half the exponential step is kept, half is random. Terminals that started polling
 * together (e.g. after a restart) drift apart, and no pause falls below half its step or above the cap.
 */
export function pollDelay(
  round: number,
  initialDelayMs: number,
  maxDelayMs: number,
  random: () => number = Math.random,
): number {
  const step = Math.min(maxDelayMs, initialDelayMs * 2 ** round);
  return Math.round(step / 2 + (step / 2) * random());
}

export async function pollUntilSettled(orderId: string, options: PollOptions): Promise<PollResult> {
  const { orders, log, client, signal } = options;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const clock = options.clock ?? systemClock;
  if (!(options.initialDelayMs > 0) || !(options.maxDelayMs >= options.initialDelayMs)) {
    throw new RangeError('poll delays: initialDelayMs must be > 0 and maxDelayMs at least initialDelayMs');
  }

  const read = (): Order => {
    const order = log.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    return order;
  };
  const isFinal = (order: Order): boolean => settled(order, log);

  let order = read();
  let inquiries = 0;
  if (isFinal(order)) return { order, reason: 'settled', inquiries };
  if (!client.config.inquiryPath) return { order, reason: 'no_inquiry', inquiries };

  let failureNoted = false;
  for (let round = 0; ; round++) {
    if (signal?.aborted) return { order: read(), reason: 'aborted', inquiries };
    const remaining = options.deadline.getTime() - clock.now().getTime();
    if (remaining <= 0) return { order: read(), reason: 'deadline', inquiries };
    // Never sleep past the deadline: the caller is waiting for an answer at that moment.
    await sleep(Math.min(pollDelay(round, options.initialDelayMs, options.maxDelayMs, random), remaining), signal);

    // Re-read every round: a callback or a manager may have settled the order while we slept.
    order = read();
    if (signal?.aborted) return { order, reason: 'aborted', inquiries };
    if (isFinal(order)) return { order, reason: 'settled', inquiries };
    if (clock.now().getTime() >= options.deadline.getTime()) return { order, reason: 'deadline', inquiries };

    inquiries++;
    const answer = await client.inquire(orderId);
    if (answer.ok) {
      const { order: after } = orders.applyInquiryAnswer(orderId, answer, {
        source: 'poll',
        reason: `status inquiry: ${answer.status}`,
      });
      if (isFinal(after)) return { order: after, reason: 'settled', inquiries };
    } else if (!failureNoted) {
      // Once per poll: a gateway that is down for minutes would otherwise bury the order's history
      // under identical notes, and the first one already tells the manager what happened.
      failureNoted = true;
      log.note(orderId, {
        source: 'poll',
        reason: `status inquiry failed (${answer.failure.class}): ${answer.failure.message}; polling goes on`,
      });
    }
  }
}

/**
 * Nothing more to learn from the gateway: a final state it gave (or a manager decided), or — for an order
 * cancelled in Loket — its final word recorded since (a late payment, an expiry, a failure).
 */
function settled(order: Order, log: OrderLog): boolean {
  if (order.state === 'cancelled') return log.hasGatewayWord(order.id);
  return FINAL_STATES.includes(order.state);
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
