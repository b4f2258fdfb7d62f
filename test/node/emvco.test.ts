import { describe, it, expect } from 'vitest';
import { buildQrisPayload, crc16Ccitt, parseEmv, qrisAmount, type QrisInput } from '../../src-main/common/emvco';

const input: QrisInput = {
  merchantName: 'Toko Sembako Bu Sari',
  merchantCity: 'JAKARTA',
  postalCode: '10110',
  merchantCategoryCode: '5411',
  nmid: 'ID1020000000001',
  merchantPan: '936000000000000001',
  acquirerDomain: 'ID.CO.SANDBOX.WWW',
  amount: 125_000,
  billNumber: 'INV-2024-0001',
  referenceLabel: 'REF123',
  terminalLabel: 'KASIR-01',
};

// Written out TLV by TLV, lengths counted by hand; the CRC came from an independent (Python) implementation.
const HAND_BUILT_STATIC =
  '000201' +
  '010211' + // static QR: no amount
  '2669' +
  '0017ID.CO.BANKXYZ.WWW' +
  '0118936009990000000123' +
  '0215ID1020000000123' +
  '0303UMI' +
  '5144' +
  '0014ID.CO.QRIS.WWW' +
  '0215ID1020000000123' +
  '0303UMI' +
  '52045812' +
  '5303360' +
  '5802ID' +
  '5916WARUNG SEDERHANA' +
  '6007BANDUNG' +
  '610540115' +
  '6207' +
  '0703A01' +
  '6304' +
  '73A1';

/** Replaces the payload's CRC with a correct one, so a structural fault is not masked by a CRC mismatch. */
function withFreshCrc(body: string): string {
  return body + '6304' + crc16Ccitt(body + '6304');
}

describe('crc16Ccitt', () => {
  it('matches the CRC-16/CCITT-FALSE check value', () => {
    expect(crc16Ccitt('123456789')).toBe('29B1');
  });

  it('pads to four uppercase hex digits', () => {
    expect(crc16Ccitt('')).toBe('FFFF');
    for (const s of ['a', 'ab', 'QRIS', 'Rp 10.000']) expect(crc16Ccitt(s)).toMatch(/^[0-9A-F]{4}$/);
  });

  it('hashes UTF-8 bytes, not UTF-16 units', () => {
    // Expected values from an independent Python implementation over str.encode('utf-8').
    expect(crc16Ccitt('é')).toBe('7ACB');
    expect(crc16Ccitt('Rp \u{1F600}')).toBe('FD1D');
  });
});

describe('buildQrisPayload', () => {
  it('round-trips every field through parseEmv', () => {
    const payload = buildQrisPayload(input);
    const { tags, templates, crcValid, ok } = parseEmv(payload);
    expect(ok).toBe(true);
    expect(crcValid).toBe(true);
    expect(Object.keys(tags).sort()).toEqual([
      '00',
      '01',
      '26',
      '51',
      '52',
      '53',
      '54',
      '58',
      '59',
      '60',
      '61',
      '62',
      '63',
    ]);
    expect(tags['00']).toBe('01');
    expect(tags['01']).toBe('12');
    expect(templates['26']).toEqual({
      '00': 'ID.CO.SANDBOX.WWW',
      '01': '936000000000000001',
      '02': 'ID1020000000001',
      '03': 'UMI',
    });
    expect(templates['51']).toEqual({ '00': 'ID.CO.QRIS.WWW', '02': 'ID1020000000001', '03': 'UMI' });
    expect(tags['52']).toBe('5411');
    expect(tags['53']).toBe('360');
    expect(tags['54']).toBe('125000');
    expect(tags['58']).toBe('ID');
    expect(tags['59']).toBe(input.merchantName);
    expect(tags['60']).toBe(input.merchantCity);
    expect(tags['61']).toBe('10110');
    expect(templates['62']).toEqual({ '01': 'INV-2024-0001', '05': 'REF123', '07': 'KASIR-01' });
    expect(tags['63']).toBe(crc16Ccitt(payload.slice(0, -4)));
    expect(payload.slice(-8, -4)).toBe('6304');
    expect(qrisAmount(payload)).toBe(125_000);
  });

  it('emits tags in ascending order with the expected bytes', () => {
    const payload = buildQrisPayload({
      merchantName: 'TOKO MAJU',
      merchantCity: 'JAKARTA',
      postalCode: '10110',
      nmid: 'ID1020000000001',
      merchantPan: '936000000000000001',
      amount: 15_000,
      billNumber: 'INV001',
    });
    // Expected string written TLV by TLV; its CRC came from an independent (Python) implementation.
    expect(payload).toBe(
      '000201' +
        '010212' +
        '2669' +
        '0017ID.CO.SANDBOX.WWW' +
        '0118936000000000000001' +
        '0215ID1020000000001' +
        '0303UMI' +
        '5144' +
        '0014ID.CO.QRIS.WWW' +
        '0215ID1020000000001' +
        '0303UMI' +
        '52045411' +
        '5303360' +
        '540515000' +
        '5802ID' +
        '5909TOKO MAJU' +
        '6007JAKARTA' +
        '610510110' +
        '6210' +
        '0106INV001' +
        '6304' +
        '96A5',
    );
  });

  it('applies defaults and omits optional tags 61 and 62', () => {
    const payload = buildQrisPayload({
      merchantName: 'A',
      merchantCity: 'B',
      nmid: 'ID1020000000001',
      merchantPan: '936000000000000001',
      amount: 1,
    });
    const { tags, templates } = parseEmv(payload);
    expect(tags['52']).toBe('5411');
    expect(templates['26']?.['00']).toBe('ID.CO.SANDBOX.WWW');
    expect(tags['54']).toBe('1');
    expect('61' in tags).toBe(false);
    expect('62' in tags).toBe(false);
    expect('62' in templates).toBe(false);
  });

  it('writes two-digit lengths for long values', () => {
    const name = 'ABCDEFGHIJKLMNOPQRSTUVWXY'; // 25 characters, the maximum
    const payload = buildQrisPayload({ ...input, merchantName: name, amount: 9_999_999_999 });
    expect(payload).toContain(`5925${name}6007JAKARTA`);
    expect(payload).toContain('54109999999999');
    expect(payload).toContain('26690017ID.CO.SANDBOX.WWW0118936000000000000001');
    expect(parseEmv(payload).tags['59']).toBe(name);
  });

  it('rejects a merchant name over 25 characters', () => {
    expect(() => buildQrisPayload({ ...input, merchantName: 'X'.repeat(26) })).toThrow(RangeError);
    expect(() => buildQrisPayload({ ...input, merchantName: 'X'.repeat(26) })).toThrow(/merchantName/);
  });

  it('rejects non-printable or non-ASCII names and cities', () => {
    expect(() => buildQrisPayload({ ...input, merchantName: 'Kopi Café' })).toThrow(/merchantName.*ASCII/);
    expect(() => buildQrisPayload({ ...input, merchantCity: 'JAKARTA\n' })).toThrow(/merchantCity/);
  });

  it.each([
    ['non-integer', 1500.5],
    ['zero', 0],
    ['negative', -100],
    ['NaN', Number.NaN],
    ['unsafe', Number.MAX_SAFE_INTEGER + 1],
  ])('rejects a %s amount', (_label, amount) => {
    expect(() => buildQrisPayload({ ...input, amount })).toThrow(RangeError);
    expect(() => buildQrisPayload({ ...input, amount })).toThrow(/amount/);
  });

  it('rejects other out-of-range fields by name', () => {
    expect(() => buildQrisPayload({ ...input, merchantCity: 'X'.repeat(16) })).toThrow(/merchantCity/);
    expect(() => buildQrisPayload({ ...input, postalCode: '12345678901' })).toThrow(/postalCode/);
    expect(() => buildQrisPayload({ ...input, billNumber: 'B'.repeat(26) })).toThrow(/billNumber/);
    expect(() => buildQrisPayload({ ...input, merchantCategoryCode: '541' })).toThrow(/merchantCategoryCode/);
    expect(() => buildQrisPayload({ ...input, merchantPan: '93600000000000000012' })).toThrow(/merchantPan/);
    expect(() => buildQrisPayload({ ...input, nmid: 'ID10200000000012' })).toThrow(/nmid/);
    expect(() => buildQrisPayload({ ...input, amount: 10 ** 13 })).toThrow(/amount/);
    expect(() => buildQrisPayload({ ...input, acquirerDomain: 'X'.repeat(60) })).toThrow(/acquirerDomain/);
  });
});

describe('parseEmv', () => {
  it('parses a hand-built static QRIS payload', () => {
    const { tags, templates } = parseEmv(HAND_BUILT_STATIC);
    expect(tags['01']).toBe('11');
    expect(templates['26']).toEqual({
      '00': 'ID.CO.BANKXYZ.WWW',
      '01': '936009990000000123',
      '02': 'ID1020000000123',
      '03': 'UMI',
    });
    expect(templates['51']?.['02']).toBe('ID1020000000123');
    expect(tags['52']).toBe('5812');
    expect(tags['59']).toBe('WARUNG SEDERHANA');
    expect(tags['60']).toBe('BANDUNG');
    expect(tags['61']).toBe('40115');
    expect(templates['62']).toEqual({ '07': 'A01' });
    expect(tags['63']).toBe('73A1');
    expect(qrisAmount(HAND_BUILT_STATIC)).toBeUndefined();
  });

  it('detects a one-character change anywhere before the CRC', () => {
    const payload = buildQrisPayload(input);
    const crcTagAt = payload.length - 8;
    for (let i = 0; i < crcTagAt; i++) {
      const original = payload[i] ?? '';
      const replacement = original === '0' ? '1' : '0';
      const corrupted = payload.slice(0, i) + replacement + payload.slice(i + 1);
      expect(() => parseEmv(corrupted), `change at position ${i}`).toThrow(/CRC mismatch/);
    }
  });

  it('detects a wrong CRC value', () => {
    const payload = buildQrisPayload(input);
    const wrong = payload.slice(0, -4) + (payload.endsWith('0000') ? '0001' : '0000');
    expect(() => parseEmv(wrong)).toThrow(/tag 63: CRC mismatch/);
  });

  it('rejects truncated input', () => {
    const payload = buildQrisPayload(input);
    expect(() => parseEmv(payload.slice(0, 40))).toThrow(/tag 26 declares length 69 but only \d+ characters remain/);
    expect(() => parseEmv(payload.slice(0, -2))).toThrow(/tag 63 declares length 4 but only 2 characters remain/);
    expect(() => parseEmv('00020')).toThrow(/truncated/);
  });

  it('rejects a bad length', () => {
    const badDigits = withFreshCrc('000201010211' + '52A45812' + '5303360');
    expect(() => parseEmv(badDigits)).toThrow(/tag 52 has invalid length "A4"/);
    // 59 claims 20 characters but holds 16, so the parse runs past into the next data objects.
    const tooLong = withFreshCrc('000201010211' + '5920WARUNG SEDERHANA' + '6007BANDUNG');
    expect(() => parseEmv(tooLong)).toThrow(/invalid tag|declares length/);
    const zero = withFreshCrc('000201010211' + '5900' + '6007BANDUNG');
    expect(() => parseEmv(zero)).toThrow(/tag 59 has length 00/);
    const badTemplate = withFreshCrc('000201010211' + '6207' + '0709A01');
    expect(() => parseEmv(badTemplate)).toThrow(/tag 62: tag 07 declares length 9/);
  });

  it('rejects a missing or misplaced CRC', () => {
    expect(() => parseEmv('0002010102115802ID')).toThrow(/tag 63 \(CRC\) is missing/);
    const crcNotLast = '000201010211' + '6304ABCD' + '5802ID';
    expect(() => parseEmv(crcNotLast)).toThrow(/tag 63 \(CRC\) must be the last/);
    const crcWrongLength = '000201010211' + '63051234A';
    expect(() => parseEmv(crcWrongLength)).toThrow(/tag 63 \(CRC\) must have length 04/);
    expect(() => parseEmv('000201010211' + '6304XYZW')).toThrow(/not 4 hex digits/);
  });

  it('rejects trailing garbage, duplicate tags and a missing format indicator', () => {
    expect(() => parseEmv(buildQrisPayload(input) + '0')).toThrow(/truncated/);
    expect(() => parseEmv(withFreshCrc('000201' + '5802ID' + '5802ID'))).toThrow(/tag 58 appears more than once/);
    expect(() => parseEmv(withFreshCrc('010211' + '000201'))).toThrow(/tag 00/);
    expect(() => parseEmv('')).toThrow(/tag 00/);
  });

  it('counts lengths in characters for non-ASCII values', () => {
    // Tag 64 (merchant information in an alternate language) may carry UTF-8 text.
    const payload = withFreshCrc('000201010211' + '5802ID' + '6404Café');
    expect(parseEmv(payload).tags['64']).toBe('Café');
  });
});

describe('qrisAmount', () => {
  it('reads tag 54 as whole rupiah, tolerating a zero fraction', () => {
    expect(qrisAmount(withFreshCrc('000201010212' + '540515000'))).toBe(15_000);
    expect(qrisAmount(withFreshCrc('000201010212' + '540815000.00'))).toBe(15_000);
    expect(() => qrisAmount(withFreshCrc('000201010212' + '540815000.50'))).toThrow(/tag 54/);
  });
});
