import { formatGatewayDate } from '../common/gateway-time';
import { RETCODE } from '../common/retcodes';
import type { SandboxOrder } from './orders';

export const CREATED_MESSAGE = 'Transaction created successfully';

const ok = { message: CREATED_MESSAGE, retcode: RETCODE.OK, success: true } as const;

/**
 * The V2 success body for the order's kind, with exactly the fields of the interface's answer table (docs/gateway-interface.md, "Answers"):
 * flat objects for QR, SMS reply, e-wallets and plain airtime; the `{data, success}` wrapper for
 * bank and store virtual accounts.
 */
export function v2SuccessBody(order: SandboxOrder, timeZone: string): Record<string, unknown> {
  const p = order.payment;
  switch (order.method.kind) {
    case 'qris':
      return {
        back_url: p.back_url,
        message: ok.message,
        qrString: p.qrString,
        qrisUrl: p.qrisUrl,
        retcode: ok.retcode,
        success: true,
      };
    case 'airtime_sms': {
      const body: Record<string, unknown> = {
        message: ok.message,
        ...(p.phone_number === undefined ? {} : { phone_number: p.phone_number }),
        keyword: p.keyword,
        trx_type: p.trx_type,
      };
      if (p.short_code !== undefined) body.short_code = p.short_code;
      return { ...body, sms_code: p.sms_code, retcode: ok.retcode, success: true };
    }
    case 'ewallet_redirect': {
      const body: Record<string, unknown> = {};
      if (p.back_url !== undefined) body.back_url = p.back_url;
      return { ...body, message: ok.message, redirect: p.redirect, retcode: ok.retcode, success: true };
    }
    case 'ewallet_qr_redirect':
      return {
        back_url: p.back_url,
        message: ok.message,
        qrisUrl: p.qrisUrl,
        redirect: p.redirect,
        retcode: ok.retcode,
        success: true,
      };
    case 'airtime':
      return { ...ok };
    case 'va_bank':
    case 'va_cstore': {
      const data: Record<string, unknown> = {
        customer_name: order.request.customer_name ?? '',
        expired_date: formatGatewayDate(order.expiresAt, timeZone),
        message: ok.message,
      };
      if (p.payment_url !== undefined) data.payment_url = p.payment_url;
      Object.assign(data, { retcode: ok.retcode, success: true, transaction_id: order.transactionId, va: p.va });
      return { data, success: true };
    }
  }
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
