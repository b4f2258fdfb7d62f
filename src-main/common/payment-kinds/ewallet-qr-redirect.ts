import { EWALLET_SHAPE } from './answer-shapes';
import { defineKind, SANDBOX_OK } from './kind-spec';

/** An e-wallet that offers both: a QR image to scan (qrisUrl) and a redirect to confirm in its app. */
export const ewalletQrRedirect = defineKind({
  kind: 'ewallet_qr_redirect',
  label: 'ewallet',
  answer: EWALLET_SHAPE,
  lifetimeSeconds: 15 * 60,
  sandbox: {
    // The image behind qrisUrl; the V2 body itself carries no qrString for this kind.
    payment: (c) => ({
      qrString: c.qrString(),
      qrisUrl: c.qrisUrl,
      redirect: c.pageUrl,
      back_url: c.request.redirect_url ?? c.pageUrl,
    }),
    answer: ({ payment: p }) => ({
      back_url: p.back_url,
      message: SANDBOX_OK.message,
      qrisUrl: p.qrisUrl,
      redirect: p.redirect,
      retcode: SANDBOX_OK.retcode,
      success: true,
    }),
    page: ({ method }, { esc, qrSvg }) =>
      `<p>Scan with ${esc(method.provider)}, or confirm below to pay in the app.</p><div class="qr">${qrSvg}</div>`,
  },
});
