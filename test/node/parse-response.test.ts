import { describe, expect, it } from 'vitest';
import { parseV1Answer, parseV2Answer } from '../../src-main/core/gateway/parse-response';

const ok = { success: true, retcode: '0000', message: 'created' };

describe('parsing answers by shape', () => {
  it('keeps unknown extra fields instead of failing', () => {
    const r = parseV2Answer({
      ...ok,
      qrString: '000201',
      qrisUrl: 'https://x/q.png',
      back_url: 'https://b',
      promo: 'SALE',
      fee: 0,
    });
    expect(r).toEqual({
      ok: true,
      instruction: {
        type: 'qr',
        qrString: '000201',
        qrisUrl: 'https://x/q.png',
        back_url: 'https://b',
        extra: { promo: 'SALE', fee: 0 },
      },
    });
  });

  it('reads the wrapped virtual-account shape, with or without payment_url', () => {
    const data = {
      ...ok,
      va: '8808123',
      customer_name: 'Siti',
      expired_date: '2026-11-23 10:00:00',
      transaction_id: 'TX1',
    };
    expect(parseV2Answer({ data, success: true })).toEqual({
      ok: true,
      transactionId: 'TX1',
      expiredDate: '2026-11-23 10:00:00',
      instruction: {
        type: 'virtual_account',
        va: '8808123',
        customer_name: 'Siti',
        expired_date: '2026-11-23 10:00:00',
        transaction_id: 'TX1',
      },
    });
    const withUrl = parseV2Answer({ data: { ...data, payment_url: 'https://pay' }, success: true });
    expect(withUrl.ok && withUrl.instruction.type === 'virtual_account' && withUrl.instruction.payment_url).toBe(
      'https://pay',
    );
  });

  it('a wrapped answer whose inner success is false is a rejection with the inner retcode', () => {
    expect(
      parseV2Answer({ data: { success: false, retcode: '9001', message: 'bank offline' }, success: true }),
    ).toEqual({ ok: false, rejected: true, retcode: '9001', message: 'bank offline' });
  });

  it('success needs both success === true and retcode "0000"; only success false is a refusal, the rest is unclear', () => {
    expect(parseV2Answer({ success: false, retcode: '2201', message: 'no' })).toMatchObject({
      ok: false,
      rejected: true,
      retcode: '2201',
    });
    // Neither a success to act on nor a final refusal: the gateway may have stored the order (unknown, checked).
    for (const unclear of [
      { success: true, retcode: '0001', message: 'hmm' },
      { success: 'true', retcode: '0000', qrString: '000201' },
      { success: true, retcode: 0, qrString: '000201' },
      { success: false, retcode: '0000' },
      { retcode: '0000', qrString: '000201' },
    ])
      expect(parseV2Answer(unclear), JSON.stringify(unclear)).toMatchObject({
        ok: false,
        rejected: false,
        malformed: expect.stringContaining('success and retcode'),
      });
  });

  it("with the order's kind, a success of another kind's shape is malformed, never another way to pay", () => {
    expect(parseV2Answer(ok, 'qris')).toMatchObject({
      ok: false,
      rejected: false,
      malformed: expect.stringContaining('qris'),
    });
    expect(parseV2Answer(ok, 'airtime')).toEqual({ ok: true, instruction: { type: 'carrier_billing' } });
    expect(parseV2Answer({ ...ok, qrString: '000201' }, 'va_bank')).toMatchObject({ ok: false, rejected: false });
    expect(parseV2Answer({ ...ok, redirect: 'https://w' }, 'ewallet_qr_redirect')).toMatchObject({ ok: true });
    expect(parseV2Answer({ data: { ...ok, va: '88' }, success: true }, 'va_cstore')).toMatchObject({ ok: true });
    expect(parseV2Answer({ data: { ...ok, va: '88' }, success: true }, 'qris')).toMatchObject({
      ok: false,
      rejected: false,
    });
  });

  it('tells malformed answers apart from rejections', () => {
    expect(parseV2Answer([1, 2])).toMatchObject({ ok: false, rejected: false });
    expect(parseV2Answer({ ...ok, keyword: 'BAYAR' })).toMatchObject({
      ok: false,
      rejected: false,
      malformed: expect.stringContaining('sms_code'),
    });
    expect(parseV2Answer({ data: ok, success: true })).toMatchObject({
      ok: false,
      rejected: false,
      malformed: expect.stringContaining('data.va'),
    });
    expect(parseV2Answer({ ...ok, qrisUrl: 'https://q' })).toMatchObject({ ok: false, rejected: false });
    expect(parseV1Answer({ ...ok, data: {} }, (t) => t)).toMatchObject({
      ok: false,
      rejected: false,
      malformed: expect.stringContaining('token'),
    });
  });

  it('the envelope alone is carrier billing', () => {
    expect(parseV2Answer(ok)).toEqual({ ok: true, instruction: { type: 'carrier_billing' } });
  });
});
