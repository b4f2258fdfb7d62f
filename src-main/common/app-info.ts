import type { Reason } from './reasons';

/**
 * 'sandbox' talks to the built-in sandbox gateway (no real money moves); 'live' talks to the real gateway.
 * The renderer must always make the current mode obvious to the cashier.
 */
export type AppMode = 'sandbox' | 'live';

export type Lang = 'id' | 'en';

export interface AppInfo {
  name: 'Loket';
  version: string;
  mode: AppMode;
  storeName: string;
  terminalId: string;
  /** The store's zone: every time is shown in it. */
  timeZone: string;
  lang: Lang;
  /** Receipts print directly, on a network printer or the OS printer chosen in settings (else from the screen). */
  networkPrinter: boolean;
  /** The store prints the receipt by itself, once, when a sale is paid (settings: printer). */
  autoPrint: boolean;
  /** Why Loket runs otherwise than its settings say (e.g. live is set, but the keychain cannot be reached). */
  notice?: string;
  /** The same, for a screen to word in its language (one line; the keychain's links to docs/settings.md). */
  noticeReason?: Reason;
}
