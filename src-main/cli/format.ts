import { formatGatewayDate } from '../common/gateway-time';
import { formatRupiah } from '../common/money';
import type { Order, PaymentInstruction } from '../common/order';
import type { PaymentMethod } from '../common/payment-methods';

export function instructionLines(instruction: PaymentInstruction | undefined): string[] {
  if (!instruction) return ['Pay: (no payment data from the gateway yet)'];
  switch (instruction.type) {
    case 'qr':
      return [
        'Pay: scan the QRIS code',
        `  qrString: ${instruction.qrString}`,
        ...(instruction.qrisUrl ? [`  qrisUrl:  ${instruction.qrisUrl}`] : []),
      ];
    case 'ewallet':
      return [
        'Pay: open the e-wallet',
        `  redirect: ${instruction.redirect}`,
        ...(instruction.qrisUrl ? [`  qrisUrl:  ${instruction.qrisUrl}`] : []),
      ];
    case 'sms_reply':
      return [
        `Pay: send SMS "${instruction.keyword} ${instruction.sms_code}"` +
          (instruction.short_code ? ` to ${instruction.short_code}` : '') +
          (instruction.phone_number ? ` from ${instruction.phone_number}` : ''),
      ];
    case 'carrier_billing':
      return ['Pay: the amount is charged to the phone number; the customer confirms on the phone'];
    case 'virtual_account':
      return [
        `Pay: transfer to virtual account ${instruction.va}`,
        ...(instruction.payment_url ? [`  payment_url: ${instruction.payment_url}`] : []),
      ];
    case 'payment_page':
      return ['Pay: open the payment page', `  ${instruction.url}`];
  }
}

export function orderSummaryLines(order: Order, methods: readonly PaymentMethod[], timeZone: string): string[] {
  const method = methods.find((m) => m.id === order.methodId);
  const lines = [
    `Order ${order.id}  ${order.state}${order.training ? '  [SANDBOX]' : ''}${order.latePayment ? '  [LATE PAYMENT]' : ''}`,
    `  ${method?.label.en ?? order.methodId} · ${formatRupiah(order.amount)} · ${order.itemName}`,
    `  created ${formatGatewayDate(new Date(order.createdAt), timeZone)} (${timeZone})`,
  ];
  if (order.state === 'awaiting_payment') {
    lines.push(...instructionLines(order.instruction).map((l) => `  ${l}`));
    if (order.expiresAt) lines.push(`  expires ${formatGatewayDate(new Date(order.expiresAt), timeZone)}`);
  }
  if (order.rejection) {
    lines.push(
      '  rejected: ' +
        (order.rejection.retcode ? `retcode ${order.rejection.retcode}, ` : '') +
        (order.rejection.httpStatus ? `HTTP ${order.rejection.httpStatus}: ` : '') +
        order.rejection.message,
    );
  }
  if (order.state === 'unknown') lines.push(`  delivery: ${order.delivery} — run "npm run cli -- reconcile"`);
  if (order.paidAt) lines.push(`  paid ${formatGatewayDate(new Date(order.paidAt), timeZone)}`);
  return lines;
}
