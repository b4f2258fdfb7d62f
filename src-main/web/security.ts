import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** A fresh secret per start: printed in the cashier URL, never stored. */
export function newAccessToken(): string {
  return randomBytes(24).toString('base64url');
}

export function sameSecret(given: string | undefined | null, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * DNS-rebinding guard: a browser tricked into calling us under a foreign name sends that name in Host.
 * Only IP literals and localhost are ours, on our port.
 */
export function isAllowedHost(hostHeader: string | undefined, port: number): boolean {
  if (!hostHeader) return false;
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:]+)(?::(\d+))?$/.exec(hostHeader.trim());
  if (!m) return false;
  const name = m[1]!.replace(/^\[|\]$/g, '').toLowerCase();
  const hostPort = m[2] === undefined ? 80 : Number(m[2]);
  if (hostPort !== port) return false;
  return name === 'localhost' || isIP(name) !== 0;
}

/**
 * Whether a request's Origin, when it has one, is this server's own: `http://` plus the Host the request was
 * sent to (isAllowedHost has already checked that Host is ours). No Origin: a same-origin GET, or no browser.
 */
export function isOwnOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (!host) return false;
  return origin.toLowerCase() === `http://${host.toLowerCase()}`;
}

export function bearerToken(authorization: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return m?.[1];
}

/** Headers every answer carries: no framing, no sniffing, no referrer leaking the token. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: http: https:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');
