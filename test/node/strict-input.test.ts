// Stricter input, one validator on both sides of the wire (common/strict-json.ts, common/order-request.ts): broken
// UTF-8 and a key given twice are malformed (2001); control characters and lone surrogates in text fields are a
// format error (2103) — at the sandbox, at Loket's client (its requests and the answers it reads), and at
// browser mode's API, which also refuses pages of another origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { badTextReason, parseStrictJson } from '../../src-main/common/strict-json';
import { parseStrictJsonBytes } from '../../src-main/core/http/strict-json-bytes';
import { validateOrderRequest } from '../../src-main/common/order-request';
import { RETCODE } from '../../src-main/common/retcodes';
import { signBody } from '../../src-main/core/bodysign';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { GatewayClient } from '../../src-main/core/gateway/client';
import { MemorySecretStore } from '../../src-main/adapters/env-secret-store';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { startWebHost, type WebHost } from '../../src-main/web/web-host';
import { startSandbox, SANDBOX_DEFAULTS, type SandboxHandle } from '../../src-main/sandbox/server';
import { tempDir } from './helpers/loket';
import { uniqueMtid, validOrder } from './helpers/sandbox-client';

const methods = loadPaymentCatalogue();

describe('parseStrictJson and badTextReason', () => {
  it.each([
    ['{"a":1,"a":2}', 'duplicate_key'],
    ['{"x":{"k":1,"k":1}}', 'duplicate_key'],
    ['[{"k":1},{"k":2,"j":[{"k":1,"k":2}]}]', 'duplicate_key'],
    ['{"a\\u0062":1,"ab":2}', 'duplicate_key'],
    ['{"a":1', 'syntax'],
  ])('%s → %s', (text, problem) => {
    expect(parseStrictJson(text)).toMatchObject({ ok: false, problem });
  });

  it('accepts the same key in different objects, and keys that only look alike', () => {
    expect(parseStrictJson('{"k":1,"o":{"k":2},"l":[{"k":3},{"k":4}],"K":5}')).toMatchObject({ ok: true });
    expect(parseStrictJson('{"a\\\\":1,"a":2}')).toMatchObject({ ok: true });
  });

  it('refuses broken UTF-8 bytes instead of reading them as U+FFFD', () => {
    expect(
      parseStrictJsonBytes(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])),
    ).toMatchObject({
      ok: false,
      problem: 'utf8',
    });
    expect(parseStrictJsonBytes(Buffer.from('{"a":"Kopi ☕ 😀"}'))).toEqual({ ok: true, value: { a: 'Kopi ☕ 😀' } });
  });

  it('text: control characters and lone surrogates are refused; tabs too; emoji and accents are fine', () => {
    for (const bad of [
      'a\u0000b',
      'line\nbreak',
      'tab\there',
      'bell\u0007',
      'del\u007f',
      'c1\u0085',
      'x\ud83d',
      '\ude00y',
    ])
      expect(badTextReason(bad), JSON.stringify(bad)).toBeDefined();
    for (const good of ['Kopi susu', 'Café ñ', 'Teh 😀', '“kutip”']) expect(badTextReason(good)).toBeUndefined();
  });
});

describe('the shared validator (the sandbox and the client say the same)', () => {
  it('a control character or a lone surrogate in a text field is a format error naming the field', () => {
    for (const [field, value] of [
      ['item_name', 'Kopi\u0000'],
      ['item_name', 'Kopi\ud83d'],
      ['customer_name', 'Budi\u001b[31m'],
      ['user_id', 'u\u2028'.replace('\u2028', '\u0085')],
    ] as const) {
      const result = validateOrderRequest(validOrder({ [field]: value }), methods);
      expect(result.ok, field).toBe(false);
      if (!result.ok) expect(result.issues).toContainEqual(expect.objectContaining({ field, rule: 'format' }));
    }
  });

  it("Loket's client refuses such a request before anything is sent", () => {
    const client = new GatewayClient(
      {
        baseUrl: 'http://127.0.0.1:9',
        appId: 'x',
        signing: { key: 'appkey', encoding: 'hex' },
        timeoutMs: 1000,
        inquiryPath: null,
      },
      new MemorySecretStore('test', { appkey: 'k' }),
      methods,
    );
    const prepared = client.prepare(validOrder({ item_name: 'Teh\u0007' }));
    expect(prepared.ok).toBe(false);
    if (!prepared.ok) expect(prepared.failure).toMatchObject({ class: 'invalid_input' });
  });
});

describe('at the sandbox', () => {
  let sandbox: SandboxHandle;
  beforeAll(async () => {
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => sandbox.close());

  async function post(bytes: Buffer): Promise<{ status: number; json: { retcode: string; message: string } }> {
    const res = await fetch(`${sandbox.url}/api/transaction`, {
      method: 'POST',
      body: new Uint8Array(bytes),
      headers: {
        'content-type': 'application/json',
        appid: SANDBOX_DEFAULTS.appId,
        appkey: SANDBOX_DEFAULTS.appKey,
        bodysign: signBody(bytes, SANDBOX_DEFAULTS.appKey, 'hex'),
      },
    });
    return { status: res.status, json: (await res.json()) as { retcode: string; message: string } };
  }

  it('broken UTF-8 and duplicate keys are malformed (2001); nothing is created', async () => {
    const before = sandbox.orders.all().length;
    const order = JSON.stringify(validOrder());
    const broken = Buffer.concat([Buffer.from(order.slice(0, -2)), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const twice = Buffer.from(order.replace('{', `{"amount":1,`));
    for (const bytes of [broken, twice]) {
      const answer = await post(bytes);
      expect(answer.status).toBe(400);
      expect(answer.json.retcode).toBe(RETCODE.MALFORMED_JSON);
    }
    expect((await post(twice)).json.message).toMatch(/"amount" twice/);
    expect(sandbox.orders.all()).toHaveLength(before);
  });

  it('a control character or lone surrogate in item_name is a format error (2103)', async () => {
    for (const item of ['Kopi\u0001', 'Kopi\ud83d']) {
      const answer = await post(
        Buffer.from(JSON.stringify(validOrder({ item_name: item, merchant_transaction_id: uniqueMtid() }))),
      );
      expect(answer.status).toBe(400);
      expect(answer.json.retcode).toBe(RETCODE.FIELD_FORMAT);
      expect(answer.json.message).toMatch(/item_name/);
    }
  });
});

describe("at Loket's client, reading a gateway's answer", () => {
  let server: Server;
  let url = '';
  let answer: Buffer = Buffer.alloc(0);
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('an answer with a key twice, or in broken UTF-8, is malformed: the order may exist, never read one of two ways', async () => {
    const client = new GatewayClient(
      { baseUrl: url, appId: 'x', signing: { key: 'appkey', encoding: 'hex' }, timeoutMs: 2000, inquiryPath: null },
      new MemorySecretStore('test', { appkey: 'k' }),
      methods,
    );
    const ok =
      '{"success":true,"retcode":"0000","message":"ok","qrString":"000201","qrisUrl":"http://x/q.png","back_url":"http://x"}';
    const prepared = client.prepare(validOrder());
    if (!prepared.ok) throw new Error('invalid test order');

    answer = Buffer.from(ok);
    expect((await client.create('v2', prepared.bytes)).ok).toBe(true);
    answer = Buffer.from(ok.replace('"success":true', '"success":false,"success":true'));
    expect(await client.create('v2', prepared.bytes)).toMatchObject({ ok: false, failure: { class: 'malformed' } });
    answer = Buffer.concat([Buffer.from(ok.slice(0, -1) + ',"x":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    expect(await client.create('v2', prepared.bytes)).toMatchObject({ ok: false, failure: { class: 'malformed' } });
  });
});

describe('browser mode refuses other origins (and strict request bodies)', () => {
  const dir = tempDir('loket-origin-');
  let host: AppHost;
  let web: WebHost;
  let token = '';
  let key = '';
  beforeAll(async () => {
    const staticDir = join(dir.path, 'renderer');
    mkdirSync(staticDir);
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Loket</title>');
    host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {} });
    web = await startWebHost({ app: host.app, staticDir, port: 0 });
    token = new URLSearchParams(web.cashierUrl.split('?')[1]).get('token')!;
    key = new URLSearchParams(web.displayUrl.split('?')[1]).get('key')!;
  });
  afterAll(async () => {
    await web.close();
    await host.close();
    dir.remove();
  });

  const call = (origin: string | undefined, body = '{"args":[]}') =>
    fetch(`${web.url}/api/call/appInfo`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        ...(origin === undefined ? {} : { origin }),
      },
      body,
    });

  it('a foreign Origin gets 403 on the API, the live stream and the display channel, even with the right secrets', async () => {
    for (const origin of ['http://evil.example', 'http://127.0.0.1:1', 'null']) {
      expect((await call(origin)).status, origin).toBe(403);
      const events = await fetch(`${web.url}/api/events?token=${token}`, { headers: { origin } });
      expect(events.status).toBe(403);
      const display = await fetch(`${web.url}/display/state?key=${key}`, { headers: { origin } });
      expect(display.status).toBe(403);
    }
  });

  it('its own Origin and no Origin at all are served', async () => {
    expect((await call(web.url)).status).toBe(200);
    expect((await call(undefined)).status).toBe(200);
  });

  it('a request body with a key twice is refused with the reason', async () => {
    const res = await call(web.url, '{"args":[],"args":[1]}');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/"args" twice/);
  });
});
