// The manager's side of the app host against real parts: a private gnome-keyring in this process, a real
// SQLite data folder, and a standalone sandbox on loopback acting as the live gateway. From a fresh install
// to live and back, as a manager would do it from the app (docs/settings.md, docs/roles.md).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { KeychainSecretStore } from '../../src-main/adapters/keychain-secret-store';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import type { LiveEvent } from '../../src-main/common/api';
import type { ManagerResult, ManagerView } from '../../src-main/common/manager';
import type { Clock } from '../../src-main/core/ports';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { tempDir } from './helpers/loket';
import { startPrivateKeyring, type PrivateKeyring } from './helpers/private-keyring';

const APP_ID = 'warung-live';
const APP_KEY = 'live-appkey-7Hq2-Zx91-last';
const PIN = '97531864';

/** Real time, plus whatever a test adds: idle timeouts pass without waiting for them. */
class OffsetClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

// The keyring and the gateway serve the whole file; each test has a fresh install of its own (a data folder, a host,
// an empty keychain) and makes the steps before its own (helpers below), so any one runs alone and in any order.
let keyring: PrivateKeyring;
let gateway: SandboxHandle;
let dir: { path: string; remove(): void };
let clock: OffsetClock;
let host: AppHost;
let events: LiveEvent[];

beforeAll(async () => {
  keyring = await startPrivateKeyring();
  keyring.useInThisProcess();
  gateway = await startSandbox({ host: '127.0.0.1', port: 0, appId: APP_ID, appKey: APP_KEY });
});
afterAll(async () => {
  await gateway?.close();
  await keyring?.stop();
});

beforeEach(async () => {
  const keychain = new KeychainSecretStore();
  for (const name of ['appkey', 'signing-secret'] as const) await keychain.delete(name);
  dir = tempDir('loket-manager-');
  clock = new OffsetClock();
  events = [];
  // No LOKET_* variables: the credentials must come from the keychain, as for a store going live from the app.
  host = await startAppHost({ version: 't', dataDir: dir.path, env: {}, clock });
  host.app.subscribe((event) => events.push(event));
});
afterEach(async () => {
  await host?.close();
  dir.remove();
});

/** The first manager, set up and unlocked. */
async function firstManager(): Promise<{ token: string; managerId: number }> {
  const session = await host.app.setupManager({ name: 'Bu Sri', pin: PIN });
  return { token: session.token, managerId: session.staff.id };
}

/** The live gateway's settings and its appkey, stored as the manager does it from the app. */
async function withGateway(token: string): Promise<void> {
  ok(
    await host.app.updateSettings(token, 'gateway', {
      baseUrl: gateway.url,
      appId: APP_ID,
      inquiryPath: '/api/status',
    }),
  );
  await host.app.setSecret(token, 'appkey', APP_KEY);
}

function ok(result: ManagerResult): ManagerView {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.issues)}`);
  return result.view;
}

describe('from a fresh install to live, using only the app', () => {
  it('first use: no manager yet; the first one sets a PIN and is unlocked at once', async () => {
    const till = await host.app.tillStatus();
    expect(till).toMatchObject({ hasManager: false, staff: null, requireCashierPin: false });
    const session = await host.app.setupManager({ name: 'Bu Sri', pin: PIN });
    expect(session.staff).toMatchObject({ name: 'Bu Sri', role: 'manager', active: true });
    const token = session.token;
    // Only once: a second "first manager" is a conflict, not a back door.
    await expect(host.app.setupManager({ name: 'Intruder', pin: '1111' })).rejects.toMatchObject({ code: 'conflict' });
    const view = await host.app.managerView(token);
    expect(view.keychain).toEqual({ available: true });
    expect(view.secrets.appkey).toEqual({ set: false, from: 'none' });
    expect(view.mode).toMatchObject({ setting: 'training', running: 'sandbox' });
  });

  it('a wrong PIN is refused; a manager call without a live session is locked', async () => {
    const { managerId } = await firstManager();
    expect(await host.app.unlockManager(managerId, '00000000')).toEqual({ ok: false, reason: 'wrong_pin' });
    await expect(host.app.managerView('not-a-session-token-at-all')).rejects.toMatchObject({ code: 'locked' });
    const unlocked = await host.app.unlockManager(managerId, PIN);
    if (!unlocked.ok) throw new Error(unlocked.reason);
    expect((await host.app.managerView(unlocked.session.token)).me.name).toBe('Bu Sri');
  });

  it('the gateway and its appkey: the key goes to the keychain only, and is shown as set …last4', async () => {
    const { token } = await firstManager();
    ok(
      await host.app.updateSettings(token, 'gateway', {
        baseUrl: gateway.url,
        appId: APP_ID,
        inquiryPath: '/api/status',
      }),
    );
    // Before the appkey is stored: the test is not tried (nothing sent), and going live is refused as the
    // command line refuses it (core/settings/live-credentials.ts), saying why as data a screen words.
    const untried = await host.app.testConnection(token);
    expect(untried).toMatchObject({ verdict: 'no_secret', reachable: null, reason: { key: 'probe.no_appkey' } });
    const noKey = await host.app.switchMode(token, 'live', gateway.url);
    expect(noKey).toEqual({
      ok: false,
      issues: [
        {
          field: 'credentials',
          message: expect.stringContaining('no appkey is stored in the OS keychain (Loket)'),
          reason: { key: 'live.secret_missing', params: { secret: 'appkey' } },
        },
      ],
    });
    expect((await host.app.managerView(token)).mode).toMatchObject({ setting: 'training', running: 'sandbox' });

    const view = await host.app.setSecret(token, 'appkey', APP_KEY);
    expect(view.secrets.appkey).toEqual({ set: true, last4: 'last', from: 'keychain' });
    expect(JSON.stringify(view)).not.toContain(APP_KEY);

    const items = await keyring.search('Loket');
    expect(items.map((i) => [i.attributes.account, i.secret])).toContainEqual(['appkey', APP_KEY]);
    // Not in the data folder (the SQLite files, WAL included), not in the keyring's own folder in clear.
    expect(keyring.filesContaining(APP_KEY)).toEqual([]);
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const files = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(d, e.name)) : [join(d, e.name)],
      );
    for (const file of files(dir.path)) expect(readFileSync(file).includes(APP_KEY), file).toBe(false);

    const audit = await host.app.auditLog(token, {});
    expect(audit.find((e) => e.action === 'secret.set')).toMatchObject({ field: 'appkey', actor: { name: 'Bu Sri' } });
    expect(audit.some((e) => e.action === 'settings.changed' && e.field === 'gateway.baseUrl')).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(APP_KEY);
  });

  it('test connection: reachable, appid known, signature accepted — and nothing billable made', async () => {
    const { token } = await firstManager();
    await withGateway(token);
    const before = gateway.orders.all().length;
    const report = await host.app.testConnection(token);
    expect(report).toMatchObject({ verdict: 'ok', reachable: true, appIdKnown: true, signatureAccepted: true });
    expect(gateway.orders.all()).toHaveLength(before);
    expect(JSON.stringify(report)).not.toContain(APP_KEY);
  });

  it('going live needs the gateway named; then the badge says LIVE and a sale reaches the gateway signed with the keychain key', async () => {
    const { token, managerId } = await firstManager();
    await withGateway(token);
    const wrong = await host.app.switchMode(token, 'live', 'https://not-the-gateway.example');
    expect(wrong.ok).toBe(false);
    expect((await host.app.appInfo()).mode).toBe('sandbox');

    events.length = 0;
    const view = ok(await host.app.switchMode(token, 'live', gateway.url));
    expect(view.mode).toMatchObject({ setting: 'live', running: 'live' });
    expect((await host.app.appInfo()).mode).toBe('live');
    expect(events.find((e) => e.type === 'info')).toMatchObject({ type: 'info', info: { mode: 'live' } });
    expect((await host.app.displayState()).mode).toBe('live');

    // The seller is recorded on a live order.
    expect(await host.app.signIn(managerId, null)).toMatchObject({ ok: true, till: { staff: { name: 'Bu Sri' } } });
    const charged = await host.app.createOrder({ methodId: 'qris_dynamic', amount: 15000, itemName: 'Nasi goreng' });
    if (!charged.ok) throw new Error(charged.failure.message);
    expect(charged.order).toMatchObject({ state: 'awaiting_payment', training: false, staffId: managerId });
    expect(gateway.orders.get(charged.order.id)).toBeDefined();
    expect(host.loket.log.events(charged.order.id)[0]).toMatchObject({ type: 'created', actor: 'Bu Sri' });

    // Back to training is refused while that order awaits payment, and allowed once it is cancelled.
    const refused = await host.app.switchMode(token, 'training', '');
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.issues[0]!.message).toMatch(/1 order/);
    await host.app.cancelOrder(charged.order.id, 'customer changed their mind');
    ok(await host.app.switchMode(token, 'training', ''));
    expect((await host.app.appInfo()).mode).toBe('sandbox');
    expect(await host.app.getOrder(charged.order.id)).toBeNull();
  });

  it('the manager screens lock themselves after the idle minutes', async () => {
    const { token } = await firstManager();
    await host.app.managerView(token);
    clock.offsetMs += 5 * 60_000 + 1000;
    await expect(host.app.managerView(token)).rejects.toMatchObject({ code: 'locked' });
  });

  it('a cashier PIN can be required to sell; signed out, a charge is refused with "locked"', async () => {
    const { managerId } = await firstManager();
    const unlocked = await host.app.unlockManager(managerId, PIN);
    if (!unlocked.ok) throw new Error(unlocked.reason);
    ok(await host.app.updateSettings(unlocked.session.token, 'access', { requireCashierPin: true }));
    await host.app.addStaff(unlocked.session.token, { name: 'Ani', role: 'cashier', pin: '2468' });
    await host.app.signOut();
    await expect(
      host.app.createOrder({ methodId: 'qris_dynamic', amount: 1000, itemName: 'Teh' }),
    ).rejects.toMatchObject({
      code: 'locked',
    });
    const ani = (await host.app.tillStatus()).staffList.find((s) => s.name === 'Ani')!;
    expect(await host.app.signIn(ani.id, null)).toEqual({ ok: false, reason: 'pin_required' });
    expect(await host.app.signIn(ani.id, '1357')).toMatchObject({ ok: false, reason: 'wrong_pin' });
    expect(await host.app.signIn(ani.id, '2468')).toMatchObject({ ok: true });
    const charged = await host.app.createOrder({ methodId: 'qris_dynamic', amount: 1000, itemName: 'Teh' });
    expect(charged.ok).toBe(true);
  });
});

describe('no keychain reachable', () => {
  it('the app stays in training mode, says why, and writes the key nowhere', async () => {
    const broken = await startPrivateKeyring({ mode: 'no-secret-service' });
    const own = tempDir('loket-nokeychain-');
    try {
      // The settings say live, with a gateway; the app starts in a process that cannot reach a Secret Service.
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(new URL('./fixtures/app-host-child.ts', import.meta.url)), own.path],
        { env: { ...broken.env, LOKET_CHILD_GATEWAY: gateway.url, LOKET_CHILD_APP_ID: APP_ID } },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, err).toBe(0);
      const info = JSON.parse(out) as {
        mode: string;
        notice?: string;
        noticeReason?: unknown;
        setSecret: unknown;
        goLive: unknown;
        keychain: unknown;
      };
      expect(info.mode).toBe('sandbox');
      // The screens word the notice from its reason: one line, with a link to the docs' keychain section.
      expect(info.noticeReason).toEqual({ key: 'live.keychain', params: { problem: 'no_secret_service' } });
      expect(info.keychain).toMatchObject({ available: false, problem: 'no_secret_service' });
      // Back in training, going live again is refused: the credentials cannot be read (as the CLI refuses it).
      expect(info.goLive).toEqual({
        ok: false,
        issues: [
          {
            field: 'credentials',
            message: expect.stringContaining('the OS keychain cannot be used'),
            reason: { key: 'live.keychain', params: { problem: 'no_secret_service' } },
          },
        ],
      });
      expect(info.setSecret).toMatchObject({
        ok: false,
        error: { code: 'unavailable', message: expect.stringMatching(/gnome-keyring|Secret Service/) },
      });
      expect(broken.filesContaining('a-key-never-written')).toEqual([]);
      expect(info.notice).toMatch(/keychain/i);
      expect(info.notice).toMatch(/training mode/);
      expect(broken.filesContaining(APP_KEY)).toEqual([]);
    } finally {
      await broken.stop();
      own.remove();
    }
  });
});
