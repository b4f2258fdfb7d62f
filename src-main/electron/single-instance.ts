import { app, type BrowserWindow } from 'electron';

/**
 * One Loket per computer: two would share one order log and one customer display. A second launch (a double click
 * on the icon, a kiosk's autostart racing a person) brings the running Loket's cashier window to the front and quits.
 * Returns false in the instance that must quit (it has already asked to).
 */
export function claimSingleInstance(bringToFront: () => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    console.warn('[startup] Loket is already running: bringing its window to the front instead.');
    app.quit();
    return false;
  }
  app.on('second-instance', () => bringToFront());
  return true;
}

/** Restores, shows and focuses a window, if it is still there. */
export function bringWindowToFront(window: BrowserWindow | null): void {
  if (!window || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
