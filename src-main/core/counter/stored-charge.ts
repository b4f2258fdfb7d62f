import type { Order } from '../../common/order';
import type { ChargeSaleResult, SaleView } from '../../common/sale';
import { publicFailure, type GatewayFailure } from '../gateway/client';

/**
 * A charge's answer read back from what it wrote: the sale, and its gateway order as it stands now. What a charge made
 * again under the same key answers (counter.ts), so a double tap, a browser's retry or a second tab sees the first
 * charge's outcome, in the same shape the first got: an order the gateway took (waiting, paid, or since expired,
 * cancelled or failed) goes on the payment panel; one whose outcome is open is a failure that says it may exist (or,
 * never sent, that it is safe to send again); a refusal is the gateway's refusal.
 */
export function storedChargeResult(sale: SaleView, order: Order | undefined): ChargeSaleResult {
  if (!order) return { ok: true, saleId: sale.id, sale, order: null };
  const failure = failureOf(order);
  if (!failure) return { ok: true, saleId: sale.id, sale, order };
  return { ok: false, saleId: sale.id, sale, order, failure: publicFailure(failure, order.state) };
}

function failureOf(order: Order): GatewayFailure | undefined {
  switch (order.state) {
    case 'awaiting_payment':
    case 'paid':
    case 'expired':
    case 'cancelled':
    case 'failed':
      return undefined;
    case 'creating':
      return { class: 'unknown', message: `order ${order.id} is being sent to the gateway: wait for its answer` };
    case 'unknown':
      return order.delivery === 'not_sent'
        ? { class: 'not_sent', message: `order ${order.id} never reached the gateway: it is safe to send it again` }
        : { class: 'unknown', message: `the outcome of order ${order.id} is unknown: it may exist at the gateway` };
    case 'rejected':
      return {
        class: 'rejected',
        message: order.rejection?.message ?? `the gateway refused order ${order.id}`,
        httpStatus: order.rejection?.httpStatus ?? 0,
        duplicate: false,
        ...(order.rejection?.retcode ? { retcode: order.rejection.retcode } : {}),
      };
  }
}
