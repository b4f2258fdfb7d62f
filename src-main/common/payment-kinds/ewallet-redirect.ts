import { EWALLET_SHAPE } from './answer-shapes';
import { defineKind, SANDBOX_OK } from './kind-spec';

/** An e-wallet that takes the customer to its app or page to confirm (one of them answers without back_url). */
export const ewalletRedirect = defineKind({
  kind: 'ewallet_redirect',
  label: 'ewallet',
  answer: EWALLET_SHAPE,
  lifetimeSeconds: 15 * 60,
  sandbox: {
    payment: (c) => ({
      redirect: c.pageUrl,
      ...(c.method.returnsBackUrl ? { back_url: c.request.redirect_url ?? c.pageUrl } : {}),
    }),
    answer: ({ payment: p }) => ({
      ...(p.back_url === undefined ? {} : { back_url: p.back_url }),
      message: SANDBOX_OK.message,
      redirect: p.redirect,
      retcode: SANDBOX_OK.retcode,
      success: true,
    }),
    page: ({ method }, { esc }) => `<p>Confirm the payment in ${esc(method.provider)}.</p>`,
  },
});
