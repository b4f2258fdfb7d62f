import { formatGatewayDate } from '../gateway-time';
import type { SandboxKindOrder, SandboxPayment, SandboxPaymentContext } from './kind-spec';
import { SANDBOX_OK } from './kind-spec';

/*
 * The sandbox's side of the two code kinds (bank virtual account, store payment code): the same number and the
 * same `{data, success}` answer; they differ in what the customer is told.
 */

export function virtualAccountPayment(c: SandboxPaymentContext): SandboxPayment {
  return { va: c.newVirtualAccount(), ...(c.method.requiresCustomerName ? {} : { payment_url: c.pageUrl }) };
}

export function virtualAccountAnswer(order: SandboxKindOrder, timeZone: string): Record<string, unknown> {
  const p = order.payment;
  const data: Record<string, unknown> = {
    customer_name: order.request.customer_name ?? '',
    expired_date: formatGatewayDate(order.expiresAt, timeZone),
    message: SANDBOX_OK.message,
  };
  if (p.payment_url !== undefined) data.payment_url = p.payment_url;
  Object.assign(data, { retcode: SANDBOX_OK.retcode, success: true, transaction_id: order.transactionId, va: p.va });
  return { data, success: true };
}
