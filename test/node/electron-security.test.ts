// The shell's security rules, each on its own: the IPC gate, navigation and new windows, the payment page rule,
// the CSP header and permissions.
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-fake')).createFakeElectron());

import * as electron from 'electron';
import { FakeEvent, type FakeElectron } from './electron-fake';
import { apiMethodNames, type ApiHandlers, type LiveEvent } from '../../src-main/common/api';
import {
  call,
  deliversTo,
  DISPLAY_METHODS,
  IpcSenders,
  registerIpcApi,
  type CallEvent,
} from '../../src-main/electron/ipc-api';
import { allowDisplayNavigation, guardNavigation } from '../../src-main/electron/navigation-guard';
import { enforceContentSecurityPolicy } from '../../src-main/electron/content-security';
import { denyAllPermissions } from '../../src-main/electron/permissions';
import { PAGE_CSP } from '../../src-main/web/security';

const fake = electron as unknown as FakeElectron;
const appUrl = 'app://loket/index.html';
const isAppUrl = (url: string) => url.split('#')[0] === appUrl;
const FORBIDDEN = { ok: false, error: { code: 'forbidden', message: 'Forbidden' } };

/** Handlers that answer who was called, so a test sees whether a call got through the gate. */
const handlers = Object.fromEntries(
  apiMethodNames.map((m) => [m, (...args: unknown[]) => ({ called: m, args })]),
) as unknown as ApiHandlers;

function contents(id: number) {
  const listeners: (() => void)[] = [];
  return {
    id,
    once: (_event: 'destroyed', listener: () => void) => listeners.push(listener),
    destroy: () => listeners.forEach((l) => l()),
  };
}

describe('the IPC gate', () => {
  const senders = new IpcSenders();
  const cashier = contents(1);
  const display = contents(2);
  senders.register(cashier, 'cashier');
  senders.register(display, 'display');
  const roleOf = (event: CallEvent) => senders.roleOf(event.sender);
  const from = (sender: { id: number } | undefined, url = appUrl, parent: unknown = null) =>
    ({ sender, senderFrame: { url, parent } }) as unknown as CallEvent;
  const gate = (method: string, event: CallEvent, args: unknown[] = []) =>
    call(method, handlers, isAppUrl, event, args, roleOf);

  it('answers the cashier’s window, top frame, own page', async () => {
    expect(await gate('appInfo', from(cashier))).toEqual({ ok: true, result: { called: 'appInfo', args: [] } });
    expect(await gate('getOrder', from(cashier), ['T01-1'])).toMatchObject({ ok: true });
  });

  it('refuses a foreign page, a sub-frame, a frame that is gone and a web contents that is not ours, saying nothing more', async () => {
    const gone = { sender: cashier, senderFrame: null } as unknown as CallEvent;
    for (const event of [
      from(cashier, 'https://evil.example/'),
      from(cashier, 'file:///home/kasir/Downloads/evil.html'),
      from(cashier, appUrl, { url: appUrl }),
      gone,
      from(contents(99)),
      from(undefined),
    ]) {
      expect(await gate('appInfo', event)).toEqual(FORBIDDEN);
    }
  });

  it('refuses bad arguments with the same envelope as browser mode', async () => {
    expect(await gate('getOrder', from(cashier), [42])).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments' },
    });
    expect(await gate('dropTables', from(cashier))).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    // The display's one method with arguments it does not take.
    expect(await gate('displayState', from(display), ['extra'])).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments' },
    });
  });

  it('the display window: displayState only; every cashier method is forbidden, before its arguments are even read', async () => {
    expect(DISPLAY_METHODS).toEqual(['displayState']);
    expect(await gate('displayState', from(display))).toMatchObject({ ok: true, result: { called: 'displayState' } });
    for (const method of apiMethodNames.filter((m) => m !== 'displayState')) {
      expect(await gate(method, from(display), ['anything']), method).toEqual(FORBIDDEN);
    }
    expect(await gate('dropTables', from(display))).toEqual(FORBIDDEN);
  });

  it('a window that is gone is forgotten', async () => {
    const senders2 = new IpcSenders();
    const c = contents(5);
    senders2.register(c, 'cashier');
    expect(senders2.roleOf(c)).toBe('cashier');
    c.destroy();
    expect(senders2.roleOf(c)).toBeUndefined();
  });

  it('registerIpcApi: one handler per method, each through the gate with the registered windows', async () => {
    registerIpcApi(handlers, isAppUrl, senders);
    expect([...fake.ipcMain.handlers.keys()].sort()).toEqual(apiMethodNames.map((m) => `loket:${m}`).sort());
    const invoke = (channel: string, event: unknown, ...args: unknown[]) =>
      fake.ipcMain.handlers.get(channel)!(event, ...args);
    expect(await invoke('loket:createOrder', from(display), {})).toEqual(FORBIDDEN);
    expect(await invoke('loket:appInfo', from(contents(77)))).toEqual(FORBIDDEN);
    expect(await invoke('loket:appInfo', from(cashier))).toMatchObject({ ok: true });
  });

  it('live events: all to the cashier, only display events to the display', () => {
    const order = { type: 'order' } as LiveEvent;
    const shown = { type: 'display' } as LiveEvent;
    const info = { type: 'info' } as LiveEvent;
    expect([order, shown, info].map((e) => deliversTo('cashier', e))).toEqual([true, true, true]);
    expect([order, shown, info].map((e) => deliversTo('display', e))).toEqual([false, true, false]);
  });
});

describe('navigation and new windows', () => {
  function guarded(allowElsewhere?: (url: string) => boolean) {
    const window = new fake.BrowserWindow({});
    const c = window.webContents;
    c.removeAllListeners();
    guardNavigation(c as never, { isAppUrl, ...(allowElsewhere ? { allowElsewhere } : {}) });
    return c;
  }

  it('denies every new window and every navigation off the app’s pages, top frame or sub-frame', () => {
    const c = guarded();
    expect(c.windowOpenHandler?.({ url: appUrl })).toEqual({ action: 'deny' });
    expect(c.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(c.navigate('will-navigate', `${appUrl}#/display`)).toBe(true);
    for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect'] as const) {
      expect(c.navigate(event, 'https://evil.example/'), event).toBe(false);
      expect(c.navigate(event, 'file:///etc/passwd'), event).toBe(false);
    }
    const webview = new FakeEvent();
    c.emit('will-attach-webview', webview, {}, {});
    expect(webview.defaultPrevented).toBe(true);
  });

  it('allowElsewhere opens the top frame only, and is asked at the moment of navigating', () => {
    let allowed = false;
    const c = guarded((url) => allowed && url.startsWith('https://pay.example/'));
    expect(c.navigate('will-navigate', 'https://pay.example/p/1')).toBe(false);
    allowed = true;
    expect(c.navigate('will-navigate', 'https://pay.example/p/1')).toBe(true);
    expect(c.navigate('will-frame-navigate', 'https://pay.example/p/1', false)).toBe(false);
    expect(c.navigate('will-navigate', 'https://evil.example/')).toBe(false);
  });
});

describe('allowDisplayNavigation: the hosted payment page', () => {
  const on = { allowPaymentPage: true, gatewayOrigin: 'https://pay.gateway.example' };
  it.each([
    ['https://pay.gateway.example/api/order/app/tok', on, true],
    ['https://pay.gateway.example:443/x', on, true],
    ['https://pay.gateway.example/x', { ...on, gatewayOrigin: 'https://pay.gateway.example/base/path' }, true],
    ['https://pay.gateway.example/x', { ...on, allowPaymentPage: false }, false],
    ['https://pay.gateway.example/x', { ...on, gatewayOrigin: null }, false],
    ['https://evil.example/x', on, false],
    ['https://pay.gateway.example.evil.example/x', on, false],
    ['https://pay.gateway.example:8443/x', on, false],
    ['http://pay.gateway.example/x', { ...on, gatewayOrigin: 'http://pay.gateway.example' }, false],
    ['https://user:pw@pay.gateway.example/x', on, false],
    ['javascript:alert(1)', on, false],
    ['not a url', on, false],
    ['http://127.0.0.1:8787/api/order/a/b', { ...on, gatewayOrigin: 'http://127.0.0.1:8787' }, true],
    ['http://127.0.0.1:8788/api/order/a/b', { ...on, gatewayOrigin: 'http://127.0.0.1:8787' }, false],
    ['http://localhost:8787/x', { ...on, gatewayOrigin: 'http://127.0.0.1:8787' }, false],
  ] as const)('%s with %o → %s', (url, policy, expected) => {
    expect(allowDisplayNavigation(url, policy)).toBe(expected);
  });
});

describe('the session', () => {
  it('refuses every permission request and check', () => {
    const s = fake.session.fake();
    denyAllPermissions(s as never);
    const answer = vi.fn();
    s.permissionRequest?.({}, 'media', answer);
    expect(answer).toHaveBeenCalledWith(false);
    expect(s.permissionCheck?.()).toBe(false);
    expect(s.devicePermission?.()).toBe(false);
  });

  it('sets the CSP header on the app’s pages only, replacing any other', () => {
    const s = fake.session.fake();
    const devServer = (url: string) => url.startsWith('http://localhost:5173/');
    enforceContentSecurityPolicy(s as never, devServer);
    const respond = (url: string, resourceType: string) => {
      let response: Record<string, unknown> | undefined;
      s.headersListener?.(
        {
          url,
          resourceType,
          responseHeaders: { 'content-type': ['text/html'], 'Content-Security-Policy': ['default-src *'] },
        },
        (r) => (response = r),
      );
      return response;
    };
    expect(respond('http://localhost:5173/', 'mainFrame')).toEqual({
      responseHeaders: { 'content-type': ['text/html'], 'Content-Security-Policy': [PAGE_CSP] },
    });
    expect(respond('http://localhost:5173/assets/x.js', 'script')).toEqual({});
    expect(respond('https://pay.gateway.example/', 'mainFrame')).toEqual({});
    expect(PAGE_CSP).toContain("script-src 'self'");
    expect(PAGE_CSP).toContain("frame-ancestors 'none'");
  });
});
