// @vitest-environment jsdom
// The manager's payment methods (switches, importing a file, back to the bundled list), staff (adding, roles,
// PINs, deactivating, one's own PIN) and the audit log, each against the fake API.
import { describe, expect, test } from 'vitest';
import type { ManagerView } from '../../../src-main/common/manager';
import { CallError } from '../../../src-renderer/src/api/errors';
import { ManagerSession } from '../../../src-renderer/src/state/manager-session.svelte';
import { importFormat, type PickedFile } from '../../../src-renderer/src/state/methods-editor.svelte';
import { CASHIER, FakeApi, MANAGER, managerSession, managerView, METHODS, settle, tillStatus } from './fake-client';

const TOKEN = managerSession().token;
const T0 = Date.parse('2026-03-10T03:00:00.000Z');

async function open(view: ManagerView = managerView()) {
  const fake = new FakeApi();
  fake.on('unlockManager', () => ({ ok: true, session: managerSession() })).on('managerView', () => view);
  let now = T0;
  const manager = new ManagerSession({ api: fake.api, till: () => tillStatus(), now: () => now });
  manager.pick(MANAGER.id);
  manager.pin.setText('97531864');
  expect(await manager.unlock()).toBe(true);
  return { fake, manager, editors: manager.editors!, advance: (ms: number) => (now += ms) };
}

function file(name: string, text: string): PickedFile {
  return { name, size: text.length, text: async () => text };
}

describe('payment methods', () => {
  test('a switch sends the method and its new state; the newer list is shown', async () => {
    const { fake, editors, manager } = await open();
    const off = managerView({ methods: [METHODS[0]!, { ...METHODS[1]!, enabled: false }], methodsSource: 'store' });
    fake.on('setMethodEnabled', () => ({ ok: true, view: off }));
    expect(await editors.methods.setEnabled('va_bca', false)).toBe(true);
    expect(fake.callsOf('setMethodEnabled')).toEqual([[TOKEN, 'va_bca', false]]);
    expect(editors.methods.methods[1]?.enabled).toBe(false);
    expect(editors.methods.source).toBe('store');
    expect(manager.view).toBe(off);
  });

  test('the last enabled method cannot go: the refusal is shown', async () => {
    const { fake, editors } = await open();
    fake.on('setMethodEnabled', () => ({
      ok: false,
      issues: [{ field: 'paymentMethods', message: 'at least one payment method must be enabled' }],
    }));
    expect(await editors.methods.setEnabled('qris_dynamic', false)).toBe(false);
    expect(editors.methods.issues).toHaveLength(1);
  });

  test('a file is read and imported in the format its name says', async () => {
    expect(importFormat('methods.JSON')).toBe('json');
    expect(importFormat('daftar.csv')).toBe('csv');
    expect(importFormat('methods.xlsx')).toBeUndefined();
    const { fake, editors } = await open();
    fake.on('importMethods', () => ({ ok: true, view: managerView({ methodsSource: 'store' }) }));
    expect(await editors.methods.importFile(file('daftar.csv', 'id,kind\nqris_dynamic,qris\n'))).toBe(true);
    expect(fake.callsOf('importMethods')).toEqual([[TOKEN, 'csv', 'id,kind\nqris_dynamic,qris\n']]);
    expect(editors.methods.imported).toBe(METHODS.length);
    expect(editors.methods.fileName).toBe('daftar.csv');
  });

  test("the server's problems are listed with their row and field; nothing was changed", async () => {
    const { fake, editors } = await open();
    const problems = [
      { row: 3, field: 'min_amount', message: 'row 3, min_amount: a whole number of rupiah, at least 1' },
      { row: 0, field: '(file)', message: 'no method is enabled' },
    ];
    fake.on('importMethods', () => ({ ok: false, problems }));
    expect(await editors.methods.importFile(file('m.json', '[]'))).toBe(false);
    expect(editors.methods.problems).toEqual(problems);
    expect(editors.methods.imported).toBeNull();
  });

  test('a file of another kind, or too large, is not sent', async () => {
    const { fake, editors } = await open();
    expect(await editors.methods.importFile(file('m.txt', 'x'))).toBe(false);
    expect(editors.methods.localProblem).toBe('format');
    expect(await editors.methods.importFile(file('m.json', 'x'.repeat(70_000)))).toBe(false);
    expect(editors.methods.localProblem).toBe('too_large');
    expect(fake.callsOf('importMethods')).toEqual([]);
  });

  test('back to the bundled list, after asking', async () => {
    const { fake, editors } = await open(managerView({ methodsSource: 'store' }));
    fake.on('resetMethods', () => managerView());
    editors.methods.askReset();
    expect(editors.methods.confirmReset).toBe(true);
    await editors.methods.reset();
    expect(fake.callsOf('resetMethods')).toEqual([[TOKEN]]);
    expect(editors.methods.source).toBe('bundled');
    expect(editors.methods.resetDone).toBe(true);
  });
});

describe('staff', () => {
  const ani = { ...CASHIER };
  const budi = { id: 3, name: 'Budi', role: 'cashier' as const, active: false };

  test('listed active first, then by name; the manager is told apart', async () => {
    const { editors } = await open(managerView({ staff: [budi, ani, MANAGER] }));
    expect(editors.staff.staff.map((s) => s.name)).toEqual(['Ani', 'Bu Sri', 'Budi']);
    expect(editors.staff.me).toEqual(MANAGER);
  });

  test('adding someone: a name, a PIN typed twice; checked here first', async () => {
    const { fake, editors } = await open();
    const add = editors.staff.add;
    expect(await editors.staff.addStaff()).toBe(false);
    expect(add.problem('name')).toBe('name');
    expect(add.problem('pin')).toBe('pin');
    add.set('name', 'Citra');
    add.set('pin', '2468');
    add.set('again', '2469');
    expect(await editors.staff.addStaff()).toBe(false);
    expect(add.problem('again')).toBe('pin_mismatch');
    expect(add.firstProblem).toBe('again');
    expect(fake.callsOf('addStaff')).toEqual([]);

    add.set('again', '2468');
    add.setRole('manager');
    fake.on('addStaff', () => managerView());
    expect(await editors.staff.addStaff()).toBe(true);
    expect(fake.callsOf('addStaff')).toEqual([[TOKEN, { name: 'Citra', role: 'manager', pin: '2468' }]]);
    expect(add.value('pin')).toBe('');
    expect(add.role).toBe('cashier');
    expect(editors.staff.notice).toEqual({ kind: 'added', name: 'Citra' });
  });

  test("a name taken: the server's refusal is shown on the form, which keeps what was typed", async () => {
    const { fake, editors } = await open();
    fake.fail('addStaff', new CallError('conflict', 'there is already a member of staff called Ani'));
    editors.staff.add.set('name', 'Ani');
    editors.staff.add.set('pin', '1234');
    editors.staff.add.set('again', '1234');
    expect(await editors.staff.addStaff()).toBe(false);
    expect(editors.staff.add.error?.code).toBe('conflict');
    expect(editors.staff.add.value('name')).toBe('Ani');
  });

  test('a role, deactivating, reactivating: one call each; a refusal is shown on its row', async () => {
    const { fake, editors } = await open();
    fake.on('updateStaff', () => managerView());
    await editors.staff.setRole(ani.id, 'manager');
    await editors.staff.setActive(ani.id, false);
    expect(fake.callsOf('updateStaff')).toEqual([
      [TOKEN, ani.id, { role: 'manager' }],
      [TOKEN, ani.id, { active: false }],
    ]);
    fake.fail('updateStaff', new CallError('conflict', 'Bu Sri is the only active manager'));
    expect(await editors.staff.setRole(MANAGER.id, 'cashier')).toBe(false);
    expect(editors.staff.rowError?.staffId).toBe(MANAGER.id);
  });

  test("setting someone's PIN, in a dialog", async () => {
    const { fake, editors } = await open();
    editors.staff.openPinForm(ani.id);
    expect(editors.staff.pinFor).toEqual(ani);
    editors.staff.pinForm.set('pin', '8642');
    editors.staff.pinForm.set('again', '8642');
    fake.on('updateStaff', () => managerView());
    expect(await editors.staff.setPin()).toBe(true);
    expect(fake.callsOf('updateStaff')).toEqual([[TOKEN, ani.id, { pin: '8642' }]]);
    expect(editors.staff.pinFor).toBeUndefined();
    expect(editors.staff.notice).toEqual({ kind: 'pin_set', name: 'Ani' });
  });

  test('demoting oneself ends the session: the screens lock', async () => {
    const { fake, editors, manager } = await open();
    fake.fail('updateStaff', new CallError('locked', 'this session is no longer a manager’s'));
    await editors.staff.setRole(MANAGER.id, 'cashier');
    expect(manager.phase).toBe('unlock');
    expect(editors.staff.rowError).toBeNull();
  });

  test('my own PIN: the current one is checked by the server, with its lockout', async () => {
    const { fake, editors, advance } = await open();
    const own = editors.staff.ownPin;
    own.set('current', '1111');
    own.set('pin', '2222');
    own.set('again', '2222');
    fake.on('changeOwnPin', () => ({ ok: false, reason: 'wrong_pin', retryAfterMs: 30_000 }));
    expect(await editors.staff.changeOwnPin()).toBe(false);
    expect(own.refusal).toEqual({ kind: 'wrong_pin', until: T0 + 30_000 });
    expect(own.value('current')).toBe('');

    own.set('current', '97531864');
    own.set('pin', '2222');
    own.set('again', '2222');
    expect(await editors.staff.changeOwnPin()).toBe(false);
    expect(fake.callsOf('changeOwnPin')).toHaveLength(1);

    advance(30_000);
    fake.on('changeOwnPin', () => ({ ok: true }));
    expect(await editors.staff.changeOwnPin()).toBe(true);
    expect(fake.callsOf('changeOwnPin').at(-1)).toEqual([TOKEN, '97531864', '2222']);
    expect(own.done).toBe(true);
    expect(own.refusal).toBeNull();
  });
});

describe('the audit log', () => {
  const entry = (seq: number) => ({
    seq,
    at: '2026-03-10T03:00:00.000Z',
    actor: { staffId: 1, name: 'Bu Sri', source: 'app' as const },
    action: 'settings.changed',
    field: 'storeName',
    detail: { from: 'Toko Loket', to: 'Warung Sri' },
  });

  test('the latest page, then older ones before the oldest shown', async () => {
    const { fake, editors } = await open();
    fake.on('auditLog', (_token, options) =>
      Array.from({ length: options.before ? 3 : 50 }, (_, i) => entry((options.before ?? 200) - 1 - i)),
    );
    await editors.audit.load();
    expect(editors.audit.entries).toHaveLength(50);
    expect(editors.audit.hasMore).toBe(true);
    await editors.audit.loadMore();
    expect(fake.callsOf('auditLog').at(-1)).toEqual([TOKEN, { limit: 50, before: 150 }]);
    expect(editors.audit.entries).toHaveLength(53);
    expect(editors.audit.hasMore).toBe(false);
  });

  test("in training, the training log's entries merged in: each log paged from its own oldest shown", async () => {
    const { fake, editors } = await open();
    const page = [
      entry(80),
      { ...entry(12), log: 'training' as const },
      entry(79),
      { ...entry(11), log: 'training' as const },
    ];
    fake.on('auditLog', (_token, options) =>
      options.before === undefined ? [...page, ...Array.from({ length: 46 }, (_, i) => entry(78 - i))] : [],
    );
    await editors.audit.load();
    await editors.audit.loadMore();
    expect(fake.callsOf('auditLog').at(-1)).toEqual([TOKEN, { limit: 50, before: 33, trainingBefore: 11 }]);
  });

  test('a failure is shown', async () => {
    const { fake, editors } = await open();
    fake.fail('auditLog');
    await editors.audit.load();
    await settle();
    expect(editors.audit.error?.code).toBe('network');
    expect(editors.audit.loaded).toBe(false);
  });
});
