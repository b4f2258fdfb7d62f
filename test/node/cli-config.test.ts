/**
 * `npm run cli -- config …` as a child process, against a private gnome-keyring (helpers/private-keyring.ts) and
 * a sandbox gateway with credentials of its own: the appkey goes from standard input (or a hidden prompt) into
 * the keychain and nowhere else, the app's own rules refuse bad settings by field, and going live is confirmed
 * by the gateway's address, refused while orders are open, and checks the credentials first.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src-main/adapters/env-secret-store';
import {
  DEFAULT_GATEWAY_SETTINGS,
  DEFAULT_SETTINGS,
  type GatewaySettings,
  type LoketSettings,
} from '../../src-main/common/settings';
import { SETTINGS_KEY } from '../../src-main/core/settings/settings-store';
import { openStoreBooks } from '../../src-main/runtime';
import type { SandboxHandle } from '../../src-main/sandbox/server';
import { keyringDataDir, keyringEnv, runCli, runCliOnTerminal } from './helpers/cli-child';
import { tempDir } from './helpers/loket';
import { startPrivateKeyring, type PrivateKeyring } from './helpers/private-keyring';
import { startTestSandbox } from './helpers/sandbox-setup';

const APP_ID = 'toko-maju-01';
const APPKEY = 'appkey-Kc7f3e9d1b5a2468ace0';
const WRONG_KEY = 'appkey-WRONG-0000111122223333';
const SIGNING = 'signing-Zq8w7e6r5t4y3u2i';
const CANARY = 'argv-CANARY-5e1f9a3c7b2d';
const ME = `cli:${userInfo().username}`;
/** The libsecret schema keytar stores its entries under. */
const KEYTAR_SCHEMA = 'org.freedesktop.Secret.Generic';
const LONG = 60_000;

const HEADER =
  'id,kind,provider,label_id,label_en,requires_customer_name,requires_phone,has_short_code,returns_back_url,enabled,min_amount,max_amount';
const QRIS_ROW = 'qris_dynamic,qris,QRIS,QRIS (semua aplikasi),QRIS (any app),false,false,false,true,true,1,10000000';
const VA_ROW = 'va_bca,va_bank,BCA,BCA Virtual Account,BCA Virtual Account,true,false,false,false,true,10000,50000000';

/**
 * Each test runs in a world of its own: a fresh private keyring (its own bus, daemon and HOME, so its own data
 * folder `${HOME}/.config/Loket`, and its own `Loket` entries: the CLI's keychain service name is fixed) and
 * only the state it needs, brought by `world()` (settings written as the app saves them, secrets seeded into
 * the keyring). No test relies on another having run first, so each passes alone (`-t`) and in any order.
 */
const keyrings: PrivateKeyring[] = [];
/** Everything the CLI printed in the current test; checked for secrets after each test (see afterEach). */
let transcript: string[] = [];
beforeEach(() => {
  transcript = [];
});
afterEach(async () => {
  const mine = keyrings.splice(0);
  try {
    // No test may leave a secret in any output or file, whichever test it is and whenever it runs.
    const all = transcript.join('\n');
    for (const secret of [APPKEY, WRONG_KEY, SIGNING, CANARY.slice(6)]) expect(all).not.toContain(secret);
    for (const keyring of mine) {
      expect(keyring.filesContaining(APPKEY)).toEqual([]);
      expect(keyring.filesContaining(WRONG_KEY)).toEqual([]);
    }
  } finally {
    for (const keyring of mine) await keyring.stop();
  }
});

async function keyringOf(mode: 'unlocked' | 'no-secret-service' | 'no-bus'): Promise<PrivateKeyring> {
  const keyring = await startPrivateKeyring({ mode });
  keyrings.push(keyring);
  return keyring;
}

/**
 * A secret stored as keytar stores it (service `Loket`, the account, and keytar's schema name: keytar looks
 * entries up by all three, so the helper's `seed`, which has no schema, would not be found by the CLI). The
 * secret goes through secret-tool's standard input, never its arguments.
 */
async function storeAsKeytar(keyring: PrivateKeyring, account: string, secret: string): Promise<void> {
  const child = execFile(
    'secret-tool',
    ['store', '--label', `Loket/${account}`, 'service', 'Loket', 'account', account, 'xdg:schema', KEYTAR_SCHEMA],
    { env: keyring.env, timeout: 10_000 },
  );
  child.stdin?.end(secret);
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`secret-tool store ${account} failed (exit ${code})`);
}

function cliOn(keyring: () => PrivateKeyring) {
  return (args: string[], input?: string, extra: Record<string, string> = {}) =>
    runCli(args, { env: keyringEnv(keyring(), extra), ...(input !== undefined ? { input } : {}), transcript });
}

interface Shown {
  settings: LoketSettings;
  mode: { setting: string; running: string; gateway: string; notice?: string };
  openOrders: number;
  secrets: Record<string, { set: boolean; last4?: string; from: string; keychain: { set: boolean } | null }>;
  keychain: { available: boolean; message?: string };
  methodsSource: string;
}

/** Gateway settings as `config set-gateway --url URL --app-id APP_ID` saves them, in the given mode. */
function gatewaySettings(
  baseUrl: string,
  mode: 'training' | 'live',
  extra: Partial<GatewaySettings> = {},
): LoketSettings {
  return { ...DEFAULT_SETTINGS, mode, gateway: { ...DEFAULT_GATEWAY_SETTINGS, baseUrl, appId: APP_ID, ...extra } };
}

/** Settings written as the app would have saved them (the test's own SecretStore: the keychain is not touched). */
function writeSettings(keyring: PrivateKeyring, settings: LoketSettings): void {
  mkdirSync(keyringDataDir(keyring), { recursive: true });
  const store = openStoreBooks({ dataDir: keyringDataDir(keyring), secrets: new MemorySecretStore('test') });
  try {
    store.settings.set(SETTINGS_KEY, settings);
  } finally {
    store.close();
  }
}

describe('config, with an unlocked keychain', () => {
  /** This test's keyring, set by world(). */
  let keyring: PrivateKeyring;
  /** Read-only for the tests: each order a test creates is its own, and no test stops it. */
  let sandbox: SandboxHandle;
  const sandboxLog: string[] = [];
  const cli = cliOn(() => keyring);
  /**
   * A fresh keyring and data folder for this test, with what it needs already there: the appkey in the
   * keychain, and the gateway saved (by default the shared sandbox's, in training).
   */
  const world = async (
    needs: { appkey?: boolean; gateway?: string; mode?: 'training' | 'live'; inquiryPath?: string } = {},
  ): Promise<void> => {
    keyring = await keyringOf('unlocked');
    if (needs.appkey) await storeAsKeytar(keyring, 'appkey', APPKEY);
    if (needs.gateway !== undefined)
      writeSettings(
        keyring,
        gatewaySettings(needs.gateway, needs.mode ?? 'training', { inquiryPath: needs.inquiryPath ?? null }),
      );
  };
  /** The state after `config set-gateway … --app-key-stdin` against the shared sandbox. */
  const withGateway = (mode: 'training' | 'live' = 'training') =>
    world({ appkey: true, gateway: sandbox.url, mode, inquiryPath: '/api/status' });
  const shown = async (extra?: Record<string, string>): Promise<Shown> => {
    const r = await cli(['config', 'show', '--json'], undefined, extra);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Shown;
  };
  const audit = async () => {
    const r = await cli(['audit', '--json']);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { actor: { name: string; source: string }; action: string; field?: string }[];
  };
  const inKeychain = async () =>
    Object.fromEntries((await keyring.search('Loket')).map((i) => [i.attributes.account, i.secret]));
  beforeAll(async () => {
    ({ sandbox } = await startTestSandbox({ appId: APP_ID, appKey: APPKEY }, { log: (line) => sandboxLog.push(line) }));
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('shows the defaults: training, no gateway, no secret, the keychain available', async () => {
    await world();
    const before = await shown();
    expect(before.settings.gateway).toBeNull();
    expect(before.mode).toMatchObject({ setting: 'training', running: 'sandbox' });
    expect(before.secrets.appkey).toEqual({ set: false, from: 'none', keychain: { set: false } });
    expect(before.keychain).toEqual({ available: true });
    const text = await cli(['config', 'show']);
    expect(text.stdout).toMatch(/appkey:\s+not set/);
    expect(text.stdout).toMatch(/Keychain\n\s+available: the OS keychain \(Loket\)/);
  });

  it(
    'set-gateway refuses broken fields by name and rule, with their flags: exit 2, nothing written',
    async () => {
      await world();
      const r = await cli(
        ['config', 'set-gateway', '--url', 'ftp://gateway', '--app-id', APP_ID, '--timeout-ms', '5', '--app-key-stdin'],
        `${APPKEY}\n`,
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('gateway.baseUrl: an http(s) address without a query, user name or password');
      expect(r.stderr).toContain('(--url)');
      expect(r.stderr).toContain('gateway.timeoutMs: a whole number of milliseconds from 1000 (1 s) to 120000');
      expect(r.stderr).toContain('(--timeout-ms)');
      expect(await inKeychain()).toEqual({});
      expect((await shown()).settings.gateway).toBeNull();
    },
    LONG,
  );

  it(
    'set-gateway takes the appkey from standard input into the keychain, and nowhere else',
    async () => {
      await world();
      const r = await cli(
        [
          'config',
          'set-gateway',
          '--url',
          sandbox.url,
          '--app-id',
          APP_ID,
          '--inquiry-path',
          '/api/status',
          '--app-key-stdin',
        ],
        `${APPKEY}\n`,
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`appkey: set (…${APPKEY.slice(-4)}), in the OS keychain (Loket)`);
      const items = await keyring.search('Loket');
      expect(items.map((i) => [i.attributes.service, i.attributes.account, i.secret])).toEqual([
        ['Loket', 'appkey', APPKEY],
      ]);
      expect(keyring.filesContaining(APPKEY)).toEqual([]);
      expect(r.stdout + r.stderr).not.toContain(APPKEY);
      const events = await audit();
      expect(events.map((e) => e.action)).toContain('secret.set');
      expect(events.find((e) => e.field === 'gateway.baseUrl')).toMatchObject({
        actor: { name: ME, source: 'cli' },
        action: 'settings.changed',
      });
    },
    LONG,
  );

  it(
    'config show: "set" and the last 4 only, where it comes from, and LOKET_APP_KEY over the keychain',
    async () => {
      await withGateway();
      const text = await cli(['config', 'show']);
      expect(text.stdout).toMatch(
        new RegExp(`appkey:\\s+set \\(…${APPKEY.slice(-4)}\\), in the OS keychain \\(Loket\\)`),
      );
      expect(text.stdout).toMatch(new RegExp(`base URL:\\s+${sandbox.url}\n`));
      expect(text.stdout).not.toContain(APPKEY);

      const json = await cli(['config', 'show', '--json']);
      expect(json.stdout).not.toContain(APPKEY);
      const view = JSON.parse(json.stdout) as Shown;
      expect(view.settings.gateway).toMatchObject({ baseUrl: sandbox.url, appId: APP_ID, inquiryPath: '/api/status' });
      expect(view.secrets.appkey).toEqual({
        set: true,
        last4: APPKEY.slice(-4),
        from: 'keychain',
        keychain: { set: true, last4: APPKEY.slice(-4) },
      });

      const override = 'env-appkey-77778888';
      const withEnv = await shown({ LOKET_APP_KEY: override });
      expect(withEnv.secrets.appkey).toMatchObject({ set: true, last4: '8888', from: 'environment' });
      expect(withEnv.secrets.appkey!.keychain).toEqual({ set: true, last4: APPKEY.slice(-4) });
      const envText = await cli(['config', 'show'], undefined, { LOKET_APP_KEY: override });
      expect(envText.stdout).toContain('set (…8888), from LOKET_APP_KEY (overrides the keychain');
      expect(envText.stdout).not.toContain(override);
    },
    LONG,
  );

  it(
    'config test: ok with the stored appkey; exit 3 and the words when the gateway refuses it',
    async () => {
      await withGateway();
      const ok = await cli(['config', 'test']);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toContain(`Connected: the gateway at ${sandbox.url} answered and accepted the appid`);

      expect((await cli(['config', 'set-secret', 'appkey', '--stdin'], `${WRONG_KEY}\n`)).code).toBe(0);
      const refused = await cli(['config', 'test']);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain('the appkey stored is not the one it has for it');
      const json = await cli(['config', 'test', '--json']);
      expect(json.code).toBe(3);
      expect(JSON.parse(json.stdout)).toMatchObject({ verdict: 'bad_key', reachable: true });

      expect((await cli(['config', 'set-secret', 'appkey', '--stdin'], APPKEY)).code).toBe(0);
      expect((await cli(['config', 'test'])).code).toBe(0);
      expect(await inKeychain()).toEqual({ appkey: APPKEY });
      const tests = (await audit()).filter((e) => e.action === 'connection.tested');
      expect(tests).toHaveLength(4);
      expect(tests.every((e) => e.actor.name === ME)).toBe(true);
    },
    LONG,
  );

  it(
    'a secret is never taken from the command line, and the refusal does not repeat it',
    async () => {
      await world({ appkey: true });
      for (const args of [
        ['config', 'set-gateway', '--app-key', CANARY],
        ['config', 'set-gateway', `--app-key=${CANARY}`],
        ['config', 'set-gateway', '--app-key-stdin', CANARY],
        ['config', 'set-secret', 'appkey', CANARY],
        ['config', 'set-secret', 'appkey', `-k${CANARY}`],
        ['config', 'set-secret', '--stdin', 'appkey', `--${CANARY}`],
      ]) {
        const r = await cli(args, '');
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stdout + r.stderr, args.join(' ')).not.toContain(CANARY.slice(6));
        expect(r.stderr).toMatch(/never (taken from|from) the command line|not repeated here/);
      }
      const named = await cli(['config', 'set-gateway', '--app-key', CANARY]);
      expect(named.stderr).toContain('unknown option --app-key: a secret is never taken from the command line');
      expect(await inKeychain()).toEqual({ appkey: APPKEY });
    },
    LONG,
  );

  it(
    'on a terminal without --stdin: a hidden prompt, nothing typed is shown',
    async () => {
      await withGateway();
      const r = await runCliOnTerminal(['config', 'set-secret', 'signing-secret'], {
        env: keyringEnv(keyring),
        answers: [{ prompt: /Signing secret \(typing is not shown\): /, type: SIGNING }],
        transcript,
      });
      expect(r.code, r.output).toBe(0);
      expect(r.output).toContain(`signing secret: set (…${SIGNING.slice(-4)})`);
      expect(r.output).not.toContain(SIGNING);
      expect(r.output).not.toContain(SIGNING.slice(0, 8));
      expect(await inKeychain()).toEqual({ appkey: APPKEY, 'signing-secret': SIGNING });

      // set-gateway on a terminal asks for the appkey too; Enter keeps the one stored.
      const keep = await runCliOnTerminal(['config', 'set-gateway', '--timeout-ms', '16000'], {
        env: keyringEnv(keyring),
        answers: [{ prompt: /Appkey \(typing is not shown; Enter keeps the stored one\): /, type: '' }],
        transcript,
      });
      expect(keep.code, keep.output).toBe(0);
      expect(keep.output).toContain('gateway.timeoutMs: 15000 → 16000');
      expect(await inKeychain()).toEqual({ appkey: APPKEY, 'signing-secret': SIGNING });
      expect((await cli(['config', 'set-gateway', '--timeout-ms', '15000'])).code).toBe(0);

      const cleared = await cli(['config', 'clear-secret', 'signing-secret']);
      expect(cleared.code, cleared.stderr).toBe(0);
      expect(await inKeychain()).toEqual({ appkey: APPKEY });
      expect(keyring.filesContaining(SIGNING)).toEqual([]);
    },
    LONG,
  );

  it(
    'training off: needs the gateway named, and readable credentials; then live',
    async () => {
      await withGateway();
      const unconfirmed = await cli(['config', 'training', 'off']);
      expect(unconfirmed.code).toBe(2);
      expect(unconfirmed.stderr).toContain(
        `confirm: to switch to live, type the gateway's base URL exactly: ${sandbox.url} (--confirm-gateway)`,
      );
      const wrong = await cli(['config', 'training', 'off', '--confirm-gateway', 'https://other.example']);
      expect(wrong.code).toBe(2);

      // Without an appkey the next start would fall back to training: refused, exit 5, mode unchanged.
      expect((await cli(['config', 'clear-secret', 'appkey'])).code).toBe(0);
      const noKey = await cli(['config', 'training', 'off', '--confirm-gateway', sandbox.url]);
      expect(noKey.code).toBe(5);
      expect(noKey.stderr).toContain('cannot switch to live: no appkey is stored in the OS keychain (Loket)');
      expect(noKey.stderr).toContain('config set-secret appkey');
      expect((await shown()).settings.mode).toBe('training');
      expect((await cli(['config', 'set-secret', 'appkey', '--stdin'], `${APPKEY}\n`)).code).toBe(0);

      // On a terminal, without the flag: the gateway's address is typed; a wrong one changes nothing.
      const typedWrong = await runCliOnTerminal(['config', 'training', 'off'], {
        env: keyringEnv(keyring),
        answers: [{ prompt: /Type the gateway's base URL to confirm: /, type: 'http://127.0.0.1:1' }],
        transcript,
      });
      expect(typedWrong.code, typedWrong.output).toBe(2);
      expect(typedWrong.output).toContain(`Live mode sends real orders, for real money, to ${sandbox.url}`);
      expect((await shown()).settings.mode).toBe('training');

      const live = await cli(['config', 'training', 'off', '--confirm-gateway', `${sandbox.url}/`]);
      expect(live.code, live.stderr).toBe(0);
      expect(live.stdout).toContain(`Live mode: orders go to ${sandbox.url} (appid ${APP_ID})`);
      const view = await shown();
      expect(view.mode).toMatchObject({ setting: 'live', running: 'live' });
      expect((await audit()).find((e) => e.action === 'mode.changed')).toMatchObject({
        actor: { name: ME, source: 'cli' },
        field: 'mode',
      });
    },
    LONG,
  );

  it(
    "live: order create is signed with the keychain's appkey and accepted by the gateway",
    async () => {
      await withGateway('live');
      const r = await cli([
        'order',
        'create',
        '--method',
        'qris_dynamic',
        '--amount',
        '15000',
        '--item',
        'Kopi',
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const order = JSON.parse(r.stdout) as { id: string; state: string; training: boolean };
      expect(order).toMatchObject({ state: 'awaiting_payment', training: false });
      expect(sandbox.orders.get(order.id)).toBeDefined();
    },
    LONG,
  );

  it(
    'training on is refused while that order awaits payment, and so is a gateway change; allowed after cancel',
    async () => {
      await withGateway('live');
      // The order awaiting payment that blocks the changes below.
      const created = await cli([
        'order',
        'create',
        '--method',
        'qris_dynamic',
        '--amount',
        '15000',
        '--item',
        'Kopi',
        '--json',
      ]);
      expect(created.code, created.stderr).toBe(0);
      const { id: orderId } = JSON.parse(created.stdout) as { id: string };
      const refused = await cli(['config', 'training', 'on']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('mode: 1 order is still open (being created, awaiting payment or unknown)');
      const gatewayChange = await cli(['config', 'set-gateway', '--timeout-ms', '20000']);
      expect(gatewayChange.code).toBe(2);
      expect(gatewayChange.stderr).toContain('1 order(s) are still creating, awaiting payment or unknown');
      expect((await shown()).settings).toMatchObject({ mode: 'live', gateway: { timeoutMs: 15000 } });

      const cancel = await cli(['order', 'cancel', orderId, '--reason', 'the customer left']);
      expect(cancel.code, cancel.stderr).toBe(0);
      const back = await cli(['config', 'training', 'on']);
      expect(back.code, back.stderr).toBe(0);
      expect(back.stdout).toContain('Training mode');
      expect((await shown()).mode).toMatchObject({ setting: 'training', running: 'sandbox' });
    },
    LONG,
  );

  it(
    'methods import: a bad CSV lists each problem with its row and field, exit 2, nothing changed; a good one is listed',
    async () => {
      await world();
      const dir = tempDir('loket-methods-');
      try {
        const bad = join(dir.path, 'bad.csv');
        writeFileSync(
          bad,
          [HEADER, QRIS_ROW.replace(',qris,', ',qrcode,'), VA_ROW.replace(',10000,', ',sepuluh ribu,')].join('\n'),
        );
        const before = await cli(['config', 'methods', 'list', '--json']);
        const r = await cli(['config', 'methods', 'import', bad]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain('nothing was imported');
        expect(r.stderr).toMatch(/^ {2}row 2, kind: one of qris, /m);
        expect(r.stderr).toMatch(/^ {2}row 3, min_amount: /m);
        expect((await cli(['config', 'methods', 'list', '--json'])).stdout).toBe(before.stdout);
        expect(JSON.parse(before.stdout).source).toBe('bundled');

        const good = join(dir.path, 'methods.csv');
        writeFileSync(good, [HEADER, QRIS_ROW, VA_ROW].join('\n') + '\n');
        const imported = await cli(['config', 'methods', 'import', good]);
        expect(imported.code, imported.stderr).toBe(0);
        expect(imported.stdout).toContain('imported 2 payment method(s)');
        const list = JSON.parse((await cli(['config', 'methods', 'list', '--json'])).stdout);
        expect(list.source).toBe('store');
        expect(list.methods.map((m: { id: string }) => m.id)).toEqual(['qris_dynamic', 'va_bca']);
        const text = await cli(['config', 'methods', 'list']);
        expect(text.stdout).toMatch(/\[x\] qris_dynamic/);

        expect((await cli(['config', 'methods', 'disable', 'va_bca'])).code).toBe(0);
        const last = await cli(['config', 'methods', 'disable', 'qris_dynamic']);
        expect(last.code).toBe(2);
        expect(last.stderr).toContain('QRIS (any app) is the only enabled payment method');
        expect((await cli(['config', 'methods', 'list'])).stdout).toMatch(/\[ \] va_bca/);
        expect((await cli(['config', 'methods', 'import', join(dir.path, 'methods.txt')])).code).toBe(2);
        expect((await cli(['config', 'methods', 'reset'])).code).toBe(0);
        expect(JSON.parse((await cli(['config', 'methods', 'list', '--json'])).stdout).source).toBe('bundled');
        const actions = (await audit()).map((e) => e.action);
        expect(actions).toEqual(expect.arrayContaining(['methods.imported', 'method.disabled']));
      } finally {
        dir.remove();
      }
    },
    LONG,
  );

  it(
    "set-store, set-printer, set-access: the app's rules, by field and flag; saved and audited",
    async () => {
      await world();
      const bad = await cli(['config', 'set-store', '--terminal-id', 't-1', '--lang', 'fr']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('terminalId: must be 1 to 8 capital letters or digits (--terminal-id)');
      expect(bad.stderr).toContain("lang: 'id' (Bahasa Indonesia) or 'en' (English) (--lang)");
      const ok = await cli(['config', 'set-store', '--name', 'Toko Maju', '--terminal-id', 'K02', '--lang', 'en']);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toContain('storeName: "Toko Loket" → "Toko Maju"');
      expect((await shown()).settings).toMatchObject({ storeName: 'Toko Maju', terminalId: 'K02', lang: 'en' });

      const printer = await cli(['config', 'set-printer', '--kind', 'network', '--port', '9100']);
      expect(printer.code).toBe(2);
      expect(printer.stderr).toContain('printer.host: required for a network printer');
      expect(printer.stderr).toContain('(--host)');
      expect((await cli(['config', 'set-access', '--require-cashier-pin', 'maybe'])).code).toBe(2);
      const access = await cli(['config', 'set-access', '--require-cashier-pin', 'on', '--manager-idle-minutes', '10']);
      expect(access.code, access.stderr).toBe(0);
      expect((await shown()).settings.access).toEqual({ requireCashierPin: true, managerIdleMinutes: 10 });
      expect((await cli(['config', 'set-store'])).code).toBe(2);
      const fields = (await audit()).filter((e) => e.action === 'settings.changed').map((e) => e.field);
      expect(fields).toEqual(expect.arrayContaining(['storeName', 'terminalId', 'lang', 'access.requireCashierPin']));
    },
    LONG,
  );

  it(
    'config test with the gateway stopped: exit 4',
    async () => {
      // A sandbox of this test's own, stopped: the shared one stays up for the others.
      const { sandbox: stopped } = await startTestSandbox({ appId: APP_ID, appKey: APPKEY });
      await stopped.close();
      await world({ appkey: true, gateway: stopped.url });
      const r = await cli(['config', 'test']);
      expect(r.code).toBe(4);
      expect(r.stderr).toContain(`Could not reach the gateway at ${stopped.url}`);
    },
    LONG,
  );

  it(
    'the appkey is in no file, no output and no gateway log line',
    async () => {
      await world();
      // Every way a secret goes in or comes out: from standard input, shown, tested with the right appkey and
      // a wrong one (both signed requests reach the gateway's log), refused from the command line, typed at a
      // hidden prompt. (afterEach checks the same for every other test's own runs.)
      const piped: [string[], string?][] = [
        [
          [
            'config',
            'set-gateway',
            '--url',
            sandbox.url,
            '--app-id',
            APP_ID,
            '--inquiry-path',
            '/api/status',
            '--app-key-stdin',
          ],
          `${APPKEY}\n`,
        ],
        [['config', 'show']],
        [['config', 'show', '--json']],
        [['config', 'test']],
        [['config', 'set-secret', 'appkey', '--stdin'], `${WRONG_KEY}\n`],
        [['config', 'test', '--json']],
        [['config', 'set-gateway', '--app-key', CANARY]],
        [['config', 'set-secret', 'appkey', `-k${CANARY}`]],
      ];
      const codes: number[] = [];
      for (const [args, input] of piped) codes.push((await cli(args, input)).code);
      expect(codes).toEqual([0, 0, 0, 0, 0, 3, 2, 2]);
      const prompt = await runCliOnTerminal(['config', 'set-secret', 'signing-secret'], {
        env: keyringEnv(keyring),
        answers: [{ prompt: /Signing secret \(typing is not shown\): /, type: SIGNING }],
        transcript,
      });
      expect(prompt.code, prompt.output).toBe(0);

      expect(keyring.filesContaining(APPKEY)).toEqual([]);
      expect(keyring.filesContaining(WRONG_KEY)).toEqual([]);
      // stdout and stderr of each piped run, the terminal's output of the prompted one: all recorded.
      expect(transcript).toHaveLength(2 * piped.length + 1);
      const all = transcript.join('\n');
      for (const secret of [APPKEY, WRONG_KEY, SIGNING, CANARY.slice(6)]) expect(all).not.toContain(secret);
      expect(sandboxLog.join('\n')).not.toContain(APPKEY);
    },
    LONG,
  );
});

describe('config, when no keychain can be used', () => {
  it(
    'no Secret Service: set-gateway says what to install, exits 5, and writes nothing at all',
    async () => {
      const keyring = await keyringOf('no-secret-service');
      const cli = cliOn(() => keyring);
      const r = await cli(
        ['config', 'set-gateway', '--url', 'http://127.0.0.1:9', '--app-id', APP_ID, '--app-key-stdin'],
        `${APPKEY}\n`,
      );
      expect(r.code).toBe(5);
      expect(r.stderr).toContain('No keyring (Secret Service) answers on this D-Bus session');
      expect(r.stderr).toContain('sudo apt install gnome-keyring');
      expect(r.stderr).toContain('Nothing was changed.');
      expect(r.stdout + r.stderr).not.toContain(APPKEY);

      const view = JSON.parse((await cli(['config', 'show', '--json'])).stdout) as Shown;
      expect(view.settings.gateway).toBeNull();
      expect(view.keychain.available).toBe(false);
      expect(view.secrets.appkey).toEqual({ set: false, from: 'none', keychain: null });
      expect((await cli(['config', 'show'])).stdout).toContain('cannot be used: No keyring (Secret Service)');
      expect(JSON.parse((await cli(['audit', '--json'])).stdout)).toEqual([]);
      expect(keyring.filesContaining(APPKEY)).toEqual([]);

      const set = await cli(['config', 'set-secret', 'appkey', '--stdin'], APPKEY);
      expect(set.code).toBe(5);
      expect((await cli(['config', 'test'])).code).toBe(2);
    },
    LONG,
  );

  it(
    'going live, or an order while live, with the keychain gone: exit 5 with the message, nothing sent',
    async () => {
      const keyring = await keyringOf('no-secret-service');
      const cli = cliOn(() => keyring);
      writeSettings(keyring, gatewaySettings('http://127.0.0.1:9', 'training'));
      const off = await cli(['config', 'training', 'off', '--confirm-gateway', 'http://127.0.0.1:9']);
      expect(off.code).toBe(5);
      expect(off.stderr).toContain(
        'cannot switch to live: the OS keychain cannot be used: No keyring (Secret Service)',
      );
      expect(JSON.parse((await cli(['config', 'show', '--json'])).stdout).settings.mode).toBe('training');
      expect((await cli(['config', 'test'])).code).toBe(5);

      writeSettings(keyring, gatewaySettings('http://127.0.0.1:9', 'live'));
      const order = await cli(['order', 'create', '--method', 'qris_dynamic', '--amount', '1000', '--item', 'Kopi']);
      expect(order.code).toBe(5);
      expect(order.stderr).toContain('live mode is set, but the OS keychain cannot be used: No keyring');
      expect(order.stderr).toContain('sudo apt install gnome-keyring');
      const view = JSON.parse((await cli(['config', 'show', '--json'])).stdout) as Shown;
      expect(view.mode).toMatchObject({ setting: 'live', running: 'sandbox' });
      expect(view.mode.notice).toContain('the CLI refuses to send orders (exit 5)');
    },
    LONG,
  );

  it(
    'no D-Bus session: set-secret exits 5 naming it',
    async () => {
      const keyring = await keyringOf('no-bus');
      const r = await cliOn(() => keyring)(['config', 'set-secret', 'appkey', '--stdin'], `${APPKEY}\n`);
      expect(r.code).toBe(5);
      expect(r.stderr).toContain('there is no D-Bus session bus');
      expect(keyring.filesContaining(APPKEY)).toEqual([]);
    },
    LONG,
  );
});
