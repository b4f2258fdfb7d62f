// @vitest-environment jsdom
// The manager's screens: first-use setup, unlocking with a PIN, the session's token kept in memory only, and
// locking — by the Lock button, by the server's `locked` answer, and by the screens' own idle deadline.
// (Idle auto-lock is covered here, on a fake clock, rather than by waiting a real minute in Playwright.)
import { beforeEach, describe, expect, test } from 'vitest';
import { CallError } from '../../../src-renderer/src/api/errors';
import { ManagerSession } from '../../../src-renderer/src/state/manager-session.svelte';
import { CASHIER, FakeApi, MANAGER, managerSession, managerView, settle, tillStatus } from './fake-client';

const T0 = Date.parse('2026-03-10T03:00:00.000Z');
const TOKEN = managerSession().token;

function setup(options: { hasManager?: boolean } = {}) {
  const fake = new FakeApi();
  let now = T0;
  let till = tillStatus({ hasManager: options.hasManager ?? true });
  const manager = new ManagerSession({ api: fake.api, till: () => till, now: () => now });
  return {
    fake,
    manager,
    advance: (ms: number) => (now += ms),
    setTill: (next: typeof till) => (till = next),
  };
}

/** Unlocked as Bu Sri, with the view locking at T0 + 5 min. */
async function unlocked(options: Parameters<typeof setup>[0] = {}) {
  const s = setup(options);
  s.fake
    .on('unlockManager', () => ({ ok: true, session: managerSession(T0) }))
    .on('managerView', () => managerView({ lockAt: new Date(T0 + 5 * 60_000).toISOString() }))
    .on('lockManager', () => null);
  s.manager.pick(MANAGER.id);
  s.manager.pin.setText('97531864');
  expect(await s.manager.unlock()).toBe(true);
  return s;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('first use', () => {
  test('with no manager yet, the area asks for one; setup opens the screens for them at once', async () => {
    const { fake, manager } = setup({ hasManager: false });
    expect(manager.phase).toBe('setup');
    fake.on('setupManager', () => managerSession(T0)).on('managerView', () => managerView());

    manager.setSetupValue('name', '  Bu Sri ');
    manager.setSetupValue('pin', '97531864');
    manager.setSetupValue('again', '97531864');
    expect(await manager.setup()).toBe(true);
    expect(fake.callsOf('setupManager')).toEqual([[{ name: 'Bu Sri', pin: '97531864' }]]);
    expect(fake.callsOf('managerView')).toEqual([[TOKEN]]);
    expect(manager.phase).toBe('open');
    expect(manager.me).toEqual(MANAGER);
    expect(manager.editors).not.toBeNull();
    // What was typed is gone from the form.
    expect(manager.setupValue('pin')).toBe('');
  });

  test('a name, a PIN of 4 to 8 digits, and the same PIN twice, checked before anything is sent', async () => {
    const { fake, manager } = setup({ hasManager: false });
    expect(await manager.setup()).toBe(false);
    expect(manager.setupProblem('name')).toBe('name');
    expect(manager.setupProblem('pin')).toBe('pin');

    manager.setSetupValue('name', 'Bu Sri');
    manager.setSetupValue('pin', '123');
    expect(await manager.setup()).toBe(false);
    expect(manager.setupProblem('name')).toBeUndefined();
    expect(manager.setupProblem('pin')).toBe('pin');

    manager.setSetupValue('pin', '12345');
    manager.setSetupValue('again', '12346');
    expect(await manager.setup()).toBe(false);
    expect(manager.setupProblem('again')).toBe('pin_mismatch');
    expect(fake.calls).toEqual([]);
  });

  test('a manager set up meanwhile elsewhere: the refusal is shown and the area asks for a PIN', async () => {
    const { fake, manager } = setup({ hasManager: false });
    fake.fail('setupManager', new CallError('conflict', 'Loket already has a manager'));
    manager.setSetupValue('name', 'Bu Sri');
    manager.setSetupValue('pin', '1234');
    manager.setSetupValue('again', '1234');
    expect(await manager.setup()).toBe(false);
    expect(manager.error?.code).toBe('conflict');
    expect(manager.phase).toBe('unlock');
  });
});

describe('unlocking', () => {
  test('the managers of the till are offered (one is picked for you); a wrong PIN is refused and cleared', async () => {
    const { fake, manager } = setup();
    expect(manager.phase).toBe('unlock');
    expect(manager.managers).toEqual([MANAGER]);
    expect(manager.picked).toEqual(MANAGER);
    fake.on('unlockManager', () => ({ ok: false, reason: 'wrong_pin' }));
    manager.pin.setText('1111');
    expect(await manager.unlock()).toBe(false);
    expect(manager.problem).toEqual({ kind: 'wrong_pin' });
    expect(manager.pin.value).toBe('');
    expect(manager.phase).toBe('unlock');
  });

  test('too short a PIN is not sent', async () => {
    const { fake, manager } = setup();
    manager.pin.setText('12');
    expect(await manager.unlock()).toBe(false);
    expect(manager.problem).toEqual({ kind: 'format' });
    expect(fake.calls).toEqual([]);
  });

  test('a lockout is shown with its end, and nothing is sent until it is over', async () => {
    const { fake, manager, advance } = setup();
    fake.on('unlockManager', () => ({ ok: false, reason: 'wrong_pin', retryAfterMs: 30_000 }));
    manager.pin.setText('1111');
    await manager.unlock();
    expect(manager.problem).toEqual({ kind: 'wrong_pin', until: T0 + 30_000 });
    expect(manager.lockedUntil).toBe(T0 + 30_000);

    manager.pin.setText('97531864');
    expect(await manager.unlock()).toBe(false);
    expect(fake.callsOf('unlockManager')).toHaveLength(1);

    advance(30_000);
    fake.on('unlockManager', () => ({ ok: false, reason: 'locked_out', retryAfterMs: 5_000 }));
    manager.pin.setText('97531864');
    await manager.unlock();
    expect(manager.problem).toEqual({ kind: 'locked_out', until: T0 + 35_000 });
  });

  test('a cashier is not offered, and the server refusing a non-manager says so', async () => {
    const { fake, manager, setTill } = setup();
    setTill(tillStatus({ staffList: [MANAGER, CASHIER, { ...MANAGER, id: 3, name: 'Pak Budi' }] }));
    expect(manager.managers.map((s) => s.name)).toEqual(['Bu Sri', 'Pak Budi']);
    expect(manager.picked).toBeUndefined();
    manager.pick(3);
    fake.on('unlockManager', () => ({ ok: false, reason: 'not_a_manager' }));
    manager.pin.setText('1234');
    await manager.unlock();
    expect(manager.problem).toEqual({ kind: 'not_a_manager' });
  });

  test('unlocked: the view is loaded with the token, which is kept in memory only', async () => {
    const { fake, manager } = await unlocked();
    expect(fake.callsOf('unlockManager')).toEqual([[MANAGER.id, '97531864']]);
    expect(manager.phase).toBe('open');
    expect(manager.lockAt).toBe(T0 + 5 * 60_000);
    expect(manager.pin.value).toBe('');
    // Nothing of the session in the browser's storage: a reload locks.
    expect(JSON.stringify({ ...localStorage, ...sessionStorage })).not.toContain(TOKEN);
    expect(localStorage.length + sessionStorage.length).toBe(0);
    expect(JSON.stringify(manager)).not.toContain(TOKEN);
  });
});

describe('calls in the session', () => {
  test('each call carries the token; a successful one moves the idle deadline on', async () => {
    const { fake, manager, advance } = await unlocked();
    fake.on('auditLog', () => []);
    advance(60_000);
    const outcome = await manager.call((api, token) => api.auditLog(token, {}));
    expect(outcome).toEqual({ ok: true, value: [] });
    expect(fake.callsOf('auditLog')).toEqual([[TOKEN, {}]]);
    expect(manager.lockAt).toBe(T0 + 60_000 + 5 * 60_000);
  });

  test('a `locked` answer after the idle time: back to the PIN pad, saying it locked after N minutes', async () => {
    const { fake, manager, advance } = await unlocked();
    const editors = manager.editors!;
    editors.gateway.setSecretText('appkey', 'typed-but-not-saved');
    advance(5 * 60_000);
    fake.fail('auditLog', new CallError('locked', 'manager mode locked itself after a while unused'));
    const outcome = await manager.call((api, token) => api.auditLog(token, {}));
    expect(outcome.ok).toBe(false);
    expect(manager.phase).toBe('unlock');
    expect(manager.lockNotice).toBe('idle');
    expect(manager.idleMinutes).toBe(5);
    expect(manager.view).toBeNull();
    // The editors go, with anything typed in them.
    expect(manager.editors).toBeNull();
    // The next call is not even sent.
    const next = await manager.call((api, token) => api.managerView(token));
    expect(next.ok || next.error.code).toBe('locked');
    expect(fake.callsOf('managerView')).toHaveLength(1);
  });

  test('a `locked` answer before the deadline (Loket restarted, demoted): locked, without blaming idleness', async () => {
    const { fake, manager } = await unlocked();
    fake.fail('testConnection', new CallError('locked', 'manager mode is locked: enter a manager PIN'));
    await manager.editors!.connection.test();
    expect(manager.phase).toBe('unlock');
    expect(manager.lockNotice).toBe('ended');
  });

  test('other errors leave the session open', async () => {
    const { fake, manager } = await unlocked();
    fake.fail('auditLog');
    const outcome = await manager.call((api, token) => api.auditLog(token, {}));
    expect(outcome.ok || outcome.error.code).toBe('network');
    expect(manager.phase).toBe('open');
  });

  test('unlocking again clears the notice; the idle minutes follow the settings', async () => {
    const { fake, manager, advance } = await unlocked();
    advance(6 * 60_000);
    manager.checkIdle();
    expect(manager.lockNotice).toBe('idle');
    fake.on('managerView', () =>
      managerView({ settings: { access: { requireCashierPin: false, managerIdleMinutes: 1 } } }),
    );
    manager.pin.setText('97531864');
    await manager.unlock();
    expect(manager.lockNotice).toBeNull();
    expect(manager.idleMinutes).toBe(1);
  });
});

describe('locking', () => {
  test('the Lock button: back to the PIN pad at once, and the server is told', async () => {
    const { fake, manager } = await unlocked();
    await manager.lock();
    expect(manager.phase).toBe('unlock');
    expect(manager.lockNotice).toBeNull();
    expect(fake.callsOf('lockManager')).toEqual([[TOKEN]]);
  });

  test('the screens lock themselves when the deadline passes, even with no call to answer `locked`', async () => {
    const { fake, manager, advance } = await unlocked();
    advance(5 * 60_000 - 10_000);
    manager.checkIdle();
    expect(manager.phase).toBe('open');
    advance(10_000);
    manager.checkIdle();
    expect(manager.phase).toBe('unlock');
    expect(manager.lockNotice).toBe('idle');
    await settle();
    expect(fake.callsOf('lockManager')).toEqual([[TOKEN]]);
  });

  test('a call answered after the screens locked does not bring anything back', async () => {
    const { fake, manager } = await unlocked();
    const held = fake.hold('managerView');
    const refresh = manager.refresh();
    await held.called;
    await manager.lock();
    held.resolve(managerView());
    await refresh;
    expect(manager.phase).toBe('unlock');
    expect(manager.view).toBeNull();
  });

  test('the audit section loads when chosen', async () => {
    const { fake, manager } = await unlocked();
    fake.on('auditLog', () => []);
    manager.selectSection('audit');
    await settle();
    expect(manager.section).toBe('audit');
    expect(fake.callsOf('auditLog')).toEqual([[TOKEN, { limit: 50 }]]);
  });

  test('locked on a section and unlocked again: the section loads again, as when chosen', async () => {
    const { fake, manager } = await unlocked();
    fake.on('auditLog', () => []);
    manager.selectSection('audit');
    await settle();
    await manager.lock();
    manager.pick(MANAGER.id);
    manager.pin.setText('97531864');
    expect(await manager.unlock()).toBe(true);
    await settle();
    expect(manager.section).toBe('audit');
    expect(fake.callsOf('auditLog')).toHaveLength(2);
  });
});
