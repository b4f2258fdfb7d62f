// The callback listener (docs/orders.md, "How Loket learns "paid"", (1)) against real parts: the order log in a
// SQLite file, the embedded sandbox started by openLoket, and real HTTP on 127.0.0.1. Vectors are sent by
// hand, signed with our own signBody, and then end to end from the sandbox's own callback dispatcher.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySecretStore } from '../../src-main/adapters/env-secret-store';
import { DEFAULT_SETTINGS } from '../../src-main/common/settings';
import type { Order, OrderEvent } from '../../src-main/common/order';
import { DEFAULT_SIGNING_PROFILE, signBody } from '../../src-main/core/bodysign';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { startCallbackListener, type CallbackListener } from '../../src-main/core/confirmation/callback-listener';
import { CallbackReceipts } from '../../src-main/core/confirmation/callback-receipts';
import { GatewayClient } from '../../src-main/core/gateway/client';
import { attention } from '../../src-main/core/reports/attention';
import { OrderLog } from '../../src-main/core/orders/order-log';
import { OrderService } from '../../src-main/core/payments/order-service';
import { systemClock } from '../../src-main/core/ports';
import { openDatabase, type Database } from '../../src-main/db/open';
import { openLoket, type Loket } from '../../src-main/runtime';
import { SANDBOX_DEFAULTS, startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { waitUntil } from './helpers/sandbox-client';

const KEY = SANDBOX_DEFAULTS.appKey;

let dir: string;
let loket: Loket;
let listener: CallbackListener;
const reported: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loket-callbacks-'));
  loket = await openLoket({ dataDir: dir, env: {} });
  listener = await startCallbackListener({
    host: '127.0.0.1',
    port: 0,
    path: '/loket/callback',
    appId: loket.client.config.appId,
    key: KEY,
    encoding: 'hex',
    orders: loket.orders,
    log: loket.log,
    receipts: loket.receipts,
    report: (line) => reported.push(line),
  });
});

afterAll(async () => {
  await listener?.close();
  await loket?.close();
  rmSync(dir, { recursive: true, force: true });
  // No line the listener reports may carry the key it verifies with.
  for (const line of reported) expect(line).not.toContain(KEY);
});

/** A real order at the embedded sandbox, created without notification_url: only our hand vectors reach it. */
async function newOrder(amount = 25_000): Promise<Order> {
  const outcome = await loket.orders.create(
    { methodId: 'qris_dynamic', amount, itemName: 'Kopi susu' },
    { source: 'cashier', actor: 'kasir-1' },
  );
  if (!outcome.ok) throw new Error(`order not created: ${outcome.failure.message}`);
  expect(outcome.order.state).toBe('awaiting_payment');
  return outcome.order;
}

function callbackBody(order: Order, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    merchant_transaction_id: order.id,
    transaction_id: 'SBX-HAND-0001',
    status: 'PAID',
    amount: order.amount,
    payment_method: order.methodId,
    paid_at: '2026-11-22 14:03:10',
    ...overrides,
  });
}

interface Sent {
  status: number;
  text: string;
  json: { success?: unknown; retcode?: unknown; message?: unknown };
}

/** POSTs the bytes as they are; headers default to a valid appid and a valid hex signature of those bytes. */
async function post(
  body: string,
  headers: Record<string, string | null> = {},
  init: { method?: string; url?: string } = {},
): Promise<Sent> {
  const all: Record<string, string> = {
    'content-type': 'application/json',
    appid: loket.client.config.appId,
    bodysign: signBody(body, KEY, 'hex'),
  };
  for (const [k, v] of Object.entries(headers)) {
    if (v === null) delete all[k];
    else all[k] = v;
  }
  const res = await fetch(init.url ?? listener.url, {
    method: init.method ?? 'POST',
    headers: all,
    ...(init.method === 'GET' ? {} : { body }),
  });
  const text = await res.text();
  let json: Sent['json'] = {};
  try {
    json = JSON.parse(text) as Sent['json'];
  } catch {
    // The assertions on status and text say what went wrong.
  }
  return { status: res.status, text, json };
}

const stateChanges = (id: string, source?: string): OrderEvent[] =>
  loket.log.events(id).filter((e) => e.type === 'state_changed' && (source === undefined || e.source === source));

describe('callback vectors sent by hand', () => {
  it('a valid PAID callback marks the order paid with exactly one callback event', async () => {
    const order = await newOrder();
    const res = await post(callbackBody(order));
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ success: true, retcode: '0000' });
    expect(res.json.message).toMatch(/paid/);

    const after = loket.log.get(order.id)!;
    expect(after.state).toBe('paid');
    expect(after.paidAt).toBeDefined();
    // A QRIS order learns the gateway's transaction id from the callback (its create answer had none).
    expect(after.gatewayTransactionId).toBe('SBX-HAND-0001');
    const events = stateChanges(order.id, 'callback');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ from: 'awaiting_payment', to: 'paid', source: 'callback' });
    expect(events[0]!.payload).toMatchObject({
      callback: { merchant_transaction_id: order.id, status: 'PAID', amount: order.amount },
    });
  });

  it('EXPIRED and FAILED move an awaiting order forward too', async () => {
    const a = await newOrder();
    const b = await newOrder();
    expect((await post(callbackBody(a, { status: 'EXPIRED', paid_at: null }))).status).toBe(200);
    expect((await post(callbackBody(b, { status: 'FAILED', paid_at: null }))).status).toBe(200);
    expect(loket.log.get(a.id)!.state).toBe('expired');
    expect(loket.log.get(b.id)!.state).toBe('failed');
  });

  it('upper-case hex is accepted, as the sandbox accepts it', async () => {
    const order = await newOrder();
    const body = callbackBody(order);
    const res = await post(body, { bodysign: signBody(body, KEY, 'hex').toUpperCase() });
    expect(res.status, res.text).toBe(200);
    expect(loket.log.get(order.id)!.state).toBe('paid');
  });

  it('a bad signature is 401 and changes nothing; the answer never shows the expected signature', async () => {
    const order = await newOrder();
    const before = loket.log.events(order.id);
    const body = callbackBody(order);
    const expected = signBody(body, KEY, 'hex');

    const wrongKey = await post(body, { bodysign: signBody(body, 'not-the-appkey', 'hex') });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.json).toMatchObject({ success: false, retcode: '1004' });
    expect(wrongKey.json.message).toMatch(/bodysign/);
    // A valid signature of other bytes: the body was tampered with after signing.
    const tampered = await post(body.replace(`"amount":${order.amount}`, `"amount":${order.amount} `), {
      bodysign: expected,
    });
    expect(tampered.status).toBe(401);

    for (const res of [wrongKey, tampered]) {
      expect(res.text).not.toContain(expected);
      expect(res.text).not.toContain(KEY);
    }
    expect(loket.log.get(order.id)!.state).toBe('awaiting_payment');
    expect(loket.log.events(order.id)).toEqual(before);
  });

  it('a signature of the wrong length (truncated, or base64 where hex is expected) is 401', async () => {
    const order = await newOrder();
    const body = callbackBody(order);
    const hex = signBody(body, KEY, 'hex');
    for (const bodysign of [hex.slice(0, -1), hex.slice(0, 32), hex + '00', signBody(body, KEY, 'base64'), 'x']) {
      const res = await post(body, { bodysign });
      expect(res.status, bodysign).toBe(401);
      expect(res.json.retcode).toBe('1004');
    }
    expect(loket.log.get(order.id)!.state).toBe('awaiting_payment');
  });

  it('missing or empty headers, or another appid, are 401', async () => {
    const order = await newOrder();
    const body = callbackBody(order);
    const cases: [Record<string, string | null>, string][] = [
      [{ bodysign: null }, '1001'],
      [{ appid: null }, '1001'],
      [{ appid: null, bodysign: null }, '1001'],
      [{ bodysign: '' }, '1001'],
      [{ appid: 'someone-else' }, '1002'],
    ];
    for (const [headers, retcode] of cases) {
      const res = await post(body, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.json.retcode).toBe(retcode);
    }
    expect(loket.log.get(order.id)!.state).toBe('awaiting_payment');
  });

  it('a replay of the exact same body answers 200 and changes nothing more', async () => {
    const order = await newOrder();
    const body = callbackBody(order);
    expect((await post(body)).status).toBe(200);
    const events = loket.log.events(order.id);
    const again = await post(body);
    const third = await post(body);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ success: true, retcode: '0000' });
    expect(again.json.message).toMatch(/already processed/);
    expect(third.status).toBe(200);
    expect(loket.log.events(order.id)).toEqual(events);
    expect(stateChanges(order.id, 'callback')).toHaveLength(1);
  });

  it('a failure after the receipt is recorded rolls the receipt back too: the retry applies, not a replay', async () => {
    const order = await newOrder();
    const body = callbackBody(order);
    // On the log's own connection, so it fires inside the listener's transaction, after the receipt.
    loket.db.exec(`CREATE TEMP TRIGGER fail_paid BEFORE INSERT ON order_events
      WHEN NEW.order_id = '${order.id}' AND NEW.to_state = 'paid' BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`);
    try {
      const failed = await post(body);
      expect(failed.status).toBe(500);
      expect(failed.text).not.toContain('disk on fire');
    } finally {
      loket.db.exec('DROP TRIGGER temp.fail_paid');
    }
    expect(loket.log.get(order.id)!.state).toBe('awaiting_payment');
    const receipts = loket.db.prepare('SELECT COUNT(*) FROM callback_receipts WHERE order_id = ?').pluck();
    expect(receipts.get(order.id)).toBe(0);

    const retry = await post(body);
    expect(retry.status).toBe(200);
    expect(retry.json.message).toBe(`order ${order.id} is now paid`);
    expect(receipts.get(order.id)).toBe(1);
    expect(stateChanges(order.id, 'callback')).toHaveLength(1);
  });

  it('receipts on another connection than the log are refused with a 500 before anything is written', async () => {
    const other = openDatabase(loket.db.name);
    const elsewhere = await startCallbackListener({
      port: 0,
      path: '/loket/callback',
      appId: loket.client.config.appId,
      key: KEY,
      encoding: 'hex',
      orders: loket.orders,
      log: loket.log,
      receipts: new CallbackReceipts(other),
      report: (line) => reported.push(line),
    });
    try {
      const order = await newOrder();
      const res = await post(callbackBody(order), {}, { url: elsewhere.url });
      expect(res.status).toBe(500);
      expect(loket.log.get(order.id)!.state).toBe('awaiting_payment');
      expect(loket.db.prepare('SELECT COUNT(*) FROM callback_receipts WHERE order_id = ?').pluck().get(order.id)).toBe(
        0,
      );
      expect(reported.some((l) => l.includes("not on the order log's connection"))).toBe(true);
    } finally {
      await elsewhere.close();
      other.close();
    }
  });

  it('a repeat of an applied status in a different body is a no-op', async () => {
    const order = await newOrder();
    expect((await post(callbackBody(order))).status).toBe(200);
    const events = loket.log.events(order.id);
    const res = await post(callbackBody(order, { paid_at: '2026-11-22 14:03:11' }));
    expect(res.status).toBe(200);
    expect(res.json.message).toMatch(/already paid/);
    expect(loket.log.events(order.id)).toEqual(events);
  });

  it('out of order: EXPIRED after PAID leaves the order paid (and notes the contradiction)', async () => {
    const order = await newOrder();
    expect((await post(callbackBody(order))).status).toBe(200);
    const res = await post(callbackBody(order, { status: 'EXPIRED', paid_at: null }));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, retcode: '0000' });
    const after = loket.log.get(order.id)!;
    expect(after.state).toBe('paid');
    expect(stateChanges(order.id)).toHaveLength(2); // creating → awaiting_payment → paid, nothing after
    expect(stateChanges(order.id).at(-1)).toMatchObject({ to: 'paid', source: 'callback' });
    expect(loket.log.events(order.id).at(-1)).toMatchObject({ type: 'note', source: 'callback' });
  });

  it('late payment: PAID after a manager cancel keeps the order cancelled and flags it', async () => {
    const order = await newOrder();
    loket.orders.cancel(order.id, { source: 'manager', actor: 'mgr-ani', reason: 'customer walked away' });
    const res = await post(callbackBody(order));
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ success: true, retcode: '0000' });

    const after = loket.log.get(order.id)!;
    expect(after.state).toBe('cancelled');
    expect(after.latePayment).toBe(true);
    const late = loket.log.events(order.id).filter((e) => e.type === 'late_payment');
    expect(late).toHaveLength(1);
    expect(late[0]).toMatchObject({ source: 'callback', payload: { callback: { status: 'PAID' } } });
    // The gateway retrying the same callback does not flag it twice.
    expect((await post(callbackBody(order))).status).toBe(200);
    expect(loket.log.events(order.id).filter((e) => e.type === 'late_payment')).toHaveLength(1);
  });

  it('an amount mismatch is 409, is not applied, and is noted once however often it is retried', async () => {
    const order = await newOrder(25_000);
    const body = callbackBody(order, { amount: 2_500 });
    for (let i = 0; i < 3; i++) {
      const res = await post(body);
      expect(res.status).toBe(409);
      expect(res.json).toMatchObject({ success: false });
      expect(res.json.message).toMatch(/amount/);
    }
    expect(loket.log.get(order.id)!.state).toBe('awaiting_payment');
    const notes = loket.log.events(order.id).filter((e) => e.type === 'note');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      source: 'callback',
      payload: { expectedAmount: 25_000, callback: { amount: 2_500 } },
    });
    // Not recorded as a receipt: the right callback for the same order still applies afterwards.
    expect((await post(callbackBody(order))).status).toBe(200);
    expect(loket.log.get(order.id)!.state).toBe('paid');
  });

  it('malformed JSON and wrong field types are 400 naming the field, and change nothing', async () => {
    const order = await newOrder();
    const cases: [string, RegExp][] = [
      ['{"merchant_transaction_id":', /^body: is not valid JSON/],
      ['[1,2,3]', /^body: must be a JSON object/],
      ['"PAID"', /^body: must be a JSON object/],
      [callbackBody(order, { amount: String(order.amount) }), /^amount: must be a JSON whole number/],
      [callbackBody(order, { amount: 1.5 }), /^amount: must be a whole number/],
      [callbackBody(order, { amount: -25_000 }), /^amount: must be positive/],
      [callbackBody(order, { amount: undefined }), /^amount: is required/],
      [callbackBody(order, { status: 'SETTLED' }), /^status: must be one of PAID, EXPIRED, FAILED/],
      [callbackBody(order, { status: 'paid' }), /^status: /],
      [callbackBody(order, { merchant_transaction_id: 42 }), /^merchant_transaction_id: must be a string/],
      [callbackBody(order, { merchant_transaction_id: undefined }), /^merchant_transaction_id: is required/],
      [
        callbackBody(order, { merchant_transaction_id: 'x'.repeat(37) }),
        /^merchant_transaction_id: must be at most 36/,
      ],
      [callbackBody(order, { transaction_id: 7 }), /^transaction_id: must be a string/],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expect(res.status, body).toBe(400);
      expect(res.json.success).toBe(false);
      expect(String(res.json.message), body).toMatch(message);
    }
    expect(loket.log.get(order.id)!.state).toBe('awaiting_payment');
    expect(stateChanges(order.id)).toHaveLength(1);
  });

  it('a body with a key twice is 400 (the strict reader), whichever of the two values would have won', async () => {
    const order = await newOrder();
    // JSON.parse keeps the last: this body would read as PAID for the real amount.
    const twice = `{"merchant_transaction_id":${JSON.stringify(order.id)},"status":"PAID","amount":1,"amount":${order.amount}}`;
    const res = await post(twice);
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ success: false, retcode: '2001' });
    expect(String(res.json.message)).toMatch(/^body: has the key "amount" twice/);
    expect(loket.log.get(order.id)!.state).toBe('awaiting_payment');
  });

  it('a signed body that is not sent as JSON (another content type, or none) is 415 and changes nothing', async () => {
    const order = await newOrder();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', null]) {
      const res = await post(callbackBody(order), { 'content-type': type });
      expect(res.status, String(type)).toBe(415);
      expect(res.json).toMatchObject({ success: false, retcode: '2002' });
      expect(res.json.message).toBe('header content-type: must be application/json');
    }
    expect(loket.log.get(order.id)!.state).toBe('awaiting_payment');
    // With a charset parameter it is JSON all the same.
    expect((await post(callbackBody(order), { 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
    expect(loket.log.get(order.id)!.state).toBe('paid');
  });

  it('a signed PAID naming another payment method is applied, and is an attention item (a mismatch)', async () => {
    const order = await newOrder();
    const res = await post(callbackBody(order, { payment_method: 'ewallet_ovo' }));
    expect(res.status, res.text).toBe(200);
    expect(loket.log.get(order.id)!.state).toBe('paid');
    const items = attention(loket.db, loket.log.clock.now()).filter((i) => i.orderId === order.id);
    expect(items).toMatchObject([{ kind: 'mismatch', actions: ['check', 'acknowledge'] }]);
    expect(items[0]!.summary).toMatch(/ewallet_ovo/);
    // The gateway retrying it adds nothing (a replay).
    expect((await post(callbackBody(order, { payment_method: 'ewallet_ovo' }))).status).toBe(200);
    const notes = loket.log.events(order.id).filter((e) => (e.payload as { mismatch?: unknown })?.mismatch);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.payload).toMatchObject({
      mismatch: {
        via: 'callback',
        fields: ['payment_method'],
        applied: true,
        reported: { payment_method: 'ewallet_ovo' },
      },
    });
  });

  it('a signed callback that echoes the key keeps none of it in the order history', async () => {
    const order = await newOrder();
    const res = await post(callbackBody(order, { transaction_id: `tx-${KEY}` }));
    expect(res.status, res.text).toBe(200);
    expect(loket.log.get(order.id)!.state).toBe('paid');
    expect(JSON.stringify(loket.log.events(order.id))).not.toContain(KEY);
    expect(JSON.stringify(loket.log.get(order.id))).not.toContain(KEY);
  });

  it("the gateway's EXPIRED for an order Loket cancelled is recorded, and is no attention item", async () => {
    const order = await newOrder();
    loket.orders.cancel(order.id, { source: 'cashier', actor: 'kasir-1', reason: 'customer left' });
    const res = await post(callbackBody(order, { status: 'EXPIRED', paid_at: null }));
    expect(res.status, res.text).toBe(200);
    expect(res.json.message).toMatch(/cancelled in Loket/);
    expect(loket.log.get(order.id)).toMatchObject({ state: 'cancelled', latePayment: false });
    expect(loket.log.events(order.id).at(-1)).toMatchObject({
      type: 'note',
      source: 'callback',
      payload: { gatewayFinal: 'EXPIRED' },
    });
    expect(attention(loket.db, loket.log.clock.now()).filter((i) => i.orderId === order.id)).toEqual([]);
    expect(loket.log.hasGatewayWord(order.id)).toBe(true);
  });

  it('an oversized body is 413, before anything is verified', async () => {
    const order = await newOrder();
    const body = callbackBody(order, { padding: 'x'.repeat(20 * 1024) });
    const res = await post(body);
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ success: false, retcode: '2003' });
    expect(loket.log.get(order.id)!.state).toBe('awaiting_payment');
  });

  it('an unknown order is 404 every time (no receipt), so the gateway keeps it undelivered', async () => {
    const ghost = { id: 'T01-NO-SUCH-ORDER', amount: 10_000, methodId: 'qris_dynamic' } as Order;
    const body = callbackBody(ghost);
    for (let i = 0; i < 2; i++) {
      const res = await post(body);
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ success: false, retcode: '3001' });
    }
    expect(loket.log.get(ghost.id)).toBeUndefined();
    expect(reported.some((l) => l.includes('unknown order') && l.includes(ghost.id))).toBe(true);
  });

  it('an order still being created answers 409 so the gateway retries once it is ready', async () => {
    const id = 'T01-CREATING-0001';
    loket.log.create(
      {
        id,
        terminalId: 'T01',
        api: 'v2',
        methodId: 'qris_dynamic',
        kind: 'qris',
        amount: 5_000,
        currency: 'IDR',
        itemName: 'Teh',
        userId: 'u',
        training: true,
        requestBody: '{}',
      },
      { source: 'cashier' },
    );
    const body = callbackBody({ id, amount: 5_000, methodId: 'qris_dynamic' } as Order);
    expect((await post(body)).status).toBe(409);
    loket.log.transition(id, 'awaiting_payment', { source: 'gateway' });
    // The retry of the very same body is not a replay: it applies now.
    expect((await post(body)).status).toBe(200);
    expect(loket.log.get(id)!.state).toBe('paid');
  });

  it('only POST on the configured path is served', async () => {
    const get = await post('', {}, { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.json).toMatchObject({ success: false, retcode: '4005' });
    const elsewhere = await post('{}', {}, { url: listener.url.replace('/loket/callback', '/other') });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.json).toMatchObject({ success: false, retcode: '4004' });
    const withQuery = await post('{}', {}, { url: `${listener.url}?x=1` });
    expect(withQuery.status, 'the query string does not change the path').toBe(400);
  });

  it('survives garbage on the socket and keeps serving', async () => {
    const { port } = new URL(listener.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end('NOT HTTP AT ALL\r\n\r\n'));
      socket.on('data', () => undefined);
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    const order = await newOrder();
    expect((await post(callbackBody(order))).status).toBe(200);
  });
});

describe('end to end: the sandbox calls the listener back', () => {
  it('paying on the sandbox marks the order paid through source callback', async () => {
    const orders = new OrderService(loket.log, loket.client, systemClock, {
      terminalId: 'T01',
      training: true,
      gatewayTimeZone: 'Asia/Jakarta',
      fallbackTtlSeconds: DEFAULT_SETTINGS.fallbackTtlSeconds,
      notificationUrl: listener.url,
    });
    const outcome = await orders.create(
      { methodId: 'va_bni', amount: 150_000, itemName: 'Beras 10 kg' },
      { source: 'cashier', actor: 'kasir-1' },
    );
    expect(outcome.ok).toBe(true);
    const id = outcome.order!.id;

    const pay = await fetch(`${loket.sandbox!.url}/sandbox/orders/${encodeURIComponent(id)}/pay`, { method: 'POST' });
    expect(pay.status).toBe(200);
    await pay.arrayBuffer();

    expect(await waitUntil(() => loket.log.get(id)!.state === 'paid', 5000)).toBe(true);
    await loket.sandbox!.callbacks.idle();
    const events = stateChanges(id, 'callback');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ from: 'awaiting_payment', to: 'paid' });
    const attempts = loket.sandbox!.callbacks.attempts.filter((a) => a.merchant_transaction_id === id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ delivered: true, status: 200 });
  });
});

describe('end to end: the listener is down at first', () => {
  let sandbox: SandboxHandle;
  let db: Database;
  let dir2: string;

  beforeAll(async () => {
    dir2 = mkdtempSync(join(tmpdir(), 'loket-callbacks-retry-'));
    db = openDatabase(join(dir2, 'loket.db'));
    sandbox = await startSandbox({ port: 0, callbacks: { baseDelayMs: 50, maxDelayMs: 200, maxAttempts: 20 } });
  });
  afterAll(async () => {
    await sandbox?.close();
    db?.close();
    rmSync(dir2, { recursive: true, force: true });
  });

  it("the sandbox's retried callback applies exactly once when the listener comes up", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/loket/callback`;
    const log = new OrderLog(db);
    const client = new GatewayClient(
      {
        baseUrl: sandbox.url,
        appId: sandbox.appId,
        signing: DEFAULT_SIGNING_PROFILE,
        timeoutMs: 5000,
        inquiryPath: '/api/status',
      },
      new MemorySecretStore('test', { appkey: KEY }),
      loadPaymentCatalogue(),
    );
    const orders = new OrderService(log, client, systemClock, {
      terminalId: 'T02',
      training: true,
      gatewayTimeZone: 'Asia/Jakarta',
      fallbackTtlSeconds: DEFAULT_SETTINGS.fallbackTtlSeconds,
      notificationUrl: url,
    });
    const outcome = await orders.create(
      { methodId: 'qris_dynamic', amount: 42_000, itemName: 'Roti bakar' },
      { source: 'cashier' },
    );
    expect(outcome.ok).toBe(true);
    const id = outcome.order!.id;

    sandbox.settle(id, 'PAID');
    const mine = () => sandbox.callbacks.attempts.filter((a) => a.merchant_transaction_id === id);
    expect(await waitUntil(() => mine().length >= 2, 3000)).toBe(true);
    expect(mine().every((a) => !a.delivered)).toBe(true);
    expect(log.get(id)!.state).toBe('awaiting_payment');

    const late = await startCallbackListener({
      port,
      path: '/loket/callback',
      appId: sandbox.appId,
      key: KEY,
      encoding: 'hex',
      orders,
      log,
    });
    try {
      expect(late.url).toBe(url);
      expect(await waitUntil(() => log.get(id)!.state === 'paid', 5000)).toBe(true);
      await sandbox.callbacks.idle();
      const attempts = mine();
      expect(attempts.filter((a) => a.delivered)).toHaveLength(1);
      expect(attempts.at(-1)!.delivered).toBe(true);
      expect(attempts.length).toBeGreaterThanOrEqual(3);
      const events = log.events(id).filter((e) => e.type === 'state_changed' && e.source === 'callback');
      expect(events).toHaveLength(1);
    } finally {
      await late.close();
    }
  });
});

/** A port nothing listens on: bound once by us, then released, so connecting to it is refused. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
