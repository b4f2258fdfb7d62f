import type { CashierClient, DisplayClient } from './client';
import { httpCashierClient, httpDisplayClient } from './http-transport';
import { ipcCashierClient, ipcDisplayClient } from './ipc-transport';

export type { CashierClient, ConnectionStatus, DisplayClient, LiveChannel } from './client';
export { CallError, toCallError } from './errors';

/** The cashier's client: IPC when the Electron preload is there, else HTTP with the token (null without one). */
export function connectCashier(token: string | null): CashierClient | null {
  if (window.loket) return ipcCashierClient(window.loket);
  return token ? httpCashierClient(token) : null;
}

export function connectDisplay(key: string | null): DisplayClient | null {
  if (window.loket) return ipcDisplayClient(window.loket);
  return key ? httpDisplayClient(key) : null;
}
