// An order's life in the sandbox: one order per merchant_transaction_id across V1 and V2, the status
// inquiry (POST /api/status), and the simulation endpoints that pay, expire or fail an order.
import { describe, expect, it } from 'vitest';
import { GATEWAY_DATE, fromJakarta, obj, sortedKeys, str, validOrder } from './helpers/sandbox-client';
import { useSandbox } from './helpers/sandbox-setup';

const APP = { appId: 'life-app', appKey: 'life-appkey-31415' };

const fixture = useSandbox(APP, { fakeClock: true });
const client = fixture.client;

describe('duplicate merchant_transaction_id', () => {
  it.each([
    ['V2 then V2', '/api/transaction', '/api/transaction'],
    ['V2 then V1', '/api/transaction', '/api/create'],
    ['V1 then V2', '/api/create', '/api/transaction'],
    ['V1 then V1', '/api/create', '/api/create'],
  ] as const)('%s: the second gets 409 2301 and exactly one order exists', async (_name, first, second) => {
    const order = validOrder();
    const mtid = str(order.merchant_transaction_id);
    expect((await client.post(first, order)).status).toBe(200);
    const before = await client.ordersWith(mtid);

    const again = await client.post(second, { ...order, amount: 30_000, item_name: 'Something else' });
    expect(again.status, again.text).toBe(409);
    expect(sortedKeys(again.json)).toEqual(['message', 'retcode', 'success']);
    expect(again.json!.success).toBe(false);
    expect(again.json!.retcode).toBe('2301');
    expect(again.json!.message).toMatch(/merchant_transaction_id/);

    const after = await client.ordersWith(mtid);
    expect(after).toHaveLength(1);
    expect(after[0]).toEqual(before[0]); // the first order is untouched
    expect(after[0]!.amount).toBe(order.amount);
  });

  it('stays a duplicate after the first order is paid', async () => {
    const order = validOrder();
    await client.v2(order);
    await client.settle(str(order.merchant_transaction_id), 'pay');
    const again = await client.v2(order);
    expect(again.status).toBe(409);
    expect(again.json!.retcode).toBe('2301');
  });

  it('concurrent sends of one id create exactly one order', async () => {
    const order = validOrder();
    const answers = await Promise.all(Array.from({ length: 6 }, () => client.v2(order)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(await client.ordersWith(str(order.merchant_transaction_id))).toHaveLength(1);
  });

  it('a refused first attempt does not block the id', async () => {
    const order = validOrder();
    expect((await client.v2({ ...order, amount: -5 })).status).toBe(422);
    expect((await client.v2(order)).status).toBe(200);
  });
});

describe('status inquiry POST /api/status', () => {
  it('shows PENDING after creation, with the order facts', async () => {
    const order = validOrder({ payment_method: 'ewallet_ovo', amount: 12_500 });
    const created = await client.v2(order);
    expect(created.status).toBe(200);
    const res = await client.status(str(order.merchant_transaction_id));
    expect(res.status, res.text).toBe(200);
    expect(res.json!.success).toBe(true);
    expect(res.json!.retcode).toBe('0000');
    const data = obj(res.json!.data);
    expect(data).toMatchObject({
      merchant_transaction_id: order.merchant_transaction_id,
      status: 'PENDING',
      amount: 12_500,
      payment_method: 'ewallet_ovo',
      paid_at: null,
    });
    expect(data.transaction_id).toEqual(expect.any(String));
    expect(data.expired_date).toMatch(GATEWAY_DATE);
  });

  it('shows PAID with paid_at after the order is paid', async () => {
    const order = validOrder();
    await client.v2(order);
    const mtid = str(order.merchant_transaction_id);
    fixture.clock.advance(61_000); // paid a minute after it was created, so paid_at cannot be the creation time
    const paidAt = fixture.clock.now();
    const paid = await client.settle(mtid, 'pay');
    expect(paid.status, paid.text).toBe(200);
    expect(obj(paid.json!.data).status).toBe('PAID');
    const data = obj((await client.status(mtid)).json!.data);
    expect(data.status).toBe('PAID');
    expect(data.paid_at).toMatch(GATEWAY_DATE);
    expect(fromJakarta(str(data.paid_at))).toEqual(paidAt);
  });

  it.each([
    ['expire', 'EXPIRED'],
    ['fail', 'FAILED'],
  ] as const)('shows %s -> %s, without paid_at', async (action, status) => {
    const order = validOrder({ payment_method: 'va_bri' });
    await client.v2(order);
    const mtid = str(order.merchant_transaction_id);
    expect((await client.settle(mtid, action)).status).toBe(200);
    const data = obj((await client.status(mtid)).json!.data);
    expect(data.status).toBe(status);
    expect(data.paid_at).toBeNull();
  });

  it('finds V1 orders too', async () => {
    const order = validOrder();
    await client.v1(order);
    expect(obj((await client.status(str(order.merchant_transaction_id))).json!.data).status).toBe('PENDING');
  });

  it('an unknown merchant_transaction_id -> 404 3001', async () => {
    const res = await client.status('NEVER-CREATED-1');
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ success: false, retcode: '3001' });
    expect(res.json!.message).toMatch(/merchant_transaction_id/);
  });

  it('without merchant_transaction_id -> 400 2100 naming it', async () => {
    const res = await client.post('/api/status', {});
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ success: false, retcode: '2100' });
    expect(res.json!.message).toMatch(/merchant_transaction_id/);
  });

  it('is signed like creation: a bad signature -> 401 1004', async () => {
    const res = await client.post(
      '/api/status',
      { merchant_transaction_id: 'x' },
      { headers: { bodysign: 'ab'.repeat(32) } },
    );
    expect(res.status).toBe(401);
    expect(res.json!.retcode).toBe('1004');
  });
});

describe('simulation transitions', () => {
  it('only a PENDING order moves: pay twice, or expire after pay -> 409 3002', async () => {
    const order = validOrder();
    await client.v2(order);
    const mtid = str(order.merchant_transaction_id);
    expect((await client.settle(mtid, 'pay')).status).toBe(200);
    for (const action of ['pay', 'expire', 'fail'] as const) {
      const res = await client.settle(mtid, action);
      expect(res.status, action).toBe(409);
      expect(res.json).toMatchObject({ success: false, retcode: '3002' });
    }
    expect(obj((await client.status(mtid)).json!.data).status).toBe('PAID');
  });

  it('pay after a manual expiry -> 409 3002', async () => {
    const order = validOrder();
    await client.v2(order);
    const mtid = str(order.merchant_transaction_id);
    await client.settle(mtid, 'expire');
    const res = await client.settle(mtid, 'pay');
    expect(res.status).toBe(409);
    expect(res.json!.retcode).toBe('3002');
  });

  it('an unknown order -> 404 3001', async () => {
    const res = await client.settle('NO-SUCH-ORDER', 'pay');
    expect(res.status).toBe(404);
    expect(res.json!.retcode).toBe('3001');
  });

  it('GET /sandbox/orders/{mtid} shows the order; unknown -> 404 3001', async () => {
    const order = validOrder({ payment_method: 'airtime_tri' });
    await client.v2(order);
    const res = await client.order(str(order.merchant_transaction_id));
    expect(res.status).toBe(200);
    expect(obj(res.json!.data)).toMatchObject({
      merchant_transaction_id: order.merchant_transaction_id,
      status: 'PENDING',
      api: 'v2',
      callbacks: [],
    });
    expect((await client.order('NOPE')).status).toBe(404);
  });
});
