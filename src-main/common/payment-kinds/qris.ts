import { QR_SHAPE } from './answer-shapes';
import { defineKind, SANDBOX_OK } from './kind-spec';

/** QRIS: one QR code any banking or e-wallet app pays. */
export const qris = defineKind({
  kind: 'qris',
  label: 'qris',
  answer: QR_SHAPE,
  lifetimeSeconds: 15 * 60,
  sandbox: {
    payment: (c) => ({ qrString: c.qrString(), qrisUrl: c.qrisUrl, back_url: c.request.redirect_url ?? c.pageUrl }),
    answer: ({ payment: p }) => ({
      back_url: p.back_url,
      message: SANDBOX_OK.message,
      qrString: p.qrString,
      qrisUrl: p.qrisUrl,
      retcode: SANDBOX_OK.retcode,
      success: true,
    }),
    page: ({ payment }, { esc, qrSvg }) =>
      `<p>Scan this QRIS code with any banking or e-wallet app.</p><div class="qr" data-qr="${esc(payment.qrString ?? '')}">${qrSvg}</div>`,
  },
});
