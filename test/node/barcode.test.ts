import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkBarcode, gs1CheckDigit, normaliseBarcode, withCheckDigit } from '../../src-main/common/barcode';
import { propertyParams } from './helpers/property';

describe('barcodes', () => {
  it('accepts real EAN-13, EAN-8 and UPC-A codes', () => {
    expect(checkBarcode('4006381333931')).toEqual({ ok: true, kind: 'ean13', code: '4006381333931' });
    expect(checkBarcode('8992761111113')).toEqual({ ok: true, kind: 'ean13', code: '8992761111113' }); // 899: Indonesia
    expect(checkBarcode('96385074')).toEqual({ ok: true, kind: 'ean8', code: '96385074' });
    expect(checkBarcode('036000291452')).toEqual({ ok: true, kind: 'upca', code: '0036000291452' });
  });

  it('computes GS1 check digits', () => {
    expect(gs1CheckDigit('400638133393')).toBe(1);
    expect(gs1CheckDigit('9638507')).toBe(4);
    expect(gs1CheckDigit('03600029145')).toBe(2);
    expect(gs1CheckDigit('000000000000')).toBe(0);
    expect(withCheckDigit('899276111111')).toBe('8992761111113');
    expect(() => gs1CheckDigit('12a')).toThrow(/body must be digits/);
  });

  it('stores a UPC-A as its EAN-13, so a scanner sending either finds the product', () => {
    expect(normaliseBarcode('036000291452')).toBe('0036000291452');
    expect(normaliseBarcode('0036000291452')).toBe('0036000291452');
    expect(normaliseBarcode('96385074')).toBe('96385074');
    expect(normaliseBarcode('96385075')).toBeNull();
  });

  it('names the check digit it expected', () => {
    expect(checkBarcode('4006381333932')).toEqual({
      ok: false,
      rule: 'check_digit',
      expected: 1,
      message: 'the check digit (the last one) should be 1 (got 2): a digit is mistyped',
    });
    expect(checkBarcode('036000291453')).toMatchObject({ ok: false, rule: 'check_digit', expected: 2 });
    expect(checkBarcode('96385070')).toMatchObject({ ok: false, rule: 'check_digit', expected: 4 });
  });

  it('names the length rule', () => {
    for (const code of ['', '1234567', '123456789', '12345678901', '12345678901234', '123456'])
      expect(checkBarcode(code)).toEqual({
        ok: false,
        rule: 'length',
        message: `13 digits (EAN-13), 12 (UPC-A) or 8 (EAN-8) (got ${code.length})`,
      });
  });

  it('names the digits rule and where it breaks, before the length', () => {
    expect(checkBarcode('400638 333931')).toEqual({
      ok: false,
      rule: 'digits',
      message: 'digits only (found a space at position 7)',
    });
    expect(checkBarcode('4006-38')).toEqual({
      ok: false,
      rule: 'digits',
      message: 'digits only (found "-" at position 5)',
    });
    expect(checkBarcode(' 4006381333931')).toMatchObject({ rule: 'digits' });
    expect(checkBarcode('٤٠٠٦٣٨١٣٣٣٩٣١')).toMatchObject({ rule: 'digits' }); // Arabic-Indic digits are not digits here
  });

  it('every code with its check digit passes, and every single wrong digit is caught (property)', () => {
    const body = fc.oneof(fc.stringMatching(/^\d{12}$/), fc.stringMatching(/^\d{11}$/), fc.stringMatching(/^\d{7}$/));
    fc.assert(
      fc.property(body, fc.nat(), fc.integer({ min: 1, max: 9 }), (b, pos, delta) => {
        const code = withCheckDigit(b);
        const ok = checkBarcode(code);
        expect(ok.ok).toBe(true);
        // Changing one digit always breaks the check (GS1's weights 1 and 3 are both prime to 10).
        const i = pos % code.length;
        const changed = code.slice(0, i) + String((Number(code[i]) + delta) % 10) + code.slice(i + 1);
        expect(checkBarcode(changed)).toMatchObject({ ok: false, rule: 'check_digit' });
      }),
      propertyParams(1000),
    );
  });
});
