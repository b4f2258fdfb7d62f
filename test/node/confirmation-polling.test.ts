// The status poller (docs/orders.md, "How Loket learns paid") against real parts: a SQLite order log in
// a temp dir, the real GatewayClient, and real sandboxes on 127.0.0.1 that settle or expire the orders.
// Time is a fake clock shared by the poller, the order service and the sandbox: the poller's pauses move
// it on (so a sandbox expiry or a scheduled payment happens between two inquiries, exactly when due), and
// jitter is off, so every round falls at a known instant.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySecretStore } from '../../src-main/adapters/env-secret-store';
import { DEFAULT_SETTINGS } from '../../src-main/common/settings';
import type { Order } from '../../src-main/common/order';
import { DEFAULT_SIGNING_PROFILE } from '../../src-main/core/bodysign';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { startCallbackListener } from '../../src-main/core/confirmation/callback-listener';
import { pollDelay, pollUntilSettled, type PollOptions } from '../../src-main/core/confirmation/status-poller';
import { GatewayClient } from '../../src-main/core/gateway/client';
import { OrderLog } from '../../src-main/core/orders/order-log';
import { OrderService } from '../../src-main/core/payments/order-service';
import { openDatabase, type Database } from '../../src-main/db/open';
import { SANDBOX_DEFAULTS, startSandbox, type SandboxHandle, type SandboxOptions } from '../../src-main/sandbox/server';
import { FakeClock } from './helpers/fake-clock';
import { waitFor } from './helpers/wait-for';

const METHODS = loadPaymentCatalogue();
const KEY = SANDBOX_DEFAULTS.appKey;

interface Rig {
  sandbox: SandboxHandle;
  log: OrderLog;
  client: GatewayClient;
  orders: OrderService;
  clock: FakeClock;
  close(): Promise<void>;
}

const open: Rig[] = [];

async function rig(sandboxOptions: SandboxOptions = {}, notificationUrl?: string): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'loket-polling-'));
  const db: Database = openDatabase(join(dir, 'loket.db'));
  const clock = new FakeClock();
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, methods: METHODS, clock, ...sandboxOptions });
  const log = new OrderLog(db);
  const client = gatewayClient(sandbox, '/api/status');
  const orders = new OrderService(log, client, clock, {
    terminalId: 'T01',
    training: true,
    gatewayTimeZone: 'Asia/Jakarta',
    fallbackTtlSeconds: DEFAULT_SETTINGS.fallbackTtlSeconds,
    ...(notificationUrl ? { notificationUrl } : {}),
  });
  const r: Rig = {
    sandbox,
    log,
    client,
    orders,
    clock,
    close: async () => {
      await sandbox.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  open.push(r);
  return r;
}

function gatewayClient(sandbox: SandboxHandle, inquiryPath: string | null): GatewayClient {
  return new GatewayClient(
    { baseUrl: sandbox.url, appId: sandbox.appId, signing: DEFAULT_SIGNING_PROFILE, timeoutMs: 5000, inquiryPath },
    new MemorySecretStore('test', { appkey: KEY }),
    METHODS,
  );
}

afterEach(async () => {
  while (open.length > 0) await open.pop()!.close();
});

async function newOrder(r: Rig, methodId = 'qris_dynamic'): Promise<Order> {
  const outcome = await r.orders.create(
    { methodId, amount: 25_000, itemName: 'Es teh manis' },
    { source: 'cashier', actor: 'kasir-1' },
  );
  if (!outcome.ok) throw new Error(`order not created: ${outcome.failure.message}`);
  return outcome.order;
}

/** Pauses that move the rig's clock on instead of waiting; each is recorded in `pauses`. */
function fakeSleep(r: Rig, pauses: number[] = []): NonNullable<PollOptions['sleep']> {
  return async (ms) => {
    pauses.push(ms);
    r.clock.advance(ms);
  };
}

const base = (r: Rig, overrides: Partial<PollOptions> = {}): PollOptions => ({
  orders: r.orders,
  log: r.log,
  client: r.client,
  initialDelayMs: 40,
  maxDelayMs: 150,
  deadline: new Date(r.clock.now().getTime() + 5000),
  clock: r.clock,
  sleep: fakeSleep(r),
  // No jitter: each pause is half its step (see pollDelay), so with 40/150 ms they are 20, 40, 75, 75, …
  random: () => 0,
  ...overrides,
});

describe('pollUntilSettled against the sandbox', () => {
  it('returns paid, applied with source poll, when the sandbox settles it 300 ms in', async () => {
    const r = await rig();
    const order = await newOrder(r);
    r.clock.schedule(() => r.sandbox.settle(order.id, 'PAID'), 300);
    const start = r.clock.now().getTime();
    const result = await pollUntilSettled(order.id, base(r));
    expect(result.reason).toBe('settled');
    expect(result.order.state).toBe('paid');
    // Asked at 20, 60, 135, 210 and 285 ms (PENDING), then at 360 ms, the first round after the payment.
    expect(result.inquiries).toBe(6);
    expect(r.clock.now().getTime() - start).toBe(360);
    const changes = r.log.events(order.id).filter((e) => e.type === 'state_changed');
    expect(changes.at(-1)).toMatchObject({ from: 'awaiting_payment', to: 'paid', source: 'poll' });
    expect(changes.filter((e) => e.to === 'paid')).toHaveLength(1);
    expect(r.log.events(order.id).filter((e) => e.type === 'note')).toHaveLength(0);
  });

  it('returns expired when the sandbox lets the order expire (ttl 1 s)', async () => {
    const r = await rig({ ttlSeconds: { qris: 1 } });
    const order = await newOrder(r);
    const start = r.clock.now().getTime();
    const result = await pollUntilSettled(order.id, base(r, { initialDelayMs: 100, maxDelayMs: 300 }));
    expect(result.reason).toBe('settled');
    expect(result.order.state).toBe('expired');
    // The sandbox's own timer expired it at 1 s; the first inquiry after that (pauses of 50, 100, then
    // 150 ms: at 1050 ms) saw it.
    expect(r.sandbox.orders.get(order.id)!.status).toBe('EXPIRED');
    expect(r.clock.now().getTime() - start).toBe(1050);
    expect(r.log.events(order.id).at(-1)).toMatchObject({ type: 'state_changed', to: 'expired', source: 'poll' });
  });

  it('at the deadline it hands back the still-open order unchanged', async () => {
    const r = await rig();
    const order = await newOrder(r);
    const events = r.log.events(order.id);
    const deadline = new Date(r.clock.now().getTime() + 400);
    const pauses: number[] = [];
    const result = await pollUntilSettled(order.id, base(r, { deadline, sleep: fakeSleep(r, pauses) }));
    expect(result.reason).toBe('deadline');
    expect(result.order.state).toBe('awaiting_payment');
    // It stops at the deadline, not a pause later: the last pause is cut short to end exactly then.
    expect(pauses).toEqual([20, 40, 75, 75, 75, 75, 40]);
    expect(r.clock.now()).toEqual(deadline);
    expect(result.inquiries).toBe(6);
    expect(r.log.events(order.id)).toEqual(events);
    // The expiry is the gateway's to decide: the sandbox still has it PENDING.
    expect(r.sandbox.orders.get(order.id)!.status).toBe('PENDING');
  });

  it('with no inquiry configured it returns at once, saying so', async () => {
    const r = await rig();
    const order = await newOrder(r);
    const before = r.clock.now();
    const pauses: number[] = [];
    const result = await pollUntilSettled(
      order.id,
      base(r, { client: gatewayClient(r.sandbox, null), sleep: fakeSleep(r, pauses) }),
    );
    // "At once": not a single pause.
    expect(pauses).toEqual([]);
    expect(r.clock.now()).toEqual(before);
    expect(result).toMatchObject({ reason: 'no_inquiry', inquiries: 0 });
    expect(result.order.state).toBe('awaiting_payment');
  });

  it('an order already final is returned without asking', async () => {
    const r = await rig();
    const order = await newOrder(r);
    r.orders.confirmPaid(order.id, { source: 'manager', actor: 'mgr', reason: 'seen in the bank app' });
    const pauses: number[] = [];
    const result = await pollUntilSettled(order.id, base(r, { sleep: fakeSleep(r, pauses) }));
    expect(result).toMatchObject({ reason: 'settled', inquiries: 0 });
    expect(pauses).toEqual([]);
    expect(result.order.state).toBe('paid');
  });

  it('a callback arriving while it polls stops it at the next round', async () => {
    const r = await rig();
    const listener = await startCallbackListener({
      port: 0,
      path: '/cb',
      appId: r.sandbox.appId,
      key: KEY,
      encoding: 'hex',
      orders: r.orders,
      log: r.log,
    });
    try {
      // Any OrderService over the same log will do for creating: this one asks for callbacks.
      const withCallbacks = new OrderService(r.log, r.client, r.clock, {
        terminalId: 'T01',
        training: true,
        gatewayTimeZone: 'Asia/Jakarta',
        fallbackTtlSeconds: DEFAULT_SETTINGS.fallbackTtlSeconds,
        notificationUrl: listener.url,
      });
      const created = await withCallbacks.create(
        { methodId: 'qris_dynamic', amount: 25_000, itemName: 'Es teh manis' },
        { source: 'cashier' },
      );
      expect(created.ok).toBe(true);
      const id = created.order!.id;
      let sleeps = 0;
      const result = await pollUntilSettled(
        id,
        base(r, {
          sleep: async (ms) => {
            sleeps++;
            if (sleeps === 2) {
              // Between the first inquiry (PENDING) and the second: the customer pays, the callback lands.
              r.sandbox.settle(id, 'PAID');
              await waitFor(() => r.log.get(id)!.state === 'paid', 'the callback to mark the order paid');
            }
            r.clock.advance(ms);
          },
        }),
      );
      expect(result.reason).toBe('settled');
      expect(result.inquiries).toBe(1);
      expect(result.order.state).toBe('paid');
      const changes = r.log.events(id).filter((e) => e.type === 'state_changed');
      expect(changes.at(-1)).toMatchObject({ to: 'paid', source: 'callback' });
      expect(r.log.events(id).some((e) => e.source === 'poll')).toBe(false);
      await r.sandbox.callbacks.idle();
    } finally {
      await listener.close();
    }
  });

  it('inquiry errors are noted once and polling goes on until the order settles', async () => {
    const r = await rig();
    const order = await newOrder(r);
    const fault = await fetch(`${r.sandbox.url}/sandbox/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ http_status: 503, count: 3 }),
    });
    expect(fault.status).toBe(200);
    await fault.arrayBuffer();
    let inquiriesSeen = 0;
    const counting = { config: r.client.config, inquire: (id: string) => (inquiriesSeen++, r.client.inquire(id)) };
    r.clock.schedule(() => r.sandbox.settle(order.id, 'PAID'), 250);
    const result = await pollUntilSettled(order.id, base(r, { client: counting, initialDelayMs: 20, maxDelayMs: 60 }));
    expect(result.reason).toBe('settled');
    expect(result.order.state).toBe('paid');
    // Three refused inquiries, then PENDING ones, and PAID at the first round after 250 ms.
    expect(inquiriesSeen).toBeGreaterThanOrEqual(4);
    expect(result.inquiries).toBe(inquiriesSeen);
    const notes = r.log.events(order.id).filter((e) => e.type === 'note');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ source: 'poll' });
    expect(notes[0]!.reason).toMatch(/status inquiry failed/);
    expect(notes[0]!.reason).not.toContain(KEY);
  });

  it('stops when its signal aborts, cutting its real pause short, leaving the order as it is', async () => {
    const r = await rig();
    const order = await newOrder(r);
    const controller = new AbortController();
    const options = base(r, {
      signal: controller.signal,
      initialDelayMs: 3_600_000,
      maxDelayMs: 3_600_000,
      deadline: new Date(r.clock.now().getTime() + 7_200_000),
    });
    // Its own abortable pause this time: an hour long, so only the abort can end this test in time.
    delete options.sleep;
    const polling = pollUntilSettled(order.id, options);
    controller.abort(); // the poller is in its first pause by now (nothing before it waits)
    const result = await polling;
    expect(result).toMatchObject({ reason: 'aborted', inquiries: 0 });
    expect(result.order.state).toBe('awaiting_payment');
  });

  it('an abort during a pause stops it before the next inquiry', async () => {
    const r = await rig();
    const order = await newOrder(r);
    const controller = new AbortController();
    let pauses = 0;
    const result = await pollUntilSettled(
      order.id,
      base(r, {
        signal: controller.signal,
        sleep: async (ms) => {
          if (++pauses === 3) controller.abort();
          r.clock.advance(ms);
        },
      }),
    );
    expect(result).toMatchObject({ reason: 'aborted', inquiries: 2 });
    expect(result.order.state).toBe('awaiting_payment');
  });
});

describe('pollDelay', () => {
  it('doubles from the initial delay, stays within half-step..step, and never exceeds the cap', () => {
    for (let round = 0; round < 12; round++) {
      const step = Math.min(2000, 100 * 2 ** round);
      expect(pollDelay(round, 100, 2000, () => 0)).toBe(step / 2);
      expect(pollDelay(round, 100, 2000, () => 0.999999)).toBeLessThanOrEqual(step);
      expect(pollDelay(round, 100, 2000, () => 0.999999)).toBeGreaterThan(step * 0.99);
    }
  });

  it('refuses nonsensical delays', async () => {
    const r = await rig();
    const order = await newOrder(r);
    await expect(pollUntilSettled(order.id, base(r, { initialDelayMs: 0 }))).rejects.toThrow(RangeError);
    await expect(pollUntilSettled(order.id, base(r, { initialDelayMs: 500, maxDelayMs: 100 }))).rejects.toThrow(
      RangeError,
    );
  });
});

afterAll(async () => {
  while (open.length > 0) await open.pop()!.close();
});
