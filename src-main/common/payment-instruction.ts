import type { Order } from './order';
import { kindSpec } from './payment-kinds';
import type { PaymentMethod } from './payment-methods';

/*
 * What a customer needs to pay, as Loket shows and asks for it (no zod here: the renderer imports these).
 */

/** A VA number or store code in groups of four, as people read it aloud and type it: "8808 3715 5096 7166". */
export function groupInFours(code: string): string {
  return code.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * An order the customer may take a payment slip away for (docs/receipts.md, "The payment slip"): a bank virtual
 * account or a convenience-store code, still waiting for payment.
 */
export function hasPaymentSlip(order: Order): boolean {
  return (
    order.state === 'awaiting_payment' &&
    order.instruction?.type === 'virtual_account' &&
    kindSpec(order.kind).code !== undefined
  );
}

/** Keeps the last four digits of a phone number (a receipt leaves the shop; a display faces the shop): "********7890". */
export function maskPhone(phone: string): string {
  const visible = phone.slice(-4);
  return `${'*'.repeat(Math.max(0, Math.min(phone.length - 4, 8)))}${visible}`;
}

/**
 * The number the carrier's SMS goes to, masked, for an SMS-reply order without a short code (the customer replies to
 * an SMS they receive, so the screen says which phone to look at); undefined for any other order or when no number
 * is known. The gateway's echo of the number is preferred, else the number the cashier typed.
 */
export function smsReplyNumber(order: Pick<Order, 'instruction' | 'phone'>): string | undefined {
  const ins = order.instruction;
  if (ins?.type !== 'sms_reply' || ins.short_code) return undefined;
  const phone = ins.phone_number || order.phone;
  return phone ? maskPhone(phone) : undefined;
}

/**
 * Whether Loket asks for the customer's phone for this method: its catalogue says so, or it is an SMS-reply method
 * without a short code — the carrier sends the customer an SMS to reply to, so it needs the number that SMS goes
 * to. (A catalogue saved before this rule may still say requiresPhone: false for such a method.)
 */
export function asksForPhone(method: Pick<PaymentMethod, 'kind' | 'requiresPhone' | 'hasShortCode'>): boolean {
  return method.requiresPhone || (kindSpec(method.kind).phone === 'sms_reply' && !method.hasShortCode);
}
