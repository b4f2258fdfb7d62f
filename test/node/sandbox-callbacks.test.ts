// Callbacks to notification_url (docs/sandbox.md, "Callbacks"): a signed JSON POST on every settlement, retried with
// backoff until a 2xx and bounded by maxAttempts, and never sent to a non-loopback address. The sandbox
// runs on a fake clock, fresh for every test: each retry comes when the test moves the clock to it, and
// "no more attempts" is proved by moving the clock far past every timer, never by waiting.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as NodeFetch from 'node-fetch';
import { verifyBodySign } from '../../src-main/core/bodysign';
import type { CallbackAttempt } from '../../src-main/sandbox/callbacks';
import {
  GATEWAY_DATE,
  fromJakarta,
  obj,
  signedPost,
  startReceiver,
  str,
  validOrder,
  type Receiver,
} from './helpers/sandbox-client';
import { startTestSandbox, useSandbox } from './helpers/sandbox-setup';
import { waitFor } from './helpers/wait-for';

// The sandbox calls back through node-fetch. This guard records every address it is asked to reach and
// refuses anything but 127.0.0.1, so no test here can send a packet elsewhere even if the sandbox's own
// loopback check regressed. (The helpers use the global fetch, which this does not touch.)
const sandboxFetches = vi.hoisted(() => [] as string[]);
vi.mock('node-fetch', async (importOriginal) => {
  const real = await importOriginal<typeof NodeFetch>();
  const guarded = (url: Parameters<typeof real.default>[0], init?: Parameters<typeof real.default>[1]) => {
    const text = String(url);
    sandboxFetches.push(text);
    if (new URL(text).hostname !== '127.0.0.1')
      return Promise.reject(new Error(`test guard: refused to contact ${text}`));
    return real.default(url, init);
  };
  return { ...real, default: guarded };
});

const APP = { appId: 'cb-app', appKey: 'cb-appkey-271828' };
const MAX_ATTEMPTS = 3;
const BASE_DELAY_MS = 20;
/** Far beyond every timer a test here sets, order lifetimes (at most a day) included. */
const A_WEEK_MS = 7 * 24 * 3600_000;

const fixture = useSandbox(
  APP,
  {
    fakeClock: true,
    callbacks: { baseDelayMs: BASE_DELAY_MS, maxDelayMs: 80, maxAttempts: MAX_ATTEMPTS, timeoutMs: 2000 },
  },
  { perTest: true },
);
const client = fixture.client;
let receiver: Receiver;

beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

async function createWithCallback(overrides: Record<string, unknown> = {}): Promise<string> {
  const order = validOrder({ notification_url: receiver.url, ...overrides });
  const res = await client.v2(order);
  expect(res.status, res.text).toBe(200);
  return str(order.merchant_transaction_id);
}

function attemptsFor(mtid: string): CallbackAttempt[] {
  return fixture.sandbox.callbacks.attempts.filter((a) => a.merchant_transaction_id === mtid);
}

/** Waits until the sandbox has recorded the n-th attempt's outcome (and set the next retry, if any). */
async function attemptRecorded(mtid: string, n: number): Promise<void> {
  await waitFor(() => attemptsFor(mtid).length >= n, `callback attempt ${n} for ${mtid} to be recorded`);
}

/**
 * Steps through every attempt for `mtid`: after each one that is not the last, the only timer is the
 * retry, due after `delays[i]`; the clock is moved to just before it (nothing runs), then onto it.
 */
async function stepThroughRetries(mtid: string, delays: number[]): Promise<void> {
  for (const [i, delay] of delays.entries()) {
    await attemptRecorded(mtid, i + 1);
    expect(fixture.clock.pending(), `the wait before attempt ${i + 2}`).toEqual([delay]);
    expect(fixture.clock.advance(delay - 1), 'no retry before its time').toBe(0);
    expect(attemptsFor(mtid)).toHaveLength(i + 1);
    expect(fixture.clock.advance(1)).toBe(1);
  }
  await attemptRecorded(mtid, delays.length + 1);
}

/** Nothing is waiting any more: moving the clock a week on runs no timer, and no request goes out. */
function expectNothingMore(): void {
  const fetchesBefore = sandboxFetches.length;
  expect(fixture.clock.pending()).toEqual([]);
  expect(fixture.clock.advance(A_WEEK_MS)).toBe(0);
  expect(sandboxFetches.length).toBe(fetchesBefore);
}

describe('callback on payment', () => {
  it('POSTs the signed order facts with status PAID', async () => {
    const mtid = await createWithCallback({ payment_method: 'va_permata', amount: 77_000 });
    expect(receiver.received, 'nothing is sent before a settlement').toHaveLength(0);
    const transactionId = obj((await client.order(mtid)).json!.data).transaction_id;
    fixture.clock.advance(42_000); // paid 42 s after it was created, so paid_at cannot be the creation time
    const paidAt = fixture.clock.now();
    expect((await client.settle(mtid, 'pay')).status).toBe(200);

    expect(await receiver.waitFor(1)).toBe(true);
    const cb = receiver.received[0]!;
    expect(cb.method).toBe('POST');
    expect(cb.url).toBe('/loket/callback');
    expect(cb.headers['content-type']).toMatch(/^application\/json/);
    expect(cb.headers.appid).toBe(APP.appId);
    expect(Object.keys(cb.json ?? {}).sort()).toEqual([
      'amount',
      'merchant_transaction_id',
      'paid_at',
      'payment_method',
      'status',
      'transaction_id',
    ]);
    expect(cb.json).toMatchObject({
      merchant_transaction_id: mtid,
      transaction_id: transactionId,
      status: 'PAID',
      amount: 77_000,
      payment_method: 'va_permata',
    });
    expect(cb.json!.paid_at).toMatch(GATEWAY_DATE);
    expect(fromJakarta(str(cb.json!.paid_at))).toEqual(paidAt);

    // bodysign: HMAC-SHA256 over the raw bytes received, keyed with the appkey, lowercase hex.
    const sign = str(cb.headers.bodysign);
    expect(sign).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyBodySign(cb.raw, APP.appKey, 'hex', sign)).toBe(true);
    expect(verifyBodySign(Buffer.concat([cb.raw, Buffer.from(' ')]), APP.appKey, 'hex', sign)).toBe(false);
    expect(verifyBodySign(cb.raw, 'another-key', 'hex', sign)).toBe(false);

    await attemptRecorded(mtid, 1);
    const attempts = await client.callbacksFor(mtid);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      attempt: 1,
      status: 200,
      delivered: true,
      url: receiver.url,
      at: paidAt.toISOString(),
    });
    expect(sandboxFetches, 'the node-fetch guard is in the path').toContain(receiver.url);
    expectNothingMore();
  });

  it.each([
    ['expire', 'EXPIRED'],
    ['fail', 'FAILED'],
  ] as const)('%s also calls back, with status %s and paid_at null', async (action, status) => {
    const mtid = await createWithCallback();
    expect((await client.settle(mtid, action)).status).toBe(200);
    expect(await receiver.waitFor(1)).toBe(true);
    expect(receiver.received[0]!.json).toMatchObject({ merchant_transaction_id: mtid, status, paid_at: null });
    expect(
      verifyBodySign(receiver.received[0]!.raw, APP.appKey, 'hex', str(receiver.received[0]!.headers.bodysign)),
    ).toBe(true);
  });

  it('paying through the hosted page calls back too', async () => {
    const order = validOrder({ notification_url: receiver.url });
    const token = str(obj((await client.v1(order)).json!.data).token);
    await fetch(`${client.pageUrl(token)}/pay`, { method: 'POST', redirect: 'manual' }).then((r) => r.arrayBuffer());
    expect(await receiver.waitFor(1)).toBe(true);
    expect(receiver.received[0]!.json).toMatchObject({
      merchant_transaction_id: order.merchant_transaction_id,
      status: 'PAID',
    });
  });

  it('an order without notification_url settles without any callback', async () => {
    const order = validOrder();
    await client.v2(order);
    const fetchesBefore = sandboxFetches.length;
    expect((await client.settle(str(order.merchant_transaction_id), 'pay')).status).toBe(200);
    // A callback would have been started (or refused) within the settlement itself.
    expect(sandboxFetches.length).toBe(fetchesBefore);
    expect(await client.callbacksFor(str(order.merchant_transaction_id))).toEqual([]);
    expectNothingMore();
    expect(await client.callbacksFor(str(order.merchant_transaction_id))).toEqual([]);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('retries', () => {
  it('a receiver that answers 500 twice then 200 gets 3 attempts of the same signed body, and no more', async () => {
    receiver.answer = (n) => (n <= 2 ? 500 : 200);
    const mtid = await createWithCallback();
    await client.settle(mtid, 'pay');
    // Backoff: 20 ms before the second attempt, doubled to 40 ms before the third.
    await stepThroughRetries(mtid, [BASE_DELAY_MS, 2 * BASE_DELAY_MS]);
    expectNothingMore();
    expect(receiver.received).toHaveLength(3);
    const bodies = receiver.received.map((r) => r.raw.toString('utf8'));
    expect(new Set(bodies).size).toBe(1);
    expect(receiver.received.map((r) => r.headers['x-sandbox-attempt'])).toEqual(['1', '2', '3']);
    for (const r of receiver.received)
      expect(verifyBodySign(r.raw, APP.appKey, 'hex', str(r.headers.bodysign))).toBe(true);

    const attempts = await client.callbacksFor(mtid);
    expect(attempts.map((x) => [x.attempt, x.status, x.delivered])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 200, true],
    ]);
    // Each attempt is stamped with the sandbox clock's time: 0, 20 and 60 ms after the settlement.
    const settledAt = Date.parse(str(attempts[0]!.at));
    expect(attempts.map((x) => Date.parse(str(x.at)) - settledAt)).toEqual([0, 20, 60]);
  });

  it(`a receiver that always fails gets exactly maxAttempts (${MAX_ATTEMPTS}) attempts and no more`, async () => {
    receiver.answer = () => 503;
    const mtid = await createWithCallback();
    await client.settle(mtid, 'pay');
    await stepThroughRetries(mtid, [BASE_DELAY_MS, 2 * BASE_DELAY_MS]);
    expectNothingMore();
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    const attempts = await client.callbacksFor(mtid);
    expect(attempts).toHaveLength(MAX_ATTEMPTS);
    expect(attempts.every((x) => x.delivered === false && x.status === 503)).toBe(true);
  });

  it('a receiver that is not listening is retried and recorded with the error', async () => {
    const gone = await startReceiver();
    const url = gone.url;
    await gone.close();
    const mtid = await createWithCallback({ notification_url: url });
    await client.settle(mtid, 'pay');
    await stepThroughRetries(mtid, [BASE_DELAY_MS, 2 * BASE_DELAY_MS]);
    expectNothingMore();
    const attempts = await client.callbacksFor(mtid);
    expect(attempts).toHaveLength(MAX_ATTEMPTS);
    for (const x of attempts) {
      expect(x.delivered).toBe(false);
      expect(x.error).toEqual(expect.any(String));
    }
  });
});

describe('loopback only', () => {
  it('a non-loopback notification_url is recorded as not sent and never contacted', async () => {
    const url = 'http://203.0.113.10/loket/callback'; // TEST-NET-3: documentation only
    const before = sandboxFetches.length;
    const mtid = await createWithCallback({ notification_url: url });
    expect((await client.settle(mtid, 'pay')).status).toBe(200);
    // The refusal is recorded within the settlement; nothing is left to retry it later.
    expectNothingMore();
    const attempts = await client.callbacksFor(mtid);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt: 0, delivered: false, url });
    expect(attempts[0]!.error).toMatch(/loopback/);
    expect(attempts[0]!.status).toBeUndefined();
    // The sandbox refused before its HTTP client was ever asked.
    expect(sandboxFetches.slice(before).filter((u) => !u.startsWith('http://127.0.0.1:'))).toEqual([]);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('backoff cap', () => {
  it('doubles the wait from baseDelayMs until maxDelayMs, then waits maxDelayMs each time', async () => {
    const started = await startTestSandbox(APP, {
      fakeClock: true,
      callbacks: { baseDelayMs: 100, maxDelayMs: 250, maxAttempts: 5 },
    });
    const { sandbox: other, client: otherClient } = started;
    const clock = started.clock!;
    try {
      receiver.answer = () => 500;
      const order = validOrder({ notification_url: receiver.url });
      const mtid = str(order.merchant_transaction_id);
      expect((await otherClient.v2(order)).status).toBe(200);
      expect((await otherClient.settle(mtid, 'pay')).status).toBe(200);
      const waits: number[] = [];
      for (let n = 1; n < 5; n++) {
        await waitFor(() => other.callbacks.attempts.length >= n, `attempt ${n}`);
        waits.push(...clock.pending());
        clock.advance(clock.pending()[0]!);
      }
      await waitFor(() => other.callbacks.attempts.length >= 5, 'attempt 5');
      expect(waits).toEqual([100, 200, 250, 250]);
      expect(clock.pending(), 'no sixth attempt').toEqual([]);
      expect(other.callbacks.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
    } finally {
      await other.close();
    }
  });
});

describe('callbacks under the separate-secret base64 profile', () => {
  it('are signed with the secret in base64', async () => {
    const secret = 'cb-secret-b64';
    const { sandbox: other } = await startTestSandbox(APP, {
      fakeClock: true,
      signing: { key: 'secret', secret, encoding: 'base64' },
    });
    try {
      const order = validOrder({ notification_url: receiver.url });
      const res = await signedPost(other.url, '/api/transaction', order, {
        ...APP,
        signKey: secret,
        encoding: 'base64',
      });
      expect(res.status, res.text).toBe(200);
      other.settle(str(order.merchant_transaction_id), 'PAID');
      expect(await receiver.waitFor(1)).toBe(true);
      const cb = receiver.received[0]!;
      expect(verifyBodySign(cb.raw, secret, 'base64', str(cb.headers.bodysign))).toBe(true);
      expect(verifyBodySign(cb.raw, APP.appKey, 'hex', str(cb.headers.bodysign))).toBe(false);
    } finally {
      await other.close();
    }
  });
});
