import QRCode from 'qrcode';
import { formatGatewayDate } from '../common/gateway-time';
import { formatRupiah } from '../common/money';
import { kindSpec } from '../common/payment-kinds';
import { escapeHtml } from './http-io';
import type { SandboxOrder } from './orders';

/**
 * The hosted payment page at `/api/order/{appid}/{token}` (the interface (docs/gateway-interface.md) leaves its content "not
 * shown"). One page serves V1 orders, e-wallet redirects and VA payment links alike.
 */
export async function renderPaymentPage(order: SandboxOrder, timeZone: string, payAction: string): Promise<string> {
  const { request, method, payment, status } = order;
  const title = `${formatRupiah(request.amount)} · ${request.item_name}`;
  const expires = formatGatewayDate(order.expiresAt, timeZone);
  const qrSource = payment.qrString;
  const qrSvg = qrSource ? await QRCode.toString(qrSource, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }) : '';

  const instructions = kindSpec(method.kind).sandbox.page(order, { esc: escapeHtml, qrSvg, groupDigits });

  const stateBlock =
    status === 'PENDING'
      ? `${instructions}<p>Pay before <time data-expires="${order.expiresAt.toISOString()}">${escapeHtml(expires)}</time> (${escapeHtml(timeZone)}).</p>
         <form method="post" action="${escapeHtml(payAction)}"><button type="submit">Simulate payment (sandbox)</button></form>`
      : status === 'PAID'
        ? `<p class="state paid" role="status">Payment received. Thank you.</p>`
        : status === 'EXPIRED'
          ? `<p class="state expired" role="status">This payment has expired. Ask the cashier for a new one.</p>`
          : `<p class="state failed" role="status">This payment failed. Ask the cashier for a new one.</p>`;

  return page(
    title,
    `<header><span class="badge">SANDBOX</span> ${escapeHtml(method.label.en)}</header>
     <h1>${escapeHtml(formatRupiah(request.amount))}</h1>
     <p class="item">${escapeHtml(request.item_name)}</p>
     <dl><dt>Order</dt><dd class="mono">${escapeHtml(request.merchant_transaction_id)}</dd><dt>Status</dt><dd data-status="${status}">${status}</dd></dl>
     ${stateBlock}`,
    status === 'PENDING',
  );
}

export function renderNotFoundPage(): string {
  return page(
    'Payment page not found',
    `<header><span class="badge">SANDBOX</span></header><h1>Payment page not found</h1>
     <p>No order has this address. Check the link, or ask the cashier for a new one.</p>`,
    false,
  );
}

function groupDigits(digits: string): string {
  return digits.replace(/(.{4})(?=.)/g, '$1 ');
}

function page(title: string, body: string, refresh: boolean): string {
  // While unpaid the page refreshes itself, so a payment made elsewhere shows without a click.
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${refresh ? '<meta http-equiv="refresh" content="5">' : ''}
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#111;background:#fff}
header{font-weight:600}.badge{background:#b45309;color:#fff;padding:.1rem .5rem;border-radius:.25rem;font-size:.8rem;letter-spacing:.05em}
h1{font-size:2.5rem;margin:.5rem 0}.item{font-size:1.2rem}.big{font-size:1.6rem}.mono{font-family:ui-monospace,monospace}
.qr svg{width:100%;max-width:18rem;height:auto}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}
.state{font-size:1.4rem;font-weight:600}.paid{color:#166534}.expired,.failed{color:#991b1b}
button{font-size:1.1rem;padding:.6rem 1.2rem}
</style></head><body>${body}</body></html>`;
}
