// The status inquiry's answers are checked as callbacks are (docs/orders.md, "How Loket learns paid"): an answer
// about another merchant_transaction_id, with another amount or another payment method never marks the order paid,
// whichever path asked (polling, reconcile, a manager's check); it is an attention item, noted once. Real parts: a
// misbehaving gateway of this test's own on 127.0.0.1:0 (it takes orders, and answers the inquiry as scripted),
// the real GatewayClient, status poller and attention queue, SQLite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { MemorySecretStore } from '../../src-main/adapters/env-secret-store';
import { DEFAULT_SETTINGS } from '../../src-main/common/settings';
import type { Order } from '../../src-main/common/order';
import { DEFAULT_SIGNING_PROFILE } from '../../src-main/core/bodysign';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { pollUntilSettled } from '../../src-main/core/confirmation/status-poller';
import { GatewayClient } from '../../src-main/core/gateway/client';
import { OrderLog } from '../../src-main/core/orders/order-log';
import { OrderService } from '../../src-main/core/payments/order-service';
import { attention, resolveAttention } from '../../src-main/core/reports/attention';
import { openDatabase, type Database } from '../../src-main/db/open';
import { FakeClock } from './helpers/fake-clock';
import { tempDir } from './helpers/loket';

const METHODS = loadPaymentCatalogue();
const KEY = 'inquiry-appkey-0001';

/** How the gateway answers a status inquiry about `id`: the `data` it sends (the order as it has it, by default). */
let inquiryData: (id: string, order: { amount: number; method: string }) => Record<string, unknown> = (id, o) => ({
  merchant_transaction_id: id,
  status: 'PENDING',
  amount: o.amount,
  payment_method: o.method,
});
/** What the gateway answers a create call: success with a QR, or nothing (the connection dropped). */
let dropCreate = false;
const stored = new Map<string, { amount: number; method: string }>();
let inquiries = 0;

let server: Server;
let url = '';
const dir = tempDir('loket-inquiry-');
let db: Database;
let log: OrderLog;
let orders: OrderService;
let client: GatewayClient;
const clock = new FakeClock();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const id = String(body.merchant_transaction_id);
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.url === '/api/status') {
        inquiries++;
        const order = stored.get(id);
        if (!order) return json(404, { success: false, retcode: '3001', message: 'no such order' });
        return json(200, { success: true, retcode: '0000', message: 'ok', data: inquiryData(id, order) });
      }
      stored.set(id, { amount: Number(body.amount), method: String(body.payment_method) });
      if (dropCreate) return res.destroy();
      return json(200, { success: true, retcode: '0000', message: 'ok', qrString: '00020101021226', qrisUrl: 'x' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  db = openDatabase(join(dir.path, 'loket.db'));
  log = new OrderLog(db, clock);
  client = new GatewayClient(
    { baseUrl: url, appId: 'inq', signing: DEFAULT_SIGNING_PROFILE, timeoutMs: 5000, inquiryPath: '/api/status' },
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
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  db.close();
  dir.remove();
});

async function waiting(amount = 25_000): Promise<Order> {
  dropCreate = false;
  const outcome = await orders.create({ methodId: 'qris_dynamic', amount, itemName: 'Kopi' }, { source: 'cashier' });
  if (!outcome.ok) throw new Error(outcome.failure.message);
  return outcome.order;
}

/** Polls the order for 10 rounds of the fake clock, as the app does, and returns it as polling left it. */
async function poll(order: Order) {
  return pollUntilSettled(order.id, {
    orders,
    log,
    client,
    initialDelayMs: 1000,
    maxDelayMs: 1000,
    deadline: new Date(clock.now().getTime() + 10_500),
    clock,
    sleep: async (ms) => void clock.advance(ms),
    random: () => 0,
  });
}

const mismatchNotes = (id: string) =>
  log.events(id).filter((e) => (e.payload as { mismatch?: unknown } | undefined)?.mismatch !== undefined);
const openItems = (id: string) => attention(db, clock.now()).filter((i) => i.orderId === id);

describe('a status answer that does not describe the order never marks it paid', () => {
  const cases: [string, (id: string, o: { amount: number; method: string }) => Record<string, unknown>][] = [
    [
      'another merchant_transaction_id',
      (id, o) => ({ merchant_transaction_id: `${id}X`, status: 'PAID', amount: o.amount }),
    ],
    ['another amount', (id) => ({ merchant_transaction_id: id, status: 'PAID', amount: 250 })],
    [
      'another method',
      (id, o) => ({ merchant_transaction_id: id, status: 'PAID', amount: o.amount, payment_method: 'va_bca' }),
    ],
    ['no id and no amount at all', () => ({ status: 'PAID' })],
  ];
  for (const [what, data] of cases) {
    it(`polling: ${what} → stays awaiting payment; one mismatch item however often it is asked`, async () => {
      const order = await waiting();
      inquiryData = data;
      const before = inquiries;
      const result = await poll(order);
      expect(inquiries - before).toBeGreaterThan(3);
      expect(result).toMatchObject({ reason: 'deadline', order: { state: 'awaiting_payment' } });
      expect(log.require(order.id).paidAt).toBeUndefined();
      expect(mismatchNotes(order.id)).toHaveLength(1);
      expect(openItems(order.id).map((i) => i.kind)).toEqual(['mismatch']);
    });
  }

  it('reconcile of an unknown order: a PAID for another amount leaves it unknown, with a mismatch item', async () => {
    dropCreate = true;
    inquiryData = (id) => ({ merchant_transaction_id: id, status: 'PAID', amount: 1 });
    const outcome = await orders.create(
      { methodId: 'qris_dynamic', amount: 30_000, itemName: 'Teh' },
      { source: 'cashier' },
    );
    const id = outcome.order!.id;
    expect(log.require(id).state).toBe('unknown');
    const results = await orders.reconcile({ source: 'reconcile' });
    expect(results.find((r) => r.id === id)?.outcome).toMatch(/does not match/);
    expect(log.require(id).state).toBe('unknown');
    expect(
      openItems(id)
        .map((i) => i.kind)
        .sort(),
    ).toEqual(['mismatch', 'unknown']);
  });

  it("a manager's check: a mismatching answer is not applied; a matching one settles it and closes the item", async () => {
    const order = await waiting(12_000);
    inquiryData = (id) => ({ merchant_transaction_id: id, status: 'PAID', amount: 99 });
    await poll(order);
    expect(openItems(order.id).map((i) => i.kind)).toEqual(['mismatch']);
    const actor = { name: 'Bu Sri' };
    const first = await resolveAttention({ log, orders, client }, order.id, 'check', { reason: 'asking again', actor });
    expect(first).toMatchObject({ kind: 'mismatch', resolved: false });
    expect(log.require(order.id).state).toBe('awaiting_payment');
    inquiryData = (id, o) => ({
      merchant_transaction_id: id,
      status: 'PAID',
      amount: o.amount,
      payment_method: o.method,
    });
    const second = await resolveAttention({ log, orders, client }, order.id, 'check', {
      reason: 'asking again',
      actor,
    });
    expect(second).toMatchObject({ kind: 'mismatch', resolved: true });
    expect(log.require(order.id).state).toBe('paid');
    expect(openItems(order.id)).toEqual([]);
  });

  it('an answer that matches the order is applied (the control)', async () => {
    const order = await waiting();
    inquiryData = (id, o) => ({
      merchant_transaction_id: id,
      status: 'PAID',
      amount: o.amount,
      payment_method: o.method,
    });
    expect((await poll(order)).order.state).toBe('paid');
    expect(mismatchNotes(order.id)).toHaveLength(0);
  });
});
