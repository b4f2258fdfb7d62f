import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { app } from 'electron';

/**
 * Start Loket when the kiosk terminal's user logs in. For now chosen by an environment variable,
 * `LOKET_START_AT_LOGIN=1` (on) or `0` (off); unset leaves whatever was set before. Only a packaged app registers
 * itself (a development build would register the bare Electron binary).
 */
export function parseStartAtLogin(value: string | undefined): boolean | null {
  const text = value?.trim().toLowerCase() ?? '';
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'off'].includes(text)) return false;
  return null;
}

/** The XDG autostart entry for Linux, where app.setLoginItemSettings does nothing. */
export function autostartEntry(exec: string): string {
  const quoted = `"${exec.replace(/(["`$\\])/g, '\\$1')}"`;
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Loket',
    `Exec=${quoted}`,
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export function autostartPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'autostart', 'loket.desktop');
}

export function applyStartAtLogin(
  choice: boolean | null,
  options: { platform?: NodeJS.Platform; env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): void {
  if (choice === null) return;
  const log = options.log ?? (() => undefined);
  if (!app.isPackaged) {
    log('start at login: ignored, this is not a packaged Loket');
    return;
  }
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  if (platform === 'linux') {
    const path = autostartPath(env);
    if (choice) {
      mkdirSync(dirname(path), { recursive: true });
      // An AppImage runs from a temporary mount: the autostart entry must name the AppImage file itself.
      writeFileSync(path, autostartEntry(env.APPIMAGE || process.execPath), { mode: 0o644 });
    } else {
      rmSync(path, { force: true });
    }
  } else {
    app.setLoginItemSettings({ openAtLogin: choice });
  }
  log(`start at login: ${choice ? 'on' : 'off'}`);
}
