// Fault switches (PUT/GET/DELETE /sandbox/faults): latency, injected 5xx, a dropped connection after the
// order is stored, malformed JSON, and `count` limiting them to the next requests.
import { afterEach, describe, expect, it } from 'vitest';
import { obj, sortedKeys, str, validOrder, type HttpResult } from './helpers/sandbox-client';
import { useSandbox } from './helpers/sandbox-setup';
import { waitFor } from './helpers/wait-for';

const APP = { appId: 'fault-app', appKey: 'fault-appkey-1618' };
const NO_FAULTS = {
  latency_ms: 0,
  http_status: null,
  drop_before_store: false,
  drop_after_store: false,
  malformed_json: false,
  count: null,
};
/** The default lifetime of a QRIS order, whose expiry timer waits beside any pause. */
const QRIS_TTL_MS = 15 * 60 * 1000;

// On a fake clock: injected latency lasts exactly as long as the test moves the clock on.
const fixture = useSandbox(APP, { fakeClock: true });
const client = fixture.client;

afterEach(async () => {
  expect((await client.send('DELETE', '/sandbox/faults')).status).toBe(200);
});

async function setFaults(settings: Record<string, unknown>) {
  const res = await client.send('PUT', '/sandbox/faults', settings);
  expect(res.status, res.text).toBe(200);
  return obj(res.json!.data);
}

describe('switching faults', () => {
  it('GET shows none by default; PUT fills in defaults; DELETE clears', async () => {
    expect((await client.get('/sandbox/faults')).json!.data).toEqual(NO_FAULTS);
    expect(await setFaults({ http_status: 503 })).toEqual({ ...NO_FAULTS, http_status: 503 });
    expect((await client.get('/sandbox/faults')).json!.data).toEqual({ ...NO_FAULTS, http_status: 503 });
    const cleared = await client.send('DELETE', '/sandbox/faults');
    expect(cleared.json!.data).toEqual(NO_FAULTS);
    expect((await client.v2(validOrder())).status).toBe(200);
  });

  it.each([
    ['latency_ms', { latency_ms: -1 }],
    ['latency_ms', { latency_ms: 'slow' }],
    ['latency_ms', { latency_ms: 1.5 }],
    ['http_status', { http_status: 399 }],
    ['http_status', { http_status: 600 }],
    ['drop_after_store', { drop_after_store: 'yes' }],
    ['malformed_json', { malformed_json: 1 }],
    ['count', { count: 0 }],
    ['surprise', { surprise: true }],
  ])('refuses invalid settings naming %s (400 2103) and keeps the previous ones', async (field, settings) => {
    await setFaults({ latency_ms: 1 });
    const res = await client.send('PUT', '/sandbox/faults', settings);
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ success: false, retcode: '2103' });
    expect(res.json!.message).toContain(field);
    expect((await client.get('/sandbox/faults')).json!.data).toEqual({ ...NO_FAULTS, latency_ms: 1 });
  });

  it('refuses a PUT body that is not JSON (400 2001)', async () => {
    const res = await client.send('PUT', '/sandbox/faults', '{latency');
    expect(res.status).toBe(400);
    expect(res.json!.retcode).toBe('2001');
  });
});

describe('each fault', () => {
  it('latency_ms holds the answer back exactly that long, after the order is stored', async () => {
    const { clock, sandbox } = fixture;
    await setFaults({ latency_ms: 300 });
    const order = validOrder();
    const mtid = str(order.merchant_transaction_id);
    let answer: HttpResult | undefined;
    const answered = client.v2(order).then((res) => (answer = res));

    await waitFor(() => clock.pending().includes(300), 'the sandbox to start its 300 ms pause');
    expect(sandbox.orders.get(mtid)?.status, 'stored before the pause').toBe('PENDING');
    expect(clock.advance(299), 'the pause is not over 1 ms early').toBe(0);
    expect(clock.pending()[0], 'the pause, now 1 ms from its end, is the next timer').toBe(1);
    expect(clock.pending()).toContain(QRIS_TTL_MS - 299); // this order's expiry, beside the pause
    expect(answer).toBeUndefined();

    expect(clock.advance(1)).toBe(1);
    const res = await answered;
    expect(res.status, res.text).toBe(200);
    expect(res.json!.retcode).toBe('0000');
    expect((await client.order(mtid)).status).toBe(200);
  });

  it('latency_ms holds the status inquiry back too', async () => {
    const { clock } = fixture;
    const order = validOrder();
    const mtid = str(order.merchant_transaction_id);
    expect((await client.v2(order)).status).toBe(200);
    await setFaults({ latency_ms: 5000, count: 1 });
    const timersBefore = clock.pending().length;
    const answered = client.status(mtid);
    await waitFor(() => clock.pending().includes(5000), 'the sandbox to start its 5 s pause');
    expect(clock.pending()).toHaveLength(timersBefore + 1);
    clock.advance(5000);
    const res = await answered;
    expect(res.status, res.text).toBe(200);
    expect(obj(res.json!.data)).toMatchObject({ merchant_transaction_id: mtid, status: 'PENDING' });
  });

  it('http_status 503 -> 503 JSON with retcode 5003, and the order is NOT stored', async () => {
    await setFaults({ http_status: 503 });
    for (const path of ['/api/transaction', '/api/create']) {
      const order = validOrder();
      const res = await client.post(path, order);
      expect(res.status, path).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(sortedKeys(res.json)).toEqual(['message', 'retcode', 'success']);
      expect(res.json).toMatchObject({ success: false, retcode: '5003' });
      expect((await client.order(str(order.merchant_transaction_id))).status).toBe(404);
      expect(await client.ordersWith(str(order.merchant_transaction_id))).toEqual([]);
    }
  });

  it('http_status applies to the status inquiry too', async () => {
    const order = validOrder();
    await client.v2(order);
    await setFaults({ http_status: 500 });
    const res = await client.status(str(order.merchant_transaction_id));
    expect(res.status).toBe(500);
    expect(res.json!.retcode).toBe('5003');
  });

  it('drop_after_store: the client gets no answer (socket closed), yet the order is stored', async () => {
    await setFaults({ drop_after_store: true });
    const order = validOrder();
    await expect(client.v2(order)).rejects.toThrow();
    const stored = await client.ordersWith(str(order.merchant_transaction_id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.status).toBe('PENDING');
    // Retrying the same id after the drop is a duplicate, never a second order.
    await client.send('DELETE', '/sandbox/faults');
    const retry = await client.v2(order);
    expect(retry.status).toBe(409);
    expect(retry.json!.retcode).toBe('2301');
  });

  it('malformed_json: 200 with a body JSON.parse rejects, and the order is stored', async () => {
    await setFaults({ malformed_json: true });
    const order = validOrder();
    const res = await client.v2(order);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(() => JSON.parse(res.text)).toThrow(SyntaxError);
    expect(res.json).toBeUndefined();
    expect((await client.order(str(order.merchant_transaction_id))).status).toBe(200);
  });

  it('count: 1 applies to one request only', async () => {
    await setFaults({ http_status: 503, count: 1 });
    expect((await client.v2(validOrder())).status).toBe(503);
    expect((await client.get('/sandbox/faults')).json!.data).toEqual(NO_FAULTS);
    expect((await client.v2(validOrder())).status).toBe(200);
  });

  it('count: 2 applies to two requests, counting down', async () => {
    await setFaults({ malformed_json: true, count: 2 });
    const first = await client.v2(validOrder());
    expect(() => JSON.parse(first.text)).toThrow(SyntaxError);
    expect(obj((await client.get('/sandbox/faults')).json!.data).count).toBe(1);
    expect((await client.v2(validOrder())).json).toBeUndefined();
    const third = await client.v2(validOrder());
    expect(third.json?.retcode).toBe('0000');
  });

  it('without count a fault stays until DELETE', async () => {
    await setFaults({ http_status: 502 });
    expect((await client.v2(validOrder())).status).toBe(502);
    expect((await client.v2(validOrder())).status).toBe(502);
    await client.send('DELETE', '/sandbox/faults');
    expect((await client.v2(validOrder())).status).toBe(200);
  });
});
