// @vitest-environment jsdom
// Today's orders: loaded once, then kept current by merging live events; reloaded only when it must be.
import { describe, expect, test } from 'vitest';
import type { Order } from '../../../src-main/common/order';
import { TODAY_PAGE, TodayOrdersManager } from '../../../src-renderer/src/state/today-orders.svelte';
import { FakeApi, later, makeOrder } from './fake-client';

// 12:00 on 10 March 2026 in Jakarta (UTC+7); the store's day runs from 2026-03-09T17:00Z to 2026-03-10T17:00Z.
const NOON = new Date('2026-03-10T05:00:00.000Z');

function setup(list: Order[] = []) {
  const fake = new FakeApi().on('listOrders', () => list);
  const clock = { now: NOON };
  const today = new TodayOrdersManager({ api: fake.api, timeZone: () => 'Asia/Jakarta', now: () => clock.now });
  return { fake, today, clock };
}

const ids = (today: TodayOrdersManager) => today.orders.map((o) => o.id);

describe('loading', () => {
  test('the first opening loads the store day; opening again does not', async () => {
    const order = makeOrder();
    const { fake, today } = setup([order]);
    expect(today.loaded).toBe(false);
    await today.open();
    await today.open();
    expect(fake.callsOf('listOrders')).toEqual([[{ date: '2026-03-10' }]]);
    expect(today.loaded).toBe(true);
    expect(today.day).toBe('2026-03-10');
    expect(today.orders).toEqual([order]);
  });

  test('a new filter loads again, with the state asked for; the same filter does not', async () => {
    const { fake, today } = setup();
    await today.open();
    await today.setFilter('paid');
    await today.setFilter('paid');
    expect(fake.callsOf('listOrders')).toEqual([[{ date: '2026-03-10' }], [{ date: '2026-03-10', state: 'paid' }]]);
    expect(today.filter).toBe('paid');
  });

  test('reload (the live channel came back) loads again, but not a list never opened', async () => {
    const { fake, today } = setup();
    await today.reload();
    expect(fake.callsOf('listOrders')).toHaveLength(0);
    await today.open();
    await today.reload();
    expect(fake.callsOf('listOrders')).toHaveLength(2);
  });

  test('opened again on another day, the list is of the new day', async () => {
    const { fake, today, clock } = setup();
    await today.open();
    clock.now = new Date('2026-03-10T17:00:00.000Z'); // midnight in Jakarta
    await today.open();
    expect(fake.callsOf('listOrders')).toEqual([[{ date: '2026-03-10' }], [{ date: '2026-03-11' }]]);
    expect(today.day).toBe('2026-03-11');
  });

  test('a failed load says why; the next one that works clears it', async () => {
    const { fake, today } = setup();
    fake.fail('listOrders');
    await today.open();
    expect(today.error?.code).toBe('network');
    expect(today.loaded).toBe(true);
    const order = makeOrder();
    fake.on('listOrders', () => [order]);
    await today.open();
    expect(today.error).toBeNull();
    expect(today.orders).toEqual([order]);
  });

  test('the answer to an older load is dropped', async () => {
    const { fake, today } = setup();
    const first = fake.hold('listOrders');
    const second = fake.hold('listOrders');
    const opening = today.open();
    const filtering = today.setFilter('paid');
    const paid = makeOrder({ state: 'paid' });
    second.resolve([paid]);
    await filtering;
    first.resolve([makeOrder({ state: 'paid' }), makeOrder({ state: 'paid' })]);
    await opening;
    expect(today.orders).toEqual([paid]);
  });

  test('the paid total adds up the paid orders only', async () => {
    const { today } = setup([
      makeOrder({ state: 'paid', amount: 18000 }),
      makeOrder({ state: 'awaiting_payment', amount: 8000 }),
      makeOrder({ state: 'paid', amount: 5000 }),
    ]);
    await today.open();
    expect(today.paidTotal).toBe(23000);
  });
});

describe('merging live events', () => {
  test('a new order of the day goes on top, without a reload; a changed one is replaced in place', async () => {
    const older = makeOrder({ createdAt: '2026-03-10T02:00:00.000Z' });
    const old = makeOrder({ createdAt: '2026-03-10T01:00:00.000Z' });
    const { fake, today } = setup([older, old]);
    await today.open();

    const created = makeOrder({ createdAt: '2026-03-10T04:59:00.000Z', state: 'creating' });
    today.observe(created);
    expect(ids(today)).toEqual([created.id, older.id, old.id]);

    const paid = later(older, { state: 'paid' });
    today.observe(paid);
    expect(today.orders[1]).toBe(paid);
    expect(ids(today)).toEqual([created.id, older.id, old.id]);
    expect(today.paidTotal).toBe(paid.amount);
    expect(fake.callsOf('listOrders')).toHaveLength(1);
  });

  test('an order created on another day of the store does not enter', async () => {
    const { today } = setup();
    await today.open();
    const yesterday = makeOrder({ createdAt: '2026-03-09T16:59:59.999Z' }); // 23:59:59 in Jakarta
    const justToday = makeOrder({ createdAt: '2026-03-09T17:00:00.000Z' }); // 00:00 in Jakarta
    today.observe(yesterday);
    today.observe(later(yesterday, { state: 'paid' }));
    today.observe(justToday);
    expect(ids(today)).toEqual([justToday.id]);
  });

  test('with a state filter: matching orders enter, and one that stops matching leaves', async () => {
    const waiting = makeOrder({ state: 'awaiting_payment' });
    const { today, fake } = setup();
    fake.on('listOrders', () => [waiting]);
    await today.open();
    await today.setFilter('awaiting_payment');

    today.observe(makeOrder({ state: 'paid' }));
    const another = makeOrder({ state: 'awaiting_payment', createdAt: '2026-03-10T04:00:00.000Z' });
    today.observe(another);
    expect(ids(today)).toEqual([another.id, waiting.id]);

    today.observe(later(waiting, { state: 'paid' }));
    expect(ids(today)).toEqual([another.id]);
  });

  test('out-of-order events never step back in time, not even for an order the filter dropped', async () => {
    const order = makeOrder({ state: 'awaiting_payment' });
    const { today, fake } = setup([order]);
    await today.open();
    const paid = later(order, { state: 'paid' }, 2);
    today.observe(paid);
    today.observe(later(order, { state: 'awaiting_payment' }, 1));
    expect(today.orders).toEqual([paid]);

    fake.on('listOrders', () => [order]);
    await today.setFilter('awaiting_payment');
    // The answer was older than the event already seen: the order is paid, so it is not waiting.
    expect(today.orders).toEqual([]);
    today.observe(later(order, { state: 'awaiting_payment' }, 1));
    expect(today.orders).toEqual([]);
  });

  test('events that arrive while the list is loading are not lost', async () => {
    const listed = makeOrder({ createdAt: '2026-03-10T01:00:00.000Z' });
    const { fake, today } = setup();
    const held = fake.hold('listOrders');
    const opening = today.open();
    const created = makeOrder({ createdAt: '2026-03-10T04:00:00.000Z' });
    const paid = later(listed, { state: 'paid' });
    today.observe(created);
    today.observe(paid);
    // The answer was read before those two events.
    held.resolve([listed]);
    await opening;
    expect(today.orders).toEqual([created, paid]);
  });

  test('events before the list was ever opened are left to the first load', async () => {
    const { fake, today } = setup();
    today.observe(makeOrder());
    expect(today.orders).toEqual([]);
    await today.open();
    expect(today.orders).toEqual([]);
    expect(fake.callsOf('listOrders')).toHaveLength(1);
  });
});

describe('a busy day', () => {
  test('draws the newest page; "show more" adds the next; a new filter starts again at one page', async () => {
    const list = Array.from({ length: TODAY_PAGE * 2 + 5 }, (_, i) =>
      makeOrder({ createdAt: new Date(Date.parse('2026-03-10T04:00:00.000Z') - i * 1000).toISOString() }),
    );
    const { today } = setup(list);
    await today.open();
    expect(today.orders).toHaveLength(list.length);
    expect(today.shown.map((o) => o.id)).toEqual(list.slice(0, TODAY_PAGE).map((o) => o.id));
    expect(today.notShown).toBe(TODAY_PAGE + 5);
    today.showMore();
    expect(today.shown).toHaveLength(TODAY_PAGE * 2);
    today.showMore();
    expect(today.shown).toHaveLength(list.length);
    expect(today.notShown).toBe(0);
    await today.setFilter('awaiting_payment');
    expect(today.shown).toHaveLength(TODAY_PAGE);
  });

  test('a live event for a new order shows it at the top, within the page', async () => {
    const list = Array.from({ length: TODAY_PAGE + 1 }, (_, i) =>
      makeOrder({ createdAt: new Date(Date.parse('2026-03-10T03:00:00.000Z') - i * 1000).toISOString() }),
    );
    const { today } = setup(list);
    await today.open();
    const fresh = makeOrder({ createdAt: '2026-03-10T04:30:00.000Z' });
    today.observe(fresh);
    expect(today.shown[0]?.id).toBe(fresh.id);
    expect(today.shown).toHaveLength(TODAY_PAGE);
    expect(today.notShown).toBe(2);
  });
});
