import type { PaymentInstruction } from '../../common/order';
import { RETCODE } from '../../common/retcodes';

/**
 * Reads a create-order answer by its shape (docs/gateway-interface.md, "Answers"): flat or `data`-wrapped, and which fields are
 * present — never by payment-method id, so a method added by the operator parses without code changes.
 */
export type ParsedAnswer =
  | { ok: true; instruction: PaymentInstruction; transactionId?: string; expiredDate?: string }
  | { ok: false; rejected: true; retcode?: string; message: string }
  | { ok: false; rejected: false; malformed: string };

const ENVELOPE = new Set(['success', 'retcode', 'message']);

function str(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Fields we do not model are kept, so nothing the gateway sent is lost. */
function extras(o: Record<string, unknown>, known: readonly string[]): Record<string, unknown> | undefined {
  const rest = Object.entries(o).filter(([k]) => !ENVELOPE.has(k) && !known.includes(k));
  return rest.length ? Object.fromEntries(rest) : undefined;
}

function withOptional<T extends object>(base: T, o: Record<string, unknown>, keys: readonly string[]): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const k of keys) {
    const v = str(o, k);
    if (v !== undefined) out[k] = v;
  }
  return out as T;
}

function succeeded(o: Record<string, unknown>): boolean {
  return o.success === true && str(o, 'retcode') === RETCODE.OK;
}

function rejection(o: Record<string, unknown>): ParsedAnswer {
  const retcode = str(o, 'retcode');
  const message = str(o, 'message') ?? 'the gateway refused the order without a message';
  return { ok: false, rejected: true, ...(retcode === undefined ? {} : { retcode }), message };
}

export function parseV2Answer(json: unknown): ParsedAnswer {
  if (!isObject(json)) return { ok: false, rejected: false, malformed: 'the answer is not a JSON object' };

  // Wrapped shape: virtual accounts and store codes put everything, their own success flag included, in `data`.
  if (isObject(json.data)) {
    const data = json.data;
    if (json.success !== true || !succeeded(data)) return rejection({ ...json, ...data });
    const va = str(data, 'va');
    if (va === undefined)
      return { ok: false, rejected: false, malformed: 'data.va is missing from a successful virtual-account answer' };
    const known = ['va', 'payment_url', 'customer_name', 'expired_date', 'transaction_id'];
    const instruction = withOptional({ type: 'virtual_account', va } as PaymentInstruction, data, known.slice(1));
    const extra = extras(data, known);
    if (extra) instruction.extra = extra;
    const tx = str(data, 'transaction_id');
    const exp = str(data, 'expired_date');
    return { ok: true, instruction, ...(tx ? { transactionId: tx } : {}), ...(exp ? { expiredDate: exp } : {}) };
  }

  if (!succeeded(json)) return rejection(json);
  let instruction: PaymentInstruction;
  let known: string[];
  const qrString = str(json, 'qrString');
  const redirect = str(json, 'redirect');
  const keyword = str(json, 'keyword');
  const smsCode = str(json, 'sms_code');
  if (qrString !== undefined) {
    known = ['qrString', 'qrisUrl', 'back_url'];
    instruction = withOptional({ type: 'qr', qrString } as PaymentInstruction, json, known.slice(1));
  } else if (redirect !== undefined) {
    known = ['redirect', 'qrisUrl', 'back_url'];
    instruction = withOptional({ type: 'ewallet', redirect } as PaymentInstruction, json, known.slice(1));
  } else if (keyword !== undefined || smsCode !== undefined) {
    if (keyword === undefined || smsCode === undefined) {
      return { ok: false, rejected: false, malformed: 'an SMS-reply answer needs both keyword and sms_code' };
    }
    known = ['keyword', 'sms_code', 'short_code', 'phone_number', 'trx_type'];
    instruction = withOptional(
      { type: 'sms_reply', keyword, sms_code: smsCode } as PaymentInstruction,
      json,
      known.slice(2),
    );
  } else if (str(json, 'qrisUrl') !== undefined) {
    return { ok: false, rejected: false, malformed: 'qrisUrl without qrString or redirect: no way to pay is given' };
  } else {
    // Carrier billing answers with the envelope alone: the charge goes to the phone number.
    known = [];
    instruction = { type: 'carrier_billing' };
  }
  const extra = extras(json, known);
  if (extra) instruction.extra = extra;
  return { ok: true, instruction };
}

export function parseV1Answer(json: unknown, paymentPageUrl: (token: string) => string): ParsedAnswer {
  if (!isObject(json)) return { ok: false, rejected: false, malformed: 'the answer is not a JSON object' };
  if (!succeeded(json)) return rejection(json);
  const token = isObject(json.data) ? str(json.data, 'token') : undefined;
  if (!token) return { ok: false, rejected: false, malformed: 'data.token is missing from a successful V1 answer' };
  const instruction: PaymentInstruction = { type: 'payment_page', url: paymentPageUrl(token), token };
  const extra = isObject(json.data) ? extras(json.data, ['token']) : undefined;
  if (extra) instruction.extra = extra;
  return { ok: true, instruction };
}
