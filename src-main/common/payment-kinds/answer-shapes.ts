/*
 * The shapes of the gateway's V2 success answers (docs/gateway-interface.md, "Answers") and the instructions they
 * give. A kind names its shape (payment-kinds/<kind>.ts); several kinds may share one (both e-wallet kinds answer
 * with a redirect, bank and store codes with `data.va`). A kind with a new shape defines it beside these. Pure: the
 * renderer imports the instruction types.
 */

export type QrInstruction = { type: 'qr'; qrString: string; qrisUrl?: string; back_url?: string };
export type EwalletInstruction = { type: 'ewallet'; redirect: string; qrisUrl?: string; back_url?: string };
export type SmsReplyInstruction = {
  type: 'sms_reply';
  keyword: string;
  sms_code: string;
  short_code?: string;
  phone_number?: string;
  trx_type?: string;
};
export type CarrierBillingInstruction = { type: 'carrier_billing' };
export type VirtualAccountInstruction = {
  type: 'virtual_account';
  va: string;
  payment_url?: string;
  customer_name?: string;
  expired_date?: string;
  transaction_id?: string;
};

/** Every instruction a kind's V2 answer can give (the V1 payment page is not a kind's: common/order.ts adds it). */
export type KindInstruction =
  QrInstruction | EwalletInstruction | SmsReplyInstruction | CarrierBillingInstruction | VirtualAccountInstruction;

/** What a shape read from a successful answer: the instruction and the fields it modelled, or why it cannot. */
export type ShapeReading =
  | { instruction: KindInstruction; known: readonly string[]; transactionId?: string; expiredDate?: string }
  | { malformed: string };

export interface AnswerShape {
  /** The instruction this shape gives. */
  readonly instruction: KindInstruction['type'];
  /** How a message names it ("a QR code (qrString)"). */
  readonly describe: string;
  /** Where its fields are: the envelope itself (`flat`) or the envelope's `data` object (`wrapped`). */
  readonly layout: 'flat' | 'wrapped';
  /**
   * Tried after the other shapes of its layout: it takes whatever they did not (carrier billing is the envelope
   * alone), so it must not shadow them.
   */
  readonly last?: boolean;
  /** Reads the fields of a successful answer (already judged a success); undefined when they are not this shape. */
  read(o: Record<string, unknown>): ShapeReading | undefined;
}

/** A field as text: the gateway writes some numbers as JSON numbers. */
export function answerText(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

function withOptional<T extends object>(base: T, o: Record<string, unknown>, keys: readonly string[]): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const k of keys) {
    const v = answerText(o, k);
    if (v !== undefined) out[k] = v;
  }
  return out as T;
}

export const QR_SHAPE: AnswerShape = {
  instruction: 'qr',
  describe: 'a QR code (qrString)',
  layout: 'flat',
  read(o) {
    const qrString = answerText(o, 'qrString');
    if (qrString === undefined) return undefined;
    const known = ['qrString', 'qrisUrl', 'back_url'];
    return { instruction: withOptional<QrInstruction>({ type: 'qr', qrString }, o, known.slice(1)), known };
  },
};

export const EWALLET_SHAPE: AnswerShape = {
  instruction: 'ewallet',
  describe: 'an e-wallet redirect',
  layout: 'flat',
  read(o) {
    const redirect = answerText(o, 'redirect');
    if (redirect === undefined) return undefined;
    const known = ['redirect', 'qrisUrl', 'back_url'];
    return {
      instruction: withOptional<EwalletInstruction>({ type: 'ewallet', redirect }, o, known.slice(1)),
      known,
    };
  },
};

export const SMS_REPLY_SHAPE: AnswerShape = {
  instruction: 'sms_reply',
  describe: 'an SMS reply (keyword, sms_code)',
  layout: 'flat',
  read(o) {
    const keyword = answerText(o, 'keyword');
    const smsCode = answerText(o, 'sms_code');
    if (keyword === undefined && smsCode === undefined) return undefined;
    if (keyword === undefined || smsCode === undefined)
      return { malformed: 'an SMS-reply answer needs both keyword and sms_code' };
    const known = ['keyword', 'sms_code', 'short_code', 'phone_number', 'trx_type'];
    const base: SmsReplyInstruction = { type: 'sms_reply', keyword, sms_code: smsCode };
    return { instruction: withOptional(base, o, known.slice(2)), known };
  },
};

export const CARRIER_BILLING_SHAPE: AnswerShape = {
  instruction: 'carrier_billing',
  describe: 'carrier billing (the envelope alone)',
  layout: 'flat',
  last: true,
  read(o) {
    // A qrisUrl alone names an image but no way to pay: not an envelope-alone answer with an extra field.
    if (answerText(o, 'qrisUrl') !== undefined)
      return { malformed: 'qrisUrl without qrString or redirect: no way to pay is given' };
    // Carrier billing answers with the envelope alone: the charge goes to the phone number.
    return { instruction: { type: 'carrier_billing' }, known: [] };
  },
};

export const VIRTUAL_ACCOUNT_SHAPE: AnswerShape = {
  instruction: 'virtual_account',
  describe: 'a virtual account (data.va)',
  layout: 'wrapped',
  last: true,
  read(data) {
    const va = answerText(data, 'va');
    if (va === undefined) return { malformed: 'data.va is missing from a successful virtual-account answer' };
    const known = ['va', 'payment_url', 'customer_name', 'expired_date', 'transaction_id'];
    const tx = answerText(data, 'transaction_id');
    const exp = answerText(data, 'expired_date');
    return {
      instruction: withOptional<VirtualAccountInstruction>({ type: 'virtual_account', va }, data, known.slice(1)),
      known,
      ...(tx ? { transactionId: tx } : {}),
      ...(exp ? { expiredDate: exp } : {}),
    };
  },
};
