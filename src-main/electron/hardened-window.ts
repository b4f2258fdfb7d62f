import { BrowserWindow, type BrowserWindowConstructorOptions, type WebPreferences } from 'electron';

/**
 * What a window may add to the hardened preferences: its preload (the cashier's or the display's), JavaScript off
 * (a print window: receipts are plain HTML and CSS), background throttling off (the display stays readable when the
 * till is busy in front). Nothing of the checklist itself: the type has no room for it.
 */
export type WindowAdditions = Pick<WebPreferences, 'preload' | 'javascript' | 'backgroundThrottling'>;

/**
 * Every window Loket opens (the cashier's, the customer display's, the hidden one that prints or lays out a PDF),
 * made with the Electron security checklist. The `remote` module no longer exists in this Electron, so there is
 * nothing to switch off for it. Written once, as literals, so that the security gate (`npm run security:electron`,
 * scripts/electronegativity-gate.mjs) reads them where the window is made.
 */
export function hardenedWindow(
  options: Omit<BrowserWindowConstructorOptions, 'webPreferences'>,
  additions: WindowAdditions = {},
): BrowserWindow {
  return new BrowserWindow({
    ...options,
    webPreferences: {
      ...additions,
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
      // A middle click on a link would otherwise open it in a new window (denied anyway by the navigation guard).
      disableBlinkFeatures: 'Auxclick',
    },
  });
}
