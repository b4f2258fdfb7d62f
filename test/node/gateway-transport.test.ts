// Live mode refuses a plain http:// gateway address (docs/settings.md, "Going live"): the gateway's answers are
// unsigned, so over plain http anyone on the way could turn a status answer into "paid". The manager may allow it
// on purpose (gateway.allowHttp: the app's Gateway screen, `config set-gateway --allow-http on`), audited; an
// address on this machine (a local tunnel) crosses no network and is not refused. Real parts: the settings rules,
// openLoket on a real data folder, the real CLI in a child process.
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEFAULT_SETTINGS, gatewayTransportProblem, type LoketSettings } from '../../src-main/common/settings';
import { changeSection, modeSwitch } from '../../src-main/core/settings/settings-changes';
import { openLoket, openStoreBooks } from '../../src-main/runtime';
import { MemorySecretStore } from '../../src-main/adapters/env-secret-store';
import { tempDir } from './helpers/loket';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: { remove(): void }[] = [];
afterAll(() => {
  for (const d of dirs) d.remove();
});

const gateway = (baseUrl: string, allowHttp?: boolean) => ({
  baseUrl,
  appId: 'toko-1',
  signing: { key: 'appkey' as const, encoding: 'hex' as const },
  timeoutMs: 15_000,
  inquiryPath: '/api/status',
  timeZone: 'Asia/Jakarta',
  ...(allowHttp === undefined ? {} : { allowHttp }),
});
const withGateway = (baseUrl: string, allowHttp?: boolean): LoketSettings => ({
  ...DEFAULT_SETTINGS,
  gateway: gateway(baseUrl, allowHttp),
});

describe('the rule', () => {
  it('http to another machine is refused for live unless allowed; https and this machine are fine', () => {
    expect(gatewayTransportProblem({ baseUrl: 'http://pay.example' })).toMatch(
      /^gateway\.baseUrl: live mode needs an https:\/\//,
    );
    expect(gatewayTransportProblem({ baseUrl: 'HTTP://192.168.1.5:8080' })).toBeDefined();
    expect(gatewayTransportProblem({ baseUrl: 'http://pay.example', allowHttp: true })).toBeUndefined();
    for (const ok of ['https://pay.example', 'http://127.0.0.1:8787', 'http://localhost:1', 'http://[::1]:9'])
      expect(gatewayTransportProblem({ baseUrl: ok }), ok).toBeUndefined();
  });

  it('switching to live over plain http is refused, naming the field; with allowHttp it goes', () => {
    const refused = modeSwitch(withGateway('http://pay.example'), 'live', 0, 'http://pay.example');
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.issues).toMatchObject([{ field: 'gateway.baseUrl' }]);
    expect(modeSwitch(withGateway('http://pay.example', true), 'live', 0, 'http://pay.example').ok).toBe(true);
    expect(modeSwitch(withGateway('https://pay.example'), 'live', 0, 'https://pay.example').ok).toBe(true);
  });

  it('while live, the address cannot become plain http, nor the allowance be taken back from one', () => {
    const live: LoketSettings = { ...withGateway('https://pay.example'), mode: 'live' };
    const toHttp = changeSection(live, 'gateway', { baseUrl: 'http://pay.example' });
    expect(toHttp.ok).toBe(false);
    const allowed = changeSection(live, 'gateway', { baseUrl: 'http://pay.example', allowHttp: true });
    expect(allowed.ok).toBe(true);
    if (!allowed.ok) return;
    // Audited like every gateway field: the change names gateway.allowHttp.
    expect(allowed.changed).toEqual(expect.arrayContaining([{ field: 'gateway.allowHttp', from: null, to: true }]));
    expect(changeSection(allowed.next, 'gateway', { allowHttp: false }).ok).toBe(false);
  });
});

describe('at start', () => {
  it('LOKET_GATEWAY_URL over plain http to another machine is refused unless LOKET_ALLOW_HTTP=1', async () => {
    const dir = tempDir('loket-transport-');
    dirs.push(dir);
    const env = { LOKET_GATEWAY_URL: 'http://192.0.2.10:8080', LOKET_APP_ID: 'x', LOKET_APP_KEY: 'k' };
    await expect(openLoket({ dataDir: dir.path, env })).rejects.toThrow(
      /^LOKET_GATEWAY_URL: live mode needs an https:\/\/ address .*\(LOKET_ALLOW_HTTP=1\)$/,
    );
    const allowed = await openLoket({ dataDir: dir.path, env: { ...env, LOKET_ALLOW_HTTP: '1' } });
    expect(allowed.training).toBe(false);
    await allowed.close();
  });

  it('settings saying live over plain http: the app runs in training mode and says why; the CLI refuses', async () => {
    const dir = tempDir('loket-transport-');
    dirs.push(dir);
    const secrets = new MemorySecretStore('test', { appkey: 'k-123456' });
    const store = openStoreBooks({ dataDir: dir.path, env: {}, secrets });
    // As an older Loket left it: live, plain http, no allowance.
    store.settings.set('settings', { ...withGateway('http://pay.example'), mode: 'live' });
    try {
      const app = await openLoket({ store, whenLiveUnavailable: 'training', env: {} });
      expect(app.training).toBe(true);
      expect(app.notice).toMatch(/live mode needs an https:\/\/ address/);
      await app.close();
      await expect(openLoket({ store, whenLiveUnavailable: 'fail', env: {} })).rejects.toThrow(
        /live mode is set, but live mode needs an https/,
      );
    } finally {
      store.close();
    }
  });
});

describe('config set-gateway --allow-http', () => {
  it('sets it, and the audit log records who changed it', async () => {
    const dir = tempDir('loket-transport-cli-');
    dirs.push(dir);
    const run = async (args: string[]) => {
      try {
        const { stdout, stderr } = await promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', 'src-main/cli.ts', ...args],
          { cwd: root, env: { PATH: process.env.PATH, HOME: dir.path, LOKET_DATA_DIR: dir.path }, encoding: 'utf8' },
        );
        return { code: 0, stdout, stderr };
      } catch (err) {
        const e = err as { code: number; stdout: string; stderr: string };
        return { code: e.code, stdout: e.stdout, stderr: e.stderr };
      }
    };
    const bad = await run([
      'config',
      'set-gateway',
      '--url',
      'http://pay.example',
      '--app-id',
      'toko',
      '--allow-http',
      'maybe',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--allow-http: on or off/);
    const set = await run([
      'config',
      'set-gateway',
      '--url',
      'http://pay.example',
      '--app-id',
      'toko',
      '--allow-http',
      'on',
    ]);
    expect(set.code, set.stderr).toBe(0);
    const audit = await run(['audit', '--json']);
    expect(audit.code, audit.stderr).toBe(0);
    const entries = JSON.parse(audit.stdout) as {
      action: string;
      field?: string;
      detail?: unknown;
      actor: { name: string };
    }[];
    expect(entries.find((e) => e.field === 'gateway.allowHttp')).toMatchObject({
      action: 'settings.changed',
      detail: { from: null, to: true },
      actor: { name: expect.stringMatching(/^cli:/) },
    });
  });
});
