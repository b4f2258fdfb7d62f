// @vitest-environment jsdom
// Who sells at the till: the status from the server (and its `info` events), signing in — with a PIN where the
// store asks for one — switching, signing out, and the refusals with the end of a lockout.
import { describe, expect, test } from 'vitest';
import { CallError } from '../../../src-renderer/src/api/errors';
import { TillManager } from '../../../src-renderer/src/state/till.svelte';
import { CASHIER, FakeApi, MANAGER, tillStatus } from './fake-client';

const T0 = Date.parse('2026-03-10T03:00:00.000Z');

function setup(status = tillStatus()) {
  const fake = new FakeApi();
  let now = T0;
  fake.on('tillStatus', () => status);
  const till = new TillManager({ api: fake.api, now: () => now });
  return { fake, till, advance: (ms: number) => (now += ms) };
}

describe('the till as the server says', () => {
  test('loaded, then kept current by info events', async () => {
    const { till } = setup();
    expect(till.staff).toBeNull();
    await till.load();
    expect(till.staffList).toEqual([MANAGER, CASHIER]);
    expect(till.needsSignIn).toBe(false);

    till.observe(tillStatus({ requireCashierPin: true }));
    expect(till.pinRequired).toBe(true);
    expect(till.needsSignIn).toBe(true);
    till.observe(tillStatus({ requireCashierPin: true, staff: CASHIER }));
    expect(till.staff).toEqual(CASHIER);
    expect(till.needsSignIn).toBe(false);
  });

  test('someone picked who then leaves the list is no longer picked', async () => {
    const { till } = setup();
    await till.load();
    till.pick(CASHIER.id);
    till.observe(tillStatus({ staffList: [MANAGER] }));
    expect(till.picked).toBeUndefined();
  });
});

describe('signing in', () => {
  test('without cashier PINs, a name is enough (no PIN is sent)', async () => {
    const { fake, till } = setup();
    await till.load();
    fake.on('signIn', () => ({ ok: true, till: tillStatus({ staff: CASHIER }) }));
    till.openDialog();
    expect(till.dialogOpen).toBe(true);
    expect(till.picked).toBeUndefined();
    expect(await till.signIn()).toBe(false);
    till.pick(CASHIER.id);
    expect(await till.signIn()).toBe(true);
    expect(fake.callsOf('signIn')).toEqual([[CASHIER.id, null]]);
    expect(till.staff).toEqual(CASHIER);
    expect(till.dialogOpen).toBe(false);
  });

  test('with cashier PINs: the PIN typed is sent; a short one is not', async () => {
    const { fake, till } = setup(tillStatus({ requireCashierPin: true }));
    await till.load();
    fake.on('signIn', () => ({ ok: true, till: tillStatus({ requireCashierPin: true, staff: CASHIER }) }));
    till.pick(CASHIER.id);
    till.pin.setText('24');
    expect(await till.signIn()).toBe(false);
    expect(till.problem).toEqual({ kind: 'format' });
    expect(fake.callsOf('signIn')).toEqual([]);

    // What was typed stays: the cashier goes on typing.
    for (const key of ['6', '8'] as const) till.pin.press(key);
    expect(await till.signIn()).toBe(true);
    expect(fake.callsOf('signIn')).toEqual([[CASHIER.id, '2468']]);
    expect(till.pin.value).toBe('');
    expect(till.problem).toBeNull();
  });

  test('a wrong PIN is refused and cleared; the lockout it causes blocks sending until it ends', async () => {
    const { fake, till, advance } = setup(tillStatus({ requireCashierPin: true }));
    await till.load();
    fake.on('signIn', () => ({ ok: false, reason: 'wrong_pin', retryAfterMs: 60_000 }));
    till.pick(CASHIER.id);
    till.pin.setText('1357');
    expect(await till.signIn()).toBe(false);
    expect(till.problem).toEqual({ kind: 'wrong_pin', until: T0 + 60_000 });
    expect(till.pin.value).toBe('');

    till.pin.setText('2468');
    expect(await till.signIn()).toBe(false);
    expect(fake.callsOf('signIn')).toHaveLength(1);
    // Picking someone else does not hide the lockout: it is the till's.
    till.pick(MANAGER.id);
    expect(till.lockedUntil).toBe(T0 + 60_000);

    advance(60_000);
    fake.on('signIn', () => ({ ok: false, reason: 'locked_out', retryAfterMs: 120_000 }));
    till.pin.setText('2468');
    await till.signIn();
    expect(till.problem).toEqual({ kind: 'locked_out', until: T0 + 180_000 });
  });

  test('someone no longer active: the refusal says so and the list is fetched again', async () => {
    const { fake, till } = setup();
    await till.load();
    fake.on('signIn', () => ({ ok: false, reason: 'no_such_staff' }));
    till.pick(CASHIER.id);
    await till.signIn();
    expect(till.problem).toEqual({ kind: 'no_such_staff' });
    expect(fake.callsOf('tillStatus')).toHaveLength(2);
  });

  test('a call that fails is shown as such', async () => {
    const { fake, till } = setup();
    await till.load();
    const error = new CallError('network', 'Loket did not answer.');
    fake.fail('signIn', error);
    till.pick(CASHIER.id);
    expect(await till.signIn()).toBe(false);
    expect(till.problem).toEqual({ kind: 'error', error });
  });

  test('one person on the list is picked when the dialog opens; closing it forgets what was typed', async () => {
    const { till } = setup(tillStatus({ staffList: [CASHIER], requireCashierPin: true }));
    await till.load();
    till.openDialog();
    expect(till.picked).toEqual(CASHIER);
    till.pin.setText('12');
    till.closeDialog();
    expect(till.pin.value).toBe('');
    expect(till.dialogOpen).toBe(false);
  });
});

test('signing out: nobody at the till', async () => {
  const { fake, till } = setup(tillStatus({ staff: CASHIER }));
  await till.load();
  fake.on('signOut', () => tillStatus());
  till.openDialog();
  await till.signOut();
  expect(till.staff).toBeNull();
  expect(till.dialogOpen).toBe(false);
});
