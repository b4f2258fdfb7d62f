/**
 * A manual clock for tests: time stands still until `advance(ms)` moves it, running every timer that
 * comes due on the way, in order. It fits the sandbox's `clock` option, the TCP printer's `timers`, and
 * the status poller's `clock` and `sleep`, so a test steps their timers instead of waiting for them and
 * proves "nothing more happens" by moving far past every timer rather than by sleeping.
 */
import type { SandboxClock, Timer } from '../../../src-main/sandbox/clock';

/** A fixed start, so dates in answers are the same on every run. */
export const FAKE_CLOCK_START = '2025-03-14T03:00:00.000Z';

interface Pending {
  due: number;
  seq: number;
  fn: () => void;
}

export class FakeClock implements SandboxClock {
  private time: number;
  private seq = 0;
  private timers: Pending[] = [];

  constructor(start: Date | string = FAKE_CLOCK_START) {
    this.time = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.time);
  }

  schedule(fn: () => void, ms: number): Timer {
    const entry: Pending = { due: this.time + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(entry);
    return { cancel: () => (this.timers = this.timers.filter((t) => t !== entry)) };
  }

  /** Resolves once the clock has been moved `ms` on; the shape the status poller's `sleep` takes. */
  readonly sleep = (ms: number): Promise<void> => new Promise((resolve) => this.schedule(resolve, ms));

  /**
   * Moves time on by `ms`, running each timer due by then at its own due time, earliest first (in the
   * order set when two are due together), including timers those set. Returns how many ran.
   */
  advance(ms: number): number {
    if (!(ms >= 0)) throw new RangeError(`FakeClock.advance: ${ms} is not a duration`);
    const target = this.time + ms;
    let ran = 0;
    for (;;) {
      const next = this.nextDue();
      if (!next || next.due > target) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.time = next.due;
      next.fn();
      ran++;
    }
    this.time = target;
    return ran;
  }

  /** How far ahead each waiting timer is due, soonest first. */
  pending(): number[] {
    return this.timers.map((t) => t.due - this.time).sort((a, b) => a - b);
  }

  private nextDue(): Pending | undefined {
    let best: Pending | undefined;
    for (const t of this.timers) if (!best || t.due < best.due || (t.due === best.due && t.seq < best.seq)) best = t;
    return best;
  }
}
