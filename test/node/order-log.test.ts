import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ORDER_STATES, type Order, type OrderState, type PaymentInstruction } from '../../src-main/common/order';
import { DuplicateOrderError, OrderNotFoundError } from '../../src-main/common/order-policy';
import { OrderLog, type NewOrder } from '../../src-main/core/orders/order-log';
import { openDatabase, type Database } from '../../src-main/db/open';

let dir: string;
let path: string;
let db: Database;
let log: OrderLog;
/** The test clock: set `now` to place the next write in time. */
let now: Date;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loket-log-'));
  path = join(dir, 'loket.db');
  db = openDatabase(path);
  now = new Date('2025-03-01T03:00:00.000Z');
  log = new OrderLog(db, { now: () => now });
});

afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

const minimal = (id: string, over: Partial<NewOrder> = {}): NewOrder => ({
  id,
  terminalId: 'T1',
  api: 'v2',
  methodId: 'qris',
  kind: 'qris',
  amount: 25000,
  currency: 'IDR',
  itemName: 'Kopi susu',
  userId: 'kasir-1',
  training: false,
  requestBody: '{"merchant_transaction_id":"' + id + '"}',
  ...over,
});

function at(iso: string): void {
  now = new Date(iso);
}

/** Drives an order to `state` through legal transitions. */
function orderIn(id: string, state: OrderState, over: Partial<NewOrder> = {}): Order {
  log.create(minimal(id, over), { source: 'cashier' });
  const path: Record<OrderState, OrderState[]> = {
    creating: [],
    awaiting_payment: ['awaiting_payment'],
    rejected: ['rejected'],
    unknown: ['unknown'],
    paid: ['awaiting_payment', 'paid'],
    expired: ['awaiting_payment', 'expired'],
    cancelled: ['awaiting_payment', 'cancelled'],
    failed: ['awaiting_payment', 'failed'],
  };
  let order = log.get(id)!;
  for (const s of path[state]) order = log.transition(id, s, { source: 'system' });
  return order;
}

describe('OrderLog', () => {
  it('round-trips every field of an order, its bodies and its events', () => {
    const input: NewOrder = {
      id: 'T1-20250301-0001',
      terminalId: 'T1',
      api: 'v1',
      methodId: 'bca_va',
      kind: 'va_bank',
      amount: 150000,
      currency: 'IDR',
      itemName: 'Sepatu',
      itemId: 'SKU-9',
      userId: 'kasir-2',
      customerName: 'Budi Santoso',
      phone: '081234567890',
      training: true,
      requestBody: '{"amount":150000,"item_name":"Sepatu"}',
    };
    const created = log.create(input, { source: 'cashier', actor: 'kasir-2' });
    const t0 = '2025-03-01T03:00:00.000Z';
    expect(created).toEqual({
      id: input.id,
      terminalId: 'T1',
      api: 'v1',
      state: 'creating',
      methodId: 'bca_va',
      kind: 'va_bank',
      amount: 150000,
      currency: 'IDR',
      itemName: 'Sepatu',
      itemId: 'SKU-9',
      userId: 'kasir-2',
      customerName: 'Budi Santoso',
      phone: '081234567890',
      training: true,
      delivery: 'pending',
      latePayment: false,
      createdAt: t0,
      updatedAt: t0,
    });
    expect(log.get(input.id)).toEqual(created);
    expect(log.requestBody(input.id)).toBe(input.requestBody);
    expect(log.responseBody(input.id)).toBeUndefined();

    const instruction: PaymentInstruction = {
      type: 'virtual_account',
      va: '8808123456789',
      payment_url: 'https://pay.example/va',
      customer_name: 'Budi Santoso',
      expired_date: '2025-03-02 10:00:00',
      extra: { bank: 'BCA', nested: { n: 1 } },
    };
    at('2025-03-01T03:00:02.000Z');
    const response = '{"retcode":"0","data":{"va":"8808123456789"}}';
    const waiting = log.transition(
      input.id,
      'awaiting_payment',
      { source: 'gateway', reason: 'accepted', payload: { retcode: '0' } },
      {
        delivery: 'answered',
        gatewayTransactionId: 'GW-77',
        instruction,
        responseBody: response,
        expiresAt: '2025-03-02T03:00:00.000Z',
      },
    );
    expect(waiting).toEqual({
      ...created,
      state: 'awaiting_payment',
      delivery: 'answered',
      gatewayTransactionId: 'GW-77',
      instruction,
      expiresAt: '2025-03-02T03:00:00.000Z',
      updatedAt: '2025-03-01T03:00:02.000Z',
    });
    expect(log.responseBody(input.id)).toBe(response);

    at('2025-03-01T03:10:00.000Z');
    const paid = log.transition(input.id, 'paid', { source: 'callback' }, { paidAt: '2025-03-01T03:09:58.000Z' });
    expect(paid).toEqual({
      ...waiting,
      state: 'paid',
      paidAt: '2025-03-01T03:09:58.000Z',
      updatedAt: '2025-03-01T03:10:00.000Z',
    });

    expect(log.events(input.id)).toEqual([
      {
        seq: expect.any(Number),
        orderId: input.id,
        at: t0,
        type: 'created',
        to: 'creating',
        source: 'cashier',
        actor: 'kasir-2',
      },
      {
        seq: expect.any(Number),
        orderId: input.id,
        at: '2025-03-01T03:00:02.000Z',
        type: 'state_changed',
        from: 'creating',
        to: 'awaiting_payment',
        source: 'gateway',
        reason: 'accepted',
        payload: { retcode: '0' },
      },
      {
        seq: expect.any(Number),
        orderId: input.id,
        at: '2025-03-01T03:10:00.000Z',
        type: 'state_changed',
        from: 'awaiting_payment',
        to: 'paid',
        source: 'callback',
      },
    ]);
  });

  it('omits absent optional fields instead of returning null', () => {
    const order = log.create(minimal('M-1'), { source: 'cashier' });
    for (const key of [
      'itemId',
      'customerName',
      'phone',
      'gatewayTransactionId',
      'instruction',
      'rejection',
      'expiresAt',
      'paidAt',
    ]) {
      expect(Object.keys(order)).not.toContain(key);
    }
    expect(Object.values(order)).not.toContain(null);
  });

  it('keeps a rejection with or without retcode and HTTP status', () => {
    log.create(minimal('R-1'), { source: 'cashier' });
    const full = log.transition(
      'R-1',
      'rejected',
      { source: 'gateway' },
      {
        delivery: 'answered',
        rejection: { retcode: '105', message: 'amount too small', httpStatus: 400 },
        responseBody: '<html>no</html>',
      },
    );
    expect(full.rejection).toEqual({ retcode: '105', message: 'amount too small', httpStatus: 400 });
    expect(log.responseBody('R-1')).toBe('<html>no</html>');

    log.create(minimal('R-2'), { source: 'cashier' });
    expect(
      log.transition('R-2', 'rejected', { source: 'gateway' }, { rejection: { message: 'refused' } }).rejection,
    ).toEqual({ message: 'refused' });
  });

  it('refuses a second order with the same id, and keeps the first', () => {
    const first = log.create(minimal('D-1'), { source: 'cashier' });
    expect(() => log.create(minimal('D-1', { amount: 99 }), { source: 'cashier' })).toThrow(DuplicateOrderError);
    expect(() => log.create(minimal('D-1'), { source: 'cashier' })).toThrow('order D-1 already exists');
    expect(log.get('D-1')).toEqual(first);
    expect(log.events('D-1')).toHaveLength(1);
  });

  it('names an unknown order clearly', () => {
    expect(() => log.transition('nope', 'unknown', { source: 'system' })).toThrow(OrderNotFoundError);
    expect(() => log.transition('nope', 'unknown', { source: 'system' })).toThrow('no order nope');
    expect(() => log.setDelivery('nope', 'sent', { source: 'system' })).toThrow('no order nope');
    expect(() => log.flagLatePayment('nope', { source: 'callback' })).toThrow('no order nope');
    expect(() => log.note('nope', { source: 'manager' })).toThrow('no order nope');
    expect(log.get('nope')).toBeUndefined();
    expect(log.events('nope')).toEqual([]);
    expect(log.requestBody('nope')).toBeUndefined();
  });

  it('refuses an amount that is not a positive whole number, writing nothing', () => {
    expect(() => log.create(minimal('V-1', { amount: 0 }), { source: 'cashier' })).toThrow(/CHECK constraint failed/);
    // The table is STRICT: a fraction is refused for its type, before the CHECK is reached.
    expect(() => log.create(minimal('V-2', { amount: 1.5 }), { source: 'cashier' })).toThrow(
      'cannot store REAL value in INTEGER column orders.amount',
    );
    expect(log.get('V-1')).toBeUndefined();
    expect(log.get('V-2')).toBeUndefined();
    expect(db.prepare('SELECT COUNT(*) FROM order_events').pluck().get()).toBe(0);
  });

  it('records delivery changes as events without changing the state', () => {
    log.create(minimal('S-1'), { source: 'cashier' });
    at('2025-03-01T03:00:01.000Z');
    const order = log.setDelivery('S-1', 'sent', { source: 'gateway', reason: 'timeout after sending' });
    expect(order).toMatchObject({ state: 'creating', delivery: 'sent', updatedAt: '2025-03-01T03:00:01.000Z' });
    expect(log.events('S-1').at(-1)).toMatchObject({
      type: 'delivery',
      source: 'gateway',
      reason: 'timeout after sending',
      payload: { from: 'pending', to: 'sent' },
    });
    expect(log.events('S-1').at(-1)).not.toHaveProperty('from');
  });

  it('appends notes without touching the order', () => {
    const order = log.create(minimal('N-1'), { source: 'cashier' });
    at('2025-03-01T03:30:00.000Z');
    const event = log.note('N-1', { source: 'manager', actor: 'mgr', reason: 'customer phoned', payload: ['a', 1] });
    expect(event).toEqual({
      seq: expect.any(Number),
      orderId: 'N-1',
      at: '2025-03-01T03:30:00.000Z',
      type: 'note',
      source: 'manager',
      actor: 'mgr',
      reason: 'customer phoned',
      payload: ['a', 1],
    });
    expect(log.events('N-1').at(-1)).toEqual(event);
    expect(log.get('N-1')).toEqual(order);
  });

  it('markInterrupted turns every creating order into unknown and leaves the others', () => {
    orderIn('I-1', 'creating');
    orderIn('I-2', 'awaiting_payment');
    orderIn('I-3', 'creating');
    orderIn('I-4', 'rejected');
    orderIn('I-5', 'unknown');
    const states = () => Object.fromEntries(['I-1', 'I-2', 'I-3', 'I-4', 'I-5'].map((id) => [id, log.get(id)!.state]));

    at('2025-03-01T05:00:00.000Z');
    expect(log.markInterrupted()).toEqual(['I-1', 'I-3']);
    expect(states()).toEqual({
      'I-1': 'unknown',
      'I-2': 'awaiting_payment',
      'I-3': 'unknown',
      'I-4': 'rejected',
      'I-5': 'unknown',
    });
    for (const id of ['I-1', 'I-3']) {
      const events = log.events(id);
      expect(events).toHaveLength(2);
      expect(events[1]).toMatchObject({
        type: 'state_changed',
        from: 'creating',
        to: 'unknown',
        source: 'startup',
        at: '2025-03-01T05:00:00.000Z',
      });
    }
    expect(log.unresolved().map((o) => o.id)).toEqual(['I-1', 'I-3', 'I-5']);
    expect(log.markInterrupted()).toEqual([]);
  });

  it('survives a restart: a creating order left by a closed connection is found on re-open', () => {
    log.create(minimal('K-1'), { source: 'cashier' });
    db.close();
    db = openDatabase(path);
    log = new OrderLog(db, { now: () => now });
    expect(log.markInterrupted({ actor: 'boot' })).toEqual(['K-1']);
    expect(log.events('K-1').at(-1)).toMatchObject({ to: 'unknown', source: 'startup', actor: 'boot' });
  });

  it('flags a late payment only on cancelled, expired, failed or rejected orders, without changing their state', () => {
    for (const state of ORDER_STATES) {
      const id = `L-${state}`;
      const before = orderIn(id, state);
      const events = log.events(id).length;
      if (state === 'cancelled' || state === 'expired' || state === 'failed' || state === 'rejected') {
        const flagged = log.flagLatePayment(id, { source: 'callback', payload: { status: 'paid' } });
        expect(flagged).toMatchObject({ state, latePayment: true });
        expect(log.events(id)).toHaveLength(events + 1);
        expect(log.events(id).at(-1)).toMatchObject({
          type: 'late_payment',
          source: 'callback',
          payload: { status: 'paid' },
        });
      } else {
        expect(() => log.flagLatePayment(id, { source: 'callback' })).toThrow(
          `order ${id} is ${state}; a late payment is flagged only on a cancelled, expired, failed or rejected order`,
        );
        expect(log.get(id)).toEqual(before);
        expect(log.events(id)).toHaveLength(events);
      }
    }
  });

  it('lists by [from, to) time range, state and limit, oldest first', () => {
    at('2025-03-01T16:59:59.999Z');
    orderIn('A-before', 'paid');
    at('2025-03-01T17:00:00.000Z');
    orderIn('A-start-2', 'awaiting_payment');
    orderIn('A-start-1', 'paid');
    at('2025-03-02T03:00:00.000Z');
    orderIn('A-mid', 'paid');
    at('2025-03-02T17:00:00.000Z');
    orderIn('A-end', 'paid');

    // A store-local day in Jakarta (UTC+7) is 17:00Z to 17:00Z.
    const from = new Date('2025-03-01T17:00:00.000Z');
    const to = new Date('2025-03-02T17:00:00.000Z');
    expect(log.list({ from, to }).map((o) => o.id)).toEqual(['A-start-1', 'A-start-2', 'A-mid']);
    expect(log.list({ from, to, state: 'paid' }).map((o) => o.id)).toEqual(['A-start-1', 'A-mid']);
    expect(log.list({ from, to, limit: 2 }).map((o) => o.id)).toEqual(['A-start-1', 'A-start-2']);
    expect(log.list({ to }).map((o) => o.id)).toEqual(['A-before', 'A-start-1', 'A-start-2', 'A-mid']);
    expect(log.list({ from: to }).map((o) => o.id)).toEqual(['A-end']);
    expect(log.list({}).length).toBe(5);
    expect(() => log.list({ limit: -1 })).toThrow(RangeError);
  });

  it('summarises a range by method and state', () => {
    at('2025-03-01T02:00:00.000Z');
    orderIn('Y-old', 'paid', { amount: 1 });
    at('2025-03-01T03:00:00.000Z');
    orderIn('Y-1', 'paid', { amount: 10000 });
    orderIn('Y-2', 'paid', { amount: 15000 });
    orderIn('Y-3', 'expired', { amount: 5000 });
    orderIn('Y-4', 'paid', { methodId: 'ovo', kind: 'ewallet_redirect', amount: 20000 });
    orderIn('Y-5', 'rejected', { methodId: 'ovo', kind: 'ewallet_redirect', amount: 7000 });
    at('2025-03-02T03:00:00.000Z');
    orderIn('Y-late', 'paid', { amount: 1 });

    expect(log.summary(new Date('2025-03-01T03:00:00.000Z'), new Date('2025-03-02T03:00:00.000Z'))).toEqual([
      { methodId: 'ovo', state: 'paid', count: 1, amount: 20000 },
      { methodId: 'ovo', state: 'rejected', count: 1, amount: 7000 },
      { methodId: 'qris', state: 'expired', count: 1, amount: 5000 },
      { methodId: 'qris', state: 'paid', count: 2, amount: 25000 },
    ]);
    expect(log.summary(new Date('2030-01-01T00:00:00.000Z'), new Date('2030-01-02T00:00:00.000Z'))).toEqual([]);
  });

  it('an event row cannot be updated or deleted', () => {
    orderIn('E-1', 'paid');
    const events = log.events('E-1');
    expect(() => db.prepare("UPDATE order_events SET to_state = 'cancelled' WHERE order_id = 'E-1'").run()).toThrow(
      /append-only/,
    );
    expect(() => db.prepare("DELETE FROM order_events WHERE order_id = 'E-1'").run()).toThrow(/append-only/);
    expect(log.events('E-1')).toEqual(events);
  });

  it('a transition that fails midway leaves neither the state nor the event written', () => {
    const order = orderIn('H-1', 'creating');
    const events = log.events('H-1');
    const seqBefore = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'order_events'").pluck().get();
    // The event is inserted before the order is updated, so this rollback has an event to undo.
    expect(() =>
      log.transition(
        'H-1',
        'rejected',
        { source: 'gateway' },
        { delivery: 'lost' as never, rejection: { message: 'x' } },
      ),
    ).toThrow(/CHECK constraint failed/);
    expect(log.get('H-1')).toEqual(order);
    expect(log.events('H-1')).toEqual(events);
    expect(db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'order_events'").pluck().get()).toBe(seqBefore);

    // A payload JSON cannot hold fails before any row is touched, and changes nothing either.
    expect(() => log.transition('H-1', 'unknown', { source: 'system', payload: { n: 1n } })).toThrow(/BigInt/);
    expect(log.get('H-1')).toEqual(order);
    expect(log.events('H-1')).toEqual(events);
    expect(log.transition('H-1', 'unknown', { source: 'system' }).state).toBe('unknown');
  });

  it('a failure after the order row is written rolls the row back too (create, late payment)', () => {
    db.exec(`CREATE TEMP TRIGGER refuse_event BEFORE INSERT ON order_events WHEN NEW.reason = 'boom'
             BEGIN SELECT RAISE(ABORT, 'event refused'); END`);
    // create: the order row goes in first (the event's foreign key needs it), then its 'created' event fails.
    db.exec(`CREATE TEMP TRIGGER refuse_created BEFORE INSERT ON order_events WHEN NEW.type = 'created' AND NEW.order_id = 'F-1'
             BEGIN SELECT RAISE(ABORT, 'event refused'); END`);
    expect(() => log.create(minimal('F-1'), { source: 'cashier' })).toThrow('event refused');
    expect(log.get('F-1')).toBeUndefined();

    const cancelled = orderIn('F-2', 'cancelled');
    const events = log.events('F-2');
    expect(() => log.flagLatePayment('F-2', { source: 'callback', reason: 'boom' })).toThrow('event refused');
    expect(log.get('F-2')).toEqual(cancelled);
    expect(log.events('F-2')).toEqual(events);

    expect(() => log.setDelivery('F-2', 'sent', { source: 'system', reason: 'boom' })).toThrow('event refused');
    expect(log.get('F-2')).toEqual(cancelled);
  });

  it('a second connection to the same file sees committed orders', () => {
    log.create(minimal('W-1'), { source: 'cashier' });
    const other = openDatabase(path);
    try {
      const otherLog = new OrderLog(other, { now: () => now });
      expect(otherLog.get('W-1')).toEqual(log.get('W-1'));
      otherLog.transition('W-1', 'unknown', { source: 'reconcile' });
      expect(log.get('W-1')!.state).toBe('unknown');
    } finally {
      other.close();
    }
  });
});

describe('OrderLog.onChange', () => {
  it('announces each changed order after commit, never a rolled-back change', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { openDatabase } = await import('../../src-main/db/open');
    const { OrderLog } = await import('../../src-main/core/orders/order-log');
    const dir = mkdtempSync(join(tmpdir(), 'loket-onchange-'));
    const db = openDatabase(join(dir, 'loket.db'));
    try {
      const log = new OrderLog(db);
      const seen: string[] = [];
      const stop = log.onChange((o) => seen.push(`${o.id}:${o.state}`));
      log.create(
        {
          id: 'A-1',
          terminalId: 'T01',
          api: 'v2',
          methodId: 'qris_dynamic',
          kind: 'qris',
          amount: 1000,
          currency: 'IDR',
          itemName: 'x',
          userId: 'u',
          training: true,
          requestBody: '{}',
        },
        { source: 'cli' },
      );
      log.transition('A-1', 'awaiting_payment', { source: 'gateway' });
      expect(() => log.transition('A-1', 'creating', { source: 'gateway' })).toThrow();
      expect(() => log.transition('NOPE', 'paid', { source: 'gateway' })).toThrow();
      log.transition('A-1', 'paid', { source: 'callback' });
      stop();
      log.note('A-1', { source: 'manager', reason: 'after unsubscribe' });
      expect(seen).toEqual(['A-1:creating', 'A-1:awaiting_payment', 'A-1:paid']);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('OrderLog.atomically', () => {
  it('commits several writes together, or none of them, and announces only after the commit', () => {
    orderIn('B-1', 'awaiting_payment');
    const before = log.get('B-1')!;
    const events = log.events('B-1');
    const seen: string[] = [];
    log.onChange((o) => seen.push(`${o.id}:${o.state}`));
    expect(() =>
      log.atomically(() => {
        log.transition('B-1', 'paid', { source: 'callback' });
        log.note('B-1', { source: 'callback', reason: 'inside' });
        throw new Error('crash between the two');
      }),
    ).toThrow('crash between the two');
    expect(log.get('B-1')).toEqual(before);
    expect(log.events('B-1')).toEqual(events);
    expect(seen).toEqual([]);

    const state = log.atomically(() => {
      log.note('B-1', { source: 'callback', reason: 'first' });
      return log.transition('B-1', 'paid', { source: 'callback' }).state;
    });
    expect(state).toBe('paid');
    expect(log.events('B-1').slice(events.length)).toMatchObject([
      { type: 'note', reason: 'first' },
      { type: 'state_changed', to: 'paid' },
    ]);
    // One announcement per order, after the outer commit.
    expect(seen).toEqual(['B-1:paid']);
  });
});
