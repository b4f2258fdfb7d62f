import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemorySecretStore } from '../../src-main/adapters/env-secret-store';
import type { GatewayConfig } from '../../src-main/core/gateway/client';
import { PROBE_ID_PREFIX, testConnection, type ConnectionReport } from '../../src-main/core/gateway/probe';
import type { SecretStore } from '../../src-main/core/ports';
import { useSandbox } from './helpers/sandbox-setup';

const APP_ID = 'toko-probe';
const APP_KEY = 'probe-appkey-7f3a9c51e2';
const fixture = useSandbox({ appId: APP_ID, appKey: APP_KEY });

function config(overrides: Partial<GatewayConfig> = {}): GatewayConfig {
  return {
    baseUrl: fixture.sandbox.url,
    appId: APP_ID,
    signing: { key: 'appkey', encoding: 'hex' },
    timeoutMs: 5000,
    inquiryPath: '/api/status',
    ...overrides,
  };
}

const secrets = (appkey: string | null = APP_KEY): SecretStore =>
  new MemorySecretStore('the test keychain', appkey === null ? {} : { appkey });

/** Runs the probe and checks what every probe must hold: no order at the sandbox, no key in the report. */
async function probe(cfg: GatewayConfig, store: SecretStore = secrets()): Promise<ConnectionReport> {
  const before = await fixture.client.get('/sandbox/orders');
  const report = await testConnection(cfg, store);
  const after = await fixture.client.get('/sandbox/orders');
  expect(after.json?.data).toEqual(before.json?.data);
  expect(fixture.sandbox.orders.all()).toEqual([]);
  const json = JSON.stringify(report);
  expect(json).not.toContain(APP_KEY);
  const stored = await store.get('appkey');
  if (stored) expect(json).not.toContain(stored);
  expect(report.probeId).toMatch(new RegExp(`^${PROBE_ID_PREFIX}[0-9a-f]{24}$`));
  return report;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('testConnection against the sandbox over loopback', () => {
  it('right credentials, with a status inquiry: ok, by asking for an order that cannot exist', async () => {
    const report = await probe(config());
    expect(report).toMatchObject({
      reachable: true,
      appIdKnown: true,
      signatureAccepted: true,
      verdict: 'ok',
      method: 'inquiry',
      httpStatus: 404,
      retcode: '3001',
    });
    expect(report.message).toMatch(/^Connected: the gateway at http:\/\/127\.0\.0\.1:\d+ answered and accepted/);
    expect(report.message).toContain('"not found"');
    expect(report.message).toContain('Nothing was created.');
  });

  it('right credentials, without a status inquiry: ok, by a signed create the gateway must refuse for its fields', async () => {
    const report = await probe(config({ inquiryPath: null }));
    expect(report).toMatchObject({
      reachable: true,
      appIdKnown: true,
      signatureAccepted: true,
      verdict: 'ok',
      method: 'invalid_create',
      httpStatus: 400,
      retcode: '2102',
    });
    expect(report.detail).toMatch(/item_name/);
    expect(report.message).toMatch(/refused it for that \(retcode 2102\)/);
  });

  it('a trailing slash on the base URL makes no difference', async () => {
    expect((await probe(config({ baseUrl: fixture.sandbox.url + '/' }))).verdict).toBe('ok');
  });

  it('wrong appkey → bad_key: the appid is known', async () => {
    const report = await probe(config(), secrets('not-the-right-key'));
    expect(report).toMatchObject({
      reachable: true,
      appIdKnown: true,
      signatureAccepted: null,
      verdict: 'bad_key',
      httpStatus: 401,
      retcode: '1003',
    });
    expect(report.message).toMatch(/the appkey stored is not the one it has for it\. Enter the appkey again/);
    // Also without an inquiry path: the create is refused at the same check, before its fields.
    expect((await probe(config({ inquiryPath: null }), secrets('not-the-right-key'))).verdict).toBe('bad_key');
  });

  it('wrong appid → unknown_appid', async () => {
    const report = await probe(config({ appId: 'toko-typo' }));
    expect(report).toMatchObject({
      reachable: true,
      appIdKnown: false,
      signatureAccepted: null,
      verdict: 'unknown_appid',
      retcode: '1002',
    });
    expect(report.message).toContain('does not know the appid "toko-typo"');
  });

  it('signing with the wrong profile (base64 where the sandbox expects hex) → bad_signature', async () => {
    const report = await probe(config({ signing: { key: 'appkey', encoding: 'base64' } }));
    expect(report).toMatchObject({
      reachable: true,
      appIdKnown: true,
      signatureAccepted: false,
      verdict: 'bad_signature',
      retcode: '1004',
    });
    expect(report.message).toContain('Check the signing profile (now key: the appkey, encoding: base64)');
    // The gateway's own words say what it expects.
    expect(report.detail).toContain('hex');
  });

  it('no appkey stored → no_secret, without contacting the gateway; a signing secret missing likewise', async () => {
    let requests = 0;
    const url = await listen(
      createServer((req, res) => {
        requests++;
        res.end();
      }),
    );
    const report = await testConnection(config({ baseUrl: url }), secrets(null));
    // Nothing was sent: whether the gateway is reachable was not tried (a screen says "not tried", and why).
    expect(report).toMatchObject({
      reachable: null,
      appIdKnown: null,
      signatureAccepted: null,
      verdict: 'no_secret',
      reason: { key: 'probe.no_appkey' },
    });
    expect(report.message).toBe(
      `No appkey is stored yet, so Loket did not contact the gateway at ${url}. Enter the appkey the gateway gave you, then test again.`,
    );
    const noSecret = await testConnection(
      config({ baseUrl: url, signing: { key: 'secret', encoding: 'hex' } }),
      secrets(),
    );
    expect(noSecret.verdict).toBe('no_secret');
    expect(noSecret.message).toMatch(/^The signing profile signs with a separate signing secret, and none is stored/);
    expect(JSON.stringify(noSecret)).not.toContain(APP_KEY);
    expect(requests).toBe(0);
    // Against the sandbox too: nothing created.
    expect((await probe(config(), secrets(null))).verdict).toBe('no_secret');
  });

  it('a gateway that is down → unreachable', async () => {
    const server = createServer();
    const url = await listen(server);
    servers.pop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const report = await testConnection(config({ baseUrl: url }), secrets());
    expect(report).toMatchObject({
      reachable: false,
      appIdKnown: null,
      signatureAccepted: null,
      verdict: 'unreachable',
    });
    expect(report.message).toContain(`Could not reach the gateway at ${url} (ECONNREFUSED`);
    expect(JSON.stringify(report)).not.toContain(APP_KEY);
  });

  it('a gateway that never answers → unreachable, "no answer within N s"', async () => {
    const url = await listen(createServer(() => undefined));
    const report = await testConnection(config({ baseUrl: url, timeoutMs: 300 }), secrets());
    expect(report).toMatchObject({ reachable: false, verdict: 'unreachable' });
    expect(report.message).toContain(`No answer from the gateway at ${url} within 0.3 s.`);
  });
});

describe('testConnection: answers from gateways that are not the sandbox', () => {
  function gateway(status: number, body: string, headers: Record<string, string> = {}) {
    return listen(
      createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(body);
        });
      }),
    );
  }

  it('another 401/403 → refused, with the gateway own words, and an echoed key redacted', async () => {
    const url = await gateway(
      403,
      JSON.stringify({ success: false, retcode: '9001', message: `key ${APP_KEY} is blocked` }),
    );
    const report = await testConnection(config({ baseUrl: url }), secrets());
    expect(report).toMatchObject({ reachable: true, verdict: 'refused', httpStatus: 403, retcode: '9001' });
    expect(report.detail).toBe('key [redacted] is blocked');
    expect(report.message).toContain('did not accept the credentials (HTTP 403, retcode 9001)');
    expect(JSON.stringify(report)).not.toContain(APP_KEY);
  });

  it('a gateway that accepts the invalid create → unexpected, saying an order may exist', async () => {
    const url = await gateway(200, JSON.stringify({ success: true, retcode: '0000', message: 'ok' }));
    const report = await testConnection(config({ baseUrl: url, inquiryPath: null }), secrets());
    expect(report).toMatchObject({ verdict: 'unexpected', appIdKnown: true, signatureAccepted: true });
    expect(report.message).toContain('ACCEPTED a test order');
    expect(report.message).toContain(report.probeId);
  });

  it('a 5xx, an HTML page, a redirect, an unknown retcode → unexpected with status and retcode', async () => {
    const down = await testConnection(
      config({ baseUrl: await gateway(503, '{"success":false,"retcode":"5003","message":"maintenance"}') }),
      secrets(),
    );
    expect(down).toMatchObject({ verdict: 'unexpected', reachable: true, httpStatus: 503, retcode: '5003' });
    const html = await testConnection(config({ baseUrl: await gateway(404, '<html>Not Found</html>') }), secrets());
    expect(html).toMatchObject({ verdict: 'unexpected', httpStatus: 404 });
    expect(html.message).toMatch(/not the gateway's JSON\. Check the status inquiry path\./);
    const moved = await testConnection(
      config({ baseUrl: await gateway(301, '', { location: 'https://gateway.example/api/status' }) }),
      secrets(),
    );
    expect(moved.message).toContain('redirect (HTTP 301 to https://gateway.example/api/status)');
    const odd = await testConnection(
      config({ baseUrl: await gateway(400, '{"success":false,"retcode":"7777","message":"hmm"}') }),
      secrets(),
    );
    expect(odd).toMatchObject({ verdict: 'unexpected', httpStatus: 400, retcode: '7777', appIdKnown: null });
  });
});
