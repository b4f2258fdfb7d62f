import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startStaticServer, type StaticServer } from './static-server';

// The helper serves real files from disk, so it gets its own check that it never serves outside its root.

let dir: string;
let server: StaticServer;

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loket-static-'));
  await mkdir(join(dir, 'root', 'assets'), { recursive: true });
  await writeFile(join(dir, 'root', 'index.html'), '<!doctype html><title>t</title>');
  await writeFile(join(dir, 'root', 'assets', 'app.js'), 'export {};');
  await writeFile(join(dir, 'secret.txt'), 'secret');
  server = await startStaticServer(join(dir, 'root'));
});

test.afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A raw request: fetch() would normalise '..' in the path before sending it, hiding what is being tested. */
function get(path: string): Promise<{ status: number; type: string | undefined; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('serves files with their content types, and index.html for /', async () => {
  expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const index = await get('/');
  expect(index.status).toBe(200);
  expect(index.type).toBe('text/html; charset=utf-8');
  const script = await get('/assets/app.js');
  expect(script.status).toBe(200);
  expect(script.type).toBe('text/javascript; charset=utf-8');
  expect((await get('/missing.js')).status).toBe(404);
});

test('refuses paths that leave the root', async () => {
  for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt', '/%00']) {
    const response = await get(path);
    expect(response.status, path).not.toBe(200);
    expect(response.body, path).not.toContain('secret');
  }
  expect((await get('/%E0%A4%A')).status).toBe(400);
});
