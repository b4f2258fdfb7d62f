import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where Loket keeps its database: LOKET_DATA_DIR, else the folder Electron's app.getPath('userData')
 * uses for an app named Loket, so the desktop app and the CLI share one order log.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.LOKET_DATA_DIR) return env.LOKET_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Loket');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Loket');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Loket');
}
