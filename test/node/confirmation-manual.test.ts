// Manual confirmation (docs/orders.md, "How Loket learns paid"): a manager confirms or cancels, with a
// reason, and the order log keeps who and why. Real parts: openLoket on a temp SQLite file with its
// embedded sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Order } from '../../src-main/common/order';
import { IllegalTransitionError } from '../../src-main/common/order-policy';
import { openLoket, type Loket } from '../../src-main/runtime';

let dir: string;
let loket: Loket;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loket-manual-'));
  loket = await openLoket({ dataDir: dir, env: {} });
});

afterAll(async () => {
  await loket?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function newOrder(): Promise<Order> {
  const outcome = await loket.orders.create(
    { methodId: 'qris_dynamic', amount: 18_000, itemName: 'Mie ayam' },
    { source: 'cashier', actor: 'kasir-1' },
  );
  if (!outcome.ok) throw new Error(`order not created: ${outcome.failure.message}`);
  return outcome.order;
}

describe('manual confirmation and cancellation', () => {
  it('confirmPaid records source manager, the actor and the reason', async () => {
    const order = await newOrder();
    const paid = loket.orders.confirmPaid(order.id, {
      source: 'manager',
      actor: 'mgr-ani',
      reason: 'seen in the bank app',
    });
    expect(paid.state).toBe('paid');
    expect(paid.paidAt).toBeDefined();
    expect(loket.log.get(order.id)!.state).toBe('paid');
    expect(loket.log.events(order.id).at(-1)).toMatchObject({
      type: 'state_changed',
      from: 'awaiting_payment',
      to: 'paid',
      source: 'manager',
      actor: 'mgr-ani',
      reason: 'seen in the bank app',
    });
  });

  it('cancel records source manager, the actor and the reason', async () => {
    const order = await newOrder();
    const cancelled = loket.orders.cancel(order.id, {
      source: 'manager',
      actor: 'mgr-budi',
      reason: 'customer changed their mind',
    });
    expect(cancelled.state).toBe('cancelled');
    expect(loket.log.events(order.id).at(-1)).toMatchObject({
      type: 'state_changed',
      to: 'cancelled',
      source: 'manager',
      actor: 'mgr-budi',
      reason: 'customer changed their mind',
    });
  });

  it('a reason shorter than 3 characters (blanks not counted) is refused and changes nothing', async () => {
    const order = await newOrder();
    const events = loket.log.events(order.id);
    for (const reason of ['', 'ok', '  x  ', '      ']) {
      expect(() => loket.orders.confirmPaid(order.id, { source: 'manager', actor: 'mgr', reason })).toThrow(/reason/);
      expect(() => loket.orders.cancel(order.id, { source: 'manager', actor: 'mgr', reason })).toThrow(/reason/);
    }
    expect(loket.log.get(order.id)!.state).toBe('awaiting_payment');
    expect(loket.log.events(order.id)).toEqual(events);
  });

  it('cancelling a paid order is an IllegalTransitionError and leaves it paid', async () => {
    const order = await newOrder();
    loket.orders.confirmPaid(order.id, { source: 'manager', actor: 'mgr', reason: 'cash fallback' });
    const events = loket.log.events(order.id);
    let thrown: unknown;
    try {
      loket.orders.cancel(order.id, { source: 'manager', actor: 'mgr', reason: 'oops, wrong order' });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(IllegalTransitionError);
    expect(thrown).toMatchObject({ orderId: order.id, from: 'paid', to: 'cancelled' });
    expect(loket.log.get(order.id)!.state).toBe('paid');
    expect(loket.log.events(order.id)).toEqual(events);
  });

  it('confirming a cancelled order is refused too: a late payment is flagged, never a state change', async () => {
    const order = await newOrder();
    loket.orders.cancel(order.id, { source: 'manager', actor: 'mgr', reason: 'left the shop' });
    expect(() =>
      loket.orders.confirmPaid(order.id, { source: 'manager', actor: 'mgr', reason: 'paid after all' }),
    ).toThrow(IllegalTransitionError);
    expect(loket.log.get(order.id)!.state).toBe('cancelled');
  });
});
