// No second charge while the first is unknown (docs/orders.md, "After no answer"): an order whose outcome is unknown
// (`may_exist`) holds the till. Closing its message (which empties the customer display), parking it, or a restart
// never lets another order through; it is released when the order is settled — Check again finds it, or a manager
// decides it (mark paid or cancel: a reason, their name, the audit). Real parts: the app host in training mode with
// its embedded sandbox (real HTTP on 127.0.0.1), the sandbox's fault switches, SQLite.
import { afterEach, describe, expect, it } from 'vitest';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { resolveAttention } from '../../src-main/core/reports/attention';
import { tempDir } from './helpers/loket';

const hosts: AppHost[] = [];
const dirs: { remove(): void }[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  for (const d of dirs.splice(0)) d.remove();
});

async function host(dir: string): Promise<AppHost> {
  const h = await startAppHost({ version: 't', dataDir: dir, env: {} });
  hosts.push(h);
  return h;
}

const sale = { methodId: 'qris_dynamic', amount: 25_000, itemName: 'Kopi susu' };
const gatewayOrders = (h: AppHost) => h.loket.sandbox!.orders.all().length;

/** A charge whose answer and quick inquiry are both lost: stored at the gateway, unknown at the till. */
async function unknownCharge(h: AppHost): Promise<string> {
  h.loket.sandbox!.faults.set({ drop_after_store: true, count: 2 });
  const result = await h.app.createOrder(sale);
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error('charged');
  expect(result.failure).toMatchObject({ class: 'unknown', retry: 'may_exist' });
  expect(result.order!.state).toBe('unknown');
  return result.order!.id;
}

describe('an order whose outcome is unknown holds the till', () => {
  it('"Close message" (the display emptied), parking it, or a restart: no second order reaches the gateway', async () => {
    const dir = tempDir('loket-held-');
    dirs.push(dir);
    let h = await host(dir.path);
    const id = await unknownCharge(h);
    expect(gatewayOrders(h)).toBe(1);

    // What "Close message" does: the customer display goes idle. Then Charge.
    await h.app.showOnDisplay(null);
    await expect(async () => h.app.createOrder(sale)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(`order ${id} is still unknown`),
    });
    // The till comes back to it: it is the current sale.
    expect((await h.app.currentSale())?.order.id).toBe(id);
    await h.app.parkSale(id);
    await expect(async () => h.app.createOrder(sale)).rejects.toMatchObject({ code: 'conflict' });
    expect(gatewayOrders(h)).toBe(1);

    // A restart keeps the hold (and the embedded sandbox forgets its orders: only Loket's log counts now).
    await h.close();
    hosts.splice(0);
    h = await host(dir.path);
    await expect(async () => h.app.createOrder(sale)).rejects.toMatchObject({ code: 'conflict' });
    expect(h.loket.log.list().map((o) => o.id)).toEqual([id]);
  });

  it('a manager decides it (cancel, with a reason, recorded with their name): the next sale may be charged', async () => {
    const dir = tempDir('loket-held-');
    dirs.push(dir);
    const h = await host(dir.path);
    const id = await unknownCharge(h);
    await h.app.showOnDisplay(null);
    await expect(async () => h.app.createOrder(sale)).rejects.toMatchObject({ code: 'conflict' });
    const decided = await resolveAttention({ log: h.loket.log, orders: h.loket.orders }, id, 'cancel', {
      reason: 'customer shows no payment; checked with the gateway by phone',
      actor: { name: 'Bu Sri', staffId: 1 },
    });
    expect(decided).toMatchObject({ resolved: true, order: { state: 'cancelled' } });
    expect(h.loket.log.events(id).at(-1)).toMatchObject({ source: 'manager', actor: 'Bu Sri', to: 'cancelled' });
    const next = await h.app.createOrder(sale);
    expect(next.ok).toBe(true);
    expect(gatewayOrders(h)).toBe(2);
  });

  it('or sets it aside (it stays unknown and in the queue): the till may sell again', async () => {
    const dir = tempDir('loket-held-');
    dirs.push(dir);
    const h = await host(dir.path);
    const id = await unknownCharge(h);
    await expect(async () => h.app.createOrder(sale)).rejects.toMatchObject({ code: 'conflict' });
    const decided = await resolveAttention({ log: h.loket.log, orders: h.loket.orders }, id, 'set_aside', {
      reason: 'gateway down; customer paid cash, checked later',
      actor: { name: 'Bu Sri' },
    });
    expect(decided).toMatchObject({ resolved: false, order: { state: 'unknown' } });
    expect(h.loket.log.events(id).at(-1)).toMatchObject({ type: 'note', source: 'manager', actor: 'Bu Sri' });
    await h.app.showOnDisplay(null);
    expect((await h.app.createOrder(sale)).ok).toBe(true);
    expect(h.loket.log.require(id).state).toBe('unknown');
  });

  it('Check again that finds the order settles it: the till goes on with that order, not a new one', async () => {
    const dir = tempDir('loket-held-');
    dirs.push(dir);
    const h = await host(dir.path);
    const id = await unknownCharge(h);
    const found = await h.app.retryOrder(id);
    expect(found).toMatchObject({ ok: true, order: { id, state: 'awaiting_payment' } });
    // The one-sale rule now applies to it as to any waiting sale; parked, a new sale may start.
    await h.app.parkSale(id);
    expect((await h.app.createOrder(sale)).ok).toBe(true);
    expect(gatewayOrders(h)).toBe(2);
  });

  it('an outage (the gateway does not have it: nothing charged) does not hold the till', async () => {
    const dir = tempDir('loket-held-');
    dirs.push(dir);
    const h = await host(dir.path);
    h.loket.sandbox!.faults.set({ http_status: 503, count: 1 });
    const result = await h.app.createOrder(sale);
    expect(result).toMatchObject({ ok: false, failure: { class: 'outage', retry: 'safe_to_resend' } });
    await h.app.showOnDisplay(null);
    expect((await h.app.createOrder(sale)).ok).toBe(true);
  });
});
