/**
 * Test helpers for the sandbox gateway, spoken over real HTTP on 127.0.0.1.
 * Uses Node's global fetch (undici), never node-fetch, so a test can mock node-fetch (the sandbox's
 * callback client) without touching its own requests.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import jsQR from 'jsqr';
import { signBody } from '../../../src-main/core/bodysign';
import { becomesTrue } from './wait-for';

// ---------------------------------------------------------------- catalogue (read raw, not through the app's parser)

export interface CatalogueEntry {
  id: string;
  kind: 'qris' | 'ewallet_redirect' | 'ewallet_qr_redirect' | 'airtime_sms' | 'airtime' | 'va_bank' | 'va_cstore';
  provider: string;
  requiresCustomerName: boolean;
  requiresPhone?: boolean;
  hasShortCode?: boolean;
  returnsBackUrl?: boolean;
  enabled: boolean;
  minAmount: number;
  maxAmount: number;
}

export const CATALOGUE: readonly CatalogueEntry[] = JSON.parse(
  readFileSync(new URL('../../../resources/payment-methods.json', import.meta.url), 'utf8'),
) as CatalogueEntry[];

export const ENABLED_METHODS: readonly CatalogueEntry[] = CATALOGUE.filter((m) => m.enabled);

export function catalogueEntry(id: string): CatalogueEntry {
  const found = CATALOGUE.find((m) => m.id === id);
  if (!found) throw new Error(`test helper: no payment method ${id} in resources/payment-methods.json`);
  return found;
}

// ---------------------------------------------------------------- order bodies

export const TEST_MDN = '081234567890';
export const TEST_CUSTOMER = 'Budi Santoso';

let sequence = 0;
const runTag = `${process.pid.toString(36)}${Date.now().toString(36)}`;

/** A merchant_transaction_id no other call in this process returns (at most 20 characters, no '-'). */
export function uniqueMtid(prefix = 'T'): string {
  sequence += 1;
  return `${prefix}${runTag}${sequence.toString(36)}`;
}

export type OrderBody = Record<string, unknown>;

/**
 * A fresh valid order body. `payment_method` defaults to qris_dynamic; an override whose value is
 * `undefined` removes that field. Airtime methods get user_mdn, the flagged bank gets customer_name,
 * and the amount is 25 000 clamped into the method's range.
 */
export function validOrder(overrides: OrderBody = {}): OrderBody {
  const methodId = typeof overrides.payment_method === 'string' ? overrides.payment_method : 'qris_dynamic';
  const method = CATALOGUE.find((m) => m.id === methodId);
  const amount = method ? Math.min(Math.max(25_000, method.minAmount), method.maxAmount) : 25_000;
  const body: OrderBody = {
    user_id: 'cashier-01',
    merchant_transaction_id: uniqueMtid(),
    payment_method: methodId,
    amount,
    item_name: 'Kopi Susu Gula Aren',
  };
  // The carrier methods get a phone (optional at the gateway; Loket asks it for plain carrier billing).
  if (method?.kind === 'airtime' || method?.kind === 'airtime_sms') body.user_mdn = TEST_MDN;
  if (method?.requiresCustomerName) body.customer_name = TEST_CUSTOMER;
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete body[key];
    else body[key] = value;
  }
  return body;
}

// ---------------------------------------------------------------- HTTP

export type JsonObject = Record<string, unknown>;

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed, when it is a JSON object. */
  json?: JsonObject;
}

export interface SignedPostOptions {
  appId: string;
  appKey: string;
  /** HMAC key; the appkey when absent. */
  signKey?: string;
  encoding?: 'hex' | 'base64';
  /** Header overrides: a string replaces (or adds) the header, null leaves it out. */
  headers?: Record<string, string | null>;
  /** Content type to send; null sends none. Default application/json. */
  contentType?: string | null;
  /** Sign these bytes instead of the body sent (to send a valid signature of a different body). */
  signOver?: string;
}

function parseJsonObject(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

async function toResult(res: Response): Promise<HttpResult> {
  const text = await res.text();
  const json = parseJsonObject(text);
  return { status: res.status, headers: res.headers, text, ...(json ? { json } : {}) };
}

/** POSTs `body` (a string is sent byte for byte; an object as JSON) signed over the exact bytes sent. */
export async function signedPost(
  baseUrl: string,
  path: string,
  body: string | object,
  options: SignedPostOptions,
): Promise<HttpResult> {
  const bytes = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
  const signature = signBody(options.signOver ?? bytes, options.signKey ?? options.appKey, options.encoding ?? 'hex');
  const headers: Record<string, string> = {};
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  headers.appid = options.appId;
  headers.appkey = options.appKey;
  headers.bodysign = signature;
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === null) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  assertLoopback(baseUrl);
  const res = await fetch(baseUrl + path, { method: 'POST', body: bytes, headers });
  return toResult(res);
}

/** Unsigned request, for the simulation endpoints, pages and images. */
export async function request(url: string, init: RequestInit = {}): Promise<HttpResult> {
  assertLoopback(url);
  const res = await fetch(url, init);
  return toResult(res);
}

export async function requestBytes(url: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  assertLoopback(url);
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The tests talk to 127.0.0.1 only; this refuses anything else before a packet leaves. */
export function assertLoopback(url: string): void {
  if (new URL(url).hostname !== '127.0.0.1') throw new Error(`test helper: refusing to contact ${url} (loopback only)`);
}

export interface Credentials {
  appId: string;
  appKey: string;
  signKey?: string;
  encoding?: 'hex' | 'base64';
}

/** A client bound to one sandbox and one set of credentials. */
export class SandboxClient {
  private readonly url: () => string;

  /** `baseUrl` may be a function, for a client made before its sandbox has started (see sandbox-setup.ts). */
  constructor(
    baseUrl: string | (() => string),
    readonly credentials: Credentials,
  ) {
    this.url = typeof baseUrl === 'string' ? () => baseUrl : baseUrl;
  }

  get baseUrl(): string {
    return this.url();
  }

  post(path: string, body: string | object, extra: Partial<SignedPostOptions> = {}): Promise<HttpResult> {
    return signedPost(this.baseUrl, path, body, { ...this.credentials, ...extra });
  }

  v2(body: string | object, extra: Partial<SignedPostOptions> = {}): Promise<HttpResult> {
    return this.post('/api/transaction', body, extra);
  }

  v1(body: string | object, extra: Partial<SignedPostOptions> = {}): Promise<HttpResult> {
    return this.post('/api/create', body, extra);
  }

  status(mtid: string): Promise<HttpResult> {
    return this.post('/api/status', { merchant_transaction_id: mtid });
  }

  get(path: string): Promise<HttpResult> {
    return request(this.baseUrl + path);
  }

  send(method: string, path: string, body?: unknown): Promise<HttpResult> {
    return request(this.baseUrl + path, {
      method,
      ...(body === undefined
        ? {}
        : {
            body: typeof body === 'string' ? body : JSON.stringify(body),
            headers: { 'content-type': 'application/json' },
          }),
    });
  }

  /** POST /sandbox/orders/{mtid}/{pay|expire|fail}. */
  settle(mtid: string, action: 'pay' | 'expire' | 'fail'): Promise<HttpResult> {
    return this.send('POST', `/sandbox/orders/${encodeURIComponent(mtid)}/${action}`);
  }

  order(mtid: string): Promise<HttpResult> {
    return this.get(`/sandbox/orders/${encodeURIComponent(mtid)}`);
  }

  /** Every stored order with this merchant_transaction_id, from GET /sandbox/orders. */
  async ordersWith(mtid: string): Promise<JsonObject[]> {
    const res = await this.get('/sandbox/orders');
    if (res.status !== 200 || !Array.isArray(res.json?.data))
      throw new Error(`GET /sandbox/orders answered ${res.status}: ${res.text}`);
    return (res.json.data as JsonObject[]).filter((o) => o.merchant_transaction_id === mtid);
  }

  async callbacksFor(mtid: string): Promise<JsonObject[]> {
    const res = await this.get('/sandbox/callbacks');
    if (res.status !== 200 || !Array.isArray(res.json?.data))
      throw new Error(`GET /sandbox/callbacks answered ${res.status}: ${res.text}`);
    return (res.json.data as JsonObject[]).filter((a) => a.merchant_transaction_id === mtid);
  }

  pageUrl(token: string, appId = this.credentials.appId): string {
    return `${this.baseUrl}/api/order/${encodeURIComponent(appId)}/${token}`;
  }
}

// ---------------------------------------------------------------- small assertions helpers

/** The value as an object, or a thrown error naming what it was. */
export function obj(value: unknown, what = 'value'): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${what} is not an object: ${JSON.stringify(value)}`);
  return value as JsonObject;
}

export function str(value: unknown, what = 'value'): string {
  if (typeof value !== 'string') throw new Error(`${what} is not a string: ${JSON.stringify(value)}`);
  return value;
}

export function sortedKeys(value: unknown): string[] {
  return Object.keys(obj(value)).sort();
}

export const GATEWAY_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Reads `YYYY-MM-DD HH:MM:SS` as Asia/Jakarta wall time (UTC+7, no daylight saving). */
export function fromJakarta(text: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) throw new Error(`not a gateway date: ${text}`);
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s) - 7 * 3600_000);
}

/** Polls `check` until it returns true or `timeoutMs` passes; returns whether it became true (wait-for.ts). */
export function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<boolean> {
  return becomesTrue(check, timeoutMs);
}

// ---------------------------------------------------------------- QR images

interface DecodedPng {
  width: number;
  height: number;
  data: Buffer;
}
// pngjs ships no types and comes with qrcode; it is loaded through require with the one call we use typed here.
const pngjs = createRequire(import.meta.url)('pngjs') as { PNG: { sync: { read(buffer: Buffer): DecodedPng } } };

/** Decodes a PNG holding a QR code to its text, or null when no code is found. */
export function decodeQrPng(png: Buffer): string | null {
  const image = pngjs.PNG.sync.read(png);
  const pixels = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length);
  return jsQR(pixels, image.width, image.height)?.data ?? null;
}

// ---------------------------------------------------------------- callback receiver

export interface ReceivedCallback {
  n: number;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  json: JsonObject | undefined;
}

export interface Receiver {
  readonly url: string;
  readonly received: ReceivedCallback[];
  /** The HTTP status to answer the n-th request (1-based) with; 200 unless set. */
  answer: (n: number) => number;
  waitFor(count: number, timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

/** A loopback HTTP server that records every request, for `notification_url`. */
export async function startReceiver(answer: (n: number) => number = () => 200): Promise<Receiver> {
  const received: ReceivedCallback[] = [];
  const receiver = {
    url: '',
    received,
    answer,
    waitFor: (count: number, timeoutMs = 3000) => waitUntil(() => received.length >= count, timeoutMs),
    close: async () => undefined,
  } as Receiver & { url: string };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const n = received.length + 1;
      received.push({
        n,
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        raw,
        json: parseJsonObject(raw.toString('utf8')),
      });
      const status = receiver.answer(n);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/loket/callback`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}
