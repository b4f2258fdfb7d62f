// The one signed request (core/gateway/signed-request.ts), which the gateway client and the connection test both
// send through: the URL rule (a trailing slash on the base address is dropped), the signed headers, and the strict
// decoding of the answer (broken UTF-8 is flagged, never read). A real HTTP server on 127.0.0.1.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemorySecretStore } from '../../src-main/adapters/env-secret-store';
import { signBody } from '../../src-main/core/bodysign';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { GatewayClient } from '../../src-main/core/gateway/client';
import { gatewayUrl, sendSigned, type SignedRequestConfig } from '../../src-main/core/gateway/signed-request';

const APPKEY = 'appkey-of-the-test-1234';
let server: Server;
let base: string;
/** What the server answers next, and what it saw. */
let answer: { status: number; body: Buffer };
let seen: { url: string; headers: IncomingMessage['headers']; body: string }[];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  answer = { status: 200, body: Buffer.from('{"success":true}') };
  seen = [];
});

const config = (baseUrl = base): SignedRequestConfig => ({
  baseUrl,
  appId: 'toko-1',
  signing: { key: 'appkey', encoding: 'hex' },
  timeoutMs: 5000,
});
const secrets = () => new MemorySecretStore('test', { appkey: APPKEY });

describe('the URL rule', () => {
  it('drops trailing slashes from the base address, once for every caller', async () => {
    expect(gatewayUrl({ baseUrl: 'https://pay.example//' }, '/api/transaction')).toBe(
      'https://pay.example/api/transaction',
    );
    expect(gatewayUrl({ baseUrl: 'https://pay.example' }, '/api/status')).toBe('https://pay.example/api/status');
    await sendSigned(config(base + '/'), secrets(), '/api/status', '{}');
    expect(seen.map((s) => s.url)).toEqual(['/api/status']);
    // The client's payment page link follows the same rule.
    const client = new GatewayClient(
      { ...config('https://pay.example/'), inquiryPath: null },
      secrets(),
      loadPaymentCatalogue(),
    );
    expect(client.paymentPageUrl('tok')).toBe('https://pay.example/api/order/toko-1/tok');
  });
});

describe('the signed request', () => {
  it('sends the exact bytes with the appid, the appkey and the HMAC over them', async () => {
    const bytes = '{"merchant_transaction_id":"A-1"}';
    const result = await sendSigned(config(), secrets(), '/api/status', bytes);
    expect(result).toEqual({ kind: 'answer', status: 200, text: '{"success":true}' });
    expect(seen[0]!.body).toBe(bytes);
    expect(seen[0]!.headers).toMatchObject({
      appid: 'toko-1',
      appkey: APPKEY,
      bodysign: signBody(bytes, APPKEY, 'hex'),
    });
  });

  it('an answer in broken UTF-8 is flagged, and the client does not read it', async () => {
    answer = {
      status: 200,
      body: Buffer.concat([Buffer.from('{"success":true,"x":"'), Buffer.from([0xff]), Buffer.from('"}')]),
    };
    const result = await sendSigned(config(), secrets(), '/api/status', '{}');
    expect(result).toMatchObject({ kind: 'answer', status: 200, badUtf8: true });
    const client = new GatewayClient({ ...config(), inquiryPath: '/api/status' }, secrets(), loadPaymentCatalogue());
    const inquiry = await client.inquire('A-1');
    expect(inquiry).toMatchObject({ ok: false, failure: { class: 'malformed' } });
  });

  it('an echoed appkey never comes back', async () => {
    answer = { status: 400, body: Buffer.from(JSON.stringify({ success: false, message: `bad key ${APPKEY}` })) };
    const result = await sendSigned(config(), secrets(), '/api/status', '{}');
    expect(result.kind === 'answer' && result.text).toBe('{"success":false,"message":"bad key [redacted]"}');
  });

  it('no appkey stored: nothing is sent', async () => {
    const result = await sendSigned(config(), new MemorySecretStore('test', {}), '/api/status', '{}');
    expect(result).toMatchObject({ kind: 'no_secret', secret: 'appkey' });
    expect(seen).toEqual([]);
  });
});
