import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { Loket } from '../../src-main/runtime';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import type { FaultSettings } from '../../src-main/sandbox/faults';
import { loketAgainst, tempDir } from './helpers/loket';
import { waitFor } from './helpers/wait-for';

let sandbox: SandboxHandle;
let dir: ReturnType<typeof tempDir>;
let loket: Loket;

const fault = (f: Partial<FaultSettings>): FaultSettings => ({
  latency_ms: 0,
  http_status: null,
  drop_before_store: false,
  drop_after_store: false,
  malformed_json: false,
  count: 1,
  ...f,
});
const qris = { methodId: 'qris_dynamic', amount: 25000, itemName: 'Kopi susu' };
const cashier = { source: 'cashier' as const, actor: 'kasir-1' };

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  sandbox.faults.clear();
  dir = tempDir();
  loket = await loketAgainst(sandbox, dir.path);
});
afterEach(async () => {
  await loket.close();
  dir.remove();
});

function states(id: string) {
  return loket.log.events(id).map((e) => (e.type === 'state_changed' ? e.to : e.type));
}

describe('OrderService.create', () => {
  it('logs the order as creating before the request leaves', async () => {
    sandbox.faults.set(fault({ latency_ms: 400 }));
    const atGatewayBefore = sandbox.orders.all().length;
    const pending = loket.orders.create(qris, cashier);
    // Once the sandbox has stored the order, the request has left, and its answer is held back (latency).
    await waitFor(() => sandbox.orders.all().length > atGatewayBefore, 'the request to reach the sandbox');
    // A second connection sees the committed row while the request is in flight.
    const other = new Database(join(dir.path, 'loket.db'), { readonly: true });
    try {
      const rows = other.prepare('SELECT id, state, delivery, request_body FROM orders').all() as {
        id: string;
        state: string;
        delivery: string;
        request_body: string;
      }[];
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ state: 'creating', delivery: 'pending' });
      expect(JSON.parse(rows[0]!.request_body).merchant_transaction_id).toBe(rows[0]!.id);
    } finally {
      other.close();
    }
    const outcome = await pending;
    expect(outcome.ok && outcome.order.state).toBe('awaiting_payment');
  });

  it('accepted: awaiting_payment with the instruction, the gateway ids and an expiry; one event per change', async () => {
    const outcome = await loket.orders.create({ methodId: 'va_bni', amount: 150000, itemName: 'Beras 10 kg' }, cashier);
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failure));
    const order = outcome.order;
    expect(order).toMatchObject({ state: 'awaiting_payment', delivery: 'answered', kind: 'va_bank', amount: 150000 });
    expect(order.id).toMatch(/^T01-\d{8}-\d{9}-[0-9A-Z]{4}$/);
    expect(order.id.length).toBeLessThanOrEqual(36);
    const atGateway = sandbox.orders.get(order.id)!;
    expect(order.gatewayTransactionId).toBe(atGateway.transactionId);
    expect(order.instruction).toMatchObject({ type: 'virtual_account', va: atGateway.payment.va });
    // expired_date is Jakarta wall time; stored as the same instant in UTC (second precision).
    expect(Math.abs(Date.parse(order.expiresAt!) - atGateway.expiresAt.getTime())).toBeLessThan(1000);
    expect(states(order.id)).toEqual(['created', 'awaiting_payment']);
    expect(loket.log.events(order.id).map((e) => e.source)).toEqual(['cashier', 'gateway']);
  });

  it("a phone: optional for an SMS reply to a short code (the interface's rule), asked where a number is used (Loket's)", async () => {
    const sms = await loket.orders.create({ methodId: 'airtime_telkomsel', amount: 10000, itemName: 'Pulsa' }, cashier);
    expect(sms).toMatchObject({ ok: true, order: { state: 'awaiting_payment', instruction: { type: 'sms_reply' } } });
    // Plain carrier billing charges the number; an SMS reply without a short code is sent to it.
    for (const methodId of ['airtime_tri', 'airtime_xl']) {
      const refused = await loket.orders.create({ methodId, amount: 10000, itemName: 'Pulsa' }, cashier);
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.failure.class).toBe('invalid_input');
        expect(refused.order).toBeUndefined();
        if (refused.failure.class === 'invalid_input')
          expect(refused.failure.issues).toEqual([expect.objectContaining({ field: 'user_mdn', rule: 'required' })]);
      }
    }
    const xl = await loket.orders.create(
      { methodId: 'airtime_xl', amount: 10000, itemName: 'Pulsa', phone: '081798765432' },
      cashier,
    );
    expect(xl).toMatchObject({ ok: true, order: { phone: '081798765432', instruction: { type: 'sms_reply' } } });
  });

  it('an SMS reply without a short code needs the phone even where a catalogue saved before says it does not', async () => {
    const stale = loket.methods.map((m) => (m.id === 'airtime_xl' ? { ...m, requiresPhone: false } : m));
    loket.setMethods(stale);
    const refused = await loket.orders.create({ methodId: 'airtime_xl', amount: 10000, itemName: 'Pulsa' }, cashier);
    expect(refused.ok ? null : refused.failure).toMatchObject({
      class: 'invalid_input',
      message: "user_mdn: the customer's phone number is needed for airtime_xl (the SMS to reply to is sent to it)",
    });
  });

  it('invalid input: nothing is logged and nothing is sent', async () => {
    const before = sandbox.orders.all().length;
    const outcome = await loket.orders.create({ methodId: 'va_bca', amount: 150000, itemName: 'Beras' }, cashier);
    expect(outcome.ok ? null : outcome.failure).toMatchObject({
      class: 'invalid_input',
      message: 'customer_name: is required for va_bca',
    });
    expect(loket.log.list({})).toHaveLength(0);
    expect(sandbox.orders.all().length).toBe(before);
  });

  it('rejected (a 4xx with a retcode): the retcode, message and HTTP status are kept; final', async () => {
    sandbox.faults.set(fault({ http_status: 422 }));
    const outcome = await loket.orders.create(qris, cashier);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.failure.class).toBe('rejected');
    expect(outcome.order).toMatchObject({
      state: 'rejected',
      delivery: 'answered',
      rejection: { retcode: '5003', httpStatus: 422 },
    });
  });

  it('an outage (HTTP 5xx) is not a refusal: unknown, safe to send again, and the retry with the same id goes through', async () => {
    sandbox.faults.set(fault({ http_status: 503 }));
    const outcome = await loket.orders.create(qris, cashier);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failure).toMatchObject({ class: 'outage', httpStatus: 503, retcode: '5003' });
    // Not taken there: as good as never sent (it holds no till; the same order may be sent again).
    expect(outcome.order).toMatchObject({ state: 'unknown', delivery: 'not_sent' });
    const id = outcome.order!.id;
    expect(sandbox.orders.get(id)).toBeUndefined();
    const retried = await loket.orders.resolve(id, cashier);
    expect(retried).toMatchObject({ ok: true, order: { id, state: 'awaiting_payment' } });
    expect(sandbox.orders.all().filter((o) => o.request.merchant_transaction_id === id)).toHaveLength(1);
  });

  it('connection dropped after the gateway stored it: the quick inquiry finds it at once, with its QRIS payment data', async () => {
    sandbox.faults.set(fault({ drop_after_store: true }));
    const outcome = await loket.orders.create(qris, cashier);
    expect(outcome).toMatchObject({ ok: true, order: { state: 'awaiting_payment', instruction: { type: 'qr' } } });
    const id = outcome.order!.id;
    expect(outcome.order!.instruction).toMatchObject({ qrString: sandbox.orders.get(id)!.payment.qrString });
    expect(outcome.order!.expiresAt).toBeDefined();
    // Found, never sent twice.
    expect(sandbox.orders.all().filter((o) => o.request.merchant_transaction_id === id)).toHaveLength(1);
  });

  it('no answer, and the gateway does not have the order: an outage, nothing charged; Retry sends the same id', async () => {
    sandbox.faults.set(fault({ drop_before_store: true, count: 1 }));
    const outcome = await loket.orders.create(qris, cashier);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failure.class).toBe('outage');
    expect(outcome.failure.message).toMatch(/does not have the order: nothing was charged/);
    const id = outcome.order!.id;
    // The inquiry says the gateway never stored it: as good as never sent.
    expect(outcome.order).toMatchObject({ state: 'unknown', delivery: 'not_sent' });
    expect(sandbox.orders.get(id)).toBeUndefined();
    const retried = await loket.orders.resolve(id, cashier);
    expect(retried).toMatchObject({ ok: true, order: { id, state: 'awaiting_payment' } });
  });

  it('malformed answer: unknown with the raw body kept; the order paid meanwhile resolves to paid', async () => {
    sandbox.faults.set(fault({ malformed_json: true }));
    const outcome = await loket.orders.create(qris, cashier);
    expect(outcome.order).toMatchObject({ state: 'unknown', delivery: 'answered' });
    const id = outcome.order!.id;
    expect(loket.log.responseBody(id)).toContain('Transaction cre');
    sandbox.settle(id, 'PAID');
    await loket.orders.reconcile({ source: 'reconcile' });
    expect(loket.log.get(id)).toMatchObject({ state: 'paid' });
  });

  it('not sent (gateway down): unknown/not_sent; resend with the same id and bytes once it is back', async () => {
    const down = await startSandbox({ port: 0 });
    const url = down.url;
    await down.close();
    const local = tempDir();
    const offline = await loketAgainst({ ...sandbox, url } as SandboxHandle, local.path, { LOKET_INQUIRY_PATH: '' });
    let id: string;
    let bytes: string;
    try {
      const outcome = await offline.orders.create(qris, cashier);
      expect(outcome.ok ? null : outcome.failure.class).toBe('not_sent');
      expect(outcome.order).toMatchObject({ state: 'unknown', delivery: 'not_sent' });
      id = outcome.order!.id;
      bytes = offline.log.requestBody(id)!;
    } finally {
      await offline.close();
    }
    // The same data folder, now pointed at a live gateway without an inquiry: reconcile re-sends.
    const back = await loketAgainst(sandbox, local.path, { LOKET_INQUIRY_PATH: '' });
    try {
      const results = await back.orders.reconcile({ source: 'reconcile' });
      expect(results[0]).toMatchObject({ id, outcome: expect.stringContaining('re-sent') });
      expect(back.log.get(id)).toMatchObject({ state: 'awaiting_payment' });
      expect(back.log.requestBody(id)).toBe(bytes);
      expect(JSON.stringify(sandbox.orders.get(id)!.request)).toBe(bytes);
    } finally {
      await back.close();
      local.remove();
    }
  });

  it('timeout: unknown within the deadline; without an inquiry a sent order is left for a manager', async () => {
    await loket.close();
    loket = await loketAgainst(sandbox, dir.path, { LOKET_TIMEOUT_MS: '300', LOKET_INQUIRY_PATH: '' });
    sandbox.faults.set(fault({ latency_ms: 1000 }));
    const outcome = await loket.orders.create(qris, cashier);
    expect(outcome.order).toMatchObject({ state: 'unknown', delivery: 'sent' });
    const results = await loket.orders.reconcile({ source: 'reconcile' });
    expect(results[0]!.outcome).toContain('left for a manager');
    expect(loket.log.get(outcome.order!.id)!.state).toBe('unknown');
    const cancelled = loket.orders.cancel(outcome.order!.id, {
      source: 'manager',
      actor: 'mgr',
      reason: 'customer left',
    });
    expect(cancelled.state).toBe('cancelled');
  });
});

describe('OrderService.resolve (the cashier\'s "check again")', () => {
  it('sent without an answer, and the quick inquiry lost too: unknown; Check again finds it with the same kind of instruction', async () => {
    sandbox.faults.set(fault({ drop_after_store: true, count: 2 }));
    const created = await loket.orders.create(qris, cashier);
    expect(created.order).toMatchObject({ state: 'unknown', delivery: 'sent' });
    if (!created.ok) expect(created.failure.class).toBe('unknown');
    const resolved = await loket.orders.resolve(created.order!.id, cashier);
    expect(resolved.ok && resolved.order.state).toBe('awaiting_payment');
    // The create answer was lost; the inquiry repeats the payment data, so a QRIS order shows a QRIS code again.
    const stored = sandbox.orders.get(created.order!.id)!;
    expect(resolved.order!.instruction).toMatchObject({ type: 'qr', qrString: stored.payment.qrString });
    expect(sandbox.orders.all().filter((o) => o.request.merchant_transaction_id === created.order!.id)).toHaveLength(1);
  });

  it('without an inquiry: re-sends; a duplicate answer keeps the outcome unknown, never a rejection', async () => {
    await loket.close();
    loket = await loketAgainst(sandbox, dir.path, { LOKET_INQUIRY_PATH: '' });
    sandbox.faults.set(fault({ drop_after_store: true }));
    const created = await loket.orders.create(qris, cashier);
    const resolved = await loket.orders.resolve(created.order!.id, cashier);
    expect(resolved.ok ? null : resolved.failure.class).toBe('unknown');
    expect(resolved.order).toMatchObject({ state: 'unknown', delivery: 'answered' });
  });
});

describe('an unexpected error while sending', () => {
  it('leaves the order unknown at once, never creating', async () => {
    await loket.close();
    const { openLoket } = await import('../../src-main/runtime');
    const failing = {
      description: 'a broken store',
      get: async () => {
        throw new Error('keychain locked');
      },
      set: async () => undefined,
      delete: async () => undefined,
    };
    loket = await openLoket({ dataDir: dir.path, env: {}, secrets: failing });
    // No gateway in settings: the embedded sandbox's own store is used, so break it through the client.
    (loket.client as unknown as { secrets: typeof failing }).secrets = failing;
    const outcome = await loket.orders.create(qris, cashier);
    expect(outcome.ok ? null : outcome.failure).toMatchObject({
      class: 'unknown',
      message: expect.stringContaining('keychain locked'),
    });
    expect(outcome.order).toMatchObject({ state: 'unknown' });
    expect(loket.log.list({ state: 'creating' })).toHaveLength(0);
  });
});

describe('gateway statuses, manual override', () => {
  it('applies forward changes only, idempotently; a payment after cancel is a flagged late payment', async () => {
    const a = await loket.orders.create(qris, cashier);
    const id = a.order!.id;
    expect(loket.orders.applyGatewayStatus(id, 'PAID', { source: 'callback' }).applied).toBe('changed');
    expect(loket.orders.applyGatewayStatus(id, 'PAID', { source: 'callback' }).applied).toBe('unchanged');
    expect(loket.orders.applyGatewayStatus(id, 'EXPIRED', { source: 'poll' }).applied).toBe('unchanged');
    expect(loket.log.get(id)!.state).toBe('paid');
    expect(states(id)).toEqual(['created', 'awaiting_payment', 'paid']);

    const b = await loket.orders.create(qris, cashier);
    loket.orders.cancel(b.order!.id, { source: 'manager', actor: 'mgr', reason: 'wrong amount' });
    const late = loket.orders.applyGatewayStatus(b.order!.id, 'PAID', { source: 'callback' });
    expect(late.applied).toBe('late_payment');
    expect(late.order).toMatchObject({ state: 'cancelled', latePayment: true });
  });

  it('manual confirmation needs a reason and keeps the actor', async () => {
    const a = await loket.orders.create(qris, cashier);
    expect(() => loket.orders.confirmPaid(a.order!.id, { source: 'manager', actor: 'mgr', reason: ' ' })).toThrow(
      /reason/,
    );
    const paid = loket.orders.confirmPaid(a.order!.id, { source: 'manager', actor: 'mgr', reason: 'seen in bank app' });
    expect(paid.state).toBe('paid');
    expect(loket.log.events(paid.id).at(-1)).toMatchObject({
      source: 'manager',
      actor: 'mgr',
      reason: 'seen in bank app',
      to: 'paid',
    });
    expect(() => loket.orders.cancel(paid.id, { source: 'manager', actor: 'mgr', reason: 'oops' })).toThrow(
      /is paid; only an order that is unknown or awaiting_payment can become cancelled/,
    );
  });
});
