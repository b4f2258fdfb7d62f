// @vitest-environment jsdom
// The manager's order desk against the fake API: today in the store's zone, filters turned into the query,
// paging with the total, a range that cannot be asked for, answers that come late, and one order's detail.
import { describe, expect, test } from 'vitest';
import type { DeskPage, OrderDetail } from '../../../src-main/common/reports';
import { CallError } from '../../../src-renderer/src/api/errors';
import { ManagerSession } from '../../../src-renderer/src/state/manager-session.svelte';
import { DESK_PAGE, deskQueryOf } from '../../../src-renderer/src/state/order-desk.svelte';
import { FakeApi, makeOrder, MANAGER, managerSession, managerView, settle, tillStatus } from './fake-client';

const TOKEN = managerSession().token;
/** 01:30 on 10 March in Jakarta, still 9 March in UTC: "today" is the store's day. */
const NIGHT = Date.parse('2026-03-09T18:30:00.000Z');

async function open(now = NIGHT) {
  const fake = new FakeApi();
  fake.on('unlockManager', () => ({ ok: true, session: managerSession() })).on('managerView', () => managerView());
  const manager = new ManagerSession({ api: fake.api, till: () => tillStatus(), now: () => now });
  manager.pick(MANAGER.id);
  manager.pin.setText('97531864');
  expect(await manager.unlock()).toBe(true);
  return { fake, manager, desk: manager.editors!.desk };
}

/** `total` orders matched; the page holds those from `offset` on, at most a page of them. */
function pageOf(total: number, offset: number): DeskPage {
  const n = Math.max(0, Math.min(DESK_PAGE, total - offset));
  return { total, orders: Array.from({ length: n }, () => makeOrder()) };
}

describe('the list', () => {
  test("opens on today's store day (Jakarta), not the UTC date, and asks only for what is set", async () => {
    const { fake, manager, desk } = await open();
    fake.on('deskOrders', () => pageOf(3, 0));
    manager.selectSection('desk');
    await settle();
    expect(fake.callsOf('deskOrders')).toEqual([
      [TOKEN, { from: '2026-03-10', to: '2026-03-10', limit: DESK_PAGE, offset: 0 }],
    ]);
    expect(desk.shown).toEqual({ first: 1, last: 3, total: 3 });
    expect(desk.hasNext).toBe(false);
  });

  test('each filter turns into the query; the search is trimmed, and a blank one is left out', async () => {
    const { fake, desk } = await open();
    fake.on('deskOrders', () => pageOf(1, 0));
    await desk.open();
    desk.set('from', '2026-03-01');
    desk.set('to', '2026-03-10');
    desk.set('state', 'paid');
    desk.set('methodId', 'va_bca');
    desk.set('staffId', 2);
    desk.set('search', '  25.000 ');
    await desk.apply();
    expect(fake.callsOf('deskOrders').at(-1)).toEqual([
      TOKEN,
      {
        from: '2026-03-01',
        to: '2026-03-10',
        state: 'paid',
        methodId: 'va_bca',
        staffId: 2,
        search: '25.000',
        limit: DESK_PAGE,
        offset: 0,
      },
    ]);
    desk.set('state', '');
    desk.set('methodId', '');
    desk.set('staffId', '');
    desk.set('search', '   ');
    await desk.apply();
    expect(fake.callsOf('deskOrders').at(-1)).toEqual([
      TOKEN,
      { from: '2026-03-01', to: '2026-03-10', limit: DESK_PAGE, offset: 0 },
    ]);
  });

  test('pages through the total; a new filter starts again from the first page', async () => {
    const { fake, desk } = await open();
    fake.on('deskOrders', (_token, query) => pageOf(60, query.offset ?? 0));
    await desk.open();
    expect(desk.shown).toEqual({ first: 1, last: 25, total: 60 });
    expect(desk.hasPrevious).toBe(false);
    await desk.next();
    await desk.next();
    expect(desk.shown).toEqual({ first: 51, last: 60, total: 60 });
    expect(desk.hasNext).toBe(false);
    const asked = fake.callsOf('deskOrders').length;
    await desk.next();
    expect(fake.callsOf('deskOrders')).toHaveLength(asked);
    await desk.previous();
    expect(desk.shown).toEqual({ first: 26, last: 50, total: 60 });
    expect(fake.callsOf('deskOrders').map(([, q]) => q.offset)).toEqual([0, 25, 50, 25]);

    desk.set('state', 'paid');
    await desk.apply();
    expect(fake.callsOf('deskOrders').at(-1)?.[1].offset).toBe(0);
    expect(desk.shown?.first).toBe(1);
  });

  test('nothing matched: no page to turn, and "0" is not shown as the first', async () => {
    const { fake, desk } = await open();
    fake.on('deskOrders', () => ({ total: 0, orders: [] }));
    await desk.open();
    expect(desk.shown).toEqual({ first: 0, last: 0, total: 0 });
    expect(desk.hasNext || desk.hasPrevious).toBe(false);
  });

  test('a range running backwards, or a day missing, is not sent; the problem is named', async () => {
    const { fake, desk } = await open();
    fake.on('deskOrders', () => pageOf(1, 0));
    await desk.open();
    const asked = fake.callsOf('deskOrders').length;
    desk.set('from', '2026-03-11');
    await desk.apply();
    expect(desk.problem).toBe('backwards');
    desk.set('from', '');
    expect(desk.problem).toBeNull();
    await desk.apply();
    expect(desk.problem).toBe('missing');
    desk.set('from', '2026-02-30');
    await desk.apply();
    expect(desk.problem).toBe('missing');
    expect(fake.callsOf('deskOrders')).toHaveLength(asked);
  });

  test("an older answer arriving after a newer one is dropped: the page is the newer filter's", async () => {
    const { fake, desk } = await open();
    const first = fake.hold('deskOrders');
    const opening = desk.open();
    await first.called;
    const newer = { total: 1, orders: [makeOrder({ state: 'paid' })] };
    fake.on('deskOrders', () => newer);
    desk.set('state', 'paid');
    await desk.apply();
    first.resolve(pageOf(40, 0));
    await opening;
    expect(desk.page).toBe(newer);
    expect(desk.loading).toBe(false);
  });

  test("the server's refusal is shown, and the page on show stays", async () => {
    const { fake, desk } = await open();
    fake.on('deskOrders', () => pageOf(2, 0));
    await desk.open();
    const before = desk.page;
    fake.fail('deskOrders', new CallError('invalid_arguments', 'search: at most 64 characters'));
    desk.set('search', 'x');
    await desk.apply();
    expect(desk.error?.code).toBe('invalid_arguments');
    expect(desk.page).toBe(before);
    fake.on('deskOrders', () => pageOf(2, 0));
    await desk.reload();
    expect(desk.error).toBeNull();
  });
});

describe('one order', () => {
  const order = makeOrder({ state: 'paid', gatewayTransactionId: 'G-1' });
  const detail: OrderDetail = {
    order,
    events: [
      { seq: 1, orderId: order.id, at: order.createdAt, type: 'created', to: 'creating', source: 'cashier' },
      {
        seq: 2,
        orderId: order.id,
        at: order.updatedAt,
        type: 'state_changed',
        from: 'creating',
        to: 'paid',
        source: 'manager',
        actor: 'Bu Sri',
        reason: 'seen at the bank',
      },
    ],
    request: { amount: 25000 },
    response: { retcode: '0000' },
  };

  test('opens with its history and the gateway data; back to the list forgets it', async () => {
    const { fake, desk } = await open();
    fake.on('orderDetail', () => detail);
    await desk.openDetail(order.id);
    expect(fake.callsOf('orderDetail')).toEqual([[TOKEN, order.id]]);
    expect(desk.detailId).toBe(order.id);
    expect(desk.detail?.events.map((e) => e.to)).toEqual(['creating', 'paid']);
    desk.closeDetail();
    expect(desk.detailId).toBeNull();
    expect(desk.detail).toBeNull();
  });

  test('an answer for an order closed meanwhile is dropped; an unknown order shows not found', async () => {
    const { fake, desk } = await open();
    const held = fake.hold('orderDetail');
    const opening = desk.openDetail(order.id);
    await held.called;
    desk.closeDetail();
    held.resolve(detail);
    await opening;
    expect(desk.detail).toBeNull();

    fake.fail('orderDetail', new CallError('not_found', 'no order X'));
    await desk.openDetail('X');
    expect(desk.detailError?.code).toBe('not_found');
  });

  test('from another section (the queue, the report): the desk opens on the order, its list loaded behind it', async () => {
    const { fake, manager, desk } = await open();
    fake
      .on('orderDetail', () => detail)
      .on('deskOrders', () => pageOf(4, 0))
      .on('attentionQueue', () => []);
    manager.selectSection('attention');
    manager.showOrder(order.id);
    await settle();
    expect(manager.section).toBe('desk');
    expect(desk.detail).toBe(detail);
    expect(desk.shown?.total).toBe(4);
  });
});

test('deskQueryOf leaves out what is not set', () => {
  expect(
    deskQueryOf({ from: '2026-03-10', to: '2026-03-10', state: '', methodId: '', staffId: '', search: '' }, 50, 10),
  ).toEqual({ from: '2026-03-10', to: '2026-03-10', limit: 10, offset: 50 });
});
