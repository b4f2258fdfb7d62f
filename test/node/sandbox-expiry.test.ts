// Time-based expiry with short lifetimes (ttlSeconds): the order turns EXPIRED on its own, says so to the
// status inquiry, the hosted page and a callback, and can no longer be paid. The sandbox runs on a fake
// clock, fresh for every test, so the expiry comes exactly when the test moves the clock to it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxClock } from '../../src-main/sandbox/clock';
import { FakeClock } from './helpers/fake-clock';
import {
  GATEWAY_DATE,
  fromJakarta,
  obj,
  startReceiver,
  str,
  validOrder,
  type Receiver,
} from './helpers/sandbox-client';
import { startTestSandbox, useSandbox } from './helpers/sandbox-setup';

const APP = { appId: 'exp-app', appKey: 'exp-appkey-8086' };
const TTL_MS = 1000;

const fixture = useSandbox(
  APP,
  {
    fakeClock: true,
    ttlSeconds: { qris: TTL_MS / 1000, ewallet_redirect: TTL_MS / 1000 },
    callbacks: { baseDelayMs: 20, maxAttempts: 2 },
  },
  { perTest: true },
);
const client = fixture.client;
let receiver: Receiver;

beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

describe('expiry after ttlSeconds', () => {
  it('a 1 s QRIS order is PENDING until its last millisecond, then EXPIRED, calls back EXPIRED, and cannot be paid', async () => {
    const { clock, sandbox } = fixture;
    const order = validOrder({ notification_url: receiver.url });
    const mtid = str(order.merchant_transaction_id);
    const createdAt = clock.now();
    expect((await client.v2(order)).status).toBe(200);
    const pending = obj((await client.status(mtid)).json?.data);
    expect(pending.status).toBe('PENDING');
    expect(pending.expired_date).toMatch(GATEWAY_DATE);
    expect(fromJakarta(str(pending.expired_date)).getTime()).toBe(createdAt.getTime() + TTL_MS);

    expect(clock.pending(), 'the expiry timer, due at the end of the lifetime').toEqual([TTL_MS]);
    clock.advance(TTL_MS - 1);
    expect(obj((await client.status(mtid)).json?.data).status, 'not expired early').toBe('PENDING');

    clock.advance(1);
    // The timer expired it, not a request: the book says so before anyone asks.
    expect(sandbox.orders.get(mtid)?.status).toBe('EXPIRED');
    const res = await client.status(mtid);
    expect(res.status, res.text).toBe(200);
    expect(obj(res.json?.data)).toMatchObject({ status: 'EXPIRED', paid_at: null });

    expect(await receiver.waitFor(1)).toBe(true);
    expect(receiver.received[0]!.json).toMatchObject({
      merchant_transaction_id: mtid,
      status: 'EXPIRED',
      paid_at: null,
    });

    const pay = await client.settle(mtid, 'pay');
    expect(pay.status, pay.text).toBe(409);
    expect(pay.json?.retcode).toBe('3002');
  });

  it('the hosted page shows the expired state, and the order list keeps answering', async () => {
    const order = validOrder();
    const token = str(obj((await client.v1(order)).json?.data).token);
    fixture.clock.advance(TTL_MS);
    const page = await fetch(client.pageUrl(token));
    const html = await page.text();
    expect(page.status, html.slice(0, 200)).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toContain('data-status="EXPIRED"');
    expect(html).toMatch(/has expired/i);

    const list = await client.get('/sandbox/orders');
    expect(list.status, list.text).toBe(200);
    expect(
      (list.json?.data as { merchant_transaction_id: string; status: string }[]).find(
        (o) => o.merchant_transaction_id === order.merchant_transaction_id,
      )?.status,
    ).toBe('EXPIRED');
  });

  it('a paid order is not expired later: its expiry timer is gone', async () => {
    const order = validOrder();
    const mtid = str(order.merchant_transaction_id);
    expect((await client.v2(order)).status).toBe(200);
    expect((await client.settle(mtid, 'pay')).status).toBe(200);
    expect(fixture.clock.pending()).toEqual([]);
    fixture.clock.advance(10 * TTL_MS);
    expect(fixture.sandbox.orders.get(mtid)?.status).toBe('PAID');
    expect(obj((await client.status(mtid)).json?.data).status).toBe('PAID');
  });

  it('the expiry timer expires the order even when it wakes before the clock reads expiresAt', async () => {
    // Node's timers run on libuv's cached loop clock, so a real timer may fire a few ms before Date.now()
    // reaches its deadline (measured: 5–12 % of 1 s orders). Here the clock the sandbox reads lags 200 ms
    // behind its timers while the expiry is due, which makes that deterministic. The order must still
    // expire and call back on its own, without anyone asking about it.
    const timers = new FakeClock();
    let lagMs = 0;
    const lagging: SandboxClock = {
      now: () => new Date(timers.now().getTime() - lagMs),
      schedule: (fn, ms) => timers.schedule(fn, ms),
    };
    const { sandbox: own, client: ownClient } = await startTestSandbox(APP, {
      clock: lagging,
      ttlSeconds: { ewallet_redirect: TTL_MS / 1000 },
      callbacks: { baseDelayMs: 20 },
    });
    try {
      const order = validOrder({ payment_method: 'ewallet_ovo', notification_url: receiver.url });
      const mtid = str(order.merchant_transaction_id);
      expect((await ownClient.v2(order)).status).toBe(200);
      lagMs = 200;
      timers.advance(TTL_MS); // the timer wakes while the clock still reads 200 ms before expiresAt
      lagMs = 0;
      // Less than the callback's own time limit (5 s), which would otherwise cut off the EXPIRED callback.
      timers.advance(TTL_MS);
      // Look at the book directly: every HTTP route would expire the order lazily and hide the bug.
      expect(own.orders.get(mtid)?.status, 'a second after a 1 s lifetime').toBe('EXPIRED');
      expect(await receiver.waitFor(1)).toBe(true);
      expect(receiver.received[0]!.json).toMatchObject({ status: 'EXPIRED' });
    } finally {
      await own.close();
    }
  });
});
