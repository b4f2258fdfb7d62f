// @vitest-environment jsdom
// Small things a cashier notices: times with the store's zone, refusals in the screen's language (from reasons
// and rules, never from the server's English), and the display's code sized to fit its box with whole pixels per module.
import { describe, expect, test } from 'vitest';
import { messagesFor } from '../../../src-renderer/src/i18n/i18n.svelte';
import { formatRupiah, formatZonedDateTime, formatZonedTime, zoneName } from '../../../src-renderer/src/lib/format';
import { translateIssue } from '../../../src-renderer/src/lib/issues';
import { fitQr, qrModules } from '../../../src-renderer/src/lib/qr';
import { gatewayDetail, refusalReason } from '../../../src-renderer/src/lib/refusal';
import { describeError } from '../../../src-renderer/src/state/describe-error';
import { CallError } from '../../../src-renderer/src/api/errors';
import type { Reason } from '../../../src-main/common/reasons';
import { sayReason } from '../../../src-renderer/src/lib/say';

const id = messagesFor('id');
const en = messagesFor('en');
const AT = '2026-03-10T07:05:00.000Z';

describe("times in the store's zone, with its name", () => {
  test("Indonesia's zones by their own names; others by their offset", () => {
    expect(zoneName('Asia/Jakarta')).toBe('WIB');
    expect(zoneName('Asia/Pontianak')).toBe('WIB');
    expect(zoneName('Asia/Makassar')).toBe('WITA');
    expect(zoneName('Asia/Jayapura')).toBe('WIT');
    expect(zoneName('Europe/Amsterdam', new Date(AT))).toBe('GMT+1');
    expect(zoneName('Not/AZone')).toBe('');
  });

  test('"14.05 WIB" in Indonesian, "14:05 WIB" in English; a date too', () => {
    expect(formatZonedTime(AT, 'Asia/Jakarta', 'id')).toBe('14.05 WIB');
    expect(formatZonedTime(AT, 'Asia/Jakarta', 'en')).toBe('14:05 WIB');
    expect(formatZonedTime(AT, 'Asia/Makassar', 'id')).toBe('15.05 WITA');
    // Dates as the receipts write them (common/dates.ts): day/month/year.
    expect(formatZonedDateTime(AT, 'Asia/Jayapura', 'id')).toBe('10/03/2026 16.05 WIT');
    expect(formatZonedDateTime(AT, 'Asia/Jakarta', 'en')).toBe('10/03/2026 14:05 WIB');
  });

  test('rupiah with thousand dots and no decimals', () => {
    expect(formatRupiah(25000)).toBe('Rp25.000');
    expect(formatRupiah(10_000_000)).toBe('Rp10.000.000');
  });
});

describe('a refusal in the cashier’s language', () => {
  test('by retcode, else by HTTP status', () => {
    expect(refusalReason({ retcode: '1003', httpStatus: 401 })).toBe('credentials');
    expect(refusalReason({ retcode: '2203', httpStatus: 400 })).toBe('amount');
    expect(refusalReason({ retcode: '2201' })).toBe('method');
    expect(refusalReason({ httpStatus: 403 })).toBe('credentials');
    expect(refusalReason({ httpStatus: 429 })).toBe('tooMany');
    expect(refusalReason({ httpStatus: 422 })).toBe('request');
    expect(refusalReason({})).toBe('other');
    // Every reason has words in both languages.
    for (const key of Object.keys(id.failure.reasons) as (keyof typeof id.failure.reasons)[]) {
      expect(id.failure.reasons[key]).not.toBe('');
      expect(en.failure.reasons[key]).not.toBe(id.failure.reasons[key]);
    }
  });

  test("the gateway's own words are a detail, with its retcode and status", () => {
    expect(gatewayDetail({ message: 'header appkey: does not match', retcode: '1003', httpStatus: 401 })).toBe(
      'header appkey: does not match (retcode 1003, HTTP 401)',
    );
    expect(gatewayDetail({ message: 'no' })).toBe('no');
  });

  test("a server error: its reason in our words; without one, what its code means — never the server's English", () => {
    const transition: Reason = {
      key: 'order.illegal_transition',
      params: { orderId: 'T1', from: 'paid', to: 'cancelled', allowedFrom: ['unknown', 'awaiting_payment'] },
    };
    const conflict = new CallError('conflict', 'order T1 is paid; only an order …', 409, transition);
    expect(describeError(conflict, id)).toEqual({
      text: 'Pesanan T1 berstatus lunas: hanya pesanan berstatus belum diketahui atau menunggu pembayaran yang dapat menjadi dibatalkan.',
    });
    expect(describeError(conflict, en).text).toBe(
      'Order T1 is paid: only an order that is unknown or waiting for payment can become cancelled.',
    );
    expect(describeError(new CallError('conflict', 'order T1 is paid'), id)).toEqual({ text: id.errors.conflict });
    expect(describeError(new CallError('network', 'fetch failed'), id)).toEqual({ text: id.errors.network });
    expect(describeError(new CallError('internal', 'boom'), id)).toEqual({ text: id.errors.internal });
  });

  test('a field rule: from its rule and numbers; one without words of ours names the field', () => {
    const issue = { field: 'item_name', rule: 'format', message: 'item_name: must not contain control characters' };
    expect(translateIssue(issue as never, id, 'id')).toEqual({ text: 'Nama barang tidak diterima.' });
    expect(translateIssue(issue as never, en, 'en')).toEqual({ text: 'Item name was not accepted.' });
    const long = { field: 'item_name', rule: 'max_length', message: 'whatever the server says', params: { max: 25 } };
    expect(translateIssue(long as never, id, 'id')).toEqual({ text: id.issues.tooLong(25) });
    const range = {
      field: 'amount',
      rule: 'amount_range',
      message: 'between 1 and 2',
      params: { min: 10_000, max: 5_000_000 },
    };
    expect(translateIssue(range as never, en, 'en')).toEqual({
      text: en.issues.amountRange('Rp10.000', 'Rp5.000.000'),
    });
    expect(
      translateIssue({ field: 'amount', rule: 'required', message: 'amount: required' } as never, id, 'id'),
    ).toEqual({
      text: id.issues.amountPositive,
    });
  });
});

describe("the display's code fits its box", () => {
  test('whole device pixels per module, never larger than the box, quiet zone included', () => {
    const modules = qrModules('00020101021226670016COM.NOBUBANK.WWW01189360050300000879140214');
    expect(modules).toBeGreaterThan(25);
    for (const box of [200, 333, 480, 877, 1080]) {
      for (const ratio of [1, 1.5, 2, 3]) {
        const { scale, size } = fitQr(modules, box, ratio);
        expect(Number.isInteger(scale)).toBe(true);
        expect(size).toBeLessThanOrEqual(box);
        // And the largest that fits: one more device pixel per module would not.
        expect((modules * (scale + 1)) / ratio).toBeGreaterThan(box);
      }
    }
  });

  test('a box too small still draws one pixel per module rather than nothing', () => {
    expect(fitQr(41, 10, 1)).toEqual({ scale: 1, size: 41 });
  });
});

describe('an amount’s rule worded with its numbers, the maximum too', () => {
  test('a shift’s amount refused by the server: from its min to its max, in both languages', () => {
    const refused: Reason = {
      key: 'shift.field_rule',
      params: { field: 'float', rule: 'amount', min: 0, max: 100_000_000_000_000 },
    };
    expect(sayReason(refused, en, { lang: 'en' })).toBe('float: whole rupiah from Rp0 to Rp100.000.000.000.000.');
    expect(sayReason(refused, id, { lang: 'id' })).toBe(
      'float: bilangan bulat rupiah dari Rp0 sampai Rp100.000.000.000.000.',
    );
    const gate: Reason = {
      key: 'arguments.invalid',
      params: { field: '0.cart.lines.0.unitPrice', min: 0, max: 10_000_000_000 },
    };
    expect(sayReason(gate, en, { lang: 'en' })).toBe(
      'This request was not accepted (0.cart.lines.0.unitPrice): whole rupiah from Rp0 to Rp10.000.000.000.',
    );
    expect(sayReason(gate, id, { lang: 'id' })).toContain('dari Rp0 sampai Rp10.000.000.000');
  });

  test('the screens’ own words of an amount name the maximum: the shift’s fields, a tender, a price, too large', () => {
    for (const t of [en, id]) {
      for (const words of [
        t.shift.fields.float,
        t.shift.fields.amount,
        t.shift.fields.counted,
        t.tender.issues.amount,
        t.form.amountRules.too_long,
      ])
        expect(words).toContain('Rp100.000.000.000.000');
      expect(t.cart.rules.unit_price).toContain('Rp10.000.000.000');
    }
  });

  test('the order validator’s range with its params: the method’s min and max', () => {
    expect(
      translateIssue(
        { field: 'amount', rule: 'amount_range', message: '', params: { min: 1, max: 10_000_000 } },
        en,
        'en',
      ).text,
    ).toBe('The amount must be between Rp1 and Rp10.000.000 for this method.');
  });
});
