// Electron entry: wires the shell's pieces together. Business logic lives outside src-main/electron.
import { join } from 'node:path';
import { app, BrowserWindow, session } from 'electron';
import { currentAppInfo } from './electron/app-info';
import { registerIpcApi } from './electron/ipc-api';
import { createMainWindow } from './electron/main-window';
import { guardNavigation } from './electron/navigation-guard';
import { denyAllPermissions } from './electron/permissions';
import { isAppUrl, resolveRendererSource } from './electron/renderer-source';

// Every renderer sandboxed, whatever a window's own options say. Must run before 'ready'.
app.enableSandbox();

const rendererSource = resolveRendererSource({
  devServerUrl: app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL,
  indexFile: join(import.meta.dirname, '../renderer/index.html'),
});
const preloadPath = join(import.meta.dirname, '../preload/index.cjs');
const isOwnUrl = (url: string): boolean => isAppUrl(rendererSource, url);

app.on('web-contents-created', (_event, contents) => guardNavigation(contents, isOwnUrl));
app.on('session-created', denyAllPermissions);

registerIpcApi({ appInfo: currentAppInfo }, isOwnUrl);

const openWindow = (): void => {
  createMainWindow({ preloadPath, source: rendererSource });
};

app
  .whenReady()
  .then(() => {
    denyAllPermissions(session.defaultSession);
    openWindow();
    // macOS keeps the app alive without windows; clicking the dock icon should bring the till back.
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) openWindow();
    });
  })
  .catch((error: unknown) => {
    console.error('[startup] failed:', error);
    app.exit(1);
  });

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
