// What a customer needs to pay, as Loket asks for it and shows it: the phone an SMS reply goes to, the slip's
// orders, a code grouped for reading.
import { describe, expect, it } from 'vitest';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import {
  asksForPhone,
  groupInFours,
  hasPaymentSlip,
  maskPhone,
  smsReplyNumber,
} from '../../src-main/common/payment-instruction';
import { vaOrder } from './helpers/receipt-fixtures';

describe('the phone number', () => {
  it('is asked for plain carrier billing and for an SMS reply without a short code, not for one with a short code', () => {
    const asked = loadPaymentCatalogue()
      .filter(asksForPhone)
      .map((m) => m.id);
    expect(asked).toEqual(['airtime_xl', 'airtime_tri', 'airtime_smartfren']);
  });

  it('an SMS reply without a short code needs it even where its catalogue entry says requiresPhone: false', () => {
    expect(asksForPhone({ kind: 'airtime_sms', requiresPhone: false, hasShortCode: false })).toBe(true);
    expect(asksForPhone({ kind: 'airtime_sms', requiresPhone: false, hasShortCode: true })).toBe(false);
    expect(asksForPhone({ kind: 'qris', requiresPhone: false, hasShortCode: false })).toBe(false);
  });

  it('the screens name the number the SMS goes to, masked; the gateway’s echo first, else the one typed', () => {
    const sms = { type: 'sms_reply' as const, keyword: 'PAY', sms_code: '123456' };
    expect(smsReplyNumber({ instruction: { ...sms, phone_number: '081712345678' }, phone: '081799999999' })).toBe(
      '********5678',
    );
    expect(smsReplyNumber({ instruction: sms, phone: '081798765432' })).toBe('********5432');
    expect(smsReplyNumber({ instruction: sms })).toBeUndefined();
    // With a short code the customer texts it from any phone: no number to name.
    expect(smsReplyNumber({ instruction: { ...sms, short_code: '99000' }, phone: '081798765432' })).toBeUndefined();
    expect(maskPhone('0812')).toBe('0812');
  });
});

describe('the payment slip and the code', () => {
  it('a slip for a VA or store code waiting for payment only', () => {
    expect(hasPaymentSlip(vaOrder({ state: 'awaiting_payment' }))).toBe(true);
    expect(hasPaymentSlip(vaOrder({ state: 'awaiting_payment', kind: 'va_cstore' }))).toBe(true);
    expect(hasPaymentSlip(vaOrder({ state: 'paid' }))).toBe(false);
    expect(hasPaymentSlip(vaOrder({ state: 'awaiting_payment', instruction: undefined }))).toBe(false);
  });

  it('groups a code in fours, whatever spaces it came with', () => {
    expect(groupInFours('8808123456789012')).toBe('8808 1234 5678 9012');
    expect(groupInFours(' 88 0812 3 ')).toBe('8808 123');
  });
});
