// Browser mode for real: the `serve` command in a child process, with a fresh data folder and the embedded
// sandbox gateway, plus helpers the specs share (the API over HTTP, the sandbox's fault switches, QR decoding).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import type { ApiArgs, ApiMethodName, ApiResult } from '../../../src-main/common/api';

const repoRoot = join(import.meta.dirname, '../../..');

export interface LoketServer {
  /** http://127.0.0.1:PORT */
  url: string;
  cashierUrl: string;
  displayUrl: string;
  token: string;
  displayKey: string;
  /** The embedded sandbox gateway's base URL ('' when `env` named another gateway). */
  sandboxUrl: string;
  /** Loket's data folder (LOKET_DATA_DIR): the fixture's own, or the one `env` gave. */
  dataDir: string;
  /** Calls the cashier API with the token, as the cashier screen does. */
  call<M extends ApiMethodName>(method: M, ...args: ApiArgs<M>): Promise<ApiResult<M>>;
  /** Sets the sandbox's fault switches (docs/sandbox.md, "Fault switches"). */
  setFaults(faults: Record<string, unknown>): Promise<void>;
  stop(): Promise<void>;
}

/** Everything the child should not inherit: a configured gateway would take it out of training mode. */
function cleanEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('LOKET_')) env[key] = value;
  env.LOKET_DATA_DIR = dataDir;
  return env;
}

/**
 * Starts `serve` on a free port; `args` adds options (e.g. `--printer H:P`), `env` variables (e.g. a
 * gateway of its own, which makes it live rather than training mode; a private keyring's environment; a
 * LOKET_DATA_DIR of the test's own, which is then the test's to remove).
 */
export async function startLoket(args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<LoketServer> {
  const ownDataDir = env.LOKET_DATA_DIR === undefined;
  const dataDir = env.LOKET_DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'loket-e2e-')));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'src-main/cli.ts', 'serve', '--port', '0', '--quiet', ...args],
    {
      cwd: repoRoot,
      env: { ...cleanEnv(dataDir), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));

  const lines = createInterface({ input: child.stdout! });
  const seen: Record<string, string> = {};
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`loket serve did not print its URLs within 20 s\n${stderr}`)),
        20_000,
      );
      lines.on('line', (line) => {
        const m = /^(gateway|cashier|display): (.*)$/.exec(line);
        if (m) seen[m[1]!] = m[2]!;
        if (seen.cashier && seen.display && seen.gateway) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`loket serve exited with ${code} before it was ready\n${stderr}`));
      });
    });
  } catch (err) {
    child.kill('SIGTERM');
    if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
    throw err;
  }

  // Empty when a gateway was given in `env`.
  const sandboxUrl = /embedded sandbox at (http:\/\/\S+)/.exec(seen.gateway!)?.[1] ?? '';
  const cashier = new URL(seen.cashier!);
  const display = new URL(seen.display!);
  const token = new URLSearchParams(cashier.hash.split('?')[1]).get('token')!;
  const displayKey = new URLSearchParams(display.hash.split('?')[1]).get('key')!;
  const url = cashier.origin;

  return {
    url,
    cashierUrl: seen.cashier!,
    displayUrl: seen.display!,
    token,
    displayKey,
    sandboxUrl,
    dataDir,
    async call(method, ...args) {
      const response = await fetch(`${url}/api/call/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ args }),
      });
      const body = (await response.json()) as { ok: boolean; result?: unknown; error?: { message: string } };
      if (!body.ok) throw new Error(`${method}: HTTP ${response.status}: ${body.error?.message}`);
      return body.result as never;
    },
    async setFaults(faults) {
      const response = await fetch(`${sandboxUrl}/sandbox/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(faults),
      });
      expect(response.status, 'PUT /sandbox/faults').toBe(200);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
      if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

interface Fixtures {
  loket: LoketServer;
  /** The cashier screen at 1280×800, loaded and ready; its prints are counted (prints()), not opened. */
  cashier: Page;
  /** The customer display at 1024×600, in a browser context of its own. */
  display: Page;
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  loket: async ({}, use) => {
    const server = await startLoket();
    try {
      await use(server);
    } finally {
      await server.stop();
    }
  },
  cashier: async ({ page, loket }, use) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    // The browser's print is counted, never opened (see stubPrint).
    await stubPrint(page);
    await page.goto(loket.cashierUrl);
    await expect(page.getByRole('button', { name: /^(Tagih|Charge)/ })).toBeVisible();
    await use(page);
  },
  // A context of its own, like the separate screen it is (and two pages of one context in one renderer make
  // each other's frames slow in headless Chromium).
  display: async ({ browser, loket }, use) => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 600 }, timezoneId: 'UTC' });
    try {
      const page = await context.newPage();
      await page.goto(loket.displayUrl);
      await expect(page.getByTestId('display')).toHaveAttribute(
        'data-screen',
        /idle|order|paid|expired|cancelled|failed|unknown|creating|rejected/,
      );
      await use(page);
    } finally {
      await context.close();
    }
  },
});

export { expect };

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

/** axe-core on the page: the serious and critical violations, with enough detail to fix them. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export interface SaleInput {
  amount: number;
  item: string;
  /** The method's id (its radio button carries it as data-method). */
  method: string;
  customerName?: string;
  phone?: string;
  hostedPage?: boolean;
}

/** Fills the sale form as a cashier would (Indonesian screen), without charging. */
export async function fillSale(page: Page, sale: SaleInput): Promise<void> {
  await page.getByRole('textbox', { name: /^Jumlah/ }).fill(String(sale.amount));
  await page.getByLabel('Nama barang').fill(sale.item);
  await page.locator(`input[type=radio][data-method="${sale.method}"]`).check();
  if (sale.customerName !== undefined) await page.getByLabel('Nama pelanggan').fill(sale.customerName);
  if (sale.phone !== undefined) await page.getByLabel('Nomor HP pelanggan').fill(sale.phone);
  if (sale.hostedPage) await page.getByLabel('Gunakan halaman pembayaran (V1)').check();
}

/** Charges and waits for the payment panel; returns the new order's id. */
export async function chargeToPanel(page: Page): Promise<string> {
  await page.getByRole('button', { name: /^Tagih/ }).click();
  const panel = page.getByTestId('payment-panel');
  await expect(panel).toHaveAttribute('data-state', 'awaiting_payment');
  return (await panel.getAttribute('data-order-id'))!;
}

/**
 * Counts the browser's prints instead of opening the print dialog: every frame's window.print (the receipt
 * prints from a frame of its own) adds one to the page's count and keeps the text that would have printed.
 * Call before the page loads.
 */
export async function stubPrint(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const top = window.top as (Window & { __prints?: string[] }) | null;
    if (window === top) top.__prints = [];
    window.print = () => {
      (top?.__prints ?? []).push(document.body?.innerText ?? '');
    };
  });
}

/** What has been printed so far, one text per print. */
export async function prints(page: Page): Promise<string[]> {
  return page.evaluate(() => [...((window as Window & { __prints?: string[] }).__prints ?? [])]);
}
