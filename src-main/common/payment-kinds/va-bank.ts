import { VIRTUAL_ACCOUNT_SHAPE } from './answer-shapes';
import { defineKind } from './kind-spec';
import { virtualAccountAnswer, virtualAccountPayment } from './virtual-account-answer';

/** A bank virtual account: the customer transfers to it from an ATM or their bank's app, later if they like. */
export const vaBank = defineKind({
  kind: 'va_bank',
  label: 'va_bank',
  answer: VIRTUAL_ACCOUNT_SHAPE,
  lifetimeSeconds: 24 * 60 * 60,
  code: 'va',
  catalogue: { customerName: true },
  sandbox: {
    payment: virtualAccountPayment,
    answer: virtualAccountAnswer,
    page: ({ method, payment, request }, { esc, groupDigits }) =>
      `<p>Transfer to this ${esc(method.provider)} virtual account:</p>` +
      `<p class="big mono">${esc(groupDigits(payment.va ?? ''))}</p>` +
      `${request.customer_name ? `<p>Account name: ${esc(request.customer_name)}</p>` : ''}`,
  },
});
