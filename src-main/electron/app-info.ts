import { app } from 'electron';
import type { AppInfo } from '../common/app-info';

export function currentAppInfo(): AppInfo {
  // Live mode (a real gateway with real credentials) does not exist yet, so the shell is always in sandbox mode.
  return { name: 'Loket', version: app.getVersion(), mode: 'sandbox' };
}
