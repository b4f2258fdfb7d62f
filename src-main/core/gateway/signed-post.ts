import fetch, { type RequestInit } from 'node-fetch';
import { parseStrictJson } from '../../common/strict-json';
import { signBody } from '../bodysign';
import type { SecretStore } from '../ports';
import type { GatewayConfig } from './client';

/**
 * One signed POST to the gateway, signed and sent exactly as GatewayClient sends its requests (the same
 * headers, HMAC over the exact bytes, the same key choice), but reporting what happened on the wire in more
 * detail than the client needs: the connection test tells a manager why it failed. GatewayClient keeps its
 * own copy of this; keep the two in step (headers, signing) if either changes.
 *
 * The appkey and signing secret never appear in a result: any message that could carry one is redacted.
 */
export type SignedPostResult =
  | { kind: 'answer'; status: number; text: string; location?: string }
  /** The SecretStore has no appkey (or no signing secret where the profile needs one): nothing was sent. */
  | { kind: 'no_secret'; secret: 'appkey' | 'signing-secret'; message: string }
  /** Nothing reached the gateway: refused, no such host, no route. */
  | { kind: 'not_sent'; code: string; message: string }
  /** The TLS handshake failed: the certificate was not accepted. */
  | { kind: 'tls'; code: string; message: string }
  | { kind: 'timeout'; message: string }
  /** The connection broke before an answer came. */
  | { kind: 'broken'; code: string; message: string };

const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'ERR_INVALID_URL',
]);

const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/;

export function gatewayUrl(config: Pick<GatewayConfig, 'baseUrl'>, path: string): string {
  return config.baseUrl.replace(/\/+$/, '') + path;
}

/** Replaces every occurrence of the given secrets in a text (a gateway may echo a header back). */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}

/** What stands for an answer that held a secret Loket could not cut out without changing what the answer means. */
export const REDACTED_ANSWER = '[redacted: the answer held a secret]';

/**
 * A gateway's answer without the given secrets, before anything reads, stores or shows it: every plain occurrence
 * is replaced (as `redact`), and a secret written with JSON escapes (`\u0061…`, the same text once parsed) is
 * found in the parsed answer and replaced there, the answer written again as JSON. An answer that is not strict
 * JSON (a key twice) and still holds one is replaced whole, so it stays unreadable rather than changing meaning.
 */
export function redactAnswer(text: string, secrets: readonly (string | undefined)[]): string {
  const known = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  if (known.length === 0) return text;
  const out = redact(text, known);
  if (!out.includes('\\')) return out;
  let value: unknown;
  try {
    value = JSON.parse(out);
  } catch {
    return out;
  }
  if (!holdsSecret(value, known)) return out;
  return parseStrictJson(out).ok ? JSON.stringify(redactValue(value, known)) : REDACTED_ANSWER;
}

function holdsSecret(value: unknown, secrets: readonly string[]): boolean {
  if (typeof value === 'string') return secrets.some((s) => value.includes(s));
  if (Array.isArray(value)) return value.some((v) => holdsSecret(v, secrets));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).some(([k, v]) => holdsSecret(k, secrets) || holdsSecret(v, secrets));
  return false;
}

function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redact(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k, secrets), redactValue(v, secrets)]));
  return value;
}

export async function signedPost(
  config: GatewayConfig,
  secrets: SecretStore,
  path: string,
  bytes: string,
  options: { timeoutMs?: number } = {},
): Promise<SignedPostResult> {
  const appKey = await secrets.get('appkey');
  if (!appKey) return { kind: 'no_secret', secret: 'appkey', message: `no appkey is stored in ${secrets.description}` };
  let key = appKey;
  let signingSecret: string | undefined;
  if (config.signing.key === 'secret') {
    signingSecret = await secrets.get('signing-secret');
    if (!signingSecret)
      return {
        kind: 'no_secret',
        secret: 'signing-secret',
        message: `the signing profile needs a signing secret, and none is stored in ${secrets.description}`,
      };
    key = signingSecret;
  }
  const hide = (text: string) => redact(text, [appKey, signingSecret]);
  const timeoutMs = options.timeoutMs ?? config.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const init: RequestInit = {
    method: 'POST',
    body: bytes,
    redirect: 'manual',
    signal: controller.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      appid: config.appId,
      appkey: appKey,
      bodysign: signBody(bytes, key, config.signing.encoding),
    },
  };
  try {
    const res = await fetch(gatewayUrl(config, path), init);
    const text = await res.text();
    const location = res.headers.get('location');
    return {
      kind: 'answer',
      status: res.status,
      text: redactAnswer(text, [appKey, signingSecret]),
      ...(location ? { location: hide(location) } : {}),
    };
  } catch (err) {
    const e = err as { code?: string; errno?: string; name?: string; cause?: { code?: string } };
    const code = e.code ?? e.errno ?? e.cause?.code ?? e.name ?? 'error';
    if (controller.signal.aborted) return { kind: 'timeout', message: `no answer within ${seconds(timeoutMs)} s` };
    if (NOT_SENT_CODES.has(code)) return { kind: 'not_sent', code, message: hide(code) };
    if (TLS_CODE.test(code)) return { kind: 'tls', code, message: hide(code) };
    return { kind: 'broken', code: hide(code), message: 'the connection broke before an answer came' };
  } finally {
    clearTimeout(timer);
  }
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
