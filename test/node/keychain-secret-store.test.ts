/**
 * The OS keychain SecretStore against a real gnome-keyring on a private D-Bus session (helpers/private-keyring.ts):
 * never the developer's own bus or keyring. This process uses an unlocked private keyring; the cases where no
 * keychain can be used each run in a child process of their own, because libsecret keeps its first connection for
 * the life of a process (and so does Loket: a CLI run or the app starts with whatever keychain it finds).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  KeychainSecretStore,
  KeychainUnavailableError,
  classifyKeychainError,
  keychainAdvice,
  type KeytarApi,
} from '../../src-main/adapters/keychain-secret-store';
import { OverrideSecretStore } from '../../src-main/adapters/override-secret-store';
import { secretShown as secretStatus } from '../../src-main/core/settings/keychain-state';
import { startPrivateKeyring, type PrivateKeyring } from './helpers/private-keyring';

const ROOT = join(import.meta.dirname, '..', '..');
const APPKEY = 'appkey-3f9c1d7e2b6a4c8d9e0f1a2b3c4d5e6f';
const SIGNING = 'signing-9a8b7c6d5e4f3a2b1c0d';

const keyrings: PrivateKeyring[] = [];
async function privateKeyring(...args: Parameters<typeof startPrivateKeyring>): Promise<PrivateKeyring> {
  const keyring = await startPrivateKeyring(...args);
  keyrings.push(keyring);
  return keyring;
}
afterAll(async () => {
  for (const keyring of keyrings) await keyring.stop();
});

describe('in this process, on an unlocked private keyring', () => {
  let keyring: PrivateKeyring;
  const store = new KeychainSecretStore();

  beforeAll(async () => {
    keyring = await privateKeyring();
    keyring.useInThisProcess(); // before the first keytar call of this process
    expect(process.env.DBUS_SESSION_BUS_ADDRESS).toBe(keyring.env.DBUS_SESSION_BUS_ADDRESS);
    expect(process.env.DBUS_SESSION_BUS_ADDRESS).toContain(keyring.dir);
  });

  afterEach(async () => {
    await store.delete('appkey');
    await store.delete('signing-secret');
  });

  it('is available, and the probe leaves nothing behind', async () => {
    expect(store.description).toBe('the OS keychain (Loket)');
    expect(await store.probe()).toEqual({ available: true });
    expect(await keyring.search('Loket')).toEqual([]);
  });

  it('stores, reads and deletes one entry per secret under service Loket, encrypted on disk', async () => {
    expect(await store.get('appkey')).toBeUndefined();
    await store.set('appkey', APPKEY);
    await store.set('signing-secret', SIGNING);
    expect(await store.get('appkey')).toBe(APPKEY);
    expect(await store.get('signing-secret')).toBe(SIGNING);

    const items = await keyring.search('Loket');
    expect(
      items.map((i) => ({ service: i.attributes.service, account: i.attributes.account, secret: i.secret })),
    ).toEqual(
      expect.arrayContaining([
        { service: 'Loket', account: 'appkey', secret: APPKEY },
        { service: 'Loket', account: 'signing-secret', secret: SIGNING },
      ]),
    );
    expect(items).toHaveLength(2);
    // The keyring files are in the throwaway HOME; neither value is in any file there in clear.
    expect(keyring.filesContaining(APPKEY)).toEqual([]);
    expect(keyring.filesContaining(SIGNING)).toEqual([]);

    await store.set('appkey', `${APPKEY}-rotated`);
    expect(await store.get('appkey')).toBe(`${APPKEY}-rotated`);
    expect((await keyring.search('Loket')).filter((i) => i.attributes.account === 'appkey')).toHaveLength(1);

    await store.delete('appkey');
    expect(await store.get('appkey')).toBeUndefined();
    await store.delete('appkey'); // deleting what is not there is not an error
    expect((await keyring.search('Loket')).map((i) => i.attributes.account)).toEqual(['signing-secret']);
  });

  it('refuses an empty secret rather than storing it', async () => {
    await expect(store.set('appkey', '')).rejects.toThrow(/empty appkey cannot be stored/);
    expect(await keyring.search('Loket')).toEqual([]);
  });

  it('keeps stores with different service names apart', async () => {
    const other = new KeychainSecretStore({ service: 'Loket-test-other' });
    expect(other.description).toBe('the OS keychain (Loket-test-other)');
    await store.set('appkey', APPKEY);
    expect(await other.get('appkey')).toBeUndefined();
    await other.set('appkey', 'other-appkey-0000');
    expect(await store.get('appkey')).toBe(APPKEY);
    expect(await other.get('appkey')).toBe('other-appkey-0000');
    expect((await keyring.search('Loket-test-other')).map((i) => i.secret)).toEqual(['other-appkey-0000']);
    await other.delete('appkey');
    expect(await store.get('appkey')).toBe(APPKEY);
    expect(await keyring.search('Loket-test-other')).toEqual([]);
  });

  describe('OverrideSecretStore: the environment first, then the keychain', () => {
    const ENV_APPKEY = 'env-appkey-7777aaaabbbbcccc';

    it('answers from the environment when LOKET_APP_KEY is set, and never copies it into the keychain', async () => {
      const secrets = new OverrideSecretStore(store, { LOKET_APP_KEY: ENV_APPKEY });
      expect(await secrets.get('appkey')).toBe(ENV_APPKEY);
      expect(secrets.describe('appkey')).toBe('the environment (LOKET_APP_KEY)');
      expect(secrets.overridden('appkey')).toBe(true);
      expect(secrets.description).toBe('the environment (LOKET_APP_KEY), else the OS keychain (Loket)');
      expect(await keyring.search('Loket')).toEqual([]);

      // set goes to the keychain only, with the value given; the environment still wins.
      await secrets.set('appkey', APPKEY);
      expect(await secrets.get('appkey')).toBe(ENV_APPKEY);
      expect(await store.get('appkey')).toBe(APPKEY);
      const items = await keyring.search('Loket');
      expect(items.map((i) => i.secret)).toEqual([APPKEY]);

      // The secret the environment does not set comes from the keychain.
      expect(await secrets.get('signing-secret')).toBeUndefined();
      expect(secrets.describe('signing-secret')).toBe('the OS keychain (Loket)');
      await secrets.set('signing-secret', SIGNING);
      expect(await secrets.get('signing-secret')).toBe(SIGNING);

      // delete goes to the keychain only.
      await secrets.delete('appkey');
      expect(await store.get('appkey')).toBeUndefined();
      expect(await secrets.get('appkey')).toBe(ENV_APPKEY);
      expect((await keyring.search('Loket')).map((i) => i.secret)).toEqual([SIGNING]);
      expect(keyring.filesContaining(ENV_APPKEY)).toEqual([]);
    });

    it('answers from the keychain when the environment sets nothing (or an empty value)', async () => {
      await store.set('appkey', APPKEY);
      for (const env of [{}, { LOKET_APP_KEY: '', LOKET_SIGNING_SECRET: '' }]) {
        const secrets = new OverrideSecretStore(store, env);
        expect(secrets.description).toBe('the OS keychain (Loket)');
        expect(secrets.describe('appkey')).toBe('the OS keychain (Loket)');
        expect(await secrets.get('appkey')).toBe(APPKEY);
      }
    });

    it('says "the environment" alone when it sets both, and reads the environment at each call', async () => {
      const env: NodeJS.ProcessEnv = { LOKET_APP_KEY: ENV_APPKEY, LOKET_SIGNING_SECRET: 'env-signing-1234' };
      const secrets = new OverrideSecretStore(store, env);
      expect(secrets.description).toBe('the environment (LOKET_APP_KEY, LOKET_SIGNING_SECRET)');
      expect(await secrets.get('signing-secret')).toBe('env-signing-1234');
      delete env.LOKET_SIGNING_SECRET;
      expect(await secrets.get('signing-secret')).toBeUndefined();
      expect(secrets.description).toBe('the environment (LOKET_APP_KEY), else the OS keychain (Loket)');
      expect(await keyring.search('Loket')).toEqual([]);
    });
  });
});

describe('when keytar cannot be loaded', () => {
  it('says so in plain words instead of crashing, and keeps saying so', async () => {
    const missing = 'loket-no-such-keychain-module';
    const store = new KeychainSecretStore({
      load: () => import(/* @vite-ignore */ missing) as Promise<KeytarApi>,
      platform: 'linux',
    });
    const err = await store.get('appkey').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeychainUnavailableError);
    expect((err as KeychainUnavailableError).reason).toBe('module_missing');
    expect((err as KeychainUnavailableError).message).toMatch(/could not load its keychain module \(keytar\)/);
    expect((err as KeychainUnavailableError).message).toMatch(/training mode works/);
    // keytar is optional: where it could not be built npm left it out, so the fix installs libsecret's development
    // files, puts keytar back (npm install) and builds it (npm rebuild keytar, for one that is there but broken).
    expect((err as KeychainUnavailableError).message).toContain(
      '`sudo apt install libsecret-1-dev && npm install && npm rebuild keytar`',
    );
    expect((err as KeychainUnavailableError).detail).toMatch(/loket-no-such-keychain-module/);
    const probe = await store.probe();
    expect(probe).toMatchObject({ available: false, reason: 'module_missing' });
    await expect(store.set('appkey', APPKEY)).rejects.toMatchObject({ reason: 'module_missing' });
  });
});

describe('keytar is an optional dependency', () => {
  // A machine where keytar cannot be built (no libsecret) must still install and run Loket in training mode.
  it('is in optionalDependencies, not dependencies, and package-lock.json marks it optional', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    expect(pkg.dependencies).not.toHaveProperty('keytar');
    expect(pkg.optionalDependencies).toHaveProperty('keytar');
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { optional?: boolean }>;
    };
    expect(lock.packages['node_modules/keytar']?.optional).toBe(true);
  });

  it('is loaded on first use, not when the adapter is imported', () => {
    const source = readFileSync(join(ROOT, 'src-main/adapters/keychain-secret-store.ts'), 'utf8');
    expect(source).not.toMatch(/^import[^\n]*['"]keytar['"]/m);
    expect(source).not.toMatch(/require\(['"]keytar['"]\)/);
  });
});

describe('a secret in flight never reaches an error message', () => {
  it('cuts the value out of whatever the keychain says', async () => {
    // A keychain whose error repeats what it was given (a stand-in: no real keychain was seen to do this).
    const echo: KeytarApi = {
      getPassword: async () => null,
      setPassword: async (_s, _a, password) => {
        throw new Error(`could not store "${password}": Cannot create an item in a locked collection`);
      },
      deletePassword: async () => false,
    };
    const store = new KeychainSecretStore({ load: async () => echo, platform: 'linux' });
    const err = (await store.set('appkey', APPKEY).catch((e: unknown) => e)) as KeychainUnavailableError;
    expect(err.reason).toBe('locked');
    expect(err.detail).toContain('[redacted]');
    for (const text of [err.message, err.detail ?? '', String(err), inspect(err), JSON.stringify(err), err.stack ?? ''])
      expect(text).not.toContain(APPKEY);
    expect(err.cause).toBeUndefined();
  });
});

describe('advice per OS', () => {
  it('names the Credential Manager on Windows and the login Keychain on macOS', () => {
    expect(keychainAdvice('other', 'win32')).toMatch(/Windows Credential Manager/);
    expect(keychainAdvice('no_secret_service', 'win32')).toMatch(/Credential Manager/);
    expect(keychainAdvice('locked', 'darwin')).toMatch(/login Keychain is locked.*Keychain Access/);
    expect(keychainAdvice('timeout', 'darwin', { timeoutMs: 8000 })).toMatch(/within 8 s/);
    expect(keychainAdvice('no_secret_service', 'linux')).toMatch(/gnome-keyring.*KeePassXC/);
    expect(keychainAdvice('locked', 'linux')).toMatch(/gnome-keyring-daemon --unlock/);
  });

  it("classifies macOS's and Windows' own words too", () => {
    expect(classifyKeychainError('User interaction is not allowed.')).toBe('locked');
    expect(
      classifyKeychainError('A specified logon session does not exist. It may already have been terminated.'),
    ).toBe('no_secret_service');
    expect(classifyKeychainError('Something else entirely')).toBe('other');
  });
});

describe('secretStatus: what may be shown after entry', () => {
  it('says set or not, and shows the last 4 characters only of a secret of 8 or more', () => {
    expect(secretStatus(undefined)).toEqual({ set: false });
    expect(secretStatus('')).toEqual({ set: false });
    expect(secretStatus('abc')).toEqual({ set: true });
    expect(secretStatus('1234567')).toEqual({ set: true });
    expect(secretStatus('12345678')).toEqual({ set: true, last4: '5678' });
    expect(secretStatus(APPKEY)).toEqual({ set: true, last4: '5e6f' });
    // Characters, not UTF-16 halves: a last4 never splits one.
    expect(secretStatus('kunci-rahasia-🔑🔑')).toEqual({ set: true, last4: 'a-🔑🔑' });
  });
});

// ---- The unavailable cases, each in a fresh process with its own private bus ----

interface Attempt {
  ok: boolean;
  value?: unknown;
  name?: string;
  reason?: string;
  message?: string;
  detail?: string;
  inspected?: string;
  ms: number;
}
type ChildReport = Record<'set' | 'get' | 'delete' | 'probe', Attempt>;

const CHILD = `
import { inspect } from 'node:util';
const { KeychainSecretStore } = await import(process.env.KEYCHAIN_ADAPTER);
const store = new KeychainSecretStore({ timeoutMs: Number(process.env.KEYCHAIN_TIMEOUT_MS) });
const report = {};
async function attempt(name, run) {
  const start = performance.now();
  try {
    const value = await run();
    report[name] = { ok: true, value: value ?? null, ms: Math.round(performance.now() - start) };
  } catch (e) {
    report[name] = { ok: false, name: e.name, reason: e.reason, message: e.message, detail: e.detail,
      inspected: inspect(e), ms: Math.round(performance.now() - start) };
  }
}
await attempt('set', () => store.set('appkey', process.env.KEYCHAIN_SECRET));
await attempt('get', () => store.get('appkey'));
await attempt('delete', () => store.delete('appkey'));
await attempt('probe', () => store.probe());
// A keytar call that missed its deadline still blocks a libuv thread, and Node's exit joins those threads:
// process.exit() would wait for libsecret to give up (50 s). Only a signal ends such a process at once.
const stuck = store.stuckCalls > 0;
process.stdout.write(JSON.stringify(report), () => (stuck ? process.kill(process.pid, 'SIGKILL') : process.exit(0)));
`;

/** Runs the adapter in a child process with `env`; the secret in flight reaches it only through its environment. */
async function inChild(env: NodeJS.ProcessEnv, timeoutMs = 8_000): Promise<ChildReport> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
    cwd: ROOT,
    env: {
      ...env,
      KEYCHAIN_ADAPTER: pathToFileURL(join(ROOT, 'src-main/adapters/keychain-secret-store.ts')).href,
      KEYCHAIN_TIMEOUT_MS: String(timeoutMs),
      KEYCHAIN_SECRET: APPKEY,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  if (code !== 0 && signal !== 'SIGKILL') throw new Error(`the child process failed (exit ${code}): ${stderr}`);
  // Whatever the child printed or logged carries no secret.
  expect(stdout).not.toContain(APPKEY);
  expect(stderr).not.toContain(APPKEY);
  return JSON.parse(stdout) as ChildReport;
}

function expectUnavailable(attempt: Attempt, reason: string, advice: RegExp): void {
  expect(attempt, JSON.stringify(attempt)).toMatchObject({ ok: false, name: 'KeychainUnavailableError', reason });
  expect(attempt.message).toMatch(advice);
  for (const text of [attempt.message, attempt.detail, attempt.inspected]) expect(text ?? '').not.toContain(APPKEY);
}

function expectProbe(attempt: Attempt, reason: string, advice: RegExp): void {
  expect(attempt.ok).toBe(true);
  expect(attempt.value).toMatchObject({ available: false, reason });
  expect((attempt.value as { message: string }).message).toMatch(advice);
}

describe('when no keychain can be used, it says so plainly and writes nothing', () => {
  it('no D-Bus session at all', async () => {
    const keyring = await privateKeyring({ mode: 'no-bus' });
    expect(keyring.env.DBUS_SESSION_BUS_ADDRESS).toBeUndefined();
    const report = await inChild(keyring.env);
    const advice = /no D-Bus session bus[\s\S]*dbus-run-session[\s\S]*gnome-keyring-daemon --unlock/;
    expectUnavailable(report.set, 'no_dbus', advice);
    expect(report.set.detail).toBe('Cannot autolaunch D-Bus without X11 $DISPLAY');
    expectUnavailable(report.get, 'no_dbus', advice);
    expectUnavailable(report.delete, 'no_dbus', advice);
    expectProbe(report.probe, 'no_dbus', advice);
    expect(keyring.filesContaining(APPKEY)).toEqual([]);
  });

  it('a D-Bus address whose bus is gone', async () => {
    const keyring = await privateKeyring({ mode: 'no-bus' });
    const env = { ...keyring.env, DBUS_SESSION_BUS_ADDRESS: `unix:path=${keyring.dir}/run/gone` };
    const report = await inChild(env);
    expectUnavailable(report.set, 'no_dbus', /no D-Bus session bus/);
    expect(report.set.detail).toBe('Could not connect: No such file or directory');
    expectProbe(report.probe, 'no_dbus', /dbus-run-session/);
    expect(keyring.filesContaining(APPKEY)).toEqual([]);
  });

  it('a D-Bus session without a Secret Service', async () => {
    const keyring = await privateKeyring({ mode: 'no-secret-service' });
    const report = await inChild(keyring.env);
    const advice = /No keyring \(Secret Service\)[\s\S]*gnome-keyring[\s\S]*KeePassXC/;
    expectUnavailable(report.set, 'no_secret_service', advice);
    expect(report.set.detail).toBe('The name org.freedesktop.secrets was not provided by any .service files');
    expectUnavailable(report.get, 'no_secret_service', advice);
    expectProbe(report.probe, 'no_secret_service', advice);
    // There is no keyring to hold anything, and no file holds the value.
    await expect(keyring.search('Loket')).rejects.toThrow(/org\.freedesktop\.secrets/);
    expect(keyring.filesContaining(APPKEY)).toEqual([]);
    // Once a keyring is there, it holds nothing from before.
    await keyring.unlock();
    expect(await keyring.search('Loket')).toEqual([]);
  });

  it('a locked keyring: writes are refused, reads see nothing, probe tells which', async () => {
    const seeded = 'seeded-appkey-5555666677778888';
    const keyring = await privateKeyring({
      mode: 'locked',
      seed: [{ service: 'Loket', account: 'appkey', secret: seeded }],
    });
    const report = await inChild(keyring.env);
    const advice = /keyring is locked[\s\S]*Unlock the keyring[\s\S]*gnome-keyring-daemon --unlock/;
    expectUnavailable(report.set, 'locked', advice);
    expect(report.set.detail).toBe('Cannot create an item in a locked collection');
    // What libsecret does on a locked keyring with no unlock dialog: "nothing stored", "nothing to delete".
    expect(report.get).toMatchObject({ ok: true, value: null });
    expect(report.delete).toMatchObject({ ok: true });
    expectProbe(report.probe, 'locked', advice);

    // Unlocked again: the seeded value is still there, unchanged, and nothing else was written.
    await keyring.unlock();
    const items = await keyring.search('Loket');
    expect(items.map((i) => [i.attributes.account, i.secret])).toEqual([['appkey', seeded]]);
    expect(keyring.filesContaining(APPKEY)).toEqual([]);
  });

  it('a new keyring that is not unlocked (no default keyring yet)', async () => {
    const keyring = await privateKeyring({ mode: 'not-unlocked' });
    const report = await inChild(keyring.env);
    expectUnavailable(report.set, 'locked', /keyring is locked \(or there is no default keyring yet\)/);
    expect(report.set.detail).toBe('Object does not exist at path “/org/freedesktop/secrets/collection/login”');
    expectProbe(report.probe, 'locked', /Unlock the keyring/);
    await keyring.unlock();
    expect(await keyring.search('Loket')).toEqual([]);
  });

  it('a keyring that does not answer: the deadline ends the wait', async () => {
    const keyring = await privateKeyring({ mode: 'hung' });
    const report = await inChild(keyring.env, 300);
    const advice = /did not answer within 300 ms[\s\S]*unlock/;
    expectUnavailable(report.set, 'timeout', advice);
    expect(report.set.detail).toBe('no answer within 300 ms');
    // While that call still waits, the next ones do not queue behind it.
    expectUnavailable(report.get, 'timeout', advice);
    expect(report.get.detail).toBe('an earlier keychain request is still waiting for an answer');
    expectProbe(report.probe, 'timeout', advice);
    keyring.thaw();
    expect(await keyring.search('Loket')).toEqual([]);
    expect(keyring.filesContaining(APPKEY)).toEqual([]);
  });
});
