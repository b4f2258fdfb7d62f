/**
 * (c) Browser mode, end to end: from the cashier pressing Charge to the QR visible on the customer
 * display, against the embedded sandbox; next to the sandbox's own response time (a bare signed POST to
 * the same sandbox) measured in the same run.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { chromium } from '@playwright/test';
import fetch from 'node-fetch';
import { signBody } from '../../src-main/core/bodysign';
import { SANDBOX_DEFAULTS } from '../../src-main/sandbox/server';
import { distribution, type Distribution } from './stats';
import { makeTempDir } from './temp';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface ChargeToQrResult {
  sales: number;
  chargeToQr: Distribution;
  sandboxAnswer: Distribution;
}

function startServe(): Promise<{ child: ChildProcess; cashier: string; display: string; gateway: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/cli.ts', 'serve', '--port', '0', '--quiet'], {
    cwd: root,
    env: {
      ...process.env,
      LOKET_DATA_DIR: makeTempDir('serve'),
      LOKET_GATEWAY_URL: '',
      LOKET_APP_ID: '',
      LOKET_APP_KEY: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = (p: string) =>
        out
          .split('\n')
          .find((l) => l.startsWith(p))
          ?.slice(p.length)
          .trim();
      const cashier = line('cashier:');
      const display = line('display:');
      const gateway = /embedded sandbox at (\S+)/.exec(out)?.[1];
      if (cashier && display && gateway) {
        clearTimeout(timer);
        resolve({ child, cashier, display, gateway });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

export async function benchChargeToQr(sales: number, say: (line: string) => void): Promise<ChargeToQrResult> {
  {
    // Always build: a stale out/renderer would time a different app.
    say('    building the screens (electron-vite build)…');
    const built = spawnSync(
      process.execPath,
      [`${root}node_modules/electron-vite/bin/electron-vite.js`, 'build', '--logLevel', 'warn'],
      { cwd: root, stdio: 'inherit' },
    );
    if (built.status !== 0) throw new Error('electron-vite build failed');
  }
  const serve = await startServe();
  const browser = await chromium.launch({
    executablePath: process.env.LOKET_CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    // Two contexts, as the till and the customer screen are two windows: a page in the background of one
    // context gets no animation frames, which would time Chromium's throttling, not Loket.
    const cashier = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const display = await (await browser.newContext({ viewport: { width: 1024, height: 600 } })).newPage();
    await display.goto(serve.display);
    await cashier.goto(serve.cashier);
    await cashier.locator('#sale-amount').waitFor();

    const chargeMs: number[] = [];
    const warmup = 3;
    for (let i = 0; i < sales + warmup; i++) {
      await cashier.locator('#sale-amount').fill(String(10_000 + i));
      await cashier.locator('#sale-item').fill(`Bench ${i}`);
      await cashier.locator('input[data-method="qris_dynamic"]').check();
      const qr = display.locator('[data-testid="display-qr"]');
      const started = performance.now();
      await cashier.locator('[data-testid="charge"]').click();
      await qr.waitFor({ state: 'visible', timeout: 10_000 }).catch(async (err: unknown) => {
        await cashier.screenshot({ path: '/tmp/bench-cashier.png' });
        await display.screenshot({ path: '/tmp/bench-display.png' });
        throw err;
      });
      const elapsed = performance.now() - started;
      if (i >= warmup) chargeMs.push(elapsed);
      // The customer pays (training), then New sale: the display goes idle, so the next QR is a new one.
      await cashier.getByRole('button', { name: /Simulasikan pembayaran|Simulate payment/ }).click();
      await cashier.locator('#new-sale').click();
      await qr.waitFor({ state: 'detached' });
    }

    // The sandbox alone: signed POSTs of the same kind of order to the same embedded sandbox.
    const answerMs: number[] = [];
    for (let i = 0; i < sales + warmup; i++) {
      const body = JSON.stringify({
        user_id: 'bench',
        merchant_transaction_id: `BQ-${process.pid}-${i}`,
        payment_method: 'qris_dynamic',
        amount: 10_000 + i,
        item_name: `Bench ${i}`,
      });
      const started = performance.now();
      const res = await fetch(`${serve.gateway}/api/transaction`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          appid: SANDBOX_DEFAULTS.appId,
          appkey: SANDBOX_DEFAULTS.appKey,
          bodysign: signBody(body, SANDBOX_DEFAULTS.appKey, 'hex'),
        },
      });
      await res.text();
      if (i >= warmup) answerMs.push(performance.now() - started);
    }
    return { sales, chargeToQr: distribution(chargeMs), sandboxAnswer: distribution(answerMs) };
  } finally {
    await browser.close();
    serve.child.kill('SIGTERM');
    await new Promise((r) => serve.child.once('exit', r));
  }
}

export function renderChargeToQr(r: ChargeToQrResult): string {
  const f = (n: number) => n.toFixed(1).padStart(8);
  return [
    `(c) Browser mode: Charge → QR visible on the customer display, ${r.sales} QRIS sales (Playwright + chromium), embedded sandbox`,
    '                                          p50 ms   p95 ms  ratio p50',
    `charge → QR on display (cashier UI)    ${f(r.chargeToQr.p50)} ${f(r.chargeToQr.p95)}  ` +
      `${(r.chargeToQr.p50 / r.sandboxAnswer.p50).toFixed(1).padStart(8)}x`,
    `sandbox's own answer (signed POST)     ${f(r.sandboxAnswer.p50)} ${f(r.sandboxAnswer.p95)}      1.0x`,
  ].join('\n');
}
