import { MAX_RUPIAH, readWholeRupiah } from '../../../src-main/common/whole-rupiah';

/**
 * What a typed amount means, read strictly: a whole number of rupiah written as people write one, or a problem named
 * by its rule — never a guess. "1e12" is not Rp112 and "12,5" is not Rp125: they are refused, and the field says why.
 * The accepted forms (docs/browser-mode.md, "The amount"):
 * - digits: `25000` (leading zeros dropped);
 * - dots between thousands, three digits after each dot: `25.000`, `1.250.000`;
 * - either, after `Rp`, `Rp.` or `IDR` (any case, a space allowed), and with `,-` after it: `Rp 25.000,-`.
 * Anything with a comma is refused (a rupiah amount has no cents, and "25,000" could mean 25 or 25 thousand); so is a
 * misplaced dot, any other character (a sign, an exponent, a letter, a space inside), and more than
 * Rp100.000.000.000.000 (MAX_RUPIAH, the most Loket takes anywhere; each field's own range is checked after).
 */

/** Why a typed amount is refused. */
export type AmountRule = 'cents' | 'grouping' | 'characters' | 'too_long';

export type AmountReading =
  | { kind: 'empty' }
  /** `digits`: the amount's digits without leading zeros ('' for zero). */
  | { kind: 'amount'; digits: string; value: number }
  /**
   * On the way to a dot-grouped amount ("25." or "25.0" while typing 25.000): not an amount yet, and not worth a
   * message until the cashier is done typing (it is refused by the grouping rule when they charge or leave the field).
   */
  | { kind: 'incomplete' }
  | { kind: 'invalid'; rule: AmountRule };

/** The most a typed amount may be (too_long above it): the same maximum as the server's, compared as digits. */
export const AMOUNT_MAX = MAX_RUPIAH;

const PREFIX = /^(?:rp\.?|idr)\s*/i;
const NO_CENTS_SUFFIX = /,-$/;

export function readAmount(text: string): AmountReading {
  const body = text.trim().replace(PREFIX, '').replace(NO_CENTS_SUFFIX, '');
  if (body === '') return { kind: 'empty' };
  let digits: string | undefined;
  if (/^\d+$/.test(body)) digits = body;
  else if (/^[1-9]\d{0,2}(?:\.\d{3})+$/.test(body)) digits = body.replace(/\./g, '');
  if (digits !== undefined) {
    const kept = digits.replace(/^0+/, '');
    const read = readWholeRupiah(kept || '0', { min: 0, max: AMOUNT_MAX });
    if (!read.ok) return { kind: 'invalid', rule: 'too_long' };
    return { kind: 'amount', digits: kept, value: read.value };
  }
  if (/^[1-9]\d{0,2}(?:\.\d{3})*\.\d{0,2}$/.test(body)) return { kind: 'incomplete' };
  if (body.includes(',')) return { kind: 'invalid', rule: 'cents' };
  if (/^[\d.]+$/.test(body)) return { kind: 'invalid', rule: 'grouping' };
  return { kind: 'invalid', rule: 'characters' };
}
