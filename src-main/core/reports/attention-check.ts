import type { Order } from '../../common/order';
import { reason as saying, type Reason } from '../../common/reasons';
import type { GatewayClient } from '../gateway/client';
import type { OrderLog } from '../orders/order-log';
import { describeFailure, type OrderService } from '../payments/order-service';
import type { CallbackIssues } from './callback-issues';
import { refused } from './errors';

/**
 * Asking the gateway about an order on a manager's behalf (the attention queue's "check", docs/end-of-day.md,
 * "Acting on an item"), and what the actions need for it.
 */

/** What acting on an item needs: the order log and its service, the gateway's inquiry, the callback issues. */
export interface AttentionDeps {
  log: OrderLog;
  orders: OrderService;
  /** The gateway's status inquiry, for checking an order that is not `unknown` (OrderService.resolve does those). */
  client?: Pick<GatewayClient, 'inquire'> & { readonly config: { readonly inquiryPath: string | null } };
  /** Default: the callback issues on the log's connection. */
  issues?: CallbackIssues;
}

/**
 * Asks the gateway about one order, on a manager's behalf: the reason goes on the order first, then an unknown
 * order is resolved by OrderService (inquiry or re-send), any other is asked with the status inquiry and the
 * answer applied (forward changes only; a payment for a given-up order is flagged). `answered`: the gateway
 * gave an answer Loket could use.
 */
export async function checkOrder(
  deps: AttentionDeps,
  order: Order,
  reason: string,
  actor: { name: string; staffId?: number },
): Promise<{ answered: boolean; order: Order; message: string; reason: Reason }> {
  const who = {
    source: 'manager' as const,
    actor: actor.name,
    ...(actor.staffId === undefined ? {} : { staffId: actor.staffId }),
  };
  if (order.state !== 'unknown' && !deps.client?.config.inquiryPath)
    throw refused(
      `this gateway has no status inquiry, so order ${order.id} (${order.state}) cannot be checked from here: ` +
        'look it up at the gateway, then mark it paid or cancel it',
      saying('attention.no_inquiry', { orderId: order.id, state: order.state }),
    );
  deps.log.note(order.id, { ...who, reason, payload: { attention: 'check' } });
  if (order.state === 'unknown') {
    const outcome = await deps.orders.resolve(order.id, who);
    const after = deps.log.require(order.id);
    return {
      answered: after.state !== 'unknown',
      order: after,
      message: outcome.ok ? `order ${order.id} is now ${after.state}` : describeFailure(outcome.failure),
      reason:
        after.state === 'unknown'
          ? saying('attention.still_unknown', { orderId: order.id })
          : saying('attention.now', { orderId: order.id, state: after.state }),
    };
  }
  const answer = await deps.client!.inquire(order.id);
  if (!answer.ok) {
    deps.log.note(order.id, { ...who, reason: `check: the status inquiry failed: ${answer.failure.message}` });
    return {
      answered: false,
      order: deps.log.require(order.id),
      message: `the status inquiry failed: ${answer.failure.message}`,
      reason: saying('attention.inquiry_failed', { orderId: order.id }),
    };
  }
  const { order: after, applied } = deps.orders.applyInquiryAnswer(order.id, answer, {
    ...who,
    reason: `check: the status inquiry says ${answer.status}`,
  });
  if (applied === 'mismatch')
    return {
      answered: false,
      order: after,
      message: `the gateway's answer does not match order ${order.id} (another order, amount or method): not applied`,
      reason: saying('attention.mismatch_not_applied', { orderId: order.id }),
    };
  if (answer.status === 'PENDING') {
    deps.log.note(order.id, {
      ...who,
      reason: 'check: the gateway still waits for payment',
      payload: { inquiry: answer.raw },
    });
    return {
      answered: true,
      order: deps.log.require(order.id),
      message: `the gateway still waits for payment of order ${order.id}: cancel it, or mark it paid when the money is seen`,
      reason: saying('attention.still_waiting', { orderId: order.id }),
    };
  }
  return {
    answered: true,
    order: after,
    message:
      applied === 'changed'
        ? `order ${order.id} is now ${after.state} (status inquiry: ${answer.status})`
        : applied === 'late_payment'
          ? `the gateway says ${answer.status}: kept as a late payment on ${after.state} order ${order.id}`
          : applied === 'closed'
            ? `the gateway says ${answer.status}: order ${order.id}, cancelled in Loket, is closed there too`
            : `the gateway says ${answer.status}; order ${order.id} stays ${after.state}`,
    reason:
      applied === 'changed'
        ? saying('attention.now', { orderId: order.id, state: after.state })
        : applied === 'late_payment'
          ? saying('attention.kept_late', { orderId: order.id, status: answer.status, state: after.state })
          : applied === 'closed'
            ? saying('attention.closed', { orderId: order.id, status: answer.status })
            : saying('attention.stays', { orderId: order.id, status: answer.status, state: after.state }),
  };
}
