import { describe, expect, it } from 'vitest';
import { DEFAULT_SIGNING_PROFILE, signBody, signingKey, verifyBodySign } from '../../src-main/core/bodysign';

// Expected values computed independently with `openssl dgst -sha256 -hmac KEY` over the same bytes.
const BODY = '{"amount":25000}';

describe('bodysign', () => {
  it('hex profile: lowercase hex HMAC-SHA256 keyed with the appkey', () => {
    expect(signBody(BODY, signingKey(DEFAULT_SIGNING_PROFILE, 'k3y'), 'hex')).toBe(
      'f82de99feb2a9893f3c1705a8184818852030f225e26deccd1270b41befae16e',
    );
  });

  it('base64 profile', () => {
    expect(signBody(BODY, 'k3y', 'base64')).toBe('+C3pn+sqmJPzwXBagYSBiFIDDyJeJt7M0ScLQb764W4=');
  });

  it('separate-secret profile uses the secret, not the appkey', () => {
    const key = signingKey({ key: 'secret', secret: 'separate-secret', encoding: 'hex' }, 'k3y');
    expect(signBody(BODY, key, 'hex')).toBe('34702a4c934121f563756b41af0f5e6406e2ad9709521ffcc466a1dc0b57babc');
    expect(() => signingKey({ key: 'secret', encoding: 'hex' }, 'k3y')).toThrow(/no.*secret|none is configured/);
  });

  it('signs bytes: the empty body and UTF-8 text, as string or bytes alike', () => {
    expect(signBody('', 'k3y', 'hex')).toBe('6debfeadd8df80dd8b3762fd569962db0f3bfbbe252972c28341591bf823aa2c');
    const text = '{"item_name":"Kopi ☕"}';
    expect(signBody(text, 'k3y', 'hex')).toBe('a541f5de94f8caed380b3ea8a5580e7f38a844c1e58488606f71672e021bd9fe');
    expect(signBody(new TextEncoder().encode(text), 'k3y', 'hex')).toBe(signBody(text, 'k3y', 'hex'));
  });

  it('verifies a good signature, accepts upper-case hex, and refuses wrong, short, long and missing ones', () => {
    const good = signBody(BODY, 'k3y', 'hex');
    expect(verifyBodySign(BODY, 'k3y', 'hex', good)).toBe(true);
    expect(verifyBodySign(BODY, 'k3y', 'hex', good.toUpperCase())).toBe(true);
    expect(
      verifyBodySign(
        BODY,
        'k3y',
        'hex',
        good.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
      ),
    ).toBe(false);
    expect(verifyBodySign(BODY, 'k3y', 'hex', good.slice(0, -2))).toBe(false);
    expect(verifyBodySign(BODY, 'k3y', 'hex', good + '00')).toBe(false);
    expect(verifyBodySign(BODY, 'k3y', 'hex', undefined)).toBe(false);
    expect(verifyBodySign(BODY + ' ', 'k3y', 'hex', good)).toBe(false);
    expect(verifyBodySign(BODY, 'other', 'hex', good)).toBe(false);
  });

  it('base64 verification is exact (base64 is case-sensitive)', () => {
    const good = signBody(BODY, 'k3y', 'base64');
    expect(verifyBodySign(BODY, 'k3y', 'base64', good)).toBe(true);
    expect(verifyBodySign(BODY, 'k3y', 'base64', good.toLowerCase())).toBe(false);
  });
});
