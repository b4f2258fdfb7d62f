import type { CashIssue } from '../../common/cash';
import { formatRupiah } from '../../common/money';
import { OrderRuleError, type ApiErrorCode } from '../../common/order-policy';
import { reason, type Reason } from '../../common/reasons';
import type { PinRefusal } from '../../common/staff';
import type { SaleBeingPaid, ShiftFieldIssue } from '../../common/shifts';

/**
 * A broken rule of the shifts (docs/tenders.md, "Shifts"). It extends OrderRuleError so that `toApiError` reports it
 * with its code, its English message and its reason, as it does the order rules; the CLI exits 2 with the message.
 */
export class ShiftRuleError extends OrderRuleError {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    why: Reason,
    /** Each field that broke its rule, when the input did. */
    readonly issues: readonly ShiftFieldIssue[] = [],
  ) {
    super(message);
    this.name = 'ShiftRuleError';
    this.because(why);
  }
}

/** Input that breaks the rules of common/cash.ts: every issue named, the first one's field and rule as the reason. */
export function invalidShiftInput(issues: readonly (CashIssue | ShiftFieldIssue)[]): ShiftRuleError {
  const first = issues[0]!;
  return new ShiftRuleError(
    'invalid_arguments',
    issues.map((i) => i.message).join('; '),
    // An amount's range goes with its rule, so the screen says the maximum too.
    reason('shift.field_rule', { field: first.field, rule: first.rule, ...first.params }),
    issues.map((i) => ({
      field: i.field,
      rule: i.rule,
      message: i.message,
      ...(i.params ? { params: i.params } : {}),
    })),
  );
}

export function noOpenShift(): ShiftRuleError {
  return new ShiftRuleError(
    'conflict',
    'no shift is open on this till: open a shift with its float first (npm run cli -- shift open --float AMOUNT)',
    reason('shift.none_open'),
  );
}

export function shiftAlreadyOpen(shiftId: string): ShiftRuleError {
  return new ShiftRuleError(
    'conflict',
    `a shift is already open on this till (${shiftId}): close it with its count first`,
    reason('shift.already_open', { shiftId }),
  );
}

/**
 * The shift cannot close while a sale of this till is still being paid: its cash is in this drawer, and should the
 * sale be voided its cash goes back out of this shift. Names each sale and what to do about it.
 */
export function salesBeingPaid(sales: readonly SaleBeingPaid[]): ShiftRuleError {
  const named = sales.map((s) =>
    s.orderId
      ? `${s.serial} (${formatRupiah(s.total)}; its ${s.methodId ?? 'gateway'} order ${s.orderId} is ` +
        `${s.orderState ?? 'not found'})`
      : `${s.serial} (${formatRupiah(s.total)})`,
  );
  const unknown = sales.some((s) => s.orderState === 'unknown');
  return new ShiftRuleError(
    'conflict',
    `the shift cannot close while ${sales.length === 1 ? 'a sale of this till is' : 'sales of this till are'} ` +
      `still being paid: ${named.join(', ')}. Wait for the payment, check it again (the payment screen's Check ` +
      `again, or npm run cli -- reconcile), or void the sale (cancel its order: npm run cli -- order cancel ORDER ` +
      `--reason R)${unknown ? '; an order whose outcome is unknown is for a manager to decide' : ''}; then close ` +
      'the shift',
    reason('shift.sales_being_paid', {
      sales: sales.map((s) => ({
        serial: s.serial,
        ...(s.orderId === undefined ? {} : { orderId: s.orderId }),
        ...(s.methodId === undefined ? {} : { methodId: s.methodId }),
        ...(s.orderState === undefined ? {} : { orderState: s.orderState }),
      })),
    }),
  );
}

export function shiftNotFound(shiftId: string): ShiftRuleError {
  return new ShiftRuleError('not_found', `no shift ${shiftId}`, reason('shift.not_found', { shiftId }));
}

/** A manager's PIN was needed (a pay-out over the limit, a no sale) and none was given, or it was refused. */
export function managerPinRefused(refusal: PinRefusal | { ok: false; reason: 'pin_required' }): ShiftRuleError {
  const words: Record<PinRefusal['reason'], string> = {
    wrong_pin: "the manager's PIN is not right",
    locked_out: 'PIN entry is locked for a while after too many wrong PINs',
    no_such_staff: 'no active member of staff has that id',
    not_a_manager: 'that member of staff is not a manager: a manager must approve this',
    pin_required: "this needs a manager's PIN (managerPin: the manager's staff id and PIN)",
  };
  const retryAfterMs = 'retryAfterMs' in refusal ? refusal.retryAfterMs : undefined;
  return new ShiftRuleError(
    refusal.reason === 'pin_required' ? 'invalid_arguments' : 'forbidden',
    `managerPin: ${words[refusal.reason]}`,
    reason('shift.manager_pin', { refusal: refusal.reason, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }),
    [{ field: 'managerPin', rule: 'pin', message: `managerPin: ${words[refusal.reason]}` }],
  );
}

/**
 * A pay-out that takes the shift's pay-outs over the manager's limit, sent without a manager's PIN: the message names
 * the pay-outs so far, this one and the limit (all the cashier's own figures; nothing of what the drawer holds).
 */
export function payOutNeedsManager(payOuts: { paidOut: number; amount: number; limit: number }): ShiftRuleError {
  const { paidOut, amount, limit } = payOuts;
  const over =
    paidOut === 0
      ? `this pay-out of ${formatRupiah(amount)} is`
      : `this shift's pay-outs would come to ${formatRupiah(paidOut + amount)} ` +
        `(${formatRupiah(paidOut)} so far and this ${formatRupiah(amount)}),`;
  const message =
    `managerPin: ${over} over the manager's limit of ${formatRupiah(limit)} a shift: a manager's PIN is needed ` +
    "(managerPin: the manager's staff id and PIN)";
  return new ShiftRuleError(
    'invalid_arguments',
    message,
    reason('shift.manager_pin', { refusal: 'pin_required', paidOut, amount, limit }),
    [{ field: 'managerPin', rule: 'pin', message }],
  );
}
