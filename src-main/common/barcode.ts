/**
 * Product barcodes: EAN-13, EAN-8 and UPC-A (12 digits), each ending in a GS1 check digit.
 *
 * A UPC-A is the EAN-13 with a leading 0 (the check digit is the same, as the extra 0 weighs nothing), so Loket
 * stores and looks up a UPC-A in its 13-digit form: a scanner set to send either finds the product. An EAN-8 is a
 * number space of its own and stays 8 digits. Anything else (UPC-E, GTIN-14, a code with spaces) is refused, with the
 * rule it breaks: digits only, the length, or the check digit (with the digit it should be).
 */

export type BarcodeKind = 'ean13' | 'ean8' | 'upca';

export type BarcodeRule = 'digits' | 'length' | 'check_digit';

export type BarcodeCheck =
  | {
      ok: true;
      kind: BarcodeKind;
      /** The form Loket stores: 13 digits for EAN-13 and UPC-A, 8 for EAN-8. */ code: string;
    }
  | {
      ok: false;
      rule: BarcodeRule;
      /** The rule in words, without the field's name. */ message: string;
      expected?: number;
    };

const LENGTHS: Record<number, BarcodeKind> = { 13: 'ean13', 12: 'upca', 8: 'ean8' };

/**
 * The GS1 check digit of `body` (the code without its last digit), for any length: from the right, digits are
 * weighed 3, 1, 3, 1, …; the check digit brings the sum up to a multiple of 10. `body` must be digits.
 */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  let weight = 3;
  for (let i = body.length - 1; i >= 0; i--) {
    const d = body.charCodeAt(i) - 48;
    if (d < 0 || d > 9) throw new RangeError(`gs1CheckDigit: body must be digits (got ${JSON.stringify(body)})`);
    sum += d * weight;
    weight = 4 - weight;
  }
  return (10 - (sum % 10)) % 10;
}

/** `body` with its check digit appended (makes valid codes for tests and sample files). */
export function withCheckDigit(body: string): string {
  return body + String(gs1CheckDigit(body));
}

/** Whether `code` is a valid EAN-13, EAN-8 or UPC-A, and if so its stored form. */
export function checkBarcode(code: string): BarcodeCheck {
  const bad = /[^0-9]/.exec(code);
  if (bad) {
    const what = bad[0] === ' ' ? 'a space' : JSON.stringify(bad[0]);
    return {
      ok: false,
      rule: 'digits',
      message: `digits only (found ${what} at position ${bad.index + 1})`,
    };
  }
  const kind = LENGTHS[code.length];
  if (!kind)
    return {
      ok: false,
      rule: 'length',
      message: `13 digits (EAN-13), 12 (UPC-A) or 8 (EAN-8) (got ${code.length})`,
    };
  const expected = gs1CheckDigit(code.slice(0, -1));
  const got = code.charCodeAt(code.length - 1) - 48;
  if (got !== expected)
    return {
      ok: false,
      rule: 'check_digit',
      message: `the check digit (the last one) should be ${expected} (got ${got}): a digit is mistyped`,
      expected,
    };
  return { ok: true, kind, code: kind === 'upca' ? `0${code}` : code };
}

/** The stored form of a valid code (a UPC-A as its EAN-13), or null when `code` is not a valid barcode. */
export function normaliseBarcode(code: string): string | null {
  const check = checkBarcode(code);
  return check.ok ? check.code : null;
}
