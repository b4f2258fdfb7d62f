// Launching the built desktop app with Playwright's Electron support, for test/e2e/electron/*.spec.ts. The Electron
// binary cannot be downloaded on our machines: specs skip with that reason where it is absent (electronBinaryPath).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, type ElectronApplication, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import { electronBinaryPath } from '../../../scripts/electron-binary.mjs';

export const mainEntry = join(import.meta.dirname, '../../../out/main/index.js');
export const executablePath = electronBinaryPath();
export const NO_ELECTRON =
  'Electron binary not installed on this machine (download blocked); runs wherever node_modules/electron/dist exists';

export interface DesktopLoket {
  app: ElectronApplication;
  cashier: Page;
  display: Page;
  close(): Promise<void>;
}

const isDisplay = (page: Page) => page.url().endsWith('#/display');

/** Starts the built app on a fresh data folder (the embedded sandbox: training mode) and finds its two windows. */
export async function launchLoket(env: NodeJS.ProcessEnv = {}): Promise<DesktopLoket> {
  if (executablePath === null) throw new Error(NO_ELECTRON);
  const dataDir = mkdtempSync(join(tmpdir(), 'loket-electron-'));
  const app = await electron.launch({
    executablePath,
    args: [mainEntry],
    env: { ...process.env, LOKET_DATA_DIR: dataDir, ...env },
  });
  const deadline = Date.now() + 20_000;
  while (app.windows().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const pages = app.windows();
  const display = pages.find(isDisplay);
  const cashier = pages.find((p) => !isDisplay(p));
  if (!display || !cashier)
    throw new Error(`expected the cashier's window and the display's, got ${pages.map((p) => p.url())}`);
  return {
    app,
    cashier,
    display,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const require = createRequire(import.meta.url);
// pngjs ships no types; it comes with qrcode.
const { PNG } = require('pngjs') as {
  PNG: { sync: { read(buffer: Buffer): { width: number; height: number; data: Buffer } } };
};

/** Reads a QR code back from a PNG screenshot, as a phone would. */
export function decodeQr(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  const code = jsQR(
    new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length),
    image.width,
    image.height,
  );
  return code?.data ?? null;
}
