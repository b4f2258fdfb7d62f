import type { BrowserWindow } from 'electron';
import { hardenedWindow } from './hardened-window';
import { loadRenderer, type RendererSource } from './renderer-source';

/** The cashier's window: the whole API through src-preload/index.ts. */
export function createMainWindow(options: { preloadPath: string; source: RendererSource }): BrowserWindow {
  const window = hardenedWindow(
    {
      width: 1280,
      height: 800,
      minWidth: 800,
      minHeight: 600,
      title: 'Loket',
      autoHideMenuBar: true,
      // Shown once painted, so the cashier never sees a blank white frame.
      show: false,
    },
    { preload: options.preloadPath },
  );
  window.once('ready-to-show', () => window.show());
  loadRenderer(window, options.source).catch((error: unknown) => {
    console.error('[window] could not load the renderer:', error);
    // Still show the window: an empty window that stays open is easier to diagnose than none at all.
    window.show();
  });
  return window;
}
