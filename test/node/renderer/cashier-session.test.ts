// @vitest-environment jsdom
// The cashier session: loading, the live channel, the tabs, and the managers wired to each other.
import { beforeEach, describe, expect, test } from 'vitest';
import type { CurrentSale } from '../../../src-main/common/api';
import type { AppInfo } from '../../../src-main/common/app-info';
import type { Order } from '../../../src-main/common/order';
import { CallError } from '../../../src-renderer/src/api/errors';
import { i18n } from '../../../src-renderer/src/i18n/i18n.svelte';
import { CashierSession } from '../../../src-renderer/src/state/cashier-session.svelte';
import {
  appInfo,
  CASHIER,
  DISPLAY_IDLE,
  failure,
  fakeClient,
  later,
  makeOrder,
  MANAGER,
  managerSession,
  managerView,
  METHODS,
  settle,
  tillStatus,
} from './fake-client';

const NOON = new Date('2026-03-10T05:00:00.000Z');

interface World {
  /** What the server says the current sale is (currentSale). */
  current: CurrentSale | null;
  info: AppInfo;
  printed: string[];
}

function setup(options: { list?: Order[]; current?: CurrentSale | null; info?: Partial<AppInfo> } = {}) {
  const client = fakeClient();
  const world: World = {
    current: options.current ?? null,
    info: appInfo({ lang: 'en', ...options.info }),
    printed: [],
  };
  client.fake
    .on('currentSale', () => world.current)
    .on('appInfo', () => world.info)
    .on('listMethods', () => METHODS)
    .on('listItems', () => [{ itemId: 'KOPI', name: 'Kopi susu', price: 18000 }])
    .on('listOrders', () => options.list ?? [])
    .on('showOnDisplay', () => DISPLAY_IDLE)
    .on('tillStatus', () => tillStatus());
  const session = new CashierSession(client, {
    now: () => NOON,
    printDocument: async (html) => {
      world.printed.push(html);
    },
  });
  return { client, fake: client.fake, live: client.live, session, world };
}

async function loaded(options: { list?: Order[]; current?: CurrentSale | null; info?: Partial<AppInfo> } = {}) {
  const s = setup(options);
  await s.session.load();
  s.session.charge.form.setAmountText('25000');
  s.session.charge.form.setItemName('Kopi susu');
  return s;
}

beforeEach(() => localStorage.clear());

describe('loading', () => {
  test("what Loket offers, the first method chosen, and the store's language", async () => {
    const { session } = await loaded();
    expect(session.info?.storeName).toBe('Toko Uji');
    expect(session.methods).toEqual(METHODS);
    expect(session.items).toHaveLength(1);
    expect(session.charge.form.methodId).toBe('qris_dynamic');
    expect(i18n.lang).toBe('en');
    expect(session.training).toBe(true);
    expect(session.loadError).toBeNull();
  });

  test('a load that fails says why', async () => {
    const { fake, session } = setup();
    const error = new CallError('forbidden', 'bad token', 401);
    fake.fail('appInfo', error);
    await session.load();
    expect(session.loadError).toBe(error);
    expect(session.info).toBeNull();
  });

  test('the connection status follows the live channel; dispose closes it', async () => {
    const { live, session } = await loaded();
    expect(session.connection).toBe('connecting');
    live.setStatus('open');
    expect(session.connection).toBe('open');
    live.setStatus('down');
    expect(session.connection).toBe('down');
    session.dispose();
    expect(live.closed).toBe(true);
  });
});

describe('a sale through the managers', () => {
  test('a charge that succeeds puts its order on the payment panel; no other charge or new sale meanwhile', async () => {
    const { fake, session } = await loaded();
    const order = makeOrder();
    fake.onTyped(() => ({ ok: true, order }));
    expect(await session.charge.charge()).toBe('payment');
    expect(session.payment.order).toBe(order);
    expect(session.canStartNew).toBe(false);

    expect(await session.charge.charge()).toBe('busy');
    expect(fake.typedCalls()).toHaveLength(1);
    await session.newSale();
    expect(session.payment.order).toBe(order);
  });

  test('live events reach the payment panel; once paid, a new sale clears it and idles the display', async () => {
    const { fake, live, session } = await loaded();
    const order = makeOrder();
    fake.onTyped(() => ({ ok: true, order }));
    await session.charge.charge();
    live.pushOrder(later(order, { state: 'paid' }));
    expect(session.payment.order?.state).toBe('paid');

    await session.newSale();
    expect(session.payment.order).toBeNull();
    expect(session.charge.form.amount).toBe(0);
    expect(fake.callsOf('showOnDisplay')).toEqual([[null]]);
    expect(await session.charge.charge()).toBe('payment');
  });

  test('an open outcome that turns out to exist moves to the payment panel on its live event', async () => {
    const { fake, live, session } = await loaded();
    const unknown = makeOrder({ state: 'unknown' });
    fake.onTyped(() => ({
      ok: false,
      order: unknown,
      failure: failure({ class: 'unknown', retry: 'may_exist' }),
    }));
    await session.charge.charge();
    expect(session.charge.outcomeOpen).toBe(true);
    // F2 does not sweep the warning away.
    await session.newSale();
    expect(session.charge.outcomeOpen).toBe(true);

    const awaiting = later(unknown, { state: 'awaiting_payment' });
    live.pushOrder(awaiting);
    expect(session.charge.problem).toBeNull();
    expect(session.payment.order).toEqual(awaiting);
  });

  test('a reprint in flight on the today tab holds a charge back', async () => {
    const { fake, session } = await loaded();
    fake.hold('receipt');
    void session.payment.printReceipt('order-x', true);
    expect(session.busy).toBe(true);
    expect(await session.charge.charge()).toBe('busy');
    expect(fake.typedCalls()).toHaveLength(0);
  });

  test('a charge clears the notice left by an earlier action', async () => {
    const { fake, session } = await loaded();
    fake.fail('receipt');
    await session.payment.printReceipt('order-x', true);
    expect(session.payment.notice?.kind).toBe('error');
    fake.onTyped(() => ({ ok: false, failure: failure({ class: 'rejected', retry: 'final' }) }));
    await session.charge.charge();
    expect(session.payment.notice).toBeNull();
  });
});

describe("tabs and today's orders", () => {
  test("selecting the today tab loads the day's list once; live events keep it current", async () => {
    const listed = makeOrder({ state: 'paid' });
    const { fake, live, session } = await loaded({ list: [listed] });
    session.selectTab('today');
    await settle();
    expect(session.tab).toBe('today');
    expect(session.today.orders).toEqual([listed]);

    session.selectTab('sale');
    session.selectTab('today');
    const other = makeOrder({ createdAt: '2026-03-10T04:00:00.000Z' });
    live.pushOrder(other);
    await settle();
    expect(session.today.orders.map((o) => o.id)).toEqual([other.id, listed.id]);
    expect(fake.callsOf('listOrders')).toEqual([[{ date: '2026-03-10' }]]);
  });

  test('resuming an order from the list: back on the sale tab, on the panel and on the display', async () => {
    const waiting = makeOrder();
    const { fake, session } = await loaded({ list: [waiting] });
    session.selectTab('today');
    await settle();
    await session.resume(waiting);
    expect(session.tab).toBe('sale');
    expect(session.payment.order).toBe(waiting);
    expect(fake.callsOf('showOnDisplay')).toEqual([[waiting.id]]);
  });

  test('no resuming while an outcome is open, nor an order no longer waiting', async () => {
    const { fake, session } = await loaded();
    await session.resume(makeOrder({ state: 'paid' }));
    expect(session.payment.order).toBeNull();

    fake.fail('chargeSale');
    await session.charge.charge();
    await session.resume(makeOrder());
    expect(session.payment.order).toBeNull();
    expect(session.charge.outcomeOpen).toBe(true);
  });
});

describe('after the live channel comes back', () => {
  test("the panel's order is asked for again and today's list reloaded", async () => {
    const { fake, live, session, world } = await loaded();
    const order = makeOrder();
    fake.onTyped(() => ({ ok: true, order }));
    await session.charge.charge();
    session.selectTab('today');
    await settle();
    const paid = later(order, { state: 'paid' });
    fake.on('getOrder', () => paid);
    world.current = { order: paid, receiptPrinted: false };

    live.setStatus('open');
    await settle();
    expect(fake.callsOf('getOrder')).toEqual([]);
    expect(fake.callsOf('listOrders')).toHaveLength(1);

    live.setStatus('down');
    live.setStatus('open');
    await settle();
    expect(fake.callsOf('getOrder')).toEqual([[order.id]]);
    expect(session.payment.order).toEqual(paid);
    expect(fake.callsOf('listOrders')).toHaveLength(2);
  });

  test("an open outcome's order is asked for again too: it may have been settled meanwhile", async () => {
    const { fake, live, session, world } = await loaded();
    const unknown = makeOrder({ state: 'unknown' });
    fake.onTyped(() => ({
      ok: false,
      order: unknown,
      failure: failure({ class: 'unknown', retry: 'may_exist' }),
    }));
    await session.charge.charge();
    const awaiting = later(unknown, { state: 'awaiting_payment' });
    fake.on('getOrder', () => awaiting);
    world.current = { order: awaiting, receiptPrinted: false };
    live.setStatus('down');
    live.setStatus('open');
    await settle();
    expect(session.charge.outcomeOpen).toBe(false);
    expect(session.payment.order?.id).toBe(unknown.id);
  });
});

describe('the till, the mode and the manager', () => {
  test("an info event brings the mode, the store's name, a notice and the till; the methods are fetched again", async () => {
    const { fake, live, session } = await loaded();
    expect(session.till.staff).toBeNull();
    fake.on('listMethods', () => [METHODS[0]!]);
    const notice = 'Live mode is set, but the OS keychain cannot be used. Loket runs in training mode until then.';
    live.push({
      type: 'info',
      info: appInfo({ mode: 'live', storeName: 'Warung Sri', notice }),
      till: tillStatus({ staff: CASHIER }),
    });
    expect(session.info).toMatchObject({ mode: 'live', storeName: 'Warung Sri', notice });
    expect(session.training).toBe(false);
    expect(session.till.staff).toEqual(CASHIER);
    await settle();
    expect(session.methods).toEqual([METHODS[0]]);
  });

  test('a store that asks for cashier PINs, with nobody signed in: no charge is sent', async () => {
    const { fake, live, session } = await loaded();
    live.push({ type: 'info', info: appInfo(), till: tillStatus({ requireCashierPin: true }) });
    expect(session.till.needsSignIn).toBe(true);
    expect(session.charge.canCharge).toBe(false);
    expect(await session.charge.charge()).toBe('busy');
    expect(fake.typedCalls()).toEqual([]);

    live.push({ type: 'info', info: appInfo(), till: tillStatus({ requireCashierPin: true, staff: CASHIER }) });
    expect(session.charge.canCharge).toBe(true);
  });

  test('the manager tab: an open session is refreshed when shown again; one past its deadline locks', async () => {
    const { fake, session } = await loaded();
    fake
      .on('unlockManager', () => ({ ok: true, session: managerSession() }))
      .on('managerView', () => managerView({ lockAt: new Date(NOON.getTime() + 60_000).toISOString() }));
    session.selectTab('manager');
    expect(session.tab).toBe('manager');
    expect(session.manager.phase).toBe('unlock');
    session.manager.pick(MANAGER.id);
    session.manager.pin.setText('97531864');
    await session.manager.unlock();
    session.selectTab('sale');
    session.selectTab('manager');
    await settle();
    expect(fake.callsOf('managerView')).toHaveLength(2);

    fake.on('managerView', () => managerView({ lockAt: new Date(NOON.getTime() - 60_000).toISOString() }));
    await session.manager.refresh();
    session.selectTab('sale');
    session.selectTab('manager');
    expect(session.manager.phase).toBe('unlock');
    expect(session.manager.lockNotice).toBe('idle');
  });

  test('a reconnect fetches the mode and the till again (their events may have been missed)', async () => {
    const { fake, live, session } = await loaded();
    live.setStatus('open');
    live.setStatus('down');
    fake.on('appInfo', () => appInfo({ lang: 'en', storeName: 'Warung Sri' }));
    fake.on('tillStatus', () => tillStatus({ staff: CASHIER }));
    live.setStatus('open');
    await settle();
    expect(session.info?.storeName).toBe('Warung Sri');
    expect(session.till.staff).toEqual(CASHIER);
  });
});

describe('nothing lost on a reload: the sale in progress comes back as it was', () => {
  test('a sale waiting for payment: back on the payment panel, said so, and no new charge over it', async () => {
    const order = makeOrder();
    const { fake, session } = await loaded({ current: { order, receiptPrinted: false } });
    expect(session.payment.order).toBe(order);
    expect(session.payment.notice).toEqual({ kind: 'restored' });
    // It is on the display already: nothing is sent there.
    expect(fake.callsOf('showOnDisplay')).toEqual([]);
    expect(session.canStartNew).toBe(false);
    expect(await session.charge.charge()).toBe('busy');
  });

  test('an order whose outcome is unknown: "do not charge again", with Check again, and Charge blocked', async () => {
    const order = makeOrder({ state: 'unknown', delivery: 'sent' });
    const { session } = await loaded({ current: { order, receiptPrinted: false } });
    expect(session.payment.order).toBeNull();
    expect(session.charge.problem).toMatchObject({ kind: 'unknown', action: 'check', order });
    expect(session.charge.outcomeOpen).toBe(true);
  });

  test('an order that never left (not_sent): the outage message, with Retry of the same order', async () => {
    const order = makeOrder({ state: 'unknown', delivery: 'not_sent' });
    const { fake, session } = await loaded({ current: { order, receiptPrinted: false } });
    expect(session.charge.problem).toMatchObject({ kind: 'outage', action: 'retry', order });
    fake.on('retryOrder', () => ({ ok: true, order: later(order, { state: 'awaiting_payment' }) }));
    expect(await session.charge.retry()).toBe('payment');
    expect(fake.callsOf('retryOrder')).toEqual([[order.id]]);
    expect(fake.typedCalls()).toEqual([]);
  });

  test('paid, receipt not yet printed, with the automatic receipt on: printed once, not again', async () => {
    const order = makeOrder({ state: 'paid' });
    const { fake, live, session, world } = setup({
      current: { order, receiptPrinted: false },
      info: { autoPrint: true },
    });
    fake.on('receipt', () => ({ html: '<p>LUNAS</p>' }));
    await session.load();
    await settle();
    // More news of the same order, and a reconnect that restores it again: still one print.
    live.pushOrder(later(order, {}, 1));
    live.setStatus('down');
    live.setStatus('open');
    await settle();
    expect(world.printed).toEqual(['<p>LUNAS</p>']);
    expect(fake.callsOf('receipt')).toEqual([[order.id, { paper: 58, copy: false }]]);
    expect(session.payment.order?.id).toBe(order.id);
    expect(session.payment.receiptPrinted).toBe(true);
  });

  test('paid and printed before the reload: the automatic receipt is not printed again', async () => {
    const order = makeOrder({ state: 'paid' });
    const { fake, session, world } = await loaded({
      current: { order, receiptPrinted: true },
      info: { autoPrint: true },
    });
    fake.on('receipt', () => ({ html: '<p>LUNAS</p>' }));
    await settle();
    expect(world.printed).toEqual([]);
    expect(fake.callsOf('receipt')).toEqual([]);
    expect(session.payment.receiptPrinted).toBe(true);
  });

  test('no sale in progress: the empty form', async () => {
    const { session } = await loaded({ current: null });
    expect(session.payment.order).toBeNull();
    expect(session.charge.problem).toBeNull();
    expect(session.charge.canCharge).toBe(true);
  });

  test("on a reconnect the server's current sale wins: a sale parked elsewhere leaves the panel", async () => {
    const order = makeOrder();
    const { live, session, world, fake } = await loaded({ current: { order, receiptPrinted: false } });
    fake.on('getOrder', () => order);
    world.current = null;
    live.setStatus('down');
    live.setStatus('open');
    await settle();
    expect(session.payment.order).toBeNull();
    expect(session.canStartNew).toBe(true);
  });
});

describe('parking, and a sale refused over another', () => {
  test('Park: off the panel and the display, still waiting in Today, and resumed from there', async () => {
    const { fake, session } = await loaded();
    const order = makeOrder();
    fake.onTyped(() => ({ ok: true, order })).on('parkSale', () => null);
    await session.charge.charge();
    expect(await session.park()).toBe(true);
    expect(fake.callsOf('parkSale')).toEqual([[order.id]]);
    expect(session.payment.order).toBeNull();
    expect(session.payment.notice).toEqual({ kind: 'parked' });
    expect(session.canStartNew).toBe(true);

    // The next sale goes through; the parked one is resumed later from the list.
    const next = makeOrder();
    fake.onTyped(() => ({ ok: true, order: next }));
    session.charge.form.setAmountText('5000');
    expect(await session.charge.charge()).toBe('payment');
    expect(session.payment.notice).toBeNull();
    await session.newSale();
    await session.newSale();
    session.payment.observe(later(next, { state: 'paid' }));
    await session.newSale();
    await session.resume(order);
    expect(session.payment.order).toBe(order);
    expect(fake.callsOf('showOnDisplay').at(-1)).toEqual([order.id]);
  });

  test('a charge refused because another sale waits: that sale comes onto the panel, what was typed stays', async () => {
    const waiting = makeOrder({ amount: 99000 });
    const { fake, session, world } = await loaded();
    fake.fail('chargeSale', new CallError('conflict', 'Another sale is still waiting for payment'));
    world.current = { order: waiting, receiptPrinted: false };
    expect(await session.charge.charge()).toBe('problem');
    expect(session.charge.problem).toMatchObject({ kind: 'waiting', action: 'show' });

    await session.showWaitingSale();
    expect(session.payment.order).toBe(waiting);
    expect(session.charge.problem).toBeNull();
    expect(session.charge.form.amount).toBe(25000);

    fake.on('parkSale', () => null);
    await session.park();
    expect(session.payment.order).toBeNull();
    expect(session.charge.form.amount).toBe(25000);
    expect(session.charge.form.itemName).toBe('Kopi susu');
  });
});

describe('charging again after a sale that ended unpaid', () => {
  test('the form again with the same amount, item and method; the display back to its welcome', async () => {
    const { fake, live, session } = await loaded();
    const order = makeOrder({ amount: 41000, itemName: 'Nasi goreng' });
    fake.onTyped(() => ({ ok: true, order }));
    await session.charge.charge();
    expect(session.charge.form.amount).toBe(0);
    live.pushOrder(later(order, { state: 'expired' }));
    await session.chargeAgain();
    expect(session.payment.order).toBeNull();
    expect(session.charge.form.amount).toBe(41000);
    expect(session.charge.form.itemName).toBe('Nasi goreng');
    expect(session.charge.form.methodId).toBe('qris_dynamic');
    expect(fake.callsOf('showOnDisplay')).toEqual([[null]]);
  });

  test('not while the sale is still waiting, nor after it was paid', async () => {
    const { fake, live, session } = await loaded();
    const order = makeOrder();
    fake.onTyped(() => ({ ok: true, order }));
    await session.charge.charge();
    await session.chargeAgain();
    expect(session.payment.order).toBe(order);
    live.pushOrder(later(order, { state: 'paid' }));
    await session.chargeAgain();
    expect(session.payment.order?.state).toBe('paid');
    expect(session.charge.form.amount).toBe(0);
  });
});
