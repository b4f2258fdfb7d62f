// Callbacks to notification_url (DESIGN.md §5): a signed JSON POST on every settlement, retried with
// backoff until a 2xx and bounded by maxAttempts, and never sent to a non-loopback address.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as NodeFetch from 'node-fetch';
import { verifyBodySign } from '../../src-main/core/bodysign';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import {
  GATEWAY_DATE,
  SandboxClient,
  fromJakarta,
  obj,
  signedPost,
  sleep,
  startReceiver,
  str,
  validOrder,
  waitUntil,
  type Receiver,
} from './helpers/sandbox-client';

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

let sandbox: SandboxHandle;
let client: SandboxClient;
let receiver: Receiver;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    ...APP,
    callbacks: { baseDelayMs: 20, maxDelayMs: 80, maxAttempts: MAX_ATTEMPTS, timeoutMs: 2000 },
  });
  client = new SandboxClient(sandbox.url, APP);
});
afterAll(() => sandbox.close());
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

describe('callback on payment', () => {
  it('POSTs the signed order facts with status PAID', async () => {
    const mtid = await createWithCallback({ payment_method: 'va_permata', amount: 77_000 });
    expect(receiver.received, 'nothing is sent before a settlement').toHaveLength(0);
    const transactionId = obj((await client.order(mtid)).json!.data).transaction_id;
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
    expect(Math.abs(fromJakarta(str(cb.json!.paid_at)).getTime() - Date.now())).toBeLessThan(5000);

    // bodysign: HMAC-SHA256 over the raw bytes received, keyed with the appkey, lowercase hex.
    const sign = str(cb.headers.bodysign);
    expect(sign).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyBodySign(cb.raw, APP.appKey, 'hex', sign)).toBe(true);
    expect(verifyBodySign(Buffer.concat([cb.raw, Buffer.from(' ')]), APP.appKey, 'hex', sign)).toBe(false);
    expect(verifyBodySign(cb.raw, 'another-key', 'hex', sign)).toBe(false);

    const attempts = await client.callbacksFor(mtid);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt: 1, status: 200, delivered: true, url: receiver.url });
    expect(sandboxFetches, 'the node-fetch guard is in the path').toContain(receiver.url);
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
    await client.settle(str(order.merchant_transaction_id), 'pay');
    await sleep(100);
    expect(await client.callbacksFor(str(order.merchant_transaction_id))).toEqual([]);
  });
});

describe('retries', () => {
  it('a receiver that answers 500 twice then 200 gets 3 attempts of the same signed body, and no more', async () => {
    receiver.answer = (n) => (n <= 2 ? 500 : 200);
    const mtid = await createWithCallback();
    await client.settle(mtid, 'pay');
    expect(await receiver.waitFor(3)).toBe(true);
    await sleep(250); // longer than any further backoff step would take
    expect(receiver.received).toHaveLength(3);
    const bodies = receiver.received.map((r) => r.raw.toString('utf8'));
    expect(new Set(bodies).size).toBe(1);
    expect(receiver.received.map((r) => r.headers['x-sandbox-attempt'])).toEqual(['1', '2', '3']);
    for (const r of receiver.received)
      expect(verifyBodySign(r.raw, APP.appKey, 'hex', str(r.headers.bodysign))).toBe(true);
    // Backoff: the second wait is longer than the first (20 ms, then 40 ms).
    const [a, b, c] = receiver.received.map((r) => r.at) as [number, number, number];
    expect(b - a).toBeGreaterThanOrEqual(15);
    expect(c - b).toBeGreaterThanOrEqual(35);

    const attempts = await client.callbacksFor(mtid);
    expect(attempts.map((x) => [x.attempt, x.status, x.delivered])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 200, true],
    ]);
  });

  it(`a receiver that always fails gets exactly maxAttempts (${MAX_ATTEMPTS}) attempts and no more`, async () => {
    receiver.answer = () => 503;
    const mtid = await createWithCallback();
    await client.settle(mtid, 'pay');
    expect(await receiver.waitFor(MAX_ATTEMPTS)).toBe(true);
    await sleep(400); // several times the capped backoff
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
    expect(await waitUntil(async () => (await client.callbacksFor(mtid)).length >= MAX_ATTEMPTS)).toBe(true);
    await sleep(200);
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
    await sleep(100);
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

describe('callbacks under the separate-secret base64 profile', () => {
  it('are signed with the secret in base64', async () => {
    const secret = 'cb-secret-b64';
    const other = await startSandbox({
      port: 0,
      ...APP,
      signing: { key: 'secret', secret, encoding: 'base64' },
      callbacks: { baseDelayMs: 20 },
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
