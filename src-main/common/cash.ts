import { z } from 'zod';
import { formatRupiah } from './money';
import { requireSafeInteger } from './money-math';
import { REASON_MAX, REASON_MIN } from './order-policy';
import { badTextReason } from './strict-json';
import { isWholeRupiah, MAX_RUPIAH, rupiahMessage, rupiahRule, rupiahSchema, type RupiahRange } from './whole-rupiah';

/**
 * Money at the counter: cash rounding, the tenders that pay a sale (cash with change, a gateway payment, "other"),
 * a split-tender plan, the shift's expected cash, and the blind count by denomination. Pure; the screens, the CLI
 * and the stored tenders and shifts are built on it. docs/tenders.md has the rules with examples.
 *
 * Cash rounding (setting: off | down | nearest; default off) is to Rp100, and only when a cash tender settles the rest
 * of a sale: D' = round(D), the rounding line is D' − D (negative or positive; never silent), and the cash applied
 * is D'. "nearest" rounds half up (Rp50 goes up). A cash tender: handed H, due D:
 *   H ≥ D'       settles the sale: applied D', change H − D', rounding D' − D
 *   D ≤ H < D'   (only when nearest rounds up) settles it exactly: applied D, change H − D, no rounding
 *   0 < H < D    pays part: applied H, change 0, no rounding; D − H is still due
 * A gateway or "other" tender gives no change: its amount is at most what is due (absent: all of it).
 * Expected cash of a shift = float + cash applied (handed − change) − cash given back on voided sales − cash refunds −
 * pay-outs + pay-ins.
 *
 * Decided here (not in the lead's notes): the exact-settle case above; a tender of Rp0 is refused, except cash when
 * rounding brings what is due to Rp0; an "other" tender's reference is 1 to 100 characters; amounts are at most
 * Rp100.000.000.000.000 (MAX_CASH); a pay-out that takes the shift's pay-outs above the manager's limit (default
 * Rp100.000 a shift) needs a manager's PIN; a pay-out or a cash refund larger than the cash the drawer should hold is
 * refused, without saying how much that is; a count is at most 100000 of one denomination.
 */

export const CASH_UNIT = 100;
export const MAX_CASH = MAX_RUPIAH;
/** An amount of cash, 0 or more (a float, cash handed, a count); and one that must be more than 0 (a payment). */
export const CASH_RANGE: RupiahRange = { min: 0, max: MAX_CASH };
export const PAYMENT_RANGE: RupiahRange = { min: 1, max: MAX_CASH };

export const CASH_ROUNDINGS = ['off', 'down', 'nearest'] as const;
export type CashRounding = (typeof CASH_ROUNDINGS)[number];

const ROUNDING_RULE = "'off', 'down' (to the Rp100 below) or 'nearest' (to the nearest Rp100, Rp50 up)";
const amountSchema = rupiahSchema(CASH_RANGE);

/** The `cash` section of the settings. */
export const cashSettingsSchema = z
  .object({
    rounding: z.enum(CASH_ROUNDINGS, { error: ROUNDING_RULE }).default('off'),
    /** The shift's pay-outs above this, summed, need a manager's PIN (a pay-out that takes them over it). */
    payOutLimit: amountSchema.default(100_000),
  })
  .strict();
export type CashSettings = z.infer<typeof cashSettingsSchema>;
export const DEFAULT_CASH_SETTINGS: CashSettings = cashSettingsSchema.parse({});

/** `amount` (a safe integer ≥ 0) rounded to Rp100 by `mode`. */
export function roundCash(amount: number, mode: CashRounding): number {
  requireSafeInteger('roundCash', 'amount', amount);
  const rest = amount % CASH_UNIT;
  if (mode === 'off' || rest === 0) return amount;
  if (mode === 'down') return amount - rest;
  if (mode === 'nearest') return rest * 2 >= CASH_UNIT ? amount - rest + CASH_UNIT : amount - rest;
  throw new RangeError(`roundCash: mode must be one of ${CASH_ROUNDINGS.join(', ')} (got ${String(mode)})`);
}

// ---------------------------------------------------------------- issues

export type CashRule =
  | 'amount'
  | 'over_due'
  | 'nothing_due'
  | 'reference'
  | 'method'
  | 'kind'
  | 'reason'
  | 'drawer'
  | 'count'
  | 'denomination';

export interface CashIssue {
  /** The field's path: `tenders[1].amount`, `handed`, `reason`, `counts.note50000`. */
  field: string;
  rule: CashRule;
  message: string;
  /** An amount's rule: its range, for a screen's own words. */
  params?: { min: number; max: number };
}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));
const isAmount = (v: unknown): v is number => isWholeRupiah(v, CASH_RANGE);

/** The `amount` rule's issue for `field`: the range and what was given, never a rounded echo of it. */
export function amountIssue(field: string, range: RupiahRange, got: unknown): CashIssue {
  return {
    field,
    rule: 'amount',
    message: rupiahMessage(field, range, got),
    params: { min: range.min, max: range.max },
  };
}

// ---------------------------------------------------------------- tenders

export type TenderInput =
  | { kind: 'cash'; handed: number }
  /** A gateway payment: one order of `methodId`; no amount: what is still due. */
  | { kind: 'gateway'; methodId: string; amount?: number | undefined }
  /** A card terminal's slip or a bank transfer, with its reference; no amount: what is still due. */
  | { kind: 'other'; reference: string; amount?: number | undefined };

export interface TenderStep {
  kind: TenderInput['kind'];
  dueBefore: number;
  /** What the tender pays of the sale (a settling cash tender: the rounded due). */
  applied: number;
  /** Cash only: the money handed over and the change given back (handed = applied + change). */
  handed: number;
  change: number;
  /** Cash that settles the sale: the rounded due minus the due (the rounding line); else 0. */
  rounding: number;
  dueAfter: number;
}

export type TenderResult = { ok: true; step: TenderStep } | { ok: false; issue: CashIssue };

/** A cash tender of `handed` against `due` (safe integers ≥ 0) under rounding `mode`. `at` prefixes its fields. */
export function cashTender(due: number, handed: unknown, mode: CashRounding, at = ''): TenderResult {
  requireSafeInteger('cashTender', 'due', due);
  const field = `${at}handed`;
  if (!isAmount(handed)) return { ok: false, issue: amountIssue(field, CASH_RANGE, handed) };
  if (due === 0) return { ok: false, issue: nothingDue(field) };
  const rounded = roundCash(due, mode);
  const base = { kind: 'cash' as const, dueBefore: due, handed };
  if (handed >= rounded)
    return {
      ok: true,
      step: { ...base, applied: rounded, change: handed - rounded, rounding: rounded - due, dueAfter: 0 },
    };
  if (handed >= due)
    return { ok: true, step: { ...base, applied: due, change: handed - due, rounding: 0, dueAfter: 0 } };
  if (handed === 0)
    return {
      ok: false,
      issue: {
        field,
        rule: 'amount',
        message: `${field}: ${rupiahRule(PAYMENT_RANGE)} (${formatRupiah(rounded)} is due in cash)`,
        params: { min: PAYMENT_RANGE.min, max: PAYMENT_RANGE.max },
      },
    };
  return { ok: true, step: { ...base, applied: handed, change: 0, rounding: 0, dueAfter: due - handed } };
}

function nothingDue(field: string): CashIssue {
  return { field, rule: 'nothing_due', message: `${field}: nothing is due; the sale is paid` };
}

/**
 * A tender that gives no change (a gateway payment or "other") of `amount` (absent: all that is due) against `due`.
 */
export function exactTender(kind: 'gateway' | 'other', due: number, amount: unknown, at = ''): TenderResult {
  requireSafeInteger('exactTender', 'due', due);
  const field = `${at}amount`;
  if (due === 0) return { ok: false, issue: nothingDue(field) };
  const value = amount === undefined ? due : amount;
  if (!isWholeRupiah(value, PAYMENT_RANGE)) return { ok: false, issue: amountIssue(field, PAYMENT_RANGE, value) };
  if (value > due)
    return {
      ok: false,
      issue: {
        field,
        rule: 'over_due',
        message: `${field}: at most the ${formatRupiah(due)} still due (got ${formatRupiah(value)}); only cash gives change`,
      },
    };
  return {
    ok: true,
    step: { kind, dueBefore: due, applied: value, handed: 0, change: 0, rounding: 0, dueAfter: due - value },
  };
}

const REFERENCE_RULE = 'the slip\u2019s or the transfer\u2019s reference, 1 to 100 characters';

/** An "other" tender's reference (trimmed), or the issue. */
export function checkReference(
  reference: unknown,
  at = '',
): { ok: true; reference: string } | { ok: false; issue: CashIssue } {
  const field = `${at}reference`;
  const text = typeof reference === 'string' ? reference.trim() : '';
  if (text === '' || [...text].length > 100 || badTextReason(text) !== undefined)
    return {
      ok: false,
      issue: {
        field,
        rule: 'reference',
        message: `${field}: ${REFERENCE_RULE}, without control characters (got ${show(reference)})`,
      },
    };
  return { ok: true, reference: text };
}

// ---------------------------------------------------------------- the shift's cash

/** What moved cash in or out of the drawer during a shift. */
export type ShiftCashEvent =
  | { type: 'float'; amount: number }
  | { type: 'cash_tender'; handed: number; change: number }
  | { type: 'cash_refund'; amount: number }
  /** A voided sale's cash, given back to the customer (it is no refund: the sale never completed). */
  | { type: 'cash_void'; amount: number }
  | { type: 'pay_in'; amount: number }
  | { type: 'pay_out'; amount: number };

export interface ShiftCash {
  float: number;
  /** Cash handed over by customers, and the change given back. */
  cashIn: number;
  change: number;
  /** cashIn − change: the cash applied to sales, voided ones' too. */
  cashSales: number;
  /** The cash given back on sales voided after they took it. */
  cashVoids: number;
  cashRefunds: number;
  payIns: number;
  payOuts: number;
  /** float + cashSales − cashVoids − cashRefunds − payOuts + payIns. */
  expected: number;
}

/** The shift's cash figures, rebuilt from its events (so a restart gets the same figures). */
export function shiftCash(events: readonly ShiftCashEvent[]): ShiftCash {
  const c = { float: 0, cashIn: 0, change: 0, cashVoids: 0, cashRefunds: 0, payIns: 0, payOuts: 0 };
  for (const [i, e] of events.entries()) {
    const need = (name: string, v: number) => requireSafeInteger('shiftCash', `events[${i}].${name}`, v);
    switch (e.type) {
      case 'float':
        need('amount', e.amount);
        c.float += e.amount;
        break;
      case 'cash_tender':
        need('handed', e.handed);
        need('change', e.change);
        if (e.change > e.handed) throw new RangeError(`shiftCash: events[${i}].change is more than what was handed`);
        c.cashIn += e.handed;
        c.change += e.change;
        break;
      case 'cash_refund':
        need('amount', e.amount);
        c.cashRefunds += e.amount;
        break;
      case 'cash_void':
        need('amount', e.amount);
        c.cashVoids += e.amount;
        break;
      case 'pay_in':
        need('amount', e.amount);
        c.payIns += e.amount;
        break;
      case 'pay_out':
        need('amount', e.amount);
        c.payOuts += e.amount;
        break;
      default:
        throw new RangeError(`shiftCash: events[${i}].type is unknown (${show((e as { type?: unknown }).type)})`);
    }
  }
  const cashSales = c.cashIn - c.change;
  return {
    ...c,
    cashSales,
    expected: c.float + cashSales - c.cashVoids - c.cashRefunds - c.payOuts + c.payIns,
  };
}

export type MovementResult =
  | {
      ok: true;
      amount: number;
      reason: string;
      /** A pay-out that takes the shift's pay-outs over the limit: a manager's PIN allows it. */
      needsManagerPin: boolean;
      /** The shift's pay-outs before this one (0 for a pay-in). */
      paidOut: number;
    }
  | { ok: false; issues: CashIssue[] };

/**
 * A pay-in or pay-out: an amount above 0, a reason (trimmed, 3 to 200 characters). The manager's limit is the
 * shift's, not one movement's: a pay-out that takes the sum of the shift's pay-outs (`paidOut` before it) over
 * `payOutLimit` needs a manager's PIN, so two pay-outs just under the limit do not slip past it. Whether the drawer
 * holds the amount is `cashOutIssue`'s, asked after the PIN (ShiftService): a cashier alone can only try amounts
 * under the limit, so refused pay-outs cannot be used to find out what the drawer should hold before the count.
 */
export function checkMovement(
  type: 'pay_in' | 'pay_out',
  amount: unknown,
  reason: unknown,
  shift: { payOutLimit: number; paidOut: number },
): MovementResult {
  const issues: CashIssue[] = [];
  if (!isWholeRupiah(amount, PAYMENT_RANGE)) issues.push(amountIssue('amount', PAYMENT_RANGE, amount));
  const text = typeof reason === 'string' ? reason.trim() : '';
  const n = [...text].length;
  if (n < REASON_MIN || n > REASON_MAX || badTextReason(text) !== undefined)
    issues.push({
      field: 'reason',
      rule: 'reason',
      message: `reason: say why, in ${REASON_MIN} to ${REASON_MAX} characters, without control characters`,
    });
  if (issues.length > 0) return { ok: false, issues };
  const value = amount as number;
  const paidOut = type === 'pay_out' ? shift.paidOut : 0;
  return {
    ok: true,
    amount: value,
    reason: text,
    needsManagerPin: type === 'pay_out' && paidOut + value > shift.payOutLimit,
    paidOut,
  };
}

/**
 * A pay-out or a cash refund of `amount` against the drawer's expected cash: the issue when the drawer cannot pay it.
 * Its words never say how much the drawer should hold: the cashier sees them before the blind count.
 */
export function cashOutIssue(amount: number, expected: number, field = 'amount'): CashIssue | undefined {
  requireSafeInteger('cashOutIssue', 'amount', amount);
  return amount > expected
    ? {
        field,
        rule: 'drawer',
        message: `${field}: ${formatRupiah(amount)} is more than the drawer should hold`,
      }
    : undefined;
}

// ---------------------------------------------------------------- counting the drawer

/** Indonesian notes and coins in circulation, largest first (a Rp1.000 note and a Rp1.000 coin both exist). */
export const DENOMINATIONS = [
  { id: 'note100000', value: 100_000, kind: 'note' },
  { id: 'note50000', value: 50_000, kind: 'note' },
  { id: 'note20000', value: 20_000, kind: 'note' },
  { id: 'note10000', value: 10_000, kind: 'note' },
  { id: 'note5000', value: 5_000, kind: 'note' },
  { id: 'note2000', value: 2_000, kind: 'note' },
  { id: 'note1000', value: 1_000, kind: 'note' },
  { id: 'coin1000', value: 1_000, kind: 'coin' },
  { id: 'coin500', value: 500, kind: 'coin' },
  { id: 'coin200', value: 200, kind: 'coin' },
  { id: 'coin100', value: 100, kind: 'coin' },
] as const;
export type DenominationId = (typeof DENOMINATIONS)[number]['id'];
export const MAX_COUNT = 100_000;

export interface CountLine {
  id: DenominationId;
  value: number;
  kind: 'note' | 'coin';
  count: number;
  amount: number;
}

export type CountResult = { ok: true; total: number; lines: CountLine[] } | { ok: false; issues: CashIssue[] };

/** A count by denomination (`{ note50000: 3, coin500: 4 }`; absent: none) as lines and a total. */
export function countByDenomination(counts: Readonly<Record<string, unknown>>): CountResult {
  const issues: CashIssue[] = [];
  const known = new Set<string>(DENOMINATIONS.map((d) => d.id));
  for (const key of Object.keys(counts ?? {}))
    if (!known.has(key))
      issues.push({
        field: `counts.${key}`,
        rule: 'denomination',
        message: `counts.${key}: not an Indonesian note or coin Loket counts (${DENOMINATIONS.map((d) => d.id).join(', ')})`,
      });
  const lines: CountLine[] = [];
  for (const d of DENOMINATIONS) {
    const raw = counts?.[d.id];
    const count = raw === undefined ? 0 : raw;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > MAX_COUNT) {
      issues.push({
        field: `counts.${d.id}`,
        rule: 'count',
        message: `counts.${d.id}: a whole number from 0 to ${MAX_COUNT} (got ${show(raw)})`,
      });
      continue;
    }
    lines.push({ id: d.id, value: d.value, kind: d.kind, count, amount: count * d.value });
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, total: lines.reduce((a, l) => a + l.amount, 0), lines };
}

export interface CountDifference {
  expected: number;
  counted: number;
  /** counted − expected: above 0 the drawer holds more than expected, below 0 less. */
  difference: number;
  status: 'even' | 'over' | 'short';
}

/** The blind count against what was expected (shown only after the count is entered). */
export function countDifference(expected: number, counted: number): CountDifference {
  if (!Number.isSafeInteger(expected))
    throw new RangeError(`countDifference: expected must be a safe integer (got ${expected})`);
  requireSafeInteger('countDifference', 'counted', counted);
  const difference = counted - expected;
  return { expected, counted, difference, status: difference === 0 ? 'even' : difference > 0 ? 'over' : 'short' };
}

/** A counted total typed as one amount: the issue, or undefined. */
export function countedTotalIssue(counted: unknown): CashIssue | undefined {
  return isAmount(counted) ? undefined : amountIssue('counted', CASH_RANGE, counted);
}
