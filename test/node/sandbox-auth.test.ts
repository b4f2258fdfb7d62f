// Authentication (docs/gateway-interface.md; the recipe in docs/sandbox.md): appkey, appid and bodysign, an HMAC-SHA256 of the
// exact body bytes. Every refusal is 401 with the auth retcode, names the header, and stores nothing.
import { describe, expect, it } from 'vitest';
import { signBody } from '../../src-main/core/bodysign';
import type { SandboxHandle } from '../../src-main/sandbox/server';
import { signedPost, sortedKeys, str, validOrder, type HttpResult, type OrderBody } from './helpers/sandbox-client';
import { useSandbox } from './helpers/sandbox-setup';

const APP = { appId: 'auth-app', appKey: 'auth-appkey-5f2c9a' };
const SECRET = 'separate-signing-secret-77';

const hex = useSandbox(APP);
const b64 = useSandbox(APP, { signing: { key: 'secret', secret: SECRET, encoding: 'base64' } });
const client = hex.client;

async function expectUnauthorised(
  res: HttpResult,
  order: OrderBody,
  retcode: string,
  header: string,
  sandbox: SandboxHandle = hex.sandbox,
) {
  expect(res.status, res.text).toBe(401);
  expect(sortedKeys(res.json)).toEqual(['message', 'retcode', 'success']);
  expect(res.json!.success).toBe(false);
  expect(res.json!.retcode).toBe(retcode);
  expect(str(res.json!.message)).toContain(header);
  expect(sandbox.orders.get(str(order.merchant_transaction_id)), 'a refused request stores nothing').toBeUndefined();
}

describe('the three headers', () => {
  it('a correctly signed request is accepted', async () => {
    const res = await client.v2(validOrder());
    expect(res.status, res.text).toBe(200);
  });

  it.each(['appkey', 'appid', 'bodysign'])(
    '%s missing -> 401 1001 naming the header (V2, V1 and status)',
    async (header) => {
      const order = validOrder();
      await expectUnauthorised(await client.v2(order, { headers: { [header]: null } }), order, '1001', header);
      await expectUnauthorised(await client.v1(order, { headers: { [header]: null } }), order, '1001', header);
      const status = await client.post(
        '/api/status',
        { merchant_transaction_id: 'x' },
        { headers: { [header]: null } },
      );
      expect(status.status).toBe(401);
      expect(status.json!.retcode).toBe('1001');
    },
  );

  it.each(['appkey', 'appid', 'bodysign'])('%s empty -> 401 1001', async (header) => {
    const order = validOrder();
    await expectUnauthorised(await client.v2(order, { headers: { [header]: '' } }), order, '1001', header);
  });

  it('an unknown appid -> 401 1002 naming appid', async () => {
    const order = validOrder();
    await expectUnauthorised(await client.v2(order, { appId: 'stranger' }), order, '1002', 'appid');
  });

  it('a wrong appkey -> 401 1003 naming appkey, even with the body signed with that wrong key', async () => {
    const order = validOrder();
    await expectUnauthorised(await client.v2(order, { appKey: 'auth-appkey-5f2c9b' }), order, '1003', 'appkey');
    await expectUnauthorised(await client.v2(order, { appKey: 'short' }), order, '1003', 'appkey');
  });
});

describe('bodysign', () => {
  it('a malformed signature -> 401 1004 naming bodysign', async () => {
    const order = validOrder();
    await expectUnauthorised(await client.v2(order, { headers: { bodysign: 'deadbeef' } }), order, '1004', 'bodysign');
    await expectUnauthorised(
      await client.v2(order, { headers: { bodysign: '0'.repeat(64) } }),
      order,
      '1004',
      'bodysign',
    );
  });

  it('a valid signature of a DIFFERENT body -> 401 1004', async () => {
    const order = validOrder();
    const other = JSON.stringify({ ...order, amount: Number(order.amount) + 1 });
    await expectUnauthorised(await client.v2(order, { signOver: other }), order, '1004', 'bodysign');
  });

  it('signs the exact bytes: the same JSON re-serialised with other spacing is refused', async () => {
    const order = validOrder();
    const sent = JSON.stringify(order, null, 2);
    await expectUnauthorised(await client.v2(sent, { signOver: JSON.stringify(order) }), order, '1004', 'bodysign');
    // …and accepted when the signature covers the bytes actually sent.
    expect((await client.v2(sent)).status).toBe(200);
  });

  it('the body is signed as UTF-8 bytes (non-ASCII item name)', async () => {
    const res = await client.v2(validOrder({ item_name: 'Nasi Uduk Betawi ☕' }));
    expect(res.status, res.text).toBe(200);
  });

  it('a signature keyed with something other than the appkey -> 401 1004', async () => {
    const order = validOrder();
    await expectUnauthorised(await client.v2(order, { signKey: 'not-the-appkey' }), order, '1004', 'bodysign');
  });

  it('a base64 signature is refused by the hex profile', async () => {
    const order = validOrder();
    await expectUnauthorised(await client.v2(order, { encoding: 'base64' }), order, '1004', 'bodysign');
  });
});

describe('the separate-secret, base64 signing profile', () => {
  const post = (order: OrderBody, signKey: string, encoding: 'hex' | 'base64', appKey = APP.appKey) =>
    signedPost(b64.sandbox.url, '/api/transaction', order, { appId: APP.appId, appKey, signKey, encoding });

  it('accepts a base64 HMAC keyed with the secret', async () => {
    const order = validOrder();
    const res = await post(order, SECRET, 'base64');
    expect(res.status, res.text).toBe(200);
    expect(b64.sandbox.orders.get(str(order.merchant_transaction_id))).toBeDefined();
  });

  it('refuses an appkey-keyed hex signature (the default profile) with 1004', async () => {
    const order = validOrder();
    await expectUnauthorised(await post(order, APP.appKey, 'hex'), order, '1004', 'bodysign', b64.sandbox);
  });

  it('refuses a secret-keyed hex signature and an appkey-keyed base64 one', async () => {
    const a = validOrder();
    await expectUnauthorised(await post(a, SECRET, 'hex'), a, '1004', 'bodysign', b64.sandbox);
    const b = validOrder();
    await expectUnauthorised(await post(b, APP.appKey, 'base64'), b, '1004', 'bodysign', b64.sandbox);
  });

  it('still checks the appkey header', async () => {
    const order = validOrder();
    await expectUnauthorised(await post(order, SECRET, 'base64', 'wrong-appkey'), order, '1003', 'appkey', b64.sandbox);
  });

  it('the signing recipe matches the RFC 4231 HMAC-SHA256 vector, hex and base64', () => {
    const hex = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
    expect(signBody('what do ya want for nothing?', 'Jefe', 'hex')).toBe(hex);
    expect(signBody('what do ya want for nothing?', 'Jefe', 'base64')).toBe(Buffer.from(hex, 'hex').toString('base64'));
  });
});
