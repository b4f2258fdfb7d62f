import { z } from 'zod';
import type { OrderState } from './order';
import { unknownKindMessage } from './payment-kinds';
import { reason, type Reason } from './reasons';

/**
 * The rules of an order's life, each written once: which state may follow which, what counts as a reason,
 * what a gateway status means for the order, and what a failed charge allows next. Core enforces them,
 * the API gate and the CLI check arguments with them, and the screens read them instead of deriving their own.
 * The typed errors below are what core throws when a rule is broken; `toApiError` (api.ts) maps them.
 */

/** The one state machine. Anything not listed here is an illegal transition. */
export const TRANSITIONS: Readonly<Record<OrderState, readonly OrderState[]>> = {
  creating: ['awaiting_payment', 'rejected', 'unknown'],
  // An inquiry or callback can settle an unknown order in one step; a manager may cancel it.
  unknown: ['awaiting_payment', 'rejected', 'paid', 'expired', 'failed', 'cancelled'],
  awaiting_payment: ['paid', 'expired', 'cancelled', 'failed'],
  rejected: [],
  paid: [],
  expired: [],
  cancelled: [],
  failed: [],
};

export const FINAL_STATES: readonly OrderState[] = ['rejected', 'paid', 'expired', 'cancelled', 'failed'];

export function canTransition(from: OrderState, to: OrderState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The states an order must be in to become `to`, read off the table. */
export function statesLeadingTo(to: OrderState): OrderState[] {
  return (Object.keys(TRANSITIONS) as OrderState[]).filter((from) => TRANSITIONS[from].includes(to));
}

/**
 * A payment reported for an order given up on, failed or refused is kept and flagged, never lost: the money
 * reached the gateway whatever Loket had recorded (a refusal Loket read, then a PAID, means the gateway took the
 * order after all). It counts in the day's "paid late" figure and waits in the attention queue.
 */
export const LATE_PAYMENT_STATES: readonly OrderState[] = ['cancelled', 'expired', 'failed', 'rejected'];

/** A person's reason for a manual change (cancel, mark paid, acknowledge): trimmed, 3 to 200 characters. */
export const REASON_MIN = 3;
export const REASON_MAX = 200;
export const REASON_RULE = `reason: say why, in ${REASON_MIN} to ${REASON_MAX} characters`;
export const reasonSchema = z.string().trim().min(REASON_MIN, REASON_RULE).max(REASON_MAX, REASON_RULE);

/** The reason as it is kept (trimmed); throws InvalidReasonError when it breaks the rule. */
export function checkReason(reason: unknown): string {
  const parsed = reasonSchema.safeParse(reason);
  if (!parsed.success) throw new InvalidReasonError();
  return parsed.data;
}

/** Status words of the gateway's inquiry and callbacks, and the state each leads to. */
export const GATEWAY_STATUS_STATE = { PAID: 'paid', EXPIRED: 'expired', FAILED: 'failed' } as const;
export type GatewayStatus = keyof typeof GATEWAY_STATUS_STATE | 'PENDING';

/**
 * What a status reported by the gateway does to an order in `state`: only forward changes apply, a repeat
 * changes nothing, and a payment for an order already given up on is flagged rather than applied.
 */
export type GatewayStatusEffect =
  | { effect: 'change'; to: OrderState }
  | { effect: 'late_payment' }
  /**
   * The gateway closed an order Loket had cancelled (it expired or failed there): expected — the interface has no
   * cancel call, so the gateway keeps a cancelled order open until then. Recorded on the order, not an attention item.
   */
  | { effect: 'closed_at_gateway' }
  | { effect: 'none'; why: 'pending' | 'same' | 'not_forward' };

export function gatewayStatusEffect(state: OrderState, status: GatewayStatus): GatewayStatusEffect {
  if (status === 'PENDING') return { effect: 'none', why: 'pending' };
  const to = GATEWAY_STATUS_STATE[status];
  if (state === to) return { effect: 'none', why: 'same' };
  if (to === 'paid' && LATE_PAYMENT_STATES.includes(state)) return { effect: 'late_payment' };
  if (state === 'cancelled') return { effect: 'closed_at_gateway' };
  if (canTransition(state, to)) return { effect: 'change', to };
  return { effect: 'none', why: 'not_forward' };
}

/**
 * Who may cancel an order in `state`: an order whose outcome is unknown may have been charged, so only a manager
 * (or the machine's own account, at the command line) decides it (docs/roles.md); any other order that can become
 * cancelled, whoever sells at the till.
 */
export function mayCancel(state: OrderState, by: 'cashier' | 'manager'): boolean {
  if (!canTransition(state, 'cancelled')) return true; // the transition itself is refused, with its own words
  return state !== 'unknown' || by === 'manager';
}

/**
 * What the gateway said about an order (an inquiry's answer, a callback) that does not describe the order Loket sent:
 * another merchant_transaction_id, another amount, another payment method. An inquiry answer that does not state the
 * id or the amount does not describe it either. Such an answer never settles the order (docs/orders.md).
 */
export type MismatchField = 'merchant_transaction_id' | 'amount' | 'payment_method';

export function mismatchedFields(
  order: { id: string; amount: number; methodId: string },
  reported: {
    merchantTransactionId?: string | undefined;
    amount?: number | undefined;
    paymentMethod?: string | undefined;
  },
): MismatchField[] {
  const fields: MismatchField[] = [];
  if (reported.merchantTransactionId !== order.id) fields.push('merchant_transaction_id');
  if (reported.amount !== order.amount) fields.push('amount');
  if (reported.paymentMethod !== undefined && reported.paymentMethod !== order.methodId) fields.push('payment_method');
  return fields;
}

/**
 * What a failed charge allows next, decided here so that no screen works it out again:
 * - `safe_to_resend`: the request certainly never reached the gateway; send the same order (same id) again.
 * - `may_exist`: the gateway may have the order (no answer, an unreadable answer, "already exists"): never
 *   charge again; check again with the same id, or let a manager decide.
 * - `final`: the gateway refused it, or it was never valid; nothing was charged, a new charge may follow.
 */
export type RetrySafety = 'safe_to_resend' | 'may_exist' | 'final';

/** `storage`: Loket could not write its order log (a full disk, a damaged file), so it sent nothing. */
export type FailureClass =
  | 'invalid_input'
  | 'rejected'
  | 'not_sent'
  | 'unknown'
  | 'malformed'
  | 'storage'
  /** The gateway failed to take it (a 5xx, or no answer and it does not know the order): nothing charged. */
  | 'outage';

export function retrySafety(
  failure: { class: FailureClass; duplicate?: boolean },
  orderState?: OrderState,
): RetrySafety {
  switch (failure.class) {
    case 'not_sent':
    case 'outage':
      return 'safe_to_resend';
    case 'unknown':
    case 'malformed':
      return 'may_exist';
    case 'rejected':
      // A duplicate answer refuses the copy, not the order: it exists at the gateway.
      return failure.duplicate || orderState === 'unknown' ? 'may_exist' : 'final';
    case 'invalid_input':
    case 'storage':
      // An order already logged as unknown stays open whatever this check said about it.
      return orderState === 'unknown' ? 'may_exist' : 'final';
  }
}

/**
 * The API error codes: what a screen can branch on. `locked`: manager mode is locked (never unlocked, idle too
 * long, or Loket restarted); the screen asks for a manager's PIN, where `forbidden` means the caller itself is refused.
 */
export type ApiErrorCode =
  /** Something Loket needs outside itself cannot be used now (the OS keychain): the message says what to do. */
  | 'unavailable'
  | 'unknown_method'
  | 'invalid_arguments'
  | 'forbidden'
  | 'locked'
  | 'not_found'
  | 'conflict'
  | 'internal';

/**
 * A broken order rule, thrown by core; its `code` says how the API reports it, its `reason` what a screen says
 * (common/reasons.ts), beside the English message for the command line and the log.
 */
export abstract class OrderRuleError extends Error {
  abstract readonly code: ApiErrorCode;
  #why: Reason | undefined;

  /** What a screen says of it (reasons.ts): the key and its parameters. */
  get why(): Reason | undefined {
    return this.#why;
  }

  /** Sets `why`: each rule's constructor says it. */
  protected because(why: Reason): void {
    this.#why = why;
  }
}

export class OrderNotFoundError extends OrderRuleError {
  readonly code = 'not_found';
  constructor(readonly orderId: string) {
    super(`no order ${orderId}`);
    this.name = 'OrderNotFoundError';
    this.because(reason('order.not_found', { orderId }));
  }
}

export class DuplicateOrderError extends OrderRuleError {
  readonly code = 'conflict';
  constructor(readonly orderId: string) {
    super(`order ${orderId} already exists; an order id is never reused`);
    this.name = 'DuplicateOrderError';
    this.because(reason('order.duplicate', { orderId }));
  }
}

export class IllegalTransitionError extends OrderRuleError {
  readonly code = 'conflict';
  constructor(
    readonly orderId: string,
    readonly from: OrderState,
    readonly to: OrderState,
  ) {
    const from_ = statesLeadingTo(to);
    super(
      `order ${orderId} is ${from}; ` +
        (from_.length > 0 ? `only an order that is ${from_.join(' or ')} can become ${to}` : `nothing becomes ${to}`),
    );
    this.name = 'IllegalTransitionError';
    this.because(reason('order.illegal_transition', { orderId, from, to, allowedFrom: from_ }));
  }
}

export class InvalidReasonError extends OrderRuleError {
  readonly code = 'invalid_arguments';
  constructor() {
    super(REASON_RULE);
    this.name = 'InvalidReasonError';
    this.because(reason('order.reason_rule', { min: REASON_MIN, max: REASON_MAX }));
  }
}

/**
 * An order of a kind the registry (common/payment-kinds/) does not know. The schema no longer lists the kinds
 * (migration 12), so the order log refuses one before it writes anything.
 */
export class UnknownKindError extends OrderRuleError {
  readonly code = 'invalid_arguments';
  constructor(
    readonly orderId: string,
    readonly kind: unknown,
  ) {
    super(`order ${orderId}: ${unknownKindMessage('kind', kind)}`);
    this.name = 'UnknownKindError';
  }
}

/** An action the order's present state does not allow, other than a transition (e.g. a late-payment flag). */
export class OrderStateError extends OrderRuleError {
  readonly code = 'conflict';
  constructor(
    readonly orderId: string,
    readonly state: OrderState,
    message: string,
    why?: Reason,
  ) {
    super(`order ${orderId} is ${state}; ${message}`);
    this.name = 'OrderStateError';
    if (why) this.because(why);
  }
}

/** An action on an order that only a manager may take (docs/roles.md), asked for by someone else. */
export class ManagerOnlyError extends OrderRuleError {
  readonly code = 'forbidden';
  constructor(
    readonly orderId: string,
    readonly state: OrderState,
    message: string,
  ) {
    super(`order ${orderId} is ${state}; ${message}`);
    this.name = 'ManagerOnlyError';
  }
}
