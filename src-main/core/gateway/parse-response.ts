import type { PaymentInstruction } from '../../common/order';
import { answerShapes, kindSpec, type PaymentKind } from '../../common/payment-kinds';
import { answerText as str, type AnswerShape } from '../../common/payment-kinds/answer-shapes';
import { RETCODE } from '../../common/retcodes';

/**
 * Reads a create-order answer by its shape (docs/gateway-interface.md, "Answers"): flat or `data`-wrapped, and which fields are
 * present — never by payment-method id, so a method added by the operator parses without code changes; the shapes
 * are the kinds' (common/payment-kinds/), tried in the registry's order. Given the
 * order's kind (the catalogue's), a successful answer must also have that kind's shape: one that does not is not
 * read as another way to pay (a QRIS order is never told to pay by carrier billing), it is `malformed` — the order
 * may exist at the gateway and is checked (docs/orders.md).
 */
export type ParsedAnswer =
  | { ok: true; instruction: PaymentInstruction; transactionId?: string; expiredDate?: string }
  | { ok: false; rejected: true; retcode?: string; message: string }
  | { ok: false; rejected: false; malformed: string };

const ENVELOPE = new Set(['success', 'retcode', 'message']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Fields we do not model are kept, so nothing the gateway sent is lost. */
function extras(o: Record<string, unknown>, known: readonly string[]): Record<string, unknown> | undefined {
  const rest = Object.entries(o).filter(([k]) => !ENVELOPE.has(k) && !known.includes(k));
  return rest.length ? Object.fromEntries(rest) : undefined;
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

/** Whether an instruction is what an order of `kind` can be paid with. */
export function fitsKind(kind: PaymentKind, instruction: PaymentInstruction): boolean {
  return instruction.type === 'payment_page' || kindSpec(kind).answer.instruction === instruction.type;
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
      `but the order's method is of kind ${kind} (it needs ${kindSpec(kind).answer.describe})`,
  };
}

function describeInstruction(type: PaymentInstruction['type']): string {
  if (type === 'payment_page') return 'a payment page';
  return [...answerShapes('flat'), ...answerShapes('wrapped')].find((a) => a.instruction === type)?.describe ?? type;
}

/** The first shape of `layout` that reads `o`, and what it read (a shape that is `last` reads anything). */
function readShape(layout: AnswerShape['layout'], o: Record<string, unknown>): ParsedAnswer {
  for (const shape of answerShapes(layout)) {
    const reading = shape.read(o);
    if (reading === undefined) continue;
    if ('malformed' in reading) return { ok: false, rejected: false, malformed: reading.malformed };
    const instruction: PaymentInstruction = reading.instruction;
    const extra = extras(o, reading.known);
    if (extra) instruction.extra = extra;
    const { transactionId: tx, expiredDate: exp } = reading;
    return { ok: true, instruction, ...(tx ? { transactionId: tx } : {}), ...(exp ? { expiredDate: exp } : {}) };
  }
  return { ok: false, rejected: false, malformed: `the answer has no shape of a payment kind (${layout})` };
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
    return readShape('wrapped', data);
  }

  const verdict = verdictOf(json);
  if (verdict === 'refused') return rejection(json);
  if (verdict === 'unclear') return { ok: false, rejected: false, malformed: UNCLEAR };
  return readShape('flat', json);
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
