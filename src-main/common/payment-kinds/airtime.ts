import { CARRIER_BILLING_SHAPE } from './answer-shapes';
import { defineKind, SANDBOX_OK } from './kind-spec';

/** Plain carrier billing: the amount is charged to the phone's balance; the answer is the envelope alone. */
export const airtime = defineKind({
  kind: 'airtime',
  label: 'airtime',
  answer: CARRIER_BILLING_SHAPE,
  lifetimeSeconds: 10 * 60,
  phone: 'charged',
  sandbox: {
    payment: () => ({}),
    answer: () => ({ ...SANDBOX_OK }),
    page: ({ method, request }, { esc }) =>
      request.user_mdn
        ? `<p>The amount is charged to the ${esc(method.provider)} balance of ${esc(request.user_mdn)}.</p>`
        : `<p>The amount is charged to the customer's ${esc(method.provider)} balance.</p>`,
  },
});
