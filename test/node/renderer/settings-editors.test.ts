// @vitest-environment jsdom
// The manager's settings forms: drafts over the latest view, only what changed is sent, the server's problems
// at their fields, the gateway's secrets sent once and never read back, Test connection, and training ↔ live.
import { describe, expect, test } from 'vitest';
import type { ManagerView } from '../../../src-main/common/manager';
import { CallError } from '../../../src-renderer/src/api/errors';
import { i18n, messagesFor } from '../../../src-renderer/src/i18n/i18n.svelte';
import { showIssue } from '../../../src-renderer/src/lib/settings-issues';
import { ManagerSession } from '../../../src-renderer/src/state/manager-session.svelte';
import { FakeApi, GATEWAY, MANAGER, managerSession, managerView, tillStatus } from './fake-client';

const TOKEN = managerSession().token;

/** An unlocked session over `view`; its editors, and the fake API. */
async function open(view: ManagerView = managerView()) {
  const fake = new FakeApi();
  fake.on('unlockManager', () => ({ ok: true, session: managerSession() })).on('managerView', () => view);
  const manager = new ManagerSession({ api: fake.api, till: () => tillStatus() });
  manager.pick(MANAGER.id);
  manager.pin.setText('97531864');
  expect(await manager.unlock()).toBe(true);
  return { fake, manager, editors: manager.editors! };
}

/** A view with one change to the settings. */
function changed(view: ManagerView, settings: Partial<ManagerView['settings']>): ManagerView {
  return { ...view, settings: { ...view.settings, ...settings } };
}

describe('the store', () => {
  test('only the fields changed are sent; the newer view becomes the form', async () => {
    const { fake, editors, manager } = await open();
    const store = editors.store;
    expect(store.value('storeName')).toBe('Toko Loket');
    expect(store.dirty).toBe(false);
    store.set('storeName', 'Warung Sri');
    store.set('terminalId', 't02');
    expect(store.value('terminalId')).toBe('T02');
    expect(store.dirty).toBe(true);
    fake.on('updateSettings', () => ({
      ok: true,
      view: changed(managerView(), { storeName: 'Warung Sri', terminalId: 'T02' }),
    }));
    expect(await store.save()).toBe(true);
    expect(fake.callsOf('updateSettings')).toEqual([[TOKEN, 'store', { storeName: 'Warung Sri', terminalId: 'T02' }]]);
    expect(manager.view?.settings.storeName).toBe('Warung Sri');
    expect(store.saved).toBe(true);
    expect(store.dirty).toBe(false);
    expect(store.value('storeName')).toBe('Warung Sri');
  });

  test("the store's language is a section of its own: sent after the store's fields", async () => {
    const { fake, editors } = await open();
    editors.store.set('lang', 'en');
    fake.on('updateSettings', () => ({ ok: true, view: changed(managerView(), { lang: 'en' }) }));
    expect(await editors.store.save()).toBe(true);
    expect(fake.callsOf('updateSettings')).toEqual([[TOKEN, 'language', { lang: 'en' }]]);
  });

  test("the server's problems are shown at their fields, in the screen's words from the rule and its numbers", async () => {
    const { fake, editors } = await open();
    const store = editors.store;
    store.set('storeName', '');
    store.set('receiptFooter', 'a\nb\nc\nd');
    fake.on('updateSettings', () => ({
      ok: false,
      issues: [
        { field: 'storeName', message: 'storeName: 1 to 40 characters on one line', params: { min: 1, max: 40 } },
        {
          field: 'receiptFooter',
          message: 'receiptFooter: at most 3 lines of at most 32 characters',
          params: { maxLines: 3, lineWidth: 32 },
        },
      ],
    }));
    expect(await store.save()).toBe(false);
    expect(store.saved).toBe(false);
    expect(store.firstIssueField).toBe('storeName');
    const issue = store.issueFor('storeName')!;
    i18n.set('id');
    // No English on an Indonesian screen: the words are ours, the numbers the server's.
    expect(showIssue(issue, i18n.t, 'id')).toEqual({ text: '1–40 karakter dalam satu baris, tanpa karakter kontrol.' });
    expect(showIssue(issue, messagesFor('en'), 'en')).toEqual({
      text: '1 to 40 characters on one line, without control characters.',
    });
    expect(showIssue(store.issueFor('receiptFooter')!, i18n.t, 'id')).toEqual({
      text: 'Paling banyak 3 baris, masing-masing paling banyak 32 karakter.',
    });
    // The timeout is kept in milliseconds and asked for in seconds: its rule is said in seconds.
    const timeout = {
      field: 'gateway.timeoutMs',
      message: 'gateway.timeoutMs: … milliseconds',
      params: { min: 1000, max: 120_000 },
    };
    expect(showIssue(timeout, i18n.t, 'id')).toEqual({ text: 'Bilangan bulat 1–120 (detik).' });
    // What was typed stays, and editing a field clears its problem only.
    expect(store.value('storeName')).toBe('');
    store.set('storeName', 'Warung');
    expect(store.issueFor('storeName')).toBeUndefined();
    expect(store.issueFor('receiptFooter')).toBeDefined();
  });

  test('a field the form does not have, and a call that fails, are shown for the form', async () => {
    const { fake, editors } = await open();
    editors.store.set('storeName', 'X');
    const open1 = { key: 'settings.open_orders', params: { count: 1, what: 'change_gateway' } } as const;
    fake.on('updateSettings', () => ({
      ok: false,
      issues: [{ field: 'openOrders', message: '1 order(s) are open', reason: open1 }],
    }));
    await editors.store.save();
    expect(editors.store.otherIssues).toEqual([{ field: 'openOrders', message: '1 order(s) are open', reason: open1 }]);
    expect(showIssue(editors.store.otherIssues[0]!, i18n.t, 'id').text).toMatch(/^Masih ada 1 pesanan/);
    // A refusal without a reason we know: our words, never the server's.
    expect(showIssue({ field: 'openOrders', message: '1 order(s) are open' }, i18n.t, 'id')).toEqual({
      text: 'Tidak diterima.',
    });
    fake.fail('updateSettings');
    await editors.store.save();
    expect(editors.store.error?.code).toBe('network');
  });

  test('discarding goes back to what is saved; an untouched field follows a newer view', async () => {
    const { editors, manager } = await open();
    editors.store.set('storeAddress', 'Jl. Merdeka 1');
    editors.store.discard();
    expect(editors.store.value('storeAddress')).toBe('');
    manager.applyView(changed(managerView(), { storeAddress: 'Jl. Baru 2' }));
    expect(editors.store.value('storeAddress')).toBe('Jl. Baru 2');
  });
});

describe('the gateway', () => {
  test('the first gateway: every field is sent, then the appkey typed, which the screen then forgets', async () => {
    const { fake, editors, manager } = await open();
    const gw = editors.gateway;
    gw.set('baseUrl', ' https://gateway.example ');
    gw.set('appId', 'warung-live');
    gw.set('inquiryPath', '/api/status');
    gw.setSecretText('appkey', 'live-appkey-7Hq2-Zx91-last');
    expect(gw.secretsPending).toBe(true);
    const withGateway = changed(managerView(), { gateway: GATEWAY });
    fake
      .on('updateSettings', () => ({ ok: true, view: withGateway }))
      .on('setSecret', () => ({
        ...withGateway,
        secrets: { ...withGateway.secrets, appkey: { set: true, last4: 'last', from: 'keychain' } },
      }));
    expect(await gw.save()).toBe(true);
    expect(fake.callsOf('updateSettings')).toEqual([
      [
        TOKEN,
        'gateway',
        {
          baseUrl: 'https://gateway.example',
          appId: 'warung-live',
          signing: { key: 'appkey', encoding: 'hex' },
          timeoutMs: 15_000,
          inquiryPath: '/api/status',
          timeZone: 'Asia/Jakarta',
        },
      ],
    ]);
    expect(fake.callsOf('setSecret')).toEqual([[TOKEN, 'appkey', 'live-appkey-7Hq2-Zx91-last']]);
    expect(gw.secretText('appkey')).toBe('');
    expect(gw.secretSaved).toBe('appkey');
    expect(manager.view?.secrets.appkey).toEqual({ set: true, last4: 'last', from: 'keychain' });
    expect(gw.dirty).toBe(false);
  });

  test('a configured gateway: only the changes; a key alone sends no settings at all', async () => {
    const configured = changed(managerView(), { gateway: GATEWAY });
    const { fake, editors } = await open(configured);
    const gw = editors.gateway;
    fake.on('setSecret', () => configured).on('updateSettings', () => ({ ok: true, view: configured }));
    gw.setSecretText('appkey', '  new-key-0001 ');
    await gw.save();
    expect(fake.callsOf('updateSettings')).toEqual([]);
    expect(fake.callsOf('setSecret')).toEqual([[TOKEN, 'appkey', 'new-key-0001']]);

    gw.set('timeoutSeconds', '30');
    gw.set('encoding', 'base64');
    gw.set('inquiryPath', '');
    await gw.save();
    expect(fake.callsOf('updateSettings').at(-1)).toEqual([
      TOKEN,
      'gateway',
      { signing: { key: 'appkey', encoding: 'base64' }, timeoutMs: 30_000, inquiryPath: null },
    ]);
  });

  test('settings refused: the problem at its field, and the typed key is kept and not sent', async () => {
    const { fake, editors } = await open();
    const gw = editors.gateway;
    gw.set('baseUrl', 'ftp://x');
    gw.set('appId', 'a');
    gw.setSecretText('appkey', 'k-1234');
    fake.on('updateSettings', () => ({
      ok: false,
      issues: [{ field: 'gateway.baseUrl', message: 'gateway.baseUrl: an http(s) address …' }],
    }));
    expect(await gw.save()).toBe(false);
    expect(gw.issueFor('baseUrl')?.message).toBe('gateway.baseUrl: an http(s) address …');
    expect(fake.callsOf('setSecret')).toEqual([]);
    expect(gw.secretText('appkey')).toBe('k-1234');
  });

  test('a number that is not one is refused here, at its field, before anything is sent', async () => {
    const { fake, editors } = await open(changed(managerView(), { gateway: GATEWAY }));
    editors.gateway.set('timeoutSeconds', '1,5');
    expect(await editors.gateway.save()).toBe(false);
    expect(editors.gateway.issueFor('timeoutSeconds')).toMatchObject({ field: 'gateway.timeoutMs', local: true });
    expect(fake.calls.filter((c) => c.method === 'updateSettings')).toEqual([]);
  });

  test('the callback listener: on sends all its fields, off sends none (null)', async () => {
    const { fake, editors, manager } = await open(changed(managerView(), { gateway: GATEWAY }));
    const gw = editors.gateway;
    const withListener = changed(managerView(), {
      gateway: GATEWAY,
      callbackListener: { host: '0.0.0.0', port: 8899, path: '/loket/callback' },
    });
    fake.on('updateSettings', () => ({ ok: true, view: withListener }));
    gw.set('listener', true);
    gw.set('listenerHost', '0.0.0.0');
    gw.set('listenerPort', '8899');
    await gw.save();
    expect(fake.callsOf('updateSettings').at(-1)).toEqual([
      TOKEN,
      'gateway',
      { callbackListener: { host: '0.0.0.0', path: '/loket/callback', publicUrl: null, port: 8899 } },
    ]);
    expect(manager.view).toBe(withListener);
    gw.set('listener', false);
    await gw.save();
    expect(fake.callsOf('updateSettings').at(-1)).toEqual([TOKEN, 'gateway', { callbackListener: null }]);
  });

  test('a secret that the keychain will not take: the error is shown and the typed value kept', async () => {
    const { fake, editors } = await open(managerView({ keychain: { available: false, message: 'no Secret Service' } }));
    fake.fail('setSecret', new CallError('internal', 'Internal error in Loket.'));
    editors.gateway.setSecretText('appkey', 'k-1234');
    expect(await editors.gateway.save()).toBe(false);
    expect(editors.gateway.error?.code).toBe('internal');
    expect(editors.gateway.secretText('appkey')).toBe('k-1234');
  });

  test('removing a stored secret asks first', async () => {
    const { fake, editors } = await open();
    fake.on('clearSecret', () => managerView());
    editors.gateway.askClear('appkey');
    expect(editors.gateway.confirmClear).toBe('appkey');
    editors.gateway.keepSecret();
    expect(editors.gateway.confirmClear).toBeNull();
    await editors.gateway.clearSecret('appkey');
    expect(fake.callsOf('clearSecret')).toEqual([[TOKEN, 'appkey']]);
  });
});

describe('test connection', () => {
  const report = {
    reachable: true,
    appIdKnown: true,
    signatureAccepted: null,
    verdict: 'bad_key',
    method: 'inquiry',
    probeId: 'LOKET-PROBE-1',
    message: 'Reached the gateway; it knows the appid, but the appkey stored is not the one it has for it.',
    reason: { key: 'probe.bad_key', params: { baseUrl: 'https://gateway.example', appId: 'store-1' } },
  } as const;

  test('the report is kept until the gateway or its key changes', async () => {
    const { fake, editors } = await open(changed(managerView(), { gateway: GATEWAY }));
    fake.on('testConnection', () => report);
    await editors.connection.test();
    expect(fake.callsOf('testConnection')).toEqual([[TOKEN]]);
    expect(editors.connection.report).toEqual(report);

    fake.on('setSecret', () => managerView());
    editors.gateway.setSecretText('appkey', 'the-right-key');
    await editors.gateway.save();
    expect(editors.connection.report).toBeNull();
  });

  test('a failed call is an error, not a report', async () => {
    const { fake, editors } = await open();
    fake.fail('testConnection', new CallError('invalid_arguments', 'gateway: set the base URL and appid first'));
    await editors.connection.test();
    expect(editors.connection.report).toBeNull();
    expect(editors.connection.error?.code).toBe('invalid_arguments');
  });
});

describe('training ↔ live', () => {
  test('to live sends the address typed; a mismatch is refused in the server words, and the dialog stays', async () => {
    const { fake, editors, manager } = await open(changed(managerView(), { gateway: GATEWAY }));
    const mode = editors.mode;
    expect(mode.other).toBe('live');
    expect(mode.canGoLive).toBe(true);
    mode.ask('live');
    mode.setConfirm('https://elsewhere.example');
    fake.on('switchMode', () => ({
      ok: false,
      issues: [{ field: 'confirm', message: "confirm: to switch to live, type the gateway's base URL exactly" }],
    }));
    expect(await mode.submit()).toBe(false);
    expect(mode.target).toBe('live');
    expect(mode.issues[0]?.field).toBe('confirm');

    const live = managerView({
      settings: { gateway: GATEWAY, mode: 'live' },
      mode: { setting: 'live', running: 'live', gateway: 'https://gateway.example (from settings)' },
    });
    fake.on('switchMode', () => ({ ok: true, view: live }));
    mode.setConfirm(' https://gateway.example ');
    expect(mode.issues).toEqual([]);
    expect(await mode.submit()).toBe(true);
    expect(fake.callsOf('switchMode').at(-1)).toEqual([TOKEN, 'live', 'https://gateway.example']);
    expect(mode.target).toBeNull();
    expect(manager.view).toBe(live);
    expect(mode.other).toBe('training');
  });

  test('back to training needs no address; open orders refuse it', async () => {
    const live = managerView({ settings: { gateway: GATEWAY, mode: 'live' }, openOrders: 1 });
    const { fake, editors } = await open(live);
    editors.mode.ask('training');
    fake.on('switchMode', () => ({
      ok: false,
      issues: [{ field: 'mode', message: 'mode: 1 order is still open (…) in live mode' }],
    }));
    expect(await editors.mode.submit()).toBe(false);
    expect(fake.callsOf('switchMode')).toEqual([[TOKEN, 'training', '']]);
    expect(editors.mode.issues[0]?.message).toMatch(/1 order is still open/);
    editors.mode.close();
    expect(editors.mode.target).toBeNull();
  });

  test('without a gateway, live is not offered', async () => {
    const { editors } = await open();
    expect(editors.mode.canGoLive).toBe(false);
  });
});

describe('printer, display, access', () => {
  test('a network printer: host and port; an emptied field is removed (null)', async () => {
    const { fake, editors } = await open();
    const printer = editors.printer;
    fake.on('updateSettings', () => ({ ok: true, view: managerView() }));
    printer.set('kind', 'network');
    printer.set('host', '192.168.1.50');
    printer.set('port', '9100');
    printer.set('paper', 80);
    await printer.save();
    expect(fake.callsOf('updateSettings').at(-1)).toEqual([
      TOKEN,
      'printer',
      { kind: 'network', paper: 80, host: '192.168.1.50', port: 9100 },
    ]);

    const { fake: fake2, editors: editors2 } = await open(
      changed(managerView(), {
        printer: { kind: 'network', host: 'p.local', port: 9100, paper: 58, autoPrint: false },
      }),
    );
    fake2.on('updateSettings', () => ({ ok: true, view: managerView() }));
    editors2.printer.set('host', '');
    editors2.printer.set('port', '');
    await editors2.printer.save();
    expect(fake2.callsOf('updateSettings').at(-1)).toEqual([TOKEN, 'printer', { host: null, port: null }]);
  });

  test('the automatic receipt is a switch of its own, sent only when changed', async () => {
    const { fake, editors } = await open();
    fake.on('updateSettings', () => ({ ok: true, view: managerView() }));
    expect(editors.printer.value('autoPrint')).toBe(false);
    editors.printer.set('autoPrint', true);
    await editors.printer.save();
    expect(fake.callsOf('updateSettings').at(-1)).toEqual([TOKEN, 'printer', { autoPrint: true }]);
  });

  test('test print shows its result, in the server words', async () => {
    const { fake, editors } = await open();
    fake.on('testPrint', () => ({ ok: false, message: 'No network printer is set up.' }));
    await editors.printer.testPrint();
    expect(editors.printer.printResult).toEqual({ ok: false, message: 'No network printer is set up.' });
  });

  test("the customer display's idle message and language", async () => {
    const { fake, editors } = await open();
    fake.on('updateSettings', () => ({ ok: true, view: managerView() }));
    editors.display.set('idleMessage', 'Selamat berbelanja');
    editors.display.set('lang', 'en');
    await editors.display.save();
    expect(fake.callsOf('updateSettings')).toEqual([
      [TOKEN, 'display', { idleMessage: 'Selamat berbelanja', lang: 'en' }],
    ]);
  });

  test('access: cashier PINs and the idle minutes (a whole number)', async () => {
    const { fake, editors } = await open();
    fake.on('updateSettings', () => ({ ok: true, view: managerView() }));
    editors.access.set('managerIdleMinutes', 'lima');
    expect(await editors.access.save()).toBe(false);
    expect(editors.access.issueFor('managerIdleMinutes')?.local).toBe(true);
    editors.access.set('requireCashierPin', true);
    editors.access.set('managerIdleMinutes', '10');
    expect(await editors.access.save()).toBe(true);
    expect(fake.callsOf('updateSettings')).toEqual([
      [TOKEN, 'access', { requireCashierPin: true, managerIdleMinutes: 10 }],
    ]);
  });

  test('nothing changed: nothing is sent', async () => {
    const { fake, editors } = await open(changed(managerView(), { gateway: GATEWAY }));
    expect(await editors.access.save()).toBe(true);
    expect(await editors.printer.save()).toBe(true);
    expect(await editors.store.save()).toBe(true);
    expect(await editors.gateway.save()).toBe(true);
    expect(fake.callsOf('updateSettings')).toEqual([]);
  });

  test('an empty first gateway is still sent: the server names what it needs', async () => {
    const { fake, editors } = await open();
    fake.on('updateSettings', () => ({
      ok: false,
      issues: [
        { field: 'gateway.baseUrl', message: 'gateway.baseUrl: an http(s) address' },
        { field: 'gateway.appId', message: 'gateway.appId: 1 to 100 characters' },
      ],
    }));
    expect(await editors.gateway.save()).toBe(false);
    expect(editors.gateway.firstIssueField).toBe('baseUrl');
    expect(editors.gateway.issueFor('appId')).toBeDefined();
  });
});
