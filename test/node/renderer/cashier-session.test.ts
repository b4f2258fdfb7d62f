// @vitest-environment jsdom
// The cashier session: loading, the live channel, the tabs, and the managers wired to each other.
import { beforeEach, describe, expect, test } from 'vitest';
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

function setup(options: { list?: Order[] } = {}) {
  const client = fakeClient();
  client.fake
    .on('appInfo', () => appInfo({ lang: 'en' }))
    .on('listMethods', () => METHODS)
    .on('listItems', () => [{ itemId: 'KOPI', name: 'Kopi susu', price: 18000 }])
    .on('listOrders', () => options.list ?? [])
    .on('showOnDisplay', () => DISPLAY_IDLE)
    .on('tillStatus', () => tillStatus());
  const session = new CashierSession(client, { now: () => NOON });
  return { client, fake: client.fake, live: client.live, session };
}

async function loaded(options: { list?: Order[] } = {}) {
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
    fake.on('createOrder', () => ({ ok: true, order }));
    expect(await session.charge.charge()).toBe('payment');
    expect(session.payment.order).toBe(order);
    expect(session.canStartNew).toBe(false);

    expect(await session.charge.charge()).toBe('busy');
    expect(fake.callsOf('createOrder')).toHaveLength(1);
    await session.newSale();
    expect(session.payment.order).toBe(order);
  });

  test('live events reach the payment panel; once paid, a new sale clears it and idles the display', async () => {
    const { fake, live, session } = await loaded();
    const order = makeOrder();
    fake.on('createOrder', () => ({ ok: true, order }));
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
    fake.on('createOrder', () => ({
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
    expect(fake.callsOf('createOrder')).toHaveLength(0);
  });

  test('a charge clears the notice left by an earlier action', async () => {
    const { fake, session } = await loaded();
    fake.fail('receipt');
    await session.payment.printReceipt('order-x', true);
    expect(session.payment.notice?.ok).toBe(false);
    fake.on('createOrder', () => ({ ok: false, failure: failure({ class: 'rejected', retry: 'final' }) }));
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

    fake.fail('createOrder');
    await session.charge.charge();
    await session.resume(makeOrder());
    expect(session.payment.order).toBeNull();
    expect(session.charge.outcomeOpen).toBe(true);
  });
});

describe('after the live channel comes back', () => {
  test("the panel's order is asked for again and today's list reloaded", async () => {
    const { fake, live, session } = await loaded();
    const order = makeOrder();
    fake.on('createOrder', () => ({ ok: true, order }));
    await session.charge.charge();
    session.selectTab('today');
    await settle();
    const paid = later(order, { state: 'paid' });
    fake.on('getOrder', () => paid);

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
    const { fake, live, session } = await loaded();
    const unknown = makeOrder({ state: 'unknown' });
    fake.on('createOrder', () => ({
      ok: false,
      order: unknown,
      failure: failure({ class: 'unknown', retry: 'may_exist' }),
    }));
    await session.charge.charge();
    fake.on('getOrder', () => later(unknown, { state: 'awaiting_payment' }));
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
    expect(fake.callsOf('createOrder')).toEqual([]);

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
