// @vitest-environment jsdom
// Late payments at the till: the list the server keeps, asked again when a late payment comes in, and "seen".
import { describe, expect, test } from 'vitest';
import type { Order } from '../../../src-main/common/order';
import { CallError } from '../../../src-renderer/src/api/errors';
import { LatePaymentsManager } from '../../../src-renderer/src/state/late-payments.svelte';
import { FakeApi, makeOrder } from './fake-client';

describe('late payments at the till', () => {
  test('loaded from the server; a live event with a late payment asks again; seen removes it', async () => {
    let unseen: Order[] = [];
    const fake = new FakeApi()
      .on('latePayments', () => unseen)
      .on('acknowledgeLatePayment', (id) => {
        unseen = unseen.filter((o) => o.id !== id);
        return makeOrder({ id, state: 'cancelled', latePayment: true });
      });
    const late = new LatePaymentsManager({ api: fake.api });
    await late.load();
    expect(late.orders).toEqual([]);

    const paid = makeOrder({ id: 'T01-LATE', state: 'cancelled', latePayment: true, amount: 30_000 });
    unseen = [paid];
    late.observe(makeOrder({ id: 'T01-OTHER', state: 'paid' }));
    await Promise.resolve();
    expect(fake.callsOf('latePayments')).toHaveLength(1);
    late.observe(paid);
    await expect.poll(() => late.orders.map((o) => o.id)).toEqual(['T01-LATE']);

    await late.acknowledge('T01-LATE');
    expect(fake.callsOf('acknowledgeLatePayment')).toEqual([['T01-LATE']]);
    expect(late.orders).toEqual([]);
  });

  test('a "seen" that fails keeps the payment on screen, with why', async () => {
    const paid = makeOrder({ id: 'T01-LATE', state: 'cancelled', latePayment: true });
    const fake = new FakeApi()
      .on('latePayments', () => [paid])
      .fail('acknowledgeLatePayment', new CallError('network', 'Loket did not answer.'));
    const late = new LatePaymentsManager({ api: fake.api });
    await late.load();
    await late.acknowledge(paid.id);
    expect(late.orders.map((o) => o.id)).toEqual([paid.id]);
    expect(late.error).toMatchObject({ id: paid.id, error: { code: 'network' } });
    expect(late.busy).toBeNull();
  });
});
