import fetch from 'node-fetch';
import { isIP } from 'node:net';
import { signBody } from '../core/bodysign';
import { realSandboxClock, type SandboxClock, type Timer } from './clock';

export interface CallbackPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Delay before the second attempt; it doubles each time up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Per attempt. */
  timeoutMs: number;
  /** Off by default: the sandbox calls back loopback addresses only, so it cannot be aimed at other hosts. */
  allowAnyHost: boolean;
}

export const DEFAULT_CALLBACK_POLICY: CallbackPolicy = {
  maxAttempts: 6,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  timeoutMs: 5000,
  allowAnyHost: false,
};

export interface CallbackAttempt {
  merchant_transaction_id: string;
  url: string;
  attempt: number;
  at: string;
  status?: number;
  error?: string;
  delivered: boolean;
}

export function backoffDelay(policy: CallbackPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
}

export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

interface Signer {
  appId: string;
  key: string;
  encoding: 'hex' | 'base64';
}

/**
 * Delivers callbacks to `notification_url`, signed like requests, retried with bounded
 * exponential backoff until a 2xx. Attempts are kept for the simulator's inspection endpoints.
 */
export class CallbackDispatcher {
  readonly attempts: CallbackAttempt[] = [];
  private readonly timers = new Set<Timer>();
  private readonly inFlight = new Set<AbortController>();
  private readonly idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly policy: CallbackPolicy,
    private readonly signer: Signer,
    private readonly log: (line: string) => void,
    private readonly clock: SandboxClock = realSandboxClock,
  ) {}

  send(url: string, payload: Record<string, unknown>): void {
    const mtid = String(payload.merchant_transaction_id);
    if (!this.policy.allowAnyHost && !isLoopbackUrl(url)) {
      this.record({
        merchant_transaction_id: mtid,
        url,
        attempt: 0,
        at: this.clock.now().toISOString(),
        error:
          'not sent: the sandbox calls back loopback addresses only (start it with --callbacks-any-host to allow others)',
        delivered: false,
      });
      return;
    }
    const body = JSON.stringify(payload);
    void this.attempt(url, body, mtid, 1);
  }

  /**
   * Resolves once no callback is waiting or in flight; for tests and orderly shutdown. With an injected
   * clock a retry that is waiting only comes due when the clock is moved on.
   */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) t.cancel();
    this.timers.clear();
    for (const c of this.inFlight) c.abort();
    this.wakeIdleWaiters();
  }

  private isIdle(): boolean {
    return this.timers.size === 0 && this.inFlight.size === 0;
  }

  private wakeIdleWaiters(): void {
    if (this.isIdle()) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private record(a: CallbackAttempt): void {
    this.attempts.push(a);
    this.log(
      `callback ${a.merchant_transaction_id} attempt ${a.attempt} -> ${a.delivered ? 'delivered' : 'failed'} ` +
        `${a.status ?? ''}${a.error ? ` (${a.error})` : ''}`,
    );
  }

  private async attempt(url: string, body: string, mtid: string, n: number): Promise<void> {
    try {
      await this.attemptOnce(url, body, mtid, n);
    } finally {
      // Only now, with the next retry (if any) already set, is "nothing waiting" true.
      this.wakeIdleWaiters();
    }
  }

  private async attemptOnce(url: string, body: string, mtid: string, n: number): Promise<void> {
    if (this.closed) return;
    const controller = new AbortController();
    this.inFlight.add(controller);
    const timer = this.clock.schedule(() => controller.abort(), this.policy.timeoutMs);
    let status: number | undefined;
    let error: string | undefined;
    try {
      const res = await fetch(url, {
        method: 'POST',
        body,
        signal: controller.signal,
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          appid: this.signer.appId,
          bodysign: signBody(body, this.signer.key, this.signer.encoding),
          'x-sandbox-attempt': String(n),
        },
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch (err) {
      error = controller.signal.aborted ? `no answer within ${this.policy.timeoutMs} ms` : (err as Error).message;
    } finally {
      timer.cancel();
      this.inFlight.delete(controller);
    }
    const delivered = status !== undefined && status >= 200 && status < 300;
    this.record({
      merchant_transaction_id: mtid,
      url,
      attempt: n,
      at: this.clock.now().toISOString(),
      status,
      error,
      delivered,
    });
    if (delivered || this.closed || n >= this.policy.maxAttempts) return;
    const t = this.clock.schedule(
      () => {
        this.timers.delete(t);
        void this.attempt(url, body, mtid, n + 1);
      },
      backoffDelay(this.policy, n),
    );
    this.timers.add(t);
  }
}
