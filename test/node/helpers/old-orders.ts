import type { OrderState } from '../../../src-main/common/order';
import type { PaymentMethod } from '../../../src-main/common/payment-methods';
import type { OrderLog } from '../../../src-main/core/orders/order-log';

/**
 * An order as Loket made them before every charge was a sale: written to the order log alone (no sale, no sale
 * tender names it), then taken to `state` the way the gateway's answers took it. The books count a paid one as money
 * taken by its method (docs/end-of-day.md, "Money taken").
 */
export function oldOrder(
  log: OrderLog,
  methods: readonly PaymentMethod[],
  o: { id: string; methodId: string; amount: number; state: OrderState; training: boolean; latePayment?: boolean },
): void {
  const method = methods.find((m) => m.id === o.methodId)!;
  log.create(
    {
      id: o.id,
      terminalId: 'T01',
      api: 'v2',
      methodId: method.id,
      kind: method.kind,
      amount: o.amount,
      currency: 'IDR',
      itemName: 'Pesanan lama',
      userId: 'walkin',
      training: o.training,
      requestBody: '{}',
    },
    { source: 'cashier', actor: 'cashier' },
  );
  if (o.state === 'creating') return;
  log.transition(o.id, 'awaiting_payment', { source: 'gateway' }, { delivery: 'answered' });
  if (o.state === 'awaiting_payment') return;
  log.transition(
    o.id,
    o.state,
    { source: 'callback' },
    o.state === 'paid' ? { paidAt: log.clock.now().toISOString() } : {},
  );
  if (o.latePayment) log.flagLatePayment(o.id, { source: 'callback', reason: 'paid after it was given up on' });
}
