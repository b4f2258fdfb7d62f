import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-fake')).createFakeElectron());

import * as electron from 'electron';
import { display, keyInput, type FakeElectron, type FakeWindow } from './electron-fake';
import { createMainWindow } from '../../src-main/electron/main-window';
import { bindDisplayToggle, CustomerDisplay, isDisplayToggle } from '../../src-main/electron/display-window';
import {
  parseScreenChoice,
  placeCustomerDisplay,
  placementChanged,
  type ScreenInfo,
} from '../../src-main/electron/display-placement';
import type { RendererSource } from '../../src-main/electron/renderer-source';

const fake = electron as unknown as FakeElectron;
const source: RendererSource = {
  kind: 'files',
  indexFile: '/opt/loket/out/renderer/index.html',
  dir: '/opt/loket/out/renderer',
};

/** The Electron security checklist, as every window with a preload must have it. */
const SECURE = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  experimentalFeatures: false,
  navigateOnDragDrop: false,
  spellcheck: false,
  disableBlinkFeatures: 'Auxclick',
};

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function setScreens(...screens: ReturnType<typeof display>[]) {
  fake.screen.displays = screens;
}

/** A cashier window on the first screen, and a customer display controller around it. */
function till(chosenScreenId: number | null = null) {
  const cashier = createMainWindow({ preloadPath: '/opt/loket/out/preload/index.cjs', source });
  cashier.setBounds({ x: 100, y: 100, width: 1280, height: 800 });
  const windows: FakeWindow[] = [];
  const controller = new CustomerDisplay({
    preloadPath: '/opt/loket/out/preload/display.cjs',
    source,
    chosenScreenId,
    cashierWindow: () => cashier,
    onWindow: (w) => windows.push(w as unknown as FakeWindow),
  });
  const current = () => controller.window as unknown as FakeWindow;
  return { cashier: cashier as unknown as FakeWindow, controller, windows, current };
}

beforeEach(() => {
  setScreens(display(1, 0));
  fake.screen.removeAllListeners();
  fake.powerSaveBlocker.active.clear();
});

describe('every window has the security options', () => {
  it("the cashier's window: exactly the checklist, with the cashier's preload", () => {
    const { cashier } = till();
    expect(cashier.options.webPreferences).toEqual({ preload: '/opt/loket/out/preload/index.cjs', ...SECURE });
  });

  it("the customer display's window: the same, with its own preload, kiosk on another screen", async () => {
    setScreens(display(1, 0), display(2, 1920));
    const { controller, current } = till();
    controller.start();
    const w = current();
    expect(w.options.webPreferences).toEqual({
      preload: '/opt/loket/out/preload/display.cjs',
      ...SECURE,
      backgroundThrottling: false,
    });
    expect(w.options).toMatchObject({
      kiosk: true,
      fullscreen: true,
      frame: false,
      resizable: false,
      movable: false,
      minimizable: false,
      maximizable: false,
      closable: false,
      x: 1920,
      y: 0,
      width: 1920,
      height: 1080,
    });
    expect(w.menuRemoved).toBe(true);
    // The built screens from the app's own scheme, never as a file:// page.
    expect(w.loaded).toEqual({ url: 'app://loket/index.html#/display' });
    await flush();
    // Shown without taking the focus from the cashier.
    expect(w.visible).toBe(true);
    expect(w.shownInactive).toBe(true);
    expect(w.webContents.zoomLimits).toEqual([1, 1]);
  });
});

describe('which screen the display goes on (the pure rule)', () => {
  const s = (id: number, x: number): ScreenInfo => display(id, x);
  const place = (screens: ScreenInfo[], cashierScreenId: number, chosenScreenId: number | null = null) =>
    placeCustomerDisplay(screens, { cashierScreenId, chosenScreenId });

  it('one screen: a normal window on it, centred in its work area', () => {
    expect(place([s(1, 0)], 1)).toEqual({
      kind: 'window',
      reason: 'one-screen',
      bounds: { x: 448, y: 136, width: 1024, height: 768 },
    });
    // A screen smaller than the window: the window fits it.
    expect(place([display(1, 0, 800, 600)], 1).bounds).toEqual({ x: 0, y: 0, width: 800, height: 560 });
    // No screen reported at all (a headless start): still a window.
    expect(place([], 1).kind).toBe('window');
  });

  it('two screens: kiosk on the one that is not the cashier’s, whichever that is', () => {
    expect(place([s(1, 0), s(2, 1920)], 1)).toMatchObject({ kind: 'kiosk', displayId: 2, reason: 'other-screen' });
    expect(place([s(1, 0), s(2, 1920)], 2)).toMatchObject({ kind: 'kiosk', displayId: 1, bounds: { x: 0 } });
  });

  it('three screens: the chosen one; else the first that is not the cashier’s', () => {
    const three = [s(1, 0), s(2, 1920), s(3, 3840)];
    expect(place(three, 1)).toMatchObject({ displayId: 2, reason: 'other-screen' });
    expect(place(three, 1, 3)).toMatchObject({ displayId: 3, reason: 'chosen', bounds: { x: 3840 } });
    expect(place(three, 2)).toMatchObject({ displayId: 1 });
  });

  it('a chosen screen that is not connected, or is the cashier’s, does not count', () => {
    expect(place([s(1, 0), s(2, 1920)], 1, 9)).toMatchObject({ displayId: 2, reason: 'other-screen' });
    expect(place([s(1, 0), s(2, 1920)], 1, 1)).toMatchObject({ displayId: 2, reason: 'other-screen' });
    expect(place([s(1, 0)], 1, 1)).toMatchObject({ kind: 'window' });
  });

  it('moves only when it must: a windowed display stays where the cashier dragged it', () => {
    const window = place([s(1, 0)], 1);
    const kiosk2 = place([s(1, 0), s(2, 1920)], 1);
    expect(placementChanged(null, window)).toBe(true);
    expect(placementChanged(window, place([display(1, 0, 2560, 1440)], 1))).toBe(false);
    expect(placementChanged(window, kiosk2)).toBe(true);
    expect(placementChanged(kiosk2, place([s(1, 0), s(2, 1920)], 1))).toBe(false);
    expect(placementChanged(kiosk2, place([s(1, 0), display(2, 1920, 1280, 1024)], 1))).toBe(true);
    expect(placementChanged(kiosk2, place([s(1, 0), s(3, 1920)], 1))).toBe(true);
  });

  it('LOKET_DISPLAY_SCREEN: a display id, or nothing', () => {
    expect(parseScreenChoice(undefined)).toBeNull();
    expect(parseScreenChoice('  ')).toBeNull();
    expect(parseScreenChoice('2528732444')).toBe(2528732444);
    expect(parseScreenChoice('second')).toBe('invalid');
    expect(parseScreenChoice('-1')).toBe('invalid');
    expect(parseScreenChoice('99999999999999999')).toBe('invalid');
  });
});

describe('the display window follows the screens', () => {
  it('1 screen → a normal window the cashier can drag; plugging a second in moves it there as a kiosk', async () => {
    const { controller, current, windows } = till();
    controller.start();
    const first = current();
    expect(first.options).toMatchObject({ kiosk: false, frame: true, movable: true, resizable: true });
    await flush();

    fake.screen.plug(display(2, 1920));
    const second = current();
    expect(second).not.toBe(first);
    expect(first.isDestroyed()).toBe(true);
    expect(second.options).toMatchObject({ kiosk: true, x: 1920, width: 1920 });
    expect(windows).toHaveLength(2);
    expect(controller.placement).toMatchObject({ kind: 'kiosk', displayId: 2 });
  });

  it('2 screens → unplugging the display’s screen brings it back as a window; 3 → it moves to the next screen', () => {
    setScreens(display(1, 0), display(2, 1920), display(3, 3840));
    const { controller, current } = till();
    controller.start();
    expect(controller.placement).toMatchObject({ displayId: 2 });

    fake.screen.unplug(2);
    expect(controller.placement).toMatchObject({ kind: 'kiosk', displayId: 3 });
    expect(current().options).toMatchObject({ x: 3840 });

    fake.screen.unplug(3);
    expect(controller.placement).toMatchObject({ kind: 'window' });
    expect(current().options).toMatchObject({ kiosk: false });
  });

  it('the chosen screen wins when it is plugged in later', () => {
    setScreens(display(1, 0), display(2, 1920));
    const { controller } = till(7);
    controller.start();
    expect(controller.placement).toMatchObject({ displayId: 2, reason: 'other-screen' });
    fake.screen.plug(display(7, 3840));
    expect(controller.placement).toMatchObject({ displayId: 7, reason: 'chosen' });
  });

  it('a screen event that changes nothing leaves the window alone', () => {
    setScreens(display(1, 0), display(2, 1920));
    const { controller, current } = till();
    controller.start();
    const before = current();
    fake.screen.emit('display-metrics-changed', {}, fake.screen.displays[0], ['workArea']);
    expect(current()).toBe(before);
  });
});

describe('the customer cannot close or operate it; the cashier shows and hides it', () => {
  it('closing a kiosk display is refused; quitting Loket closes it', async () => {
    setScreens(display(1, 0), display(2, 1920));
    const { controller, current } = till();
    controller.start();
    await flush();
    const w = current();
    w.close();
    expect(w.isDestroyed()).toBe(false);
    expect(w.isVisible()).toBe(true);

    controller.close();
    expect(controller.window).toBeNull();
    expect(w.isDestroyed()).toBe(true);
    // And screens plugged in afterwards bring nothing back.
    fake.screen.plug(display(3, 3840));
    expect(controller.window).toBeNull();
  });

  it('on one screen the close button hides it instead', async () => {
    const { controller, current } = till();
    controller.start();
    await flush();
    current().close();
    expect(current().isDestroyed()).toBe(false);
    expect(current().isVisible()).toBe(false);
    expect(controller.shown).toBe(false);
  });

  it('no key reaches the display page (no reload, zoom or typing)', () => {
    setScreens(display(1, 0), display(2, 1920));
    const { controller, current } = till();
    controller.start();
    for (const input of [
      keyInput('r', { control: true }),
      keyInput('F5', {}),
      keyInput('=', { control: true }),
      keyInput('a', {}),
    ]) {
      expect(current().webContents.press(input)).toBe(true);
    }
    // Even the shortcut does nothing on a kiosk display: it is the cashier's.
    current().webContents.press(keyInput('D', { control: true, shift: true }));
    expect(controller.shown).toBe(true);
  });

  it('Ctrl+Shift+D on the cashier’s window hides and shows it, and the page never sees the key', async () => {
    setScreens(display(1, 0), display(2, 1920));
    const { controller, current, cashier } = till();
    bindDisplayToggle(cashier.webContents as never, () => controller.toggle(), 'linux');
    controller.start();
    await flush();

    expect(cashier.webContents.press(keyInput('D', { control: true, shift: true }))).toBe(true);
    expect(current().isVisible()).toBe(false);
    expect(cashier.webContents.press(keyInput('d', { control: true, shift: true }))).toBe(true);
    expect(current().isVisible()).toBe(true);
    // Other keys are the page's.
    expect(cashier.webContents.press(keyInput('F2', {}))).toBe(false);
    expect(cashier.webContents.press(keyInput('d', { control: true }))).toBe(false);
  });

  it('the shortcut: Ctrl+Shift+D, Cmd+Shift+D on macOS, not repeated, not with Alt', () => {
    expect(isDisplayToggle(keyInput('D', { control: true, shift: true }) as never, 'win32')).toBe(true);
    expect(isDisplayToggle(keyInput('D', { meta: true, shift: true }) as never, 'darwin')).toBe(true);
    expect(isDisplayToggle(keyInput('D', { control: true, shift: true }) as never, 'darwin')).toBe(false);
    expect(
      isDisplayToggle({ ...keyInput('D', { control: true, shift: true }), isAutoRepeat: true } as never, 'linux'),
    ).toBe(false);
    expect(isDisplayToggle(keyInput('D', { control: true, shift: true, alt: true }) as never, 'linux')).toBe(false);
    expect(isDisplayToggle({ ...keyInput('D', { control: true, shift: true }), type: 'keyUp' } as never, 'linux')).toBe(
      false,
    );
  });
});

describe('the screen stays awake while the display shows', () => {
  it('a blocker while shown; released when hidden, when the window closes, and on quit', async () => {
    setScreens(display(1, 0), display(2, 1920));
    const { controller, current } = till();
    controller.start();
    await flush();
    expect([...fake.powerSaveBlocker.active.values()]).toEqual(['prevent-display-sleep']);

    controller.hide();
    expect(fake.powerSaveBlocker.active.size).toBe(0);
    controller.show();
    expect(fake.powerSaveBlocker.active.size).toBe(1);

    // The window goes away (a crash, the OS): the blocker goes with it.
    current().destroy();
    expect(fake.powerSaveBlocker.active.size).toBe(0);

    controller.show();
    await flush();
    expect(fake.powerSaveBlocker.active.size).toBe(1);
    controller.close();
    expect(fake.powerSaveBlocker.active.size).toBe(0);
  });

  it('moving to another screen keeps one blocker, not two', async () => {
    const { controller } = till();
    controller.start();
    await flush();
    fake.screen.plug(display(2, 1920));
    await flush();
    expect(fake.powerSaveBlocker.active.size).toBe(1);
  });

  it('a hidden display stays hidden when the screens change', async () => {
    const { controller, current } = till();
    controller.start();
    await flush();
    controller.hide();
    fake.screen.plug(display(2, 1920));
    await flush();
    expect(current().isVisible()).toBe(false);
    expect(fake.powerSaveBlocker.active.size).toBe(0);
  });
});
