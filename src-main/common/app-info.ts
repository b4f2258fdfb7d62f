/**
 * 'sandbox' talks to the built-in sandbox gateway (no real money moves); 'live' talks to the real gateway.
 * The renderer must always make the current mode obvious to the cashier.
 */
export type AppMode = 'sandbox' | 'live';

export interface AppInfo {
  name: 'Loket';
  version: string;
  mode: AppMode;
}
