import type { AppInfo } from '../../src-main/common/app-info';

/**
 * In a plain browser there is no preload, and the only thing a browser build can reach is the sandbox,
 * so it says so rather than guessing anything riskier.
 */
const browserAppInfo: AppInfo = { name: 'Loket', version: '', mode: 'sandbox' };

export function loadAppInfo(): Promise<AppInfo> {
  return window.loket ? window.loket.appInfo() : Promise.resolve(browserAppInfo);
}
