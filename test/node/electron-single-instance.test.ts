// A second Loket started while one runs: it gets no lock, quits at once, and opens nothing.
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-fake')).createFakeElectron());

import * as electron from 'electron';
import type { FakeElectron } from './electron-fake';
import { bringWindowToFront, claimSingleInstance } from '../../src-main/electron/single-instance';

const fake = electron as unknown as FakeElectron;

describe('one Loket per computer', () => {
  it('the second instance quits before anything starts: no windows, no IPC, no order log', async () => {
    fake.app.singleInstanceLock = false;
    await import('../../src-main/index');
    expect(fake.app.requestSingleInstanceLock).toHaveBeenCalledTimes(1);
    expect(fake.app.quit).toHaveBeenCalledTimes(1);
    expect(fake.app.whenReady).not.toHaveBeenCalled();
    expect(fake.app.listenerCount('second-instance')).toBe(0);
    expect(fake.app.listenerCount('web-contents-created')).toBe(0);
    expect(fake.ipcMain.handlers.size).toBe(0);
    expect(fake.BrowserWindow.created).toHaveLength(0);
  });

  it('the first instance brings its window to the front on each later launch', () => {
    fake.app.singleInstanceLock = true;
    const bringToFront = vi.fn();
    expect(claimSingleInstance(bringToFront)).toBe(true);
    fake.app.emit('second-instance', {}, ['loket'], '/');
    fake.app.emit('second-instance', {}, ['loket'], '/');
    expect(bringToFront).toHaveBeenCalledTimes(2);
  });

  it('bringing a window to the front restores it from the taskbar; a window that is gone is left alone', () => {
    const window = new fake.BrowserWindow({});
    window.minimized = true;
    bringWindowToFront(window as never);
    expect(window).toMatchObject({ minimized: false, visible: true, focused: true });
    window.destroy();
    expect(() => bringWindowToFront(window as never)).not.toThrow();
    expect(() => bringWindowToFront(null)).not.toThrow();
  });
});
