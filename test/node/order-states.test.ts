import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ORDER_STATES, type OrderState } from '../../src-main/common/order';
import { IllegalTransitionError, TRANSITIONS } from '../../src-main/common/order-policy';
import { OrderLog, type NewOrder } from '../../src-main/core/orders/order-log';
import { openDatabase, type Database } from '../../src-main/db/open';

let dir: string;
let db: Database;
let log: OrderLog;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loket-states-'));
  db = openDatabase(join(dir, 'loket.db'));
  let tick = Date.parse('2025-03-01T03:00:00.000Z');
  log = new OrderLog(db, { now: () => new Date((tick += 1000)) });
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const newOrder = (id: string): NewOrder => ({
  id,
  terminalId: 'T1',
  api: 'v2',
  methodId: 'qris',
  kind: 'qris',
  amount: 10000,
  currency: 'IDR',
  itemName: 'Teh',
  userId: 'u1',
  training: true,
  requestBody: '{}',
});

/** The shortest legal path from `creating` to each state, found from TRANSITIONS itself. */
function pathsFromCreating(): Map<OrderState, OrderState[]> {
  const paths = new Map<OrderState, OrderState[]>([['creating', []]]);
  const queue: OrderState[] = ['creating'];
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const to of TRANSITIONS[from]) {
      if (paths.has(to)) continue;
      paths.set(to, [...paths.get(from)!, to]);
      queue.push(to);
    }
  }
  return paths;
}

const PATHS = pathsFromCreating();
const LEGAL = ORDER_STATES.flatMap((from) => TRANSITIONS[from].map((to) => [from, to] as const));
const ILLEGAL = ORDER_STATES.flatMap((from) =>
  ORDER_STATES.filter((to) => !TRANSITIONS[from].includes(to)).map((to) => [from, to] as const),
);

function orderIn(state: OrderState): string {
  const id = `O-${state}`;
  log.create(newOrder(id), { source: 'cashier' });
  for (const step of PATHS.get(state)!) log.transition(id, step, { source: 'system' });
  expect(log.get(id)!.state).toBe(state);
  return id;
}

describe('order state machine through OrderLog.transition', () => {
  it('every state is reachable from creating, and the pairs cover all 8×8', () => {
    expect([...PATHS.keys()].sort()).toEqual([...ORDER_STATES].sort());
    expect(LEGAL.length + ILLEGAL.length).toBe(ORDER_STATES.length ** 2);
  });

  it.each(LEGAL)('%s → %s is allowed and writes exactly one event', (from, to) => {
    const id = orderIn(from);
    const before = log.events(id);
    const order = log.transition(id, to, { source: 'manager', actor: 'mgr', reason: 'test', payload: { step: to } });

    expect(order.state).toBe(to);
    expect(log.get(id)!.state).toBe(to);
    const after = log.events(id);
    expect(after).toHaveLength(before.length + 1);
    expect(after.slice(0, -1)).toEqual(before);
    expect(after.at(-1)).toMatchObject({
      type: 'state_changed',
      from,
      to,
      source: 'manager',
      actor: 'mgr',
      reason: 'test',
      payload: { step: to },
    });
    expect(after.at(-1)!.at).toBe(order.updatedAt);
  });

  it.each(ILLEGAL)('%s → %s is refused and changes nothing', (from, to) => {
    const id = orderIn(from);
    const order = log.get(id);
    const events = log.events(id);

    let error: unknown;
    try {
      log.transition(id, to, { source: 'manager' }, { paidAt: '2025-03-01T04:00:00.000Z' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(IllegalTransitionError);
    expect(error).toMatchObject({ orderId: id, from, to });
    expect(log.get(id)).toEqual(order);
    expect(log.events(id)).toEqual(events);
  });
});
