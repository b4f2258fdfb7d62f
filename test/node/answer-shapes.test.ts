// Answers of the wrong shape (docs/orders.md, "What each failure of the create call becomes"): a create answer
// that does not fit the order's kind, or whose success flag and retcode are not in the interface's form, is
// `unknown` (to be checked) — never another way to pay, never a final refusal. And a PAID for an order Loket had
// recorded as refused is a late payment: flagged, in the attention queue and in the day's figures. Real parts: a
// misbehaving gateway of this test's own on 127.0.0.1:0, the real GatewayClient and callback listener, SQLite.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { MemorySecretStore } from '../../src-main/adapters/env-secret-store';
import { DEFAULT_SETTINGS } from '../../src-main/common/settings';
import { DEFAULT_SIGNING_PROFILE, signBody } from '../../src-main/core/bodysign';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { startCallbackListener } from '../../src-main/core/confirmation/callback-listener';
import { GatewayClient } from '../../src-main/core/gateway/client';
import { OrderLog } from '../../src-main/core/orders/order-log';
import { OrderService } from '../../src-main/core/payments/order-service';
import { attention } from '../../src-main/core/reports/attention';
import { figures } from '../../src-main/core/reports/day-report';
import { openDatabase, type Database } from '../../src-main/db/open';
import { dayIn } from '../../src-main/common/gateway-time';
import { FakeClock } from './helpers/fake-clock';
import { tempDir } from './helpers/loket';

const METHODS = loadPaymentCatalogue();
const KEY = 'shapes-appkey-0001';
const APP = 'shapes-app';

/** What the gateway answers the next create call: HTTP status and the exact body. */
let next: { status: number; body: string } = { status: 200, body: '{}' };
let server: Server;
let url = '';
const dir = tempDir('loket-shapes-');
let db: Database;
let log: OrderLog;
let orders: OrderService;
const clock = new FakeClock();

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(next.status, { 'content-type': 'application/json' }).end(next.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  db = openDatabase(join(dir.path, 'loket.db'));
  log = new OrderLog(db, clock);
  const client = new GatewayClient(
    { baseUrl: url, appId: APP, signing: DEFAULT_SIGNING_PROFILE, timeoutMs: 5000, inquiryPath: null },
    new MemorySecretStore('test', { appkey: KEY }),
    METHODS,
  );
  orders = new OrderService(log, client, clock, {
    terminalId: 'T01',
    training: false,
    gatewayTimeZone: 'Asia/Jakarta',
    fallbackTtlSeconds: DEFAULT_SETTINGS.fallbackTtlSeconds,
  });
});
afterEach(() => clock.advance(1000));
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  db.close();
  dir.remove();
});

const QR = '"qrString":"00020101021226","qrisUrl":"http://127.0.0.1/q.png","back_url":"http://127.0.0.1/b"';

async function charge(body: string, methodId = 'qris_dynamic', status = 200) {
  next = { status, body };
  return orders.create(
    {
      methodId,
      amount: 30_000,
      itemName: 'Kopi',
      ...(methodId.startsWith('airtime') ? { phone: '081234567890' } : {}),
    },
    { source: 'cashier' },
  );
}

describe('a create answer that does not fit', () => {
  it('the envelope alone for a QRIS order is unknown (to be checked), not carrier billing', async () => {
    const outcome = await charge('{"success":true,"retcode":"0000"}');
    expect(outcome.ok).toBe(false);
    expect(outcome.order).toMatchObject({ state: 'unknown', delivery: 'answered' });
    expect(outcome.order!.instruction).toBeUndefined();
    if (!outcome.ok) expect(outcome.failure).toMatchObject({ class: 'malformed' });
    // The same envelope for plain carrier billing is its answer.
    expect((await charge('{"success":true,"retcode":"0000","message":"ok"}', 'airtime_tri')).order).toMatchObject({
      state: 'awaiting_payment',
      instruction: { type: 'carrier_billing' },
    });
  });

  it('a QR answer for a virtual account is unknown, not a QR to show', async () => {
    const outcome = await charge(`{"success":true,"retcode":"0000",${QR}}`, 'va_bni');
    expect(outcome.order).toMatchObject({ state: 'unknown' });
    expect(outcome.order!.instruction).toBeUndefined();
  });

  it('"success":"true" or retcode 0 (a number) with a QR string is unknown, not rejected: the gateway may have stored it', async () => {
    for (const envelope of ['"success":"true","retcode":"0000"', '"success":true,"retcode":0']) {
      const outcome = await charge(`{${envelope},${QR}}`);
      expect(outcome.order, envelope).toMatchObject({ state: 'unknown', delivery: 'answered' });
      expect(outcome.order!.rejection, envelope).toBeUndefined();
      if (!outcome.ok) expect(outcome.failure.class, envelope).toBe('malformed');
    }
  });

  it('a clear refusal (success false, a retcode) is still rejected', async () => {
    const outcome = await charge(
      '{"success":false,"retcode":"2203","message":"amount out of range"}',
      'qris_dynamic',
      422,
    );
    expect(outcome.order).toMatchObject({ state: 'rejected', rejection: { retcode: '2203' } });
  });
});

describe('a PAID for an order Loket recorded as refused', () => {
  it('is a late payment: flagged, in the attention queue and in the day figures (not in paid)', async () => {
    const refused = await charge(
      '{"success":false,"retcode":"2203","message":"amount out of range"}',
      'qris_dynamic',
      422,
    );
    const id = refused.order!.id;
    expect(refused.order!.state).toBe('rejected');
    const listener = await startCallbackListener({
      port: 0,
      path: '/cb',
      appId: APP,
      key: KEY,
      encoding: 'hex',
      orders,
      log,
    });
    try {
      const body = JSON.stringify({
        merchant_transaction_id: id,
        status: 'PAID',
        amount: 30_000,
        payment_method: 'qris_dynamic',
      });
      const res = await fetch(listener.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', appid: APP, bodysign: signBody(body, KEY, 'hex') },
        body,
      });
      expect(res.status).toBe(200);
    } finally {
      await listener.close();
    }
    expect(log.require(id)).toMatchObject({ state: 'rejected', latePayment: true });
    const items = attention(db, clock.now()).filter((i) => i.orderId === id);
    expect(items.map((i) => i.kind)).toEqual(['late_payment']);
    const day = dayIn(clock.now(), 'Asia/Jakarta');
    const f = figures(db, day, day, 'Asia/Jakarta', METHODS, []);
    expect(f.latePaid).toEqual({ count: 1, amount: 30_000 });
    expect(f.paid.count).toBe(0);
  });
});
