/**
 * (g) Memory over a day: `charges` QRIS charges through browser mode, as a cashier makes them (the sale form,
 * Charge, the customer pays, New sale), with the customer display open beside the till. The resident memory of the
 * server and of each page's renderer process is sampled as it goes; each page's JavaScript heap too, after a
 * garbage collection (what the page holds on to, without the collector's timing). A leak per order shows as a slope.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { chromium, type CDPSession, type Page } from '@playwright/test';
import { buildIfChanged } from '../build-if-changed.mjs';
import { CHROMIUM_LAUNCH, startServe } from './charge-to-qr';
import { fmtInt } from './stats';

/** One sample: after `charges` charges, in bytes. */
export interface SoakSample {
  charges: number;
  seconds: number;
  serverRss: number;
  cashierRss: number;
  displayRss: number;
  cashierHeap: number;
  displayHeap: number;
}

export type SoakSeries = Exclude<keyof SoakSample, 'charges' | 'seconds'>;
export const SOAK_SERIES: readonly SoakSeries[] = [
  'serverRss',
  'cashierRss',
  'displayRss',
  'cashierHeap',
  'displayHeap',
];

export interface SoakResult {
  charges: number;
  samples: SoakSample[];
  /** Per series: the least-squares slope over the second half of the run, in bytes per 1,000 charges. */
  slopes: Record<SoakSeries, number>;
}

/**
 * The target: over the run's second half (the first holds the warm-up: JIT, caches, the WAL reaching its size),
 * no process grows by more than this per 1,000 charges (10 MB over a day of 10,000 charges).
 */
export const SOAK_SLOPE_TARGET = 1_000_000;

/** Resident memory of a process (VmRSS), in bytes; 0 when it cannot be read. */
function rssOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Chromium's renderer processes started under this process (Playwright's browser is our child). */
function rendererPids(): Set<number> {
  const parents = new Map<number, number>();
  const renderers = new Set<number>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) renderers.add(pid);
    } catch {
      // gone meanwhile
    }
  }
  const ours = new Set<number>();
  for (const pid of renderers) {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) {
      if (p === process.pid) {
        ours.add(pid);
        break;
      }
    }
  }
  return ours;
}

/** Opens `url` in a window of its own; its renderer process is the one that appears with it. */
async function openPage(
  browser: Awaited<ReturnType<typeof chromium.launch>>,
  url: string,
  viewport: { width: number; height: number },
): Promise<{ page: Page; pid: number; cdp: CDPSession }> {
  const before = rendererPids();
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(url);
  const fresh = [...rendererPids()].filter((pid) => !before.has(pid));
  if (fresh.length === 0) throw new Error(`soak: no renderer process of its own for ${url}`);
  // A spare renderer may start at the same moment: the page's is the one with the page in it (the largest).
  const pid = fresh.sort((a, b) => rssOf(b) - rssOf(a))[0]!;
  return { page, pid, cdp: await page.context().newCDPSession(page) };
}

/**
 * Types the sale as a cashier does, and checks it took: the form moves the focus to the amount after New sale, and
 * a fill that races that move types the item's name into the amount (then it is typed again).
 */
async function fillSale(page: Page, amount: number, item: string): Promise<void> {
  const amountField = page.locator('#sale-amount');
  const itemField = page.locator('#sale-item');
  for (let attempt = 0; ; attempt++) {
    await amountField.fill(String(amount));
    await itemField.fill(item);
    const typed = (await amountField.inputValue()).replace(/\D/g, '');
    if (typed === String(amount) && (await itemField.inputValue()) === item) return;
    if (attempt === 3) throw new Error(`soak: the sale form did not take ${amount} / ${item}`);
  }
}

async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
}

/** Least-squares slope of y over x. */
function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

export async function benchSoak(charges: number, say: (line: string) => void): Promise<SoakResult> {
  say('    building the screens when they changed (as npm run serve does)…');
  if (buildIfChanged({ quiet: true }) !== 0) throw new Error('electron-vite build failed');
  const serve = await startServe({ built: true });
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const display = await openPage(browser, serve.display, { width: 1024, height: 600 });
    const cashier = await openPage(browser, serve.cashier, { width: 1280, height: 800 });
    if (display.pid === cashier.pid) throw new Error('soak: the two windows share a renderer process');
    await cashier.page.locator('#sale-amount').waitFor();
    const qr = display.page.locator('[data-testid="display-qr"]');
    const pay = cashier.page.getByRole('button', { name: /Simulasikan pembayaran|Simulate payment/ });

    const started = performance.now();
    const samples: SoakSample[] = [];
    const sample = async (done: number) => {
      const s: SoakSample = {
        charges: done,
        seconds: (performance.now() - started) / 1000,
        serverRss: rssOf(serve.child.pid!),
        cashierRss: rssOf(cashier.pid),
        displayRss: rssOf(display.pid),
        cashierHeap: await heapAfterGc(cashier.cdp),
        displayHeap: await heapAfterGc(display.cdp),
      };
      samples.push(s);
      return s;
    };
    const every = Math.max(10, Math.round(charges / 20));
    await sample(0);
    for (let i = 1; i <= charges; i++) {
      await fillSale(cashier.page, 10_000 + (i % 90_000), `Soak ${i}`);
      await cashier.page.locator('input[data-method="qris_dynamic"]').check();
      await cashier.page.locator('[data-testid="charge"]').click();
      // On a machine this busy a click can land while the form redraws (the Charge button's label follows the
      // amount): when no order started, it is clicked again; an order that started is never charged twice.
      await qr.waitFor({ state: 'visible', timeout: 10_000 }).catch(async () => {
        if (!(await pay.isVisible()))
          await cashier.page
            .locator('[data-testid="charge"]')
            .click({ timeout: 5_000 })
            .catch(() => undefined);
      });
      await qr.waitFor({ state: 'visible', timeout: 30_000 }).catch(async (err: unknown) => {
        await cashier.page.screenshot({ path: '/tmp/bench-soak-cashier.png' });
        await display.page.screenshot({ path: '/tmp/bench-soak-display.png' });
        throw err;
      });
      await pay.click();
      await cashier.page.locator('#new-sale').click();
      await qr.waitFor({ state: 'detached', timeout: 30_000 });
      if (i % every === 0 || i === charges) {
        const s = await sample(i);
        const mb = (n: number) => (n / 1e6).toFixed(1);
        say(
          `    ${fmtInt(i)} charges, ${s.seconds.toFixed(0)} s: server ${mb(s.serverRss)} MB, cashier ${mb(s.cashierRss)} MB ` +
            `(heap ${mb(s.cashierHeap)}), display ${mb(s.displayRss)} MB (heap ${mb(s.displayHeap)})`,
        );
      }
    }
    const secondHalf = samples.filter((s) => s.charges >= charges / 2);
    const slopes = Object.fromEntries(
      SOAK_SERIES.map((k) => [k, slope(secondHalf.map((s) => ({ x: s.charges / 1000, y: s[k] })))]),
    ) as Record<SoakSeries, number>;
    return { charges, samples, slopes };
  } finally {
    await browser.close();
    serve.child.kill('SIGTERM');
    await new Promise((r) => serve.child.once('exit', r));
  }
}

export function renderSoak(r: SoakResult): string {
  const first = r.samples[0]!;
  const last = r.samples.at(-1)!;
  const mb = (n: number) => (n / 1e6).toFixed(1).padStart(8);
  const names: Record<SoakSeries, string> = {
    serverRss: 'server (Node) RSS',
    cashierRss: "cashier page's renderer RSS",
    displayRss: "display page's renderer RSS",
    cashierHeap: "cashier page's JS heap after GC",
    displayHeap: "display page's JS heap after GC",
  };
  const flat = SOAK_SERIES.every((k) => r.slopes[k] <= SOAK_SLOPE_TARGET);
  return [
    `(g) Soak: ${fmtInt(r.charges)} QRIS charges through browser mode, both screens open, ${last.seconds.toFixed(0)} s`,
    '                                       start MB    end MB  slope, 2nd half (MB per 1,000 charges)',
    ...SOAK_SERIES.map(
      (k) => `${names[k].padEnd(36)} ${mb(first[k])}  ${mb(last[k])}  ${(r.slopes[k] / 1e6).toFixed(2).padStart(8)}`,
    ),
    `target: every slope ≤ ${(SOAK_SLOPE_TARGET / 1e6).toFixed(1)} MB per 1,000 charges: ${flat ? 'MET (flat)' : 'NOT MET'}`,
  ].join('\n');
}
