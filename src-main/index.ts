// Electron entry: wires the shell's pieces together. Business logic lives outside src-main/electron.
import { join } from 'node:path';
import { app, BrowserWindow, session } from 'electron';
import { startAppHost, type AppHost } from './app-host';
import { ipcEventChannel } from './common/ipc-channels';
import { appVersion } from './electron/app-info';
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

let host: AppHost | undefined;

const openWindow = (): void => {
  const window = createMainWindow({ preloadPath, source: rendererSource });
  const unsubscribe = host?.app.subscribe((event) => {
    if (!window.isDestroyed()) window.webContents.send(ipcEventChannel, event);
  });
  window.on('closed', () => unsubscribe?.());
};

app
  .whenReady()
  .then(async () => {
    denyAllPermissions(session.defaultSession);
    // The same core as the CLI and browser mode, on the order log in the app's data folder.
    // LOKET_DATA_DIR as for the CLI; else userData, which is the CLI's default too (productName Loket).
    host = await startAppHost({
      version: appVersion(),
      dataDir: process.env.LOKET_DATA_DIR || app.getPath('userData'),
    });
    registerIpcApi(host.app, isOwnUrl);
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

app.on('will-quit', (event) => {
  if (!host) return;
  // Close the order log cleanly (WAL checkpoint) before the process goes.
  event.preventDefault();
  const closing = host;
  host = undefined;
  closing.close().finally(() => app.quit());
});
