import type { OrderService } from '../core/payments/order-service';

/** How often answers the disk refused are tried again. */
export const PENDING_FLUSH_MS = 5000;

/** A repeating timer (setInterval's shape); a test passes its own. */
export interface RepeatTimer {
  every(fn: () => void, ms: number): { cancel(): void };
}

const intervalTimer: RepeatTimer = {
  every: (fn, ms) => {
    const t = setInterval(fn, ms);
    t.unref();
    return { cancel: () => clearInterval(t) };
  },
};

/**
 * Answers the disk could not take are written as soon as it does (and before the next charge): tried every
 * PENDING_FLUSH_MS, and once more at close, where what stays unwritten is `creating` at the next start and turns
 * `unknown` there (the attention queue), never lost.
 */
export function startPendingWrites(
  orders: OrderService,
  log: (line: string) => void,
  timer: RepeatTimer = intervalTimer,
): { stop(): void } {
  const running = timer.every(() => {
    try {
      if (orders.pendingWrites() > 0) orders.flushPendingWrites();
    } catch (err) {
      log(`pending write: ${(err as Error).message}`);
    }
  }, PENDING_FLUSH_MS);
  return {
    stop: () => {
      running.cancel();
      try {
        if (orders.flushPendingWrites() > 0)
          log(`closing with ${orders.pendingWrites()} answer(s) unwritten: they are checked at the next start`);
      } catch (err) {
        log(`pending write: ${(err as Error).message}`);
      }
    },
  };
}
