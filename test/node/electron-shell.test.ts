// The whole shell (src-main/index.ts) on a fake 'electron' and the real app host: two windows, the IPC gate
// between them, live events to each, the payment page rule, one instance, and quitting cleanly.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-fake')).createFakeElectron());

import * as electron from 'electron';
import { display, FakeEvent, keyInput, type FakeElectron, type FakeWindow } from './electron-fake';
import { tempDir } from './helpers/loket';
import { waitFor } from './helpers/wait-for';
import type { ApiEnvelope, ChargeResult, LiveEvent } from '../../src-main/common/api';
import { apiMethodNames } from '../../src-main/common/api';
import { dayIn } from '../../src-main/common/gateway-time';
import type { DownloadTicket, SaveResult } from '../../src-main/common/reports';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const fake = electron as unknown as FakeElectron;
const dir = tempDir('loket-shell-');
const saved = { ...process.env };

let cashier: FakeWindow;
let displayWindow: FakeWindow;

beforeAll(async () => {
  for (const name of Object.keys(process.env)) if (name.startsWith('LOKET_')) delete process.env[name];
  process.env.LOKET_DATA_DIR = dir.path;
  process.env.LOKET_DISPLAY_PAYMENT_PAGE = '1';
  fake.screen.displays = [display(1, 0), display(2, 1920)];
  await import('../../src-main/index');
  await waitFor(() => fake.BrowserWindow.created.length >= 2, 'the two windows', 15_000);
  [cashier, displayWindow] = fake.BrowserWindow.created as FakeWindow[] as [FakeWindow, FakeWindow];
});

afterAll(async () => {
  // Quitting: the display may close, and the order log is closed before the process goes.
  fake.app.emit('before-quit', new FakeEvent());
  const willQuit = new FakeEvent();
  fake.app.emit('will-quit', willQuit);
  await waitFor(() => fake.app.quit.mock.calls.length > 0, 'Loket to quit after closing the order log');
  process.env = saved;
  dir.remove();
});

const call = <T>(window: FakeWindow, method: string, ...args: unknown[]) =>
  fake.ipcMain.invoke(`loket:${method}`, { contents: window.webContents }, ...args) as Promise<ApiEnvelope<T>>;
const FORBIDDEN = { ok: false, error: { code: 'forbidden', message: 'Forbidden' } };

describe('the desktop shell', () => {
  it('asks for one instance, sandboxes every renderer, and opens the cashier’s window and the kiosk display', () => {
    expect(fake.app.requestSingleInstanceLock).toHaveBeenCalledTimes(1);
    expect(fake.app.enableSandbox).toHaveBeenCalled();
    expect(cashier.options.webPreferences?.preload).toMatch(/preload[/\\]index\.cjs$/);
    expect(displayWindow.options.webPreferences?.preload).toMatch(/preload[/\\]display\.cjs$/);
    expect(displayWindow.options).toMatchObject({ kiosk: true, x: 1920 });
    // The screens come from app://loket/, registered as a privileged scheme before 'ready' and served after it.
    expect(cashier.loaded).toEqual({ url: 'app://loket/index.html' });
    expect(displayWindow.loaded).toEqual({ url: 'app://loket/index.html#/display' });
    expect(fake.protocol.privileged).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, codeCache: true } },
    ]);
    expect(fake.protocol.registeredBeforeReady).toBe(true);
    expect([...fake.protocol.handlers.keys()]).toEqual(['app']);
    expect([...fake.ipcMain.handlers.keys()].sort()).toEqual(
      [...apiMethodNames.map((m) => `loket:${m}`), 'loket:save-download'].sort(),
    );
    // Permissions refused and the CSP header set on the default session.
    expect(fake.session.defaultSession.setPermissionRequestHandler).toHaveBeenCalled();
    expect(fake.session.defaultSession.webRequest.onHeadersReceived).toHaveBeenCalled();
  });

  it('app://loket/ serves the renderer folder only: the repository beside it stays out of reach', async () => {
    // The shell's renderer folder here is <repo>/renderer (out/renderer once built); package.json is beside it.
    for (const url of ['app://loket/..%2fpackage.json', 'app://loket/%2e%2e%2fpackage.json', 'app://evil/package.json'])
      expect((await fake.protocol.fetch(url)).status, url).toBe(404);
  });

  it('the display window may read its state and nothing else; the cashier’s window may call everything', async () => {
    expect(await call(displayWindow, 'displayState')).toMatchObject({ ok: true, result: { mode: 'sandbox' } });
    for (const [method, args] of [
      ['appInfo', []],
      ['listOrders', [{}]],
      ['createOrder', [{ methodId: 'qris_dynamic', amount: 5000, itemName: 'Teh' }]],
      ['showOnDisplay', [null]],
      ['simulatePayment', ['T01-X']],
      ['managerView', ['x'.repeat(20)]],
    ] as const) {
      expect(await call(displayWindow, method, ...args), method).toEqual(FORBIDDEN);
    }
    expect(await call(cashier, 'appInfo')).toMatchObject({ ok: true, result: { name: 'Loket' } });
    // A sub-frame of the cashier's own window is refused too.
    expect(await fake.ipcMain.invoke('loket:appInfo', { contents: cashier.webContents, subFrame: true })).toEqual(
      FORBIDDEN,
    );
  });

  it('writes the log file in the data folder: what the shell and the core say on the console', async () => {
    // A sub-frame's call is refused and said so on the console ([ipc] refused …): it must be in the log too.
    await fake.ipcMain.invoke('loket:appInfo', { contents: cashier.webContents, subFrame: true });
    const log = join(dir.path, 'loket.log');
    await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('[ipc] refused appInfo'), 'the log');
    expect(readFileSync(log, 'utf8')).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z \[/);
  });

  it('the manager’s export is saved where the save dialog says, from the cashier’s window only', async () => {
    const save = (window: FakeWindow, id: unknown) =>
      fake.ipcMain.invoke('loket:save-download', { contents: window.webContents }, id) as Promise<SaveResult>;
    const session = await call<{ token: string }>(cashier, 'setupManager', { name: 'Bu Sri', pin: '97531864' });
    if (!session.ok) throw new Error(JSON.stringify(session));
    const day = dayIn(new Date(), 'Asia/Jakarta');
    const ticket = await call<DownloadTicket>(cashier, 'prepareExport', session.result.token, {
      from: day,
      to: day,
      format: 'csv',
    });
    if (!ticket.ok) throw new Error(JSON.stringify(ticket));
    expect(await save(displayWindow, ticket.result.downloadId)).toEqual({ saved: false, message: 'Forbidden' });
    fake.dialog.savePath = join(dir.path, 'orders.csv');
    const saved = await save(cashier, ticket.result.downloadId);
    expect(saved).toMatchObject({ saved: true, path: fake.dialog.savePath });
    expect(fake.dialog.showSaveDialog.mock.calls.at(-1)?.[1]).toMatchObject({
      defaultPath: expect.stringContaining(ticket.result.filename),
    });
    expect(readFileSync(fake.dialog.savePath, 'utf8').split('\n')[0]).toMatch(/order_id/);
  });

  it('a sale: the cashier gets every live event, the display only its own', async () => {
    cashier.webContents.sent.length = 0;
    displayWindow.webContents.sent.length = 0;
    const charged = await call<ChargeResult>(cashier, 'createOrder', {
      methodId: 'qris_dynamic',
      amount: 25000,
      itemName: 'Kopi susu',
    });
    if (!charged.ok || !charged.result.ok) throw new Error(JSON.stringify(charged));
    expect(await call(cashier, 'showOnDisplay', charged.result.order.id)).toMatchObject({ ok: true });

    const toCashier = cashier.webContents.sent.map(([, e]) => (e as LiveEvent).type);
    const toDisplay = displayWindow.webContents.sent.map(([, e]) => e as LiveEvent);
    expect(toCashier).toContain('order');
    expect(toCashier).toContain('display');
    expect(toDisplay.length).toBeGreaterThan(0);
    expect(toDisplay.every((e) => e.type === 'display')).toBe(true);
    expect(toDisplay.at(-1)).toMatchObject({ state: { order: { amount: 25000, kind: expect.any(String) } } });
    expect(displayWindow.webContents.sent.every(([channel]) => channel === 'loket:event')).toBe(true);
  });

  it('the hosted payment page: allowed by the setting, in the display window only, on the gateway’s origin only', async () => {
    // One sale at a time on the display: the earlier test's sale is set aside first.
    await call(cashier, 'showOnDisplay', null);
    const charged = await call<ChargeResult>(cashier, 'createOrder', {
      methodId: 'qris_dynamic',
      amount: 15000,
      itemName: 'Roti',
      api: 'v1',
    });
    if (!charged.ok || !charged.result.ok) throw new Error(JSON.stringify(charged));
    const instruction = charged.result.order.instruction;
    if (instruction?.type !== 'payment_page') throw new Error(`expected a payment page, got ${instruction?.type}`);
    const page = instruction.url;

    expect(displayWindow.webContents.navigate('will-navigate', page)).toBe(true);
    expect(displayWindow.webContents.navigate('will-redirect', page)).toBe(true);
    expect(displayWindow.webContents.navigate('will-frame-navigate', page, false)).toBe(false);
    expect(cashier.webContents.navigate('will-navigate', page)).toBe(false);
    expect(displayWindow.webContents.navigate('will-navigate', 'https://evil.example/pay')).toBe(false);
    const otherPort = new URL(page);
    otherPort.port = String(Number(otherPort.port) + 1);
    expect(displayWindow.webContents.navigate('will-navigate', otherPort.href)).toBe(false);
    // New windows never, from any window.
    expect(displayWindow.webContents.windowOpenHandler?.({ url: page })).toEqual({ action: 'deny' });
  });

  it('while the display shows a page that is not ours, it gets no live events and its calls are refused', async () => {
    const own = displayWindow.webContents.url;
    displayWindow.webContents.url = 'http://127.0.0.1:1/pay/x';
    displayWindow.webContents.sent.length = 0;
    try {
      expect(await call(displayWindow, 'displayState')).toEqual(FORBIDDEN);
      await call(cashier, 'showOnDisplay', null);
      expect(displayWindow.webContents.sent).toHaveLength(0);
    } finally {
      displayWindow.webContents.url = own;
    }
  });

  it('Ctrl+Shift+D on the cashier’s window hides and shows the display', async () => {
    await waitFor(() => displayWindow.isVisible(), 'the display to show');
    expect(cashier.webContents.press(keyInput('D', { control: true, shift: true }))).toBe(true);
    expect(displayWindow.isVisible()).toBe(false);
    cashier.webContents.press(keyInput('D', { control: true, shift: true }));
    expect(displayWindow.isVisible()).toBe(true);
  });

  it('a second launch brings the cashier’s window to the front', () => {
    cashier.minimized = true;
    cashier.focused = false;
    fake.app.emit('second-instance', new FakeEvent(), ['loket'], '/');
    expect(cashier.minimized).toBe(false);
    expect(cashier.focused).toBe(true);
    expect(cashier.isVisible()).toBe(true);
  });

  it('plugging the display’s screen out and in moves the display, and the gate follows the new window', async () => {
    fake.screen.unplug(2);
    const windowed = fake.BrowserWindow.created.at(-1) as FakeWindow;
    expect(windowed).not.toBe(displayWindow);
    expect(windowed.options).toMatchObject({ kiosk: false });
    expect(displayWindow.isDestroyed()).toBe(true);
    expect(await call(windowed, 'createOrder', { methodId: 'qris_dynamic', amount: 1000, itemName: 'x' })).toEqual(
      FORBIDDEN,
    );
    fake.screen.plug(display(3, 1920));
    displayWindow = fake.BrowserWindow.created.at(-1) as FakeWindow;
    expect(displayWindow.options).toMatchObject({ kiosk: true, x: 1920 });
    expect(await call(displayWindow, 'displayState')).toMatchObject({ ok: true });
    expect(await call(displayWindow, 'appInfo')).toEqual(FORBIDDEN);
  });
});
