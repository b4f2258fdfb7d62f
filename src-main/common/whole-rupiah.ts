import { z } from 'zod';

/**
 * "A whole number of rupiah from MIN to MAX": the one rule of every amount a person types (a price, cash handed, a
 * float, a pay-in, a count, a discount), in one place, so each refusal names the field, the rule and its numbers
 * alike at the command line, the API and the screens.
 *
 * Typed text is judged as digits, never through `Number` first: 9007199254740993 (2^53 + 1) is not a JavaScript
 * number, `Number` reads it as 9007199254740992, and echoing that would show the person something they never typed.
 * So the text is compared with the range digit by digit and echoed as typed; only an amount inside the range (far
 * below 2^53) becomes a number. A value that already is a number (from JSON) and is beyond 2^53 is said to be too
 * large to be exact rather than echoed.
 *
 * Decided here: the largest amount Loket takes anywhere is Rp100.000.000.000.000 (MAX_RUPIAH, a hundred trillion:
 * 15 digits, exact as a JavaScript number with room to add many of them); each field narrows its own range.
 */

export const MAX_RUPIAH = 100_000_000_000_000;

export interface RupiahRange {
  readonly min: number;
  readonly max: number;
}

/** The rule in words, with its numbers: "a whole number of rupiah from 0 to 100000000000000". */
export function rupiahRule(range: RupiahRange): string {
  return `a whole number of rupiah from ${range.min} to ${range.max}`;
}

export type RupiahReading =
  | { ok: true; value: number }
  /** `params`: the range, for a screen to word the rule in its own language. */
  | { ok: false; rule: string; params: { min: number; max: number } };

/** Compares two strings of digits without leading zeros as the numbers they write. */
function compareDigits(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `text` (digits only, as typed) as an amount in `range`, or the rule it breaks. */
export function readWholeRupiah(text: string, range: RupiahRange): RupiahReading {
  const refused = { ok: false as const, rule: rupiahRule(range), params: { min: range.min, max: range.max } };
  if (!/^\d+$/.test(text)) return refused;
  const digits = text.replace(/^0+(?=\d)/, '');
  if (compareDigits(digits, String(range.min)) < 0 || compareDigits(digits, String(range.max)) > 0) return refused;
  return { ok: true, value: Number(digits) };
}

/** `value` is a whole number of rupiah in `range`. */
export function isWholeRupiah(value: unknown, range: RupiahRange): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max;
}

/**
 * A value as a refusal may echo it: text as typed (quoted), a number as written — except a number beyond 2^53,
 * which is no longer the number that was sent, so it is not echoed.
 */
export function shownAmount(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) > Number.MAX_SAFE_INTEGER)
    return 'a number too large to be exact';
  return String(value);
}

/** `field: a whole number of rupiah from MIN to MAX (got …)`: the one refusal's words. */
export function rupiahMessage(field: string, range: RupiahRange, got: unknown): string {
  return `${field}: ${rupiahRule(range)} (got ${shownAmount(got)})`;
}

/**
 * The zod schema of an amount in `range`. A refusal's message is the rule with its numbers, and the issue carries
 * them as `params` ({ min, max }) so the API's gate can hand them to the screens.
 */
export function rupiahSchema(range: RupiahRange) {
  const rule = rupiahRule(range);
  return z.number({ error: rule }).superRefine((value, ctx) => {
    if (!isWholeRupiah(value, range))
      ctx.addIssue({ code: 'custom', message: rule, params: { min: range.min, max: range.max }, input: value });
  });
}
