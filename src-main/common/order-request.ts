import { findMethod, type PaymentMethod } from './payment-method-fields';
import { RETCODE, type Retcode } from './retcodes';
import type { RuleParams } from './reasons';
import { badTextReason } from './strict-json';
import { hiddenCharacterReason } from './visible-text';
import { shownAmount } from './whole-rupiah';

/**
 * The order request of the aggregator's interface (docs/gateway-interface.md, "Request fields"), and the one validator both the sandbox and Loket's client use,
 * so a field is refused with the same words on both sides of the wire.
 */
export interface OrderRequest {
  redirect_url?: string;
  redirect_target: string;
  user_id: string;
  user_mdn?: string;
  merchant_transaction_id: string;
  payment_method: string;
  currency: string;
  amount: number;
  item_id?: string;
  item_name: string;
  customer_name?: string;
  notification_url?: string;
}

/** The interface's limits (docs/gateway-interface.md, "Limits and defaults"). */
export const SEED_LIMITS = { user_id: 50, merchant_transaction_id: 36, item_name: 25 } as const;
/** Limits the interface does not give; ours (docs/sandbox.md). */
export const OUR_LIMITS = { user_mdn: 20, item_id: 50, customer_name: 50, url: 2048 } as const;
export const SEED_DEFAULTS = { currency: 'IDR', redirect_target: '_top' } as const;
export const REDIRECT_TARGETS = ['_top', '_self', '_parent', '_blank'] as const;

export type FieldRule =
  'required' | 'type' | 'max_length' | 'format' | 'unsupported_method' | 'customer_name_required' | 'amount_range';

/**
 * A field that breaks a rule: `rule` and its numbers (`params`: a length's `max`, an amount's `min` and `max`) are
 * what a screen words in its own language; `message` is the rule in English, naming the field (the CLI, the log,
 * the sandbox's answer). A gateway's own issues may come without `params`.
 */
export interface FieldIssue {
  field: string;
  rule: FieldRule;
  message: string;
  params?: RuleParams;
}

export type ValidationResult =
  { ok: true; value: OrderRequest; method: PaymentMethod } | { ok: false; issues: FieldIssue[] };

const RULE_RETCODE: Record<FieldRule, Retcode> = {
  required: RETCODE.FIELD_REQUIRED,
  type: RETCODE.FIELD_TYPE,
  max_length: RETCODE.FIELD_TOO_LONG,
  format: RETCODE.FIELD_FORMAT,
  unsupported_method: RETCODE.UNSUPPORTED_METHOD,
  customer_name_required: RETCODE.CUSTOMER_NAME_REQUIRED,
  amount_range: RETCODE.AMOUNT_OUT_OF_RANGE,
};

export function retcodeForRule(rule: FieldRule): Retcode {
  return RULE_RETCODE[rule];
}

interface StringSpec {
  max: number;
  required: boolean;
  /** A format check returning the rule's words when the value breaks it. */
  format?: (value: string) => string | undefined;
}

// A regex, not URL: this folder has neither DOM nor Node types, and absolute http(s) is all we need.
const httpUrl = (value: string) =>
  /^https?:\/\/[^\s/?#@]+(?::\d+)?(?:[/?#]\S*)?$/i.test(value) ? undefined : 'must be an absolute http(s) URL';
const printableAscii = (value: string) =>
  /^[\x21-\x7e]+$/.test(value) ? undefined : 'must be printable ASCII with no spaces';
const indonesianMobile = (value: string) =>
  /^(\+62|62|0)8[1-9]\d{6,11}$/.test(value) ? undefined : 'must be an Indonesian mobile number such as 081234567890';
const oneOf = (allowed: readonly string[]) => (value: string) =>
  allowed.includes(value) ? undefined : `must be one of ${allowed.join(', ')}`;
const idrOnly = (value: string) => (value === 'IDR' ? undefined : 'only IDR is supported');

const STRING_FIELDS: Record<Exclude<keyof OrderRequest, 'amount'>, StringSpec> = {
  redirect_url: { max: OUR_LIMITS.url, required: false, format: httpUrl },
  redirect_target: { max: 16, required: false, format: oneOf(REDIRECT_TARGETS) },
  user_id: { max: SEED_LIMITS.user_id, required: true },
  user_mdn: { max: OUR_LIMITS.user_mdn, required: false, format: indonesianMobile },
  merchant_transaction_id: { max: SEED_LIMITS.merchant_transaction_id, required: true, format: printableAscii },
  payment_method: { max: 64, required: true },
  currency: { max: 3, required: false, format: idrOnly },
  item_id: { max: OUR_LIMITS.item_id, required: false },
  // Names are printed on the receipt and shown to the customer: nothing invisible or direction-changing in them.
  item_name: { max: SEED_LIMITS.item_name, required: true, format: hiddenCharacterReason },
  customer_name: { max: OUR_LIMITS.customer_name, required: false, format: hiddenCharacterReason },
  notification_url: { max: OUR_LIMITS.url, required: false, format: httpUrl },
};

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 20 ? value.slice(0, 20) + '…' : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** Characters as people count them: code points, so an emoji is one, not two. */
export function charLength(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

function checkString(field: string, spec: StringSpec, raw: unknown, issues: FieldIssue[]): string | undefined {
  if (raw === undefined || raw === null) {
    if (spec.required) issues.push({ field, rule: 'required', message: `${field}: is required` });
    return undefined;
  }
  if (typeof raw !== 'string') {
    issues.push({ field, rule: 'type', message: `${field}: must be a string (got ${describeValue(raw)})` });
    return undefined;
  }
  if (raw.trim() === '') {
    if (spec.required) issues.push({ field, rule: 'required', message: `${field}: must not be empty` });
    return undefined;
  }
  const length = charLength(raw);
  if (length > spec.max) {
    issues.push({
      field,
      rule: 'max_length',
      message: `${field}: at most ${spec.max} characters (got ${length})`,
      params: { max: spec.max },
    });
    return undefined;
  }
  const problem = badTextReason(raw) ?? spec.format?.(raw);
  if (problem) {
    issues.push({ field, rule: 'format', message: `${field}: ${problem}` });
    return undefined;
  }
  return raw;
}

function checkAmount(raw: unknown, issues: FieldIssue[]): number | undefined {
  if (raw === undefined || raw === null) {
    issues.push({ field: 'amount', rule: 'required', message: 'amount: is required' });
    return undefined;
  }
  if (typeof raw !== 'number' || !Number.isFinite(raw)) {
    issues.push({
      field: 'amount',
      rule: 'type',
      message: `amount: must be a whole number of rupiah (got ${describeValue(raw)})`,
    });
    return undefined;
  }
  if (!Number.isInteger(raw)) {
    issues.push({
      field: 'amount',
      rule: 'type',
      message: `amount: must be a whole number of rupiah, without decimals (got ${raw})`,
    });
    return undefined;
  }
  return raw;
}

/**
 * The amount's range: the method's when it is known, else every amount a number holds exactly (from 1 to 2^53 − 1);
 * the issue names both ends, and never echoes a number beyond 2^53 (it is not the number that was sent).
 */
function checkAmountRange(amount: number, method: PaymentMethod | undefined, issues: FieldIssue[]): void {
  const min = method ? Math.max(1, method.minAmount) : 1;
  const max = method ? method.maxAmount : Number.MAX_SAFE_INTEGER;
  if (amount >= min && amount <= max && Number.isSafeInteger(amount)) return;
  issues.push({
    field: 'amount',
    rule: 'amount_range',
    message: `amount: must be between ${min} and ${max} rupiah${method ? ` for ${method.id}` : ''} (got ${shownAmount(amount)})`,
    params: { min, max },
  });
}

/**
 * Validates an order request against the interface's fields and limits (docs/gateway-interface.md) and the payment-method catalogue.
 * Unknown fields are ignored, as a tolerant reader; `null` counts as absent.
 */
export interface ValidateOptions {
  /**
   * `enabled` is the store's choice (a manager hides a method from the cashier); the sandbox, standing in
   * for the aggregator, accepts every method it knows, so it passes true.
   */
  acceptDisabled?: boolean;
}

export function validateOrderRequest(
  input: unknown,
  methods: readonly PaymentMethod[],
  options: ValidateOptions = {},
): ValidationResult {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return {
      ok: false,
      issues: [
        { field: '(body)', rule: 'type', message: `(body): must be a JSON object (got ${describeValue(input)})` },
      ],
    };
  }
  const body = input as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  const strings: Partial<Record<keyof typeof STRING_FIELDS, string>> = {};
  for (const [field, spec] of Object.entries(STRING_FIELDS) as [keyof typeof STRING_FIELDS, StringSpec][]) {
    const value = checkString(field, spec, body[field], issues);
    if (value !== undefined) strings[field] = value;
  }
  const amount = checkAmount(body.amount, issues);

  const found = strings.payment_method === undefined ? undefined : findMethod(methods, strings.payment_method);
  const method = found && (found.enabled || options.acceptDisabled) ? found : undefined;
  if (strings.payment_method !== undefined && !method) {
    issues.push({
      field: 'payment_method',
      rule: 'unsupported_method',
      message: found
        ? `payment_method: ${JSON.stringify(strings.payment_method)} is disabled in this store's payment-method catalogue`
        : `payment_method: ${JSON.stringify(strings.payment_method)} is not a supported payment method`,
    });
  }
  if (method) {
    if (
      method.requiresCustomerName &&
      strings.customer_name === undefined &&
      !issues.some((i) => i.field === 'customer_name')
    ) {
      issues.push({
        field: 'customer_name',
        rule: 'customer_name_required',
        message: `customer_name: is required for ${method.id}`,
      });
    }
  }
  if (amount !== undefined) checkAmountRange(amount, method, issues);
  if (issues.length > 0 || !method || amount === undefined) return { ok: false, issues };

  const value: OrderRequest = {
    redirect_target: strings.redirect_target ?? SEED_DEFAULTS.redirect_target,
    user_id: strings.user_id!,
    merchant_transaction_id: strings.merchant_transaction_id!,
    payment_method: method.id,
    currency: strings.currency ?? SEED_DEFAULTS.currency,
    amount,
    item_name: strings.item_name!,
  };
  for (const optional of ['redirect_url', 'user_mdn', 'item_id', 'customer_name', 'notification_url'] as const) {
    const v = strings[optional];
    if (v !== undefined) value[optional] = v;
  }
  return { ok: true, value, method };
}
