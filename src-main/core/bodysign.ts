import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The `bodysign` header (the aggregator's interface leaves its recipe "not shown"; docs/sandbox.md gives Loket's):
 * HMAC-SHA256 over the exact bytes of the body as sent, keyed with the appkey by default or a
 * separate signing secret, encoded as lowercase hex by default or base64.
 */
export interface SigningProfile {
  key: 'appkey' | 'secret';
  /** Used only when key is 'secret'. */
  secret?: string;
  encoding: 'hex' | 'base64';
}

export const DEFAULT_SIGNING_PROFILE: SigningProfile = { key: 'appkey', encoding: 'hex' };

export function signingKey(profile: SigningProfile, appKey: string): string {
  if (profile.key === 'appkey') return appKey;
  if (!profile.secret) throw new Error('signing profile uses a separate secret, but none is configured');
  return profile.secret;
}

export function signBody(body: string | Uint8Array, key: string, encoding: SigningProfile['encoding']): string {
  return createHmac('sha256', key).update(body).digest(encoding);
}

/**
 * Timing-safe check. The length is compared first because timingSafeEqual throws on unequal
 * lengths, and a wrong length reveals nothing an attacker does not already know.
 */
export function verifyBodySign(
  body: string | Uint8Array,
  key: string,
  encoding: SigningProfile['encoding'],
  given: string | undefined,
): boolean {
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(signBody(body, key, encoding), 'utf8');
  const actual = Buffer.from(encoding === 'hex' ? given.toLowerCase() : given, 'utf8');
  if (actual.length !== expected.length) return false;
  return timingSafeEqual(actual, expected);
}
