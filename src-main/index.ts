// Electron entry: wires the shell's pieces together. Business logic lives outside src-main/electron.
import { join } from 'node:path';
import { app, dialog, ipcMain, protocol, session, type BrowserWindow } from 'electron';
import type { LiveEvent } from './common/api';
import { LogFile } from './adapters/log-file';
import { startAppHost, type AppHost } from './app-host';
import { DatabaseProblem } from './db/open';
import { systemPrinter } from './electron/printing';
import { ipcEventChannel, ipcSaveDownloadChannel } from './common/ipc-channels';
import { appVersion } from './electron/app-info';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, appProtocolHandler } from './electron/app-protocol';
import { enforceContentSecurityPolicy } from './electron/content-security';
import { parseScreenChoice } from './electron/display-placement';
import { bindDisplayToggle, CustomerDisplay } from './electron/display-window';
import { deliversTo, IpcSenders, refusal, registerIpcApi, type SenderRole } from './electron/ipc-api';
import { saveDownload } from './electron/save-download';
import { applyStartAtLogin, parseStartAtLogin } from './electron/login-item';
import { createMainWindow } from './electron/main-window';
import { allowDisplayNavigation, guardNavigation, type PaymentPagePolicy } from './electron/navigation-guard';
import { denyAllPermissions } from './electron/permissions';
import { isAppUrl, resolveRendererSource } from './electron/renderer-source';
import { bringWindowToFront, claimSingleInstance } from './electron/single-instance';

const log = (line: string) => console.log(`[shell] ${line}`);

// LOKET_DATA_DIR as for the CLI; else userData, which is the CLI's default too (productName Loket).
const dataDir = process.env.LOKET_DATA_DIR || app.getPath('userData');
// The log file in the data folder: what the shell and the core say on the console, and what would end the process
// (docs/when-things-break.md). "The log has the details" names it.
const logFile = new LogFile(dataDir);
logFile.captureConsole(['log', 'warn', 'error']);
logFile.captureCrashes();

// Every renderer sandboxed, whatever a window's own options say. Must run before 'ready'.
app.enableSandbox();
// The screens' own scheme, app://loket/ (electron/app-protocol.ts): also only before 'ready'.
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

const rendererSource = resolveRendererSource({
  devServerUrl: app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL,
  indexFile: join(import.meta.dirname, '../renderer/index.html'),
});
const cashierPreload = join(import.meta.dirname, '../preload/index.cjs');
const displayPreload = join(import.meta.dirname, '../preload/display.cjs');
const isOwnUrl = (url: string): boolean => isAppUrl(rendererSource, url);
/** Which web contents is which window: the IPC gate and the live events go by it. */
const senders = new IpcSenders();

// For now from the environment; they move into the settings later.
const screenChoice = parseScreenChoice(process.env.LOKET_DISPLAY_SCREEN);
if (screenChoice === 'invalid')
  log(`LOKET_DISPLAY_SCREEN=${process.env.LOKET_DISPLAY_SCREEN} is not a screen id: ignored`);
const allowPaymentPage = process.env.LOKET_DISPLAY_PAYMENT_PAGE === '1';

let host: AppHost | undefined;
let cashier: BrowserWindow | null = null;
let display: CustomerDisplay | null = null;

/** The hosted payment page may open in the display only when allowed, and only on the gateway in use now. */
const paymentPagePolicy = (): PaymentPagePolicy => ({
  allowPaymentPage,
  gatewayOrigin: host ? originOf(host.loket.client.config.baseUrl) : null,
});

if (claimSingleInstance(() => bringWindowToFront(cashier))) {
  app.on('web-contents-created', (_event, contents) =>
    guardNavigation(contents, {
      isAppUrl: isOwnUrl,
      allowElsewhere: (url) =>
        senders.roleOf(contents) === 'display' && allowDisplayNavigation(url, paymentPagePolicy()),
    }),
  );
  app.on('session-created', (created) => {
    denyAllPermissions(created);
    enforceContentSecurityPolicy(created, isOwnUrl);
  });

  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error('[startup] failed:', error);
      // A damaged, empty or unwritable order log (or any other reason Loket cannot start) is said in a box a
      // cashier sees, not only in a log: it names the file and what to do (docs/when-things-break.md).
      dialog.showErrorBox(
        'Loket cannot start',
        `${(error as Error)?.message ?? String(error)}\n\nThe log has the details: ${logFile.path}`,
      );
      app.exit(error instanceof DatabaseProblem ? 6 : 1);
    });

  // The display cannot be closed by itself; it closes when Loket quits.
  app.on('before-quit', () => display?.close());

  app.on('window-all-closed', () => app.quit());

  app.on('will-quit', (event) => {
    if (!host) return;
    // Close the order log cleanly (WAL checkpoint) before the process goes.
    event.preventDefault();
    const closing = host;
    host = undefined;
    closing.close().finally(() => app.quit());
  });
}

async function start(): Promise<void> {
  denyAllPermissions(session.defaultSession);
  enforceContentSecurityPolicy(session.defaultSession, isOwnUrl);
  // The built screens, from app://loket/ on the windows' (default) session; never as file:// pages.
  if (rendererSource.kind === 'files') protocol.handle(APP_SCHEME, appProtocolHandler(rendererSource.dir));
  applyStartAtLogin(parseStartAtLogin(process.env.LOKET_START_AT_LOGIN), { log });
  // The same core as the CLI and browser mode, on the order log in the app's data folder.
  host = await startAppHost({
    version: appVersion(),
    dataDir,
    log,
    // Receipts and the end-of-day page on the printer chosen in settings (kind 'system').
    systemPrinter: systemPrinter(),
  });
  registerIpcApi(host.app, isOwnUrl, senders, { logFile: logFile.path });
  registerSaveDownload(host);
  host.app.subscribe(deliver);

  cashier = createMainWindow({ preloadPath: cashierPreload, source: rendererSource });
  senders.register(cashier.webContents, 'cashier');
  // Ctrl+Shift+D on the cashier's window shows or hides the customer display (no API method for it).
  bindDisplayToggle(cashier.webContents, () => display?.toggle());
  // The display alone is of no use: closing the till closes Loket, on every platform.
  cashier.on('closed', () => {
    cashier = null;
    app.quit();
  });

  display = new CustomerDisplay({
    preloadPath: displayPreload,
    source: rendererSource,
    chosenScreenId: typeof screenChoice === 'number' ? screenChoice : null,
    cashierWindow: () => cashier,
    onWindow: (window) => senders.register(window.webContents, 'display'),
    log,
  });
  display.start();
}

/** The manager's export, saved where they choose (browser mode downloads it instead). Only the cashier's window. */
function registerSaveDownload(appHost: AppHost): void {
  ipcMain.handle(ipcSaveDownloadChannel, async (event, downloadId: unknown) => {
    if (refusal('saveDownload', isOwnUrl, event, (e) => senders.roleOf(e.sender)) !== undefined)
      return { saved: false, message: 'Forbidden' };
    return saveDownload(typeof downloadId === 'string' ? downloadId : '', {
      nameOf: (id) => appHost.app.downloadName(id),
      take: (id) => appHost.app.takeDownload(id),
      choosePath: async (defaultName) => {
        const options = { defaultPath: join(app.getPath('documents'), defaultName) };
        const result = cashier ? await dialog.showSaveDialog(cashier, options) : await dialog.showSaveDialog(options);
        return result.canceled ? undefined : result.filePath;
      },
    });
  });
}

/** Every live event to the cashier's window; only the display's own to the display's, and only on our pages. */
function deliver(event: LiveEvent): void {
  const windows: [BrowserWindow | null | undefined, SenderRole][] = [
    [cashier, 'cashier'],
    [display?.window, 'display'],
  ];
  for (const [window, role] of windows) {
    if (!window || window.isDestroyed() || !deliversTo(role, event)) continue;
    if (!isOwnUrl(window.webContents.getURL())) continue;
    window.webContents.send(ipcEventChannel, event);
  }
}

function originOf(url: string): string | null {
  return URL.canParse(url) ? new URL(url).origin : null;
}
