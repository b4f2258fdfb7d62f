import type { PaymentInstruction } from '../../common/order';
import type { PaymentKind } from '../../common/payment-methods';
import { RETCODE } from '../../common/retcodes';

/**
 * Reads a create-order answer by its shape (docs/gateway-interface.md, "Answers"): flat or `data`-wrapped, and which fields are
 * present — never by payment-method id, so a method added by the operator parses without code changes. Given the
 * order's kind (the catalogue's), a successful answer must also have that kind's shape: one that does not is not
 * read as another way to pay (a QRIS order is never told to pay by carrier billing), it is `malformed` — the order
 * may exist at the gateway and is checked (docs/orders.md).
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

/**
 * What an envelope says, read strictly: `ok` is `success: true` with `retcode: "0000"` (a JSON boolean and a
 * string, as the interface writes them); `refused` is `success: false` with any other retcode (or none); anything
 * else (`"success": "true"`, `retcode: 0`, success with another retcode, a refusal with "0000") is `unclear` — the
 * gateway may have stored the order, so it is neither a success to act on nor a final refusal.
 */
export type Verdict = 'ok' | 'refused' | 'unclear';

export function verdictOf(o: Record<string, unknown>): Verdict {
  const retcode = o.retcode;
  if (o.success === true && retcode === RETCODE.OK) return 'ok';
  if (o.success === false && retcode !== RETCODE.OK && (retcode === undefined || typeof retcode === 'string'))
    return 'refused';
  return 'unclear';
}

const UNCLEAR =
  'the answer\'s success and retcode are not in the interface\'s form (success true with retcode "0000", or ' +
  'success false), so whether the gateway took the order is not known';

function rejection(o: Record<string, unknown>): ParsedAnswer {
  const retcode = str(o, 'retcode');
  const message = str(o, 'message') ?? 'the gateway refused the order without a message';
  return { ok: false, rejected: true, ...(retcode === undefined ? {} : { retcode }), message };
}

/** The instruction each kind's answer gives (the interface's answer table); a V1 payment page fits every kind. */
const INSTRUCTION_OF_KIND: Readonly<Record<PaymentKind, PaymentInstruction['type']>> = {
  qris: 'qr',
  ewallet_redirect: 'ewallet',
  ewallet_qr_redirect: 'ewallet',
  airtime_sms: 'sms_reply',
  airtime: 'carrier_billing',
  va_bank: 'virtual_account',
  va_cstore: 'virtual_account',
};

/** Whether an instruction is what an order of `kind` can be paid with. */
export function fitsKind(kind: PaymentKind, instruction: PaymentInstruction): boolean {
  return instruction.type === 'payment_page' || INSTRUCTION_OF_KIND[kind] === instruction.type;
}

/** The V2 answer read by shape; with `kind`, a success whose shape is another kind's is malformed. */
export function parseV2Answer(json: unknown, kind?: PaymentKind): ParsedAnswer {
  const parsed = parseV2Shape(json);
  if (!parsed.ok || kind === undefined || fitsKind(kind, parsed.instruction)) return parsed;
  return {
    ok: false,
    rejected: false,
    malformed:
      `a successful answer shaped for ${describeInstruction(parsed.instruction.type)}, ` +
      `but the order's method is of kind ${kind} (it needs ${describeInstruction(INSTRUCTION_OF_KIND[kind])})`,
  };
}

function describeInstruction(type: PaymentInstruction['type']): string {
  switch (type) {
    case 'qr':
      return 'a QR code (qrString)';
    case 'ewallet':
      return 'an e-wallet redirect';
    case 'sms_reply':
      return 'an SMS reply (keyword, sms_code)';
    case 'carrier_billing':
      return 'carrier billing (the envelope alone)';
    case 'virtual_account':
      return 'a virtual account (data.va)';
    case 'payment_page':
      return 'a payment page';
  }
}

function parseV2Shape(json: unknown): ParsedAnswer {
  if (!isObject(json)) return { ok: false, rejected: false, malformed: 'the answer is not a JSON object' };

  // Wrapped shape: virtual accounts and store codes put everything, their own success flag included, in `data`.
  // The inner verdict decides; an outer flag that contradicts a success makes it unclear.
  if (isObject(json.data)) {
    const data = json.data;
    const inner = verdictOf(data);
    if (inner === 'refused') return rejection({ ...json, ...data });
    if (inner === 'unclear' || json.success !== true) {
      const outer = verdictOf(json);
      return inner === 'unclear' && outer === 'refused'
        ? rejection({ ...data, ...json })
        : { ok: false, rejected: false, malformed: UNCLEAR };
    }
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

  const verdict = verdictOf(json);
  if (verdict === 'refused') return rejection(json);
  if (verdict === 'unclear') return { ok: false, rejected: false, malformed: UNCLEAR };
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
  const verdict = verdictOf(json);
  if (verdict === 'refused') return rejection(json);
  if (verdict === 'unclear') return { ok: false, rejected: false, malformed: UNCLEAR };
  const token = isObject(json.data) ? str(json.data, 'token') : undefined;
  if (!token) return { ok: false, rejected: false, malformed: 'data.token is missing from a successful V1 answer' };
  const instruction: PaymentInstruction = { type: 'payment_page', url: paymentPageUrl(token), token };
  const extra = isObject(json.data) ? extras(json.data, ['token']) : undefined;
  if (extra) instruction.extra = extra;
  return { ok: true, instruction };
}
