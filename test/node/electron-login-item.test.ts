// Start at login for kiosk terminals (LOKET_START_AT_LOGIN, for now).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-fake')).createFakeElectron());

import * as electron from 'electron';
import type { FakeElectron } from './electron-fake';
import { applyStartAtLogin, autostartEntry, parseStartAtLogin } from '../../src-main/electron/login-item';
import { tempDir } from './helpers/loket';

const fake = electron as unknown as FakeElectron;
const dir = tempDir('loket-autostart-');
afterAll(() => dir.remove());

describe('start at login', () => {
  it('LOKET_START_AT_LOGIN: 1 on, 0 off, unset or anything else leaves it as it was', () => {
    expect(['1', 'true', 'YES', ' on '].map(parseStartAtLogin)).toEqual([true, true, true, true]);
    expect(['0', 'false', 'no', 'off'].map(parseStartAtLogin)).toEqual([false, false, false, false]);
    expect([undefined, '', 'maybe'].map(parseStartAtLogin)).toEqual([null, null, null]);
  });

  it('a development build never registers itself', () => {
    fake.app.isPackaged = false;
    const log = vi.fn();
    applyStartAtLogin(true, { platform: 'win32', log });
    expect(fake.app.setLoginItemSettings).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith(expect.stringContaining('not a packaged Loket'));
  });

  it('Windows and macOS: the OS login item', () => {
    fake.app.isPackaged = true;
    applyStartAtLogin(true, { platform: 'win32' });
    applyStartAtLogin(false, { platform: 'darwin' });
    applyStartAtLogin(null, { platform: 'darwin' });
    expect(fake.app.setLoginItemSettings.mock.calls).toEqual([[{ openAtLogin: true }], [{ openAtLogin: false }]]);
  });

  it('Linux: an XDG autostart entry naming the AppImage (not its temporary mount), removed when turned off', () => {
    fake.app.isPackaged = true;
    const env = { XDG_CONFIG_HOME: dir.path, APPIMAGE: '/home/kasir/Apps/Loket 1.0.AppImage' };
    const entry = join(dir.path, 'autostart', 'loket.desktop');
    applyStartAtLogin(true, { platform: 'linux', env });
    expect(readFileSync(entry, 'utf8')).toBe(autostartEntry('/home/kasir/Apps/Loket 1.0.AppImage'));
    expect(readFileSync(entry, 'utf8')).toContain('Exec="/home/kasir/Apps/Loket 1.0.AppImage"\n');
    applyStartAtLogin(false, { platform: 'linux', env });
    expect(existsSync(entry)).toBe(false);
    applyStartAtLogin(false, { platform: 'linux', env });
    expect(autostartEntry('/opt/a"b$c')).toContain('Exec="/opt/a\\"b\\$c"');
  });
});
