/**
 * How long the sync waits before its next attempt after `failures` failures in a row (1, 2, 3, …): exponential from
 * `baseMs`, capped at `maxMs`, with "equal jitter" — half the delay fixed, half random — so that the terminals of a
 * store whose link came back do not all knock at the same moment, yet none retries at once.
 * `random` is in [0, 1) (Math.random's range); tests pass their own.
 */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 60_000 };

export function backoffDelay(failures: number, random: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  if (!Number.isInteger(failures) || failures < 1) throw new RangeError(`backoff: ${failures} is not a failure count`);
  // 2^30 is far past any cap; beyond it the exponent would only overflow.
  const delay = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(failures - 1, 30));
  const half = delay / 2;
  return Math.round(half + Math.min(Math.max(random, 0), 1) * half);
}
