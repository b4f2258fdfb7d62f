import fetch, { type RequestInit } from 'node-fetch';
import { parseStrictJson } from '../../common/strict-json';
import { signBody, type SigningProfile } from '../bodysign';
import { decodeStrictUtf8 } from '../http/strict-json-bytes';
import type { SecretStore } from '../ports';

/**
 * The one signed request to the gateway: the headers, the HMAC over the exact bytes, the key choice, the URL rule,
 * the deadline and the strict decoding of the answer. The gateway client (orders, inquiries) and the connection
 * test (probe.ts) both send through it and word what happened each for its own reader.
 *
 * The appkey and signing secret never appear in a result: the answer, a redirect's location and any code that
 * could carry one are redacted before they are returned.
 */
export type SignedRequestResult =
  /**
   * `badUtf8`: the answer's bytes are not valid UTF-8; `text` is then a lossy decoding, for the log only, and is
   * never read as if it said something.
   */
  | { kind: 'answer'; status: number; text: string; badUtf8?: true; location?: string }
  /** The SecretStore has no appkey (or no signing secret where the profile needs one): nothing was sent. */
  | { kind: 'no_secret'; secret: 'appkey' | 'signing-secret'; message: string }
  /** Nothing reached the gateway: refused, no such host, no route. */
  | { kind: 'not_sent'; code: string }
  /** The TLS handshake failed: the certificate was not accepted. */
  | { kind: 'tls'; code: string }
  /** No answer within `timeoutMs`. */
  | { kind: 'timeout'; timeoutMs: number }
  /** The connection broke before an answer came. */
  | { kind: 'broken'; code: string };

/** What the signed request needs of the gateway's settings. */
export interface SignedRequestConfig {
  /** e.g. https://gateway.example or http://127.0.0.1:8787; a trailing slash is dropped (gatewayUrl). */
  baseUrl: string;
  appId: string;
  signing: SigningProfile;
  timeoutMs: number;
}

/** Connection errors that happen before a byte of the request can reach the gateway. */
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

/** The one URL rule: the base address without its trailing slashes, then the path (which starts with one). */
export function gatewayUrl(config: Pick<SignedRequestConfig, 'baseUrl'>, path: string): string {
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

/** Signs the exact bytes and POSTs them under the deadline (`timeoutMs`, else the config's); never throws but for the SecretStore's own failure. */
export async function sendSigned(
  config: SignedRequestConfig,
  secrets: SecretStore,
  path: string,
  bytes: string,
  options: { timeoutMs?: number } = {},
): Promise<SignedRequestResult> {
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
  // Whatever the gateway echoes of what it was sent (or shares with Loket) is cut out before anything reads,
  // stores or shows the answer: a refusal's message, the raw body kept with the order, an inquiry's answer.
  const known = [appKey, signingSecret];
  const hide = (text: string) => redact(text, known);
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
    // Decoded strictly: an answer in broken UTF-8 is not read as if it said something else.
    const body = new Uint8Array(await res.arrayBuffer());
    const text = decodeStrictUtf8(body);
    const location = res.headers.get('location');
    return {
      kind: 'answer',
      status: res.status,
      ...(text === undefined
        ? { text: redactAnswer(Buffer.from(body).toString('utf8'), known), badUtf8: true as const }
        : { text: redactAnswer(text, known) }),
      ...(location ? { location: hide(location) } : {}),
    };
  } catch (err) {
    const e = err as { code?: string; errno?: string; name?: string; cause?: { code?: string } };
    const code = e.code ?? e.errno ?? e.cause?.code ?? e.name ?? 'error';
    if (controller.signal.aborted) return { kind: 'timeout', timeoutMs };
    if (NOT_SENT_CODES.has(code)) return { kind: 'not_sent', code: hide(code) };
    if (TLS_CODE.test(code)) return { kind: 'tls', code: hide(code) };
    return { kind: 'broken', code: hide(code) };
  } finally {
    clearTimeout(timer);
  }
}
