import { SMS_REPLY_SHAPE } from './answer-shapes';
import { defineKind, SANDBOX_OK } from './kind-spec';

/**
 * Carrier billing confirmed by SMS: the customer texts a keyword and code, to the method's short code (two
 * carriers) or in reply to an SMS the carrier sends to their phone.
 */
export const airtimeSms = defineKind({
  kind: 'airtime_sms',
  label: 'airtime',
  answer: SMS_REPLY_SHAPE,
  lifetimeSeconds: 10 * 60,
  phone: 'sms_reply',
  catalogue: { shortCode: true },
  sandbox: {
    // phone_number is optional in the interface: without user_mdn the customer replies from any phone.
    payment: (c) => ({ ...(c.request.user_mdn ? { phone_number: c.request.user_mdn } : {}), ...c.smsDetails() }),
    answer: ({ payment: p }) => ({
      message: SANDBOX_OK.message,
      ...(p.phone_number === undefined ? {} : { phone_number: p.phone_number }),
      keyword: p.keyword,
      trx_type: p.trx_type,
      ...(p.short_code === undefined ? {} : { short_code: p.short_code }),
      sms_code: p.sms_code,
      retcode: SANDBOX_OK.retcode,
      success: true,
    }),
    page: ({ payment }, { esc }) =>
      (payment.phone_number
        ? `<p>Send an SMS from ${esc(payment.phone_number)}:</p>`
        : '<p>Send an SMS from your phone:</p>') +
      `<p class="big"><b>${esc(payment.keyword ?? '')} ${esc(payment.sms_code ?? '')}</b>` +
      `${payment.short_code ? ` to <b>${esc(payment.short_code)}</b>` : ''}</p>`,
  },
});
