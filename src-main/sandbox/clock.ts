import type { Clock } from '../core/ports';

/** A timer that has been set; cancelling one that already ran does nothing. */
export interface Timer {
  cancel(): void;
}

/**
 * The sandbox's time: the current instant and one-shot timers. Expiry, callback backoff, callback
 * deadlines and injected latency all go through it, so a test can step them instead of waiting.
 */
export interface SandboxClock extends Clock {
  schedule(fn: () => void, ms: number): Timer;
}

export const realSandboxClock: SandboxClock = {
  now: () => new Date(),
  schedule(fn, ms) {
    const timer = setTimeout(fn, ms);
    // None of these timers may keep the process alive by itself: an expiry or a retry minutes away must
    // not hold up a CLI that is done, and the rest wait on a socket that keeps the process alive anyway.
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};
