import { VIRTUAL_ACCOUNT_SHAPE } from './answer-shapes';
import { defineKind } from './kind-spec';
import { virtualAccountAnswer, virtualAccountPayment } from './virtual-account-answer';

/** A convenience store's payment code: the customer shows it at an Alfamart or Indomaret cashier. */
export const vaCstore = defineKind({
  kind: 'va_cstore',
  label: 'va_cstore',
  answer: VIRTUAL_ACCOUNT_SHAPE,
  lifetimeSeconds: 24 * 60 * 60,
  code: 'paymentCode',
  sandbox: {
    payment: virtualAccountPayment,
    answer: virtualAccountAnswer,
    page: ({ method, payment }, { esc, groupDigits }) =>
      `<p>Show this payment code at the ${esc(method.provider)} cashier:</p>` +
      `<p class="big mono">${esc(groupDigits(payment.va ?? ''))}</p>`,
  },
});
