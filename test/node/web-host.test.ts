import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { startWebHost, type WebHost } from '../../src-main/web/web-host';
import { runServeCommand } from '../../src-main/web/command';
import type { LiveEvent } from '../../src-main/common/api';
import { tempDir } from './helpers/loket';

const dir = tempDir('loket-web-');
let appHost: AppHost;
let web: WebHost;
let token: string;
let key: string;

beforeAll(async () => {
  const staticDir = join(dir.path, 'renderer');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Loket</title><h1>Loket</h1>');
  writeFileSync(join(dir.path, 'secret.txt'), 'outside the static folder');
  appHost = await startAppHost({ version: '0.0.0-test', dataDir: join(dir.path, 'data'), env: {} });
  web = await startWebHost({ app: appHost.app, staticDir, port: 0 });
  token = new URLSearchParams(web.cashierUrl.split('?')[1]).get('token')!;
  key = new URLSearchParams(web.displayUrl.split('?')[1]).get('key')!;
});
afterAll(async () => {
  await web.close();
  await appHost.close();
  dir.remove();
});

function call(method: string, args: unknown[], bearer: string | null = token, init: RequestInit = {}) {
  return fetch(`${web.url}/api/call/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify({ args }),
    ...init,
  });
}

/** A raw request, so the Host header and the path are exactly what an attacker would send. */
function raw(path: string, host: string, method = 'GET'): Promise<{ status: number; body: string }> {
  const url = new URL(web.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Reads server-sent events until `until` says enough, or the time runs out. */
async function readEvents(
  path: string,
  until: (events: LiveEvent[]) => boolean,
  during: () => Promise<void> = async () => undefined,
): Promise<LiveEvent[]> {
  const controller = new AbortController();
  const res = await fetch(`${web.url}${path}`, { signal: controller.signal });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.getReader();
  const events: LiveEvent[] = [];
  let buffer = '';
  const timer = setTimeout(() => controller.abort(), 5000);
  const reading = (async () => {
    try {
      while (!until(events)) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += new TextDecoder().decode(value);
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const chunk = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = chunk.split('\n').find((l) => l.startsWith('data: '));
          if (data) events.push(JSON.parse(data.slice(6)) as LiveEvent);
        }
      }
    } catch {
      // aborted by the timer: the caller's assertions say what was missing
    }
  })();
  await during();
  await reading;
  clearTimeout(timer);
  controller.abort();
  return events;
}

describe('browser mode host: access', () => {
  it('serves the renderer with a CSP, and nothing outside its folder', async () => {
    const res = await fetch(`${web.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const host = new URL(web.url).host;
    expect((await raw('/%2e%2e/secret.txt', host)).status).toBe(404);
    expect((await raw('/../secret.txt', host)).status).toBe(404);
  });

  it('refuses a foreign Host header (DNS rebinding), and a wrong port', async () => {
    const port = new URL(web.url).port;
    expect((await raw('/', 'evil.example')).status).toBe(421);
    expect((await raw('/', `evil.example:${port}`)).status).toBe(421);
    expect((await raw('/', `127.0.0.1:${Number(port) + 1}`)).status).toBe(421);
    expect((await raw('/', `localhost:${port}`)).status).toBe(200);
  });

  it('requires the token for every cashier call: none or a wrong one → 401', async () => {
    expect((await call('appInfo', [], null)).status).toBe(401);
    expect((await call('appInfo', [], 'wrong')).status).toBe(401);
    expect((await call('appInfo', [], key)).status).toBe(401);
    expect((await fetch(`${web.url}/api/events`)).status).toBe(401);
    const ok = await call('appInfo', []);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      ok: true,
      result: { name: 'Loket', mode: 'sandbox', version: '0.0.0-test' },
    });
  });

  it('rejects unknown methods, bad arguments, wrong verbs, content types and oversized bodies with clear messages', async () => {
    const unknown = await call('dropTables', []);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toContain('unknown API method');
    const bad = await call('createOrder', [{ methodId: 'qris_dynamic', amount: 'lots', itemName: 'x' }]);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toMatch(/createOrder: argument 0\.amount/);
    const extra = await call('cancelOrder', ['X', 'ab']);
    expect((await extra.json()).error.message).toContain('reason: say why');
    const blank = await call('cancelOrder', ['X', '      ']);
    expect(blank.status).toBe(400);
    expect((await blank.json()).error.message).toContain('reason: say why');
    expect((await fetch(`${web.url}/api/call/appInfo`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      405,
    );
    expect(
      (
        await call('appInfo', [], token, {
          headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(415);
    const big = await fetch(`${web.url}/api/call/appInfo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: 'x'.repeat(100_000),
    });
    expect(big.status).toBe(413);
    expect((await call('getOrder', ['NOPE'])).status).toBe(200);
    expect((await (await call('cancelOrder', ['NOPE', 'gone away'])).json()).error.code).toBe('not_found');
  });
});

describe('browser mode host: orders and the live channels', () => {
  it('a sale: createOrder → live order events → simulatePayment → paid; the display follows', async () => {
    let orderId = '';
    const cashierEvents = await readEvents(
      `/api/events?token=${token}`,
      (events) => events.some((e) => e.type === 'order' && e.order.state === 'paid'),
      async () => {
        const created = await (
          await call('createOrder', [{ methodId: 'qris_dynamic', amount: 25000, itemName: 'Kopi susu' }])
        ).json();
        expect(created.result).toMatchObject({
          ok: true,
          order: { state: 'awaiting_payment', instruction: { type: 'qr' } },
        });
        orderId = created.result.order.id;
        const paid = await (await call('simulatePayment', [orderId])).json();
        expect(paid.result.state).toBe('paid');
      },
    );
    const states = cashierEvents
      .filter((e) => e.type === 'order' && e.order.id === orderId)
      .map((e) => (e.type === 'order' ? e.order.state : ''));
    expect(states).toContain('awaiting_payment');
    expect(states.at(-1)).toBe('paid');

    const state = await (await fetch(`${web.url}/display/state?key=${key}`)).json();
    expect(state.result.order).toMatchObject({ amount: 25000, itemName: 'Kopi susu', state: 'paid', kind: 'qris' });
    // The display sees what the customer needs, never ids.
    expect(JSON.stringify(state.result)).not.toContain(orderId);
  });

  it('the display channel is read-only: it needs its key, takes no writes, and streams display states', async () => {
    expect((await fetch(`${web.url}/display/state`)).status).toBe(401);
    expect((await fetch(`${web.url}/display/state?key=${token}`)).status).toBe(401);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      expect((await fetch(`${web.url}/display/state?key=${key}`, { method })).status).toBe(405);
    }
    expect((await call('createOrder', [{ methodId: 'qris_dynamic', amount: 1000, itemName: 'x' }], key)).status).toBe(
      401,
    );
    await call('showOnDisplay', [null]);
    // The stream sends the current state once it is subscribed; the sale waits for that, as for a display
    // that was opened before the sale.
    let subscribed: () => void = () => undefined;
    const firstEvent = new Promise<void>((resolve) => (subscribed = resolve));
    const events = await readEvents(
      `/display/events?key=${key}`,
      (es) => {
        if (es.length > 0) subscribed();
        return es.some((e) => e.type === 'display' && e.state.order?.state === 'awaiting_payment');
      },
      async () => {
        await firstEvent;
        await call('createOrder', [{ methodId: 'va_bni', amount: 150000, itemName: 'Beras 10 kg' }]);
      },
    );
    // First the current (idle) state, then the new order as the customer sees it.
    expect(events[0]).toMatchObject({ type: 'display', state: { order: null } });
    expect(events.at(-1)).toMatchObject({
      type: 'display',
      state: { order: { amount: 150000, instruction: { type: 'virtual_account' } } },
    });
    expect(events.every((e) => e.type === 'display')).toBe(true);
  });

  it('a rejection reaches the cashier as a plain failure without the raw body', async () => {
    const sandbox = appHost.loket.sandbox!;
    await call('showOnDisplay', [null]);
    sandbox.faults.set({ latency_ms: 0, http_status: 422, drop_after_store: false, malformed_json: false, count: 1 });
    const result = (
      await (await call('createOrder', [{ methodId: 'qris_dynamic', amount: 1000, itemName: 'Permen' }])).json()
    ).result;
    expect(result).toMatchObject({
      ok: false,
      failure: { class: 'rejected', retcode: '5003', httpStatus: 422 },
      order: { state: 'rejected' },
    });
    expect(result.failure.raw).toBeUndefined();
  });

  it('an invalid field comes back as issues naming the field', async () => {
    await call('showOnDisplay', [null]);
    const result = (
      await (await call('createOrder', [{ methodId: 'va_bca', amount: 150000, itemName: 'Beras' }])).json()
    ).result;
    expect(result).toMatchObject({
      ok: false,
      failure: { class: 'invalid_input', issues: [{ field: 'customer_name', rule: 'customer_name_required' }] },
    });
  });
});

describe('npm run cli -- serve options', () => {
  it('refuses a non-loopback host without --lan, and bad values, naming the option', async () => {
    await expect(runServeCommand(['--host', '0.0.0.0'])).rejects.toThrow(
      /--host: 0\.0\.0\.0 would open the till to the network; add --lan/,
    );
    await expect(runServeCommand(['--lang', 'fr'])).rejects.toThrow(/--lang: must be id or en/);
    await expect(runServeCommand(['--printer', 'nope'])).rejects.toThrow(/--printer: must be HOST:PORT/);
  });
});
