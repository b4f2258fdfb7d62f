import { BrowserWindow } from 'electron';
import { loadRenderer, type RendererSource } from './renderer-source';

/** The cashier's window: the whole API through src-preload/index.ts. */
export function createMainWindow(options: { preloadPath: string; source: RendererSource }): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 800,
    minHeight: 600,
    title: 'Loket',
    autoHideMenuBar: true,
    // Shown once painted, so the cashier never sees a blank white frame.
    show: false,
    // The Electron security checklist. (The `remote` module no longer exists in this Electron, so there is
    // nothing to switch off for it.)
    webPreferences: {
      preload: options.preloadPath,
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
  window.once('ready-to-show', () => window.show());
  loadRenderer(window, options.source).catch((error: unknown) => {
    console.error('[window] could not load the renderer:', error);
    // Still show the window: an empty window that stays open is easier to diagnose than none at all.
    window.show();
  });
  return window;
}
