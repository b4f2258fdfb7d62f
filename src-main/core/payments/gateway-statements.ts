import { parseGatewayDate } from '../../common/gateway-time';
import {
  GATEWAY_STATUS_STATE,
  gatewayStatusEffect,
  mismatchedFields,
  type MismatchField,
} from '../../common/order-policy';
import type { Order, PaymentInstruction } from '../../common/order';
import type { PaymentKind } from '../../common/payment-kinds';
import type { GatewayClient, InquiryResult, InquiryStatus } from '../gateway/client';
import { fitsKind } from '../gateway/parse-response';
import type { OrderLog } from '../orders/order-log';
import type { Clock } from '../ports';
import type { Actor } from './actor';

/**
 * What the gateway states about an order — a status inquiry's answer, a callback's status — applied to the order log
 * (docs/orders.md): only forward changes, a payment after a give-up kept as a late payment, an answer that does not
 * describe the order noted and never applied. Apart from OrderService so that creating and sending orders and reading
 * the gateway's statements are each one file; OrderService delegates to it.
 */
export class GatewayStatements {
  constructor(
    private readonly log: OrderLog,
    private readonly client: GatewayClient,
    private readonly clock: Clock,
    private readonly options: { gatewayTimeZone: string; fallbackTtlSeconds: Record<PaymentKind, number> },
  ) {}

  /** What a status inquiry found, applied to an unknown order; returns what happened, in words. */
  applyInquiry(order: Order, answer: InquiryResult & { ok: true }, actor: Actor): string {
    const fields = mismatchedFields(order, answer);
    if (fields.length > 0) {
      this.noteMismatch(
        order,
        'inquiry',
        fields,
        answer,
        false,
        { ...actor, source: 'inquiry' },
        { inquiry: answer.raw },
      );
      return `left unknown: the status inquiry's answer does not match the order (${fields.join(', ')}); a manager must check it`;
    }
    if (answer.status === 'PENDING') {
      // The create answer is lost. Where the inquiry repeats the payment data, the customer gets the same
      // kind of instruction the order had (a QRIS code stays a QRIS code); else, where it names the
      // payment-page token, they pay through the hosted page (shown as a QR to open on the phone).
      // Payment data of another kind's shape is not this order's way to pay: it is left out (docs/orders.md).
      const repeated = answer.instruction && fitsKind(order.kind, answer.instruction) ? answer.instruction : undefined;
      const instruction: PaymentInstruction | undefined =
        repeated ??
        (answer.token
          ? { type: 'payment_page', url: this.client.paymentPageUrl(answer.token), token: answer.token }
          : undefined);
      this.log.transition(
        order.id,
        'awaiting_payment',
        {
          ...actor,
          reason: 'the status inquiry found the order waiting for payment',
          payload: { inquiry: answer.raw },
        },
        {
          ...(answer.transactionId ? { gatewayTransactionId: answer.transactionId } : {}),
          ...(instruction ? { instruction } : {}),
          ...(repeated ? { expiresAt: this.expiry(order.kind, repeated, answer.expiredDate) } : {}),
        },
      );
      return repeated
        ? 'awaiting_payment (found by inquiry, with its payment data)'
        : instruction
          ? 'awaiting_payment (found by inquiry; the customer pays through the payment page)'
          : 'awaiting_payment (found by inquiry; its payment data must be read from the gateway)';
    }
    this.applyGatewayStatus(
      order.id,
      answer.status,
      { ...actor, reason: 'status inquiry' },
      { inquiry: answer.raw, paid_at: answer.paidAt },
      answer.transactionId,
    );
    return `${GATEWAY_STATUS_STATE[answer.status]} (by inquiry)`;
  }

  /**
   * Applies a status the gateway reported (callback or inquiry). Only forward changes apply; repeats are
   * no-ops; a payment for a cancelled, expired, failed or rejected order is kept as a flagged late payment.
   */
  applyGatewayStatus(
    id: string,
    status: InquiryStatus,
    meta: Actor & { reason?: string },
    payload?: unknown,
    /** The gateway's own id for the payment, from a callback or an inquiry: kept when the order lacks one. */
    transactionId?: string,
  ): { order: Order; applied: 'changed' | 'unchanged' | 'late_payment' | 'closed' } {
    const order = this.log.require(id);
    const decided = gatewayStatusEffect(order.state, status);
    if (decided.effect === 'late_payment') {
      return { order: this.log.flagLatePayment(id, { ...meta, payload }), applied: 'late_payment' };
    }
    if (decided.effect === 'closed_at_gateway') {
      // Expected after a cancel: kept on the order (the gateway's final word), never an attention item.
      this.log.note(id, {
        ...meta,
        reason: `the gateway reports ${status} for this order cancelled in Loket: it is closed there too`,
        payload: { gatewayFinal: status, ...(isRecord(payload) ? payload : {}) },
      });
      return { order: this.log.require(id), applied: 'closed' };
    }
    if (decided.effect === 'none') return { order, applied: 'unchanged' };
    const patch = {
      ...(decided.to === 'paid' ? { paidAt: this.clock.now().toISOString() } : {}),
      ...(transactionId && !order.gatewayTransactionId ? { gatewayTransactionId: transactionId } : {}),
    };
    return { order: this.log.transition(id, decided.to, { ...meta, payload }, patch), applied: 'changed' };
  }

  /**
   * A status inquiry's answer about order `id`, checked as a callback is before anything is applied: it must name
   * this order, with its amount (and its method, where it names one). One that does not is noted on the order for
   * the manager's attention queue (once per distinct answer) and applied in no way — an unsigned answer that
   * describes another order must never mark this one paid. Otherwise the status is applied (applyGatewayStatus).
   */
  applyInquiryAnswer(
    id: string,
    answer: InquiryResult & { ok: true },
    meta: Actor & { reason?: string },
  ): { order: Order; applied: 'changed' | 'unchanged' | 'late_payment' | 'closed' | 'mismatch' } {
    const order = this.log.require(id);
    const fields = mismatchedFields(order, answer);
    if (fields.length > 0) {
      return {
        order: this.noteMismatch(order, 'inquiry', fields, answer, false, meta, { inquiry: answer.raw }),
        applied: 'mismatch',
      };
    }
    if (answer.status === 'PENDING') return { order, applied: 'unchanged' };
    return this.applyGatewayStatus(
      id,
      answer.status,
      { ...meta, reason: meta.reason ?? `status inquiry: ${answer.status}` },
      { inquiry: answer.raw, ...(answer.paidAt ? { paid_at: answer.paidAt } : {}) },
      answer.transactionId,
    );
  }

  /**
   * Notes, for the manager's attention queue, that the gateway said something about the order that does not match
   * it (`applied`: whether it was applied all the same — a signed callback's other method). Written once per
   * distinct statement: a poller asking again, or a gateway retrying, adds nothing.
   */
  noteMismatch(
    order: Order,
    via: 'inquiry' | 'callback',
    fields: readonly MismatchField[],
    reported: { merchantTransactionId?: string; amount?: number; paymentMethod?: string; status: string },
    applied: boolean,
    meta: Actor & { reason?: string },
    extra: Record<string, unknown> = {},
  ): Order {
    const said = {
      ...(reported.merchantTransactionId === undefined
        ? {}
        : { merchant_transaction_id: reported.merchantTransactionId }),
      ...(reported.amount === undefined ? {} : { amount: reported.amount }),
      ...(reported.paymentMethod === undefined ? {} : { payment_method: reported.paymentMethod }),
      status: reported.status,
    };
    const mismatch = { via, fields: [...fields], reported: said, applied };
    const last = this.log.lastMismatch(order.id);
    if (last && JSON.stringify(last) === JSON.stringify(mismatch)) return this.log.require(order.id);
    const expected = { merchant_transaction_id: order.id, amount: order.amount, payment_method: order.methodId };
    this.log.note(order.id, {
      source: meta.source,
      ...(meta.actor === undefined ? {} : { actor: meta.actor }),
      reason:
        `the gateway's ${via === 'inquiry' ? 'status answer' : 'callback'} does not match the order ` +
        `(${fields.map((f) => `${f}: ${JSON.stringify(said[f] ?? null)}, expected ${JSON.stringify(expected[f])}`).join('; ')}); ` +
        (applied ? 'applied, for a manager to check' : 'not applied'),
      payload: { mismatch, ...extra },
    });
    return this.log.require(order.id);
  }

  expiry(kind: PaymentKind, instruction: PaymentInstruction, expiredDate?: string): string {
    const stated = expiredDate ?? (instruction.type === 'virtual_account' ? instruction.expired_date : undefined);
    const parsed = stated ? parseGatewayDate(stated, this.options.gatewayTimeZone) : undefined;
    if (parsed) return parsed.toISOString();
    return new Date(this.clock.now().getTime() + this.options.fallbackTtlSeconds[kind] * 1000).toISOString();
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
