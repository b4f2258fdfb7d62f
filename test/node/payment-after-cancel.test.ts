// A payment after a cancel, learned by status inquiry alone (docs/orders.md, "Cancelling"): with no callback
// listener, a QRIS order cancelled in Loket stays payable at the gateway (the interface has no cancel call), so
// Loket keeps asking until the gateway gives its final word or the order's deadline has passed — across a restart
// too — and records a payment then exactly as a callback would: flagged, in the attention queue, in the day's
// figures, and found by reconcile. A cashier may not cancel an order whose outcome is unknown. Real parts: the app
// host (browser mode's core) in live mode against a sandbox on 127.0.0.1:0 without callbacks, SQLite, real timers.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { dayIn } from '../../src-main/common/gateway-time';
import { attention, resolveAttention } from '../../src-main/core/reports/attention';
import { dayReport } from '../../src-main/core/reports/day-report';
import { openLoket } from '../../src-main/runtime';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { gatewayEnv, tempDir } from './helpers/loket';
import { waitFor } from './helpers/wait-for';

let sandbox: SandboxHandle;
const hosts: AppHost[] = [];
const dirs: { remove(): void }[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
});
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  sandbox.faults.clear();
});
afterAll(async () => {
  await sandbox.close();
  for (const d of dirs) d.remove();
});

function dataDir(): string {
  const dir = tempDir('loket-after-cancel-');
  dirs.push(dir);
  return dir.path;
}

async function host(dir: string): Promise<AppHost> {
  const h = await startAppHost({ version: 't', dataDir: dir, env: gatewayEnv(sandbox) });
  hosts.push(h);
  return h;
}

const sale = { methodId: 'qris_dynamic', amount: 30_000, itemName: 'Kopi susu' };

async function chargeAndCancel(h: AppHost): Promise<string> {
  const charged = await h.app.createOrder(sale);
  if (!charged.ok) throw new Error(charged.failure.message);
  const cancelled = await h.app.cancelOrder(charged.order.id, 'customer walked away');
  expect(cancelled.state).toBe('cancelled');
  return charged.order.id;
}

/** What a manager sees of the order: the attention items and the day's figures. */
function books(h: AppHost, id: string) {
  const now = new Date();
  const order = h.loket.log.require(id);
  const day = dayIn(new Date(order.createdAt), 'Asia/Jakarta');
  const report = dayReport(h.loket.db, day, {
    timeZone: 'Asia/Jakarta',
    now,
    methods: h.loket.methods,
    staffNames: [],
  });
  return {
    order,
    kinds: attention(h.loket.db, now)
      .filter((i) => i.orderId === id)
      .map((i) => i.kind),
    latePaid: report.figures.latePaid,
  };
}

describe('inquiry only: a QRIS order cancelled in Loket, then paid at the gateway', () => {
  it('is recorded as a late payment, as a callback would: flagged, in the attention queue, in the figures', async () => {
    const h = await host(dataDir());
    expect(h.loket.training).toBe(false);
    const id = await chargeAndCancel(h);
    // The gateway still has it waiting: the customer pays the QR they were shown.
    expect(sandbox.orders.get(id)!.status).toBe('PENDING');
    sandbox.settle(id, 'PAID');
    await waitFor(() => h.loket.log.require(id).latePayment, 'the late payment to be recorded by polling', 20_000);
    const seen = books(h, id);
    expect(seen.order).toMatchObject({ state: 'cancelled', latePayment: true });
    expect(h.loket.log.events(id).find((e) => e.type === 'late_payment')).toMatchObject({ source: 'poll' });
    expect(seen.kinds).toEqual(['late_payment']);
    expect(seen.latePaid).toEqual({ count: 1, amount: 30_000 });
    // The till is shown it until the cashier has seen it; the manager's item stays.
    expect((await h.app.latePayments()).map((o) => o.id)).toEqual([id]);
    expect((await h.app.acknowledgeLatePayment(id)).latePayment).toBe(true);
    expect(await h.app.latePayments()).toEqual([]);
    expect(books(h, id).kinds).toEqual(['late_payment']);
  });

  it('after a restart: orders cancelled within their deadline are watched again from the start', async () => {
    const dir = dataDir();
    const first = await host(dir);
    const id = await chargeAndCancel(first);
    await first.close();
    hosts.splice(hosts.indexOf(first), 1);
    // Paid while Loket was not running.
    sandbox.settle(id, 'PAID');
    const second = await host(dir);
    await waitFor(() => second.loket.log.require(id).latePayment, 'the late payment after the restart', 20_000);
    expect(books(second, id).kinds).toEqual(['late_payment']);
  });

  it("the gateway's expiry of an order Loket cancelled is recorded and ends the watch; it is no attention item", async () => {
    const h = await host(dataDir());
    const id = await chargeAndCancel(h);
    sandbox.settle(id, 'EXPIRED');
    await waitFor(() => h.loket.log.hasGatewayWord(id), "the gateway's expiry to be recorded", 20_000);
    expect(h.loket.log.events(id).at(-1)).toMatchObject({
      type: 'note',
      source: 'poll',
      payload: { gatewayFinal: 'EXPIRED' },
    });
    const seen = books(h, id);
    expect(seen.order).toMatchObject({ state: 'cancelled', latePayment: false });
    expect(seen.kinds).toEqual([]);
    expect(seen.latePaid).toEqual({ count: 0, amount: 0 });
  });

  it('reconcile (the command line, no poller) asks about cancelled orders too and finds the payment', async () => {
    const dir = dataDir();
    const loket = await openLoket({ dataDir: dir, env: gatewayEnv(sandbox) });
    try {
      const created = await loket.orders.create(sale, { source: 'cli' });
      if (!created.ok) throw new Error(created.failure.message);
      const id = created.order.id;
      loket.orders.cancel(id, { source: 'cli', reason: 'customer left' });
      sandbox.settle(id, 'PAID');
      const results = await loket.orders.reconcile({ source: 'reconcile' });
      expect(results.find((r) => r.id === id)?.outcome).toMatch(/late payment/);
      expect(loket.log.require(id)).toMatchObject({ state: 'cancelled', latePayment: true });
      // Asked once more, nothing changes: the gateway's final word is in.
      expect((await loket.orders.reconcile({ source: 'reconcile' })).find((r) => r.id === id)).toBeUndefined();
    } finally {
      await loket.close();
    }
  });
});

describe('who may cancel an order whose outcome is unknown', () => {
  it('not the cashier (forbidden, nothing changes); a manager may, with a reason', async () => {
    const h = await host(dataDir());
    // The create answer and the quick inquiry are both lost: unknown, "do not charge again".
    sandbox.faults.set({ drop_after_store: true, count: 2 });
    const charged = await h.app.createOrder(sale);
    expect(charged.ok).toBe(false);
    const id = charged.order!.id;
    expect(h.loket.log.require(id).state).toBe('unknown');
    await expect(async () => h.app.cancelOrder(id, 'customer says it failed')).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('only a manager can cancel it'),
    });
    expect(h.loket.log.require(id).state).toBe('unknown');
    const done = await resolveAttention({ log: h.loket.log, orders: h.loket.orders }, id, 'cancel', {
      reason: 'checked with the customer: not paid',
      actor: { name: 'Bu Sri' },
    });
    expect(done).toMatchObject({ resolved: true, order: { state: 'cancelled' } });
    expect(h.loket.log.events(id).at(-1)).toMatchObject({ to: 'cancelled', source: 'manager', actor: 'Bu Sri' });
  });
});
