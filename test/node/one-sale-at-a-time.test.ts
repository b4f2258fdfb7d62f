// "One sale at a time" under real concurrency (docs/browser-mode.md): two charges sent at the same moment over
// HTTP to browser mode's API must not both reach the gateway. Real parts: the app host with its embedded sandbox
// (training mode, a real SQLite file), the web host on 127.0.0.1:0, and Node's fetch firing both calls at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { startWebHost, type WebHost } from '../../src-main/web/web-host';
import { tempDir } from './helpers/loket';

const dir = tempDir('loket-one-sale-');
let appHost: AppHost;
let web: WebHost;
let token: string;

beforeAll(async () => {
  const staticDir = join(dir.path, 'renderer');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Loket</title>');
  appHost = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {} });
  web = await startWebHost({ app: appHost.app, staticDir, port: 0 });
  token = new URLSearchParams(web.cashierUrl.split('?')[1]).get('token')!;
});
afterAll(async () => {
  await web.close();
  await appHost.close();
  dir.remove();
});

async function call(method: string, args: unknown[]): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${web.url}/api/call/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ args }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('two charges at the same moment', () => {
  it('10 pairs of simultaneous createOrder calls: each pair makes exactly one gateway order, the other is refused', async () => {
    const sandbox = appHost.loket.sandbox!;
    const pairs = 10;
    const perPair: number[] = [];
    const refusals: string[] = [];
    for (let i = 0; i < pairs; i++) {
      const before = sandbox.orders.all().length;
      const sale = { methodId: 'qris_dynamic', amount: 1000 + i, itemName: `Pair ${i}` };
      const [a, b] = await Promise.all([call('createOrder', [sale]), call('createOrder', [sale])]);
      perPair.push(sandbox.orders.all().length - before);
      const accepted = [a, b].filter((r) => r.status === 200 && (r.body.result as { ok?: boolean })?.ok === true);
      for (const r of [a, b]) if (r.status === 409) refusals.push((r.body.error as { code: string }).code);
      // The next pair starts from an idle till.
      for (const r of accepted) {
        const id = (r.body.result as { order: { id: string } }).order.id;
        expect((await call('parkSale', [id])).status).toBe(200);
      }
    }
    // One gateway order per pair, and the other call refused as a conflict (nothing sent).
    expect(perPair).toEqual(Array.from({ length: pairs }, () => 1));
    expect(refusals).toEqual(Array.from({ length: pairs }, () => 'conflict'));
  });
});
