// Browser mode on the store's network (`serve --lan`): plain HTTP, so the cashier's token, the manager's PIN and
// the orders stay on the till. Real sockets: the host bound to every address, reached once by 127.0.0.1 (the till)
// and once by this machine's own LAN address, which the server sees as a peer on the network.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { isLoopbackAddress } from '../../src-main/core/http/loopback';
import { lanAddress, runServeCommand } from '../../src-main/web/command';
import { CASHIER_ON_THIS_MACHINE_ONLY, startWebHost, type WebHost } from '../../src-main/web/web-host';
import { tokenStaysOnThisMachine } from '../../src-renderer/src/api/this-machine';
import { tempDir } from './helpers/loket';

const dir = tempDir('loket-lan-');
let appHost: AppHost;
let web: WebHost;
let token: string;
let key: string;
let port: number;
/** This machine's address on its network: what a tablet or a phone in the store would use. */
const lan = lanAddress();

beforeAll(async () => {
  if (lan === '127.0.0.1') throw new Error('this test needs a non-loopback IPv4 address on this machine (none found)');
  const staticDir = join(dir.path, 'renderer');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Loket</title><h1>Loket</h1>');
  appHost = await startAppHost({ version: '0.0.0-test', dataDir: join(dir.path, 'data'), env: {} });
  web = await startWebHost({ app: appHost.app, staticDir, host: '0.0.0.0', port: 0 });
  port = Number(new URL(web.url).port);
  token = new URLSearchParams(web.cashierUrl.split('?')[1]).get('token')!;
  key = new URLSearchParams(web.displayUrl.split('?')[1]).get('key')!;
});
afterAll(async () => {
  await web.close();
  await appHost.close();
  dir.remove();
});

/** A request to `address` on the web host's port, as a browser there would send it (Host names that address). */
function send(
  address: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string; peer: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: address,
        port,
        path,
        method: options.method ?? 'GET',
        agent: false,
        headers: {
          host: `${address}:${port}`,
          ...options.headers,
          ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, peer: req.socket?.localAddress }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const appInfo = (address: string, bearer = token) =>
  send(address, '/api/call/appInfo', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
    body: '{"args":[]}',
  });

describe('serve --lan: what the network may reach', () => {
  it('the printed cashier URL is this machine’s own (127.0.0.1), where the API answers', async () => {
    expect(new URL(web.cashierUrl).hostname).toBe('127.0.0.1');
    const answer = await appInfo('127.0.0.1');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: true, result: { name: 'Loket' } });
  });

  it('by the LAN address, the cashier API refuses even the right token, and says where to open it', async () => {
    const refused = await appInfo(lan);
    // The server saw a peer on the network, not a loopback one.
    expect(isLoopbackAddress(refused.peer)).toBe(false);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({
      ok: false,
      error: { code: 'forbidden', message: CASHIER_ON_THIS_MACHINE_ONLY },
    });
    // The manager's sign-in is an API call too: its PIN is refused the same way, before it is checked.
    const setup = await send(lan, '/api/call/setupManager', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ args: [{ name: 'Bu Sri', pin: '97531864' }] }),
    });
    expect(setup.status).toBe(403);
    expect(appHost.store.access.staff.list({ includeInactive: true })).toEqual([]);
    expect((await send(lan, `/api/events?token=${token}`)).status).toBe(403);
    expect(
      (await send(lan, '/api/download/abcdefghijklmnopqrstuvwx', { headers: { authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(403);
  });

  it('by the LAN address, the pages and the customer display’s read-only channel still answer (a tablet)', async () => {
    expect((await send(lan, '/')).status).toBe(200);
    const state = await send(lan, `/display/state?key=${key}`);
    expect(state.status).toBe(200);
    expect(JSON.parse(state.body)).toMatchObject({ ok: true, result: { mode: 'sandbox', order: null } });
    expect((await send(lan, '/display/state?key=wrong')).status).toBe(401);
  });

  it('a page opened by a LAN address does not send the token at all; on the till, or over https, it does', () => {
    const at = (url: string) => new URL(url);
    expect(tokenStaysOnThisMachine(at(`http://${lan}:5173/`))).toBe(false);
    expect(tokenStaysOnThisMachine(at('http://192.168.1.20:5173/'))).toBe(false);
    expect(tokenStaysOnThisMachine(at('http://[fd00::2]:5173/'))).toBe(false);
    expect(tokenStaysOnThisMachine(at('http://loket.lan:5173/'))).toBe(false);
    for (const url of ['http://127.0.0.1:5173/', 'http://127.9.0.1/', 'http://localhost:5173/', 'http://[::1]:5173/'])
      expect(tokenStaysOnThisMachine(at(url)), url).toBe(true);
    expect(tokenStaysOnThisMachine(at('https://192.168.1.20/'))).toBe(true);
    expect(tokenStaysOnThisMachine(at('app://loket/index.html'))).toBe(true);
  });

  it('the address rule: loopback is 127.0.0.0/8 and ::1, also IPv4-mapped; nothing else', () => {
    for (const a of ['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1', '::FFFF:127.0.0.1'])
      expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of [lan, '192.168.1.20', '::ffff:192.168.1.20', 'fe80::1', '127.0.0.1.evil', '', undefined])
      expect(isLoopbackAddress(a), String(a)).toBe(false);
  });

  it('serve refuses --lan with one LAN address as --host: the till could not reach its own cashier screen', async () => {
    await expect(runServeCommand(['--host', '192.168.1.20', '--lan'])).rejects.toThrow(
      /--host: with --lan, bind every address \(--host 0\.0\.0\.0 or --host ::\), not 192\.168\.1\.20 alone/,
    );
  });
});
