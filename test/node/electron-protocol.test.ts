// The desktop app's screens come from app://loket/, served by a handler of the built renderer's files and
// nothing else: no path leaves its folder, no other host answers, and pages carry the CSP as a header. No
// electron needed for the handler itself (a Request in, a Response out); the registration is the shell's test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  APP_SCHEME_PRIVILEGES,
  appPageUrl,
  appProtocolHandler,
  isAppProtocolUrl,
} from '../../src-main/electron/app-protocol';
import { isAppUrl, resolveRendererSource } from '../../src-main/electron/renderer-source';
import { PAGE_CSP } from '../../src-main/web/security';
import { tempDir } from './helpers/loket';

const dir = tempDir('loket-app-protocol-');
const rendererDir = join(dir.path, 'out', 'renderer');
const serve = appProtocolHandler(rendererDir);
const get = (url: string, init?: RequestInit) => serve(new Request(url, init));

beforeAll(() => {
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Loket</title>');
  writeFileSync(join(rendererDir, 'assets', 'index-abc.js'), 'console.log("loket")');
  writeFileSync(join(rendererDir, 'assets', 'index-abc.css'), 'body{}');
  // Beside the renderer folder, as the main process's own code and the data would be.
  writeFileSync(join(dir.path, 'out', 'secret.txt'), 'outside the renderer folder');
  mkdirSync(join(rendererDir, 'a'), { recursive: true });
});
afterAll(() => dir.remove());

describe('app://loket/: the screens’ own scheme', () => {
  it('serves the page with the CSP as a header (form-action and base-uri too) and the security headers', async () => {
    const page = await get(appPageUrl());
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toBe('<!doctype html><title>Loket</title>');
    expect(page.headers.get('content-security-policy')).toBe(PAGE_CSP);
    for (const directive of ["frame-ancestors 'none'", "form-action 'none'", "base-uri 'none'", "script-src 'self'"])
      expect(PAGE_CSP).toContain(directive);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    // The display's screen is the same page; the hash never reaches the handler.
    expect((await get(appPageUrl('display'))).status).toBe(200);
  });

  it('serves scripts and styles with their types (module scripts need a JavaScript one), without the page CSP', async () => {
    const script = await get('app://loket/assets/index-abc.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('console.log("loket")');
    expect(script.headers.get('content-security-policy')).toBeNull();
    expect((await get('app://loket/assets/index-abc.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    const head = await get('app://loket/assets/index-abc.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('refuses every path out of the renderer folder, encoded or not, and folders and missing files', async () => {
    for (const url of [
      'app://loket/../secret.txt',
      'app://loket/%2e%2e/secret.txt',
      'app://loket/..%2fsecret.txt',
      'app://loket/assets/..%2f..%2fsecret.txt',
      'app://loket/a/..%5c..%5csecret.txt',
      'app://loket/%2e%2e%5csecret.txt',
      'app://loket/index.html%00.js',
      'app://loket/%E0%A4%A',
      'app://loket/assets',
      'app://loket/a/',
      'app://loket/nothing.js',
    ]) {
      const answer = await get(url);
      expect(answer.status, url).toBe(404);
      expect(await answer.text(), url).toBe('');
    }
  });

  it('answers its own host only, and reads only', async () => {
    for (const url of ['app://evil/index.html', 'app://loket.evil/index.html', 'app://LOKET/index.html'])
      expect((await get(url)).status, url).toBe(404);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const answer = await get(appPageUrl(), { method });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get('allow')).toBe('GET, HEAD');
    }
  });

  it('the page’s own <meta> policy is the header’s but frame-ancestors (which a <meta> cannot set)', () => {
    const html = readFileSync(join(import.meta.dirname, '../../src-renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    const directives = (policy: string) => new Set(policy.split(';').map((d) => d.trim().replace(/\s+/g, ' ')));
    const header = directives(PAGE_CSP);
    header.delete("frame-ancestors 'none'");
    expect(meta).toBeDefined();
    expect(directives(meta!)).toEqual(header);
  });

  it('is a standard, secure scheme with nothing more: no CORS, no fetch, no CSP bypass, no service workers', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({
      scheme: 'app',
      privileges: { standard: true, secure: true, codeCache: true },
    });
  });

  it('the app’s pages are app://loket/ and nothing else: never a file:// URL, not even of the renderer folder', () => {
    const source = resolveRendererSource({ devServerUrl: undefined, indexFile: join(rendererDir, 'index.html') });
    for (const url of ['app://loket/index.html', 'app://loket/index.html#/display', 'app://loket/'])
      expect(isAppUrl(source, url), url).toBe(true);
    for (const url of [
      `file://${join(rendererDir, 'index.html')}`,
      'file:///etc/passwd',
      'app://evil/index.html',
      'app://loket.evil/index.html',
      'app://user@loket/index.html',
      'app://user:pw@loket/index.html',
      'https://loket/index.html',
      'not a url',
    ])
      expect(isAppUrl(source, url), url).toBe(false);
    expect(isAppProtocolUrl('app://loket/index.html')).toBe(true);
    // The dev server stays its own origin.
    const dev = resolveRendererSource({ devServerUrl: 'http://localhost:5173/', indexFile: '' });
    expect(isAppUrl(dev, 'http://localhost:5173/#/display')).toBe(true);
    expect(isAppUrl(dev, 'app://loket/index.html')).toBe(false);
  });
});
