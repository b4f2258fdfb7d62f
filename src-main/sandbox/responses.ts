import { formatGatewayDate } from '../common/gateway-time';
import { kindSpec } from '../common/payment-kinds';
import { SANDBOX_CREATED_MESSAGE } from '../common/payment-kinds/kind-spec';
import { RETCODE } from '../common/retcodes';
import type { SandboxOrder } from './orders';

export const CREATED_MESSAGE = SANDBOX_CREATED_MESSAGE;

/** The V2 success body for the order's kind (docs/gateway-interface.md, "Answers"): the kind's module writes it. */
export function v2SuccessBody(order: SandboxOrder, timeZone: string): Record<string, unknown> {
  return kindSpec(order.method.kind).sandbox.answer(order, timeZone);
}

/** The V1 answer (docs/gateway-interface.md). */
export function v1SuccessBody(order: SandboxOrder): Record<string, unknown> {
  return { success: true, retcode: RETCODE.OK, message: CREATED_MESSAGE, data: { token: order.token } };
}

/** The status inquiry's answer and the callback's payload share these facts (docs/orders.md, "How Loket learns paid"). */
export function statusFacts(order: SandboxOrder, timeZone: string) {
  return {
    merchant_transaction_id: order.request.merchant_transaction_id,
    transaction_id: order.transactionId,
    status: order.status,
    amount: order.request.amount,
    payment_method: order.request.payment_method,
    paid_at: order.paidAt ? formatGatewayDate(order.paidAt, timeZone) : null,
  };
}
