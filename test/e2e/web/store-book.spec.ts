// The store book on the screens (docs/store-book.md): browser mode enrolled in a real PostgreSQL (a throwaway
// cluster). The cashier's header shows the link — synced, then "offline since HH:MM" in the store's zone while
// PostgreSQL is stopped — in both languages at the sizes stores use; a till not enrolled shows nothing; the manager
// reads the whole store's day and its export from the day and export screens.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { systemClock } from '../../../src-main/core/ports';
import { enrolTerminal } from '../../../src-main/store-book/enrol';
import { LocalBook } from '../../../src-main/store-book/local-book';
import { connectStore } from '../../../src-main/store-book/pg-connect';
import { initStoreBook } from '../../../src-main/store-book/pg-schema';
import { formatStoreUrl, parseStoreUrl } from '../../../src-main/store-book/pg-url';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { dayIn } from '../../../src-main/common/gateway-time';
import { SyncWorker } from '../../../src-main/store-book/sync-worker';
import { PG_MISSING, startPgCluster, type PgCluster } from '../../node/helpers/pg-cluster';
import { openTill } from '../../node/helpers/store-book';
import { expect, startLoket, test, type LoketServer } from './fixtures';

const SIZES = [
  { width: 1024, height: 600 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 600, height: 1024 },
];
/** Where the screenshots go to be looked at (never the repository). */
const SHOTS = process.env.LOKET_SHOTS ?? join(tmpdir(), 'loket-store-book-shots');

test.describe('the store book on the screens', () => {
  test.skip(PG_MISSING !== undefined, PG_MISSING ?? '');
  test.describe.configure({ timeout: 120_000 });

  let cluster: PgCluster;
  let dataDir = '';
  let storeUrl = '';
  let adminUrl = '';
  const extraDirs: string[] = [];

  /** Another terminal's data folder, enrolled; the URL with its password. */
  async function enrol(dir: string, terminalId: string): Promise<string> {
    const local = LocalBook.open(dir);
    const admin = await connectStore(parseStoreUrl(adminUrl));
    try {
      const e = await enrolTerminal(admin, parseStoreUrl(adminUrl), {
        terminalId,
        instanceId: local.instanceId(),
        clock: systemClock,
      });
      local.saveLink(e.link);
      return formatStoreUrl(e.url, { withPassword: true });
    } finally {
      await admin.end();
      local.close();
    }
  }

  test.beforeAll(async () => {
    cluster = await startPgCluster();
    await cluster.createDatabase('toko');
    adminUrl = cluster.url({ database: 'toko' });
    dataDir = await mkdtemp(join(tmpdir(), 'loket-e2e-store-'));
    const admin = await connectStore(parseStoreUrl(adminUrl));
    try {
      await initStoreBook(admin, { store: { code: 'JK1', name: 'Toko Maju', timeZone: 'Asia/Jakarta' } });
    } finally {
      await admin.end();
    }
    storeUrl = await enrol(dataDir, 'T01');
  });

  test.afterAll(async () => {
    await cluster?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    for (const dir of extraDirs) await rm(dir, { recursive: true, force: true });
  });

  async function setLang(page: Page, lang: 'id' | 'en'): Promise<void> {
    await page.locator('#ui-lang').selectOption(lang);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
  }

  async function shoot(page: Page, name: string): Promise<void> {
    for (const lang of ['id', 'en'] as const) {
      await setLang(page, lang);
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await expect(page.getByTestId('store-link')).toBeInViewport();
        await page.screenshot({ path: join(SHOTS, `${name}-${lang}-${size.width}x${size.height}.png`) });
      }
    }
  }

  test("the cashier's header: synced, then offline since HH:MM while the store book is down, then synced again", async ({
    page,
  }) => {
    let loket: LoketServer | undefined;
    try {
      loket = await startLoket([], { LOKET_DATA_DIR: dataDir, LOKET_STORE_URL: storeUrl, LOKET_TERMINAL_ID: 'T01' });
      await page.setViewportSize({ width: 1366, height: 768 });
      await page.goto(loket.cashierUrl);
      const link = page.getByTestId('store-link');
      await expect(link).toHaveAttribute('data-state', 'synced', { timeout: 20_000 });
      await expect(link).toHaveText('Toko: tersinkron');
      await shoot(page, 'synced');

      await cluster.halt();
      try {
        await expect(link).toHaveAttribute('data-state', 'offline', { timeout: 30_000 });
        const since = (await loket.call('storeLink')).since!;
        const hhmm = new Intl.DateTimeFormat('en-GB', {
          timeZone: 'Asia/Jakarta',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(new Date(since));
        await setLang(page, 'en');
        await expect(link).toHaveText(`Store offline since ${hhmm}`);
        await setLang(page, 'id');
        await expect(link).toHaveText(`Toko offline sejak ${hhmm.replace(':', '.')}`);
        await shoot(page, 'offline');
      } finally {
        await cluster.resume();
      }
      await expect(link).toHaveAttribute('data-state', 'synced', { timeout: 60_000 });
    } finally {
      await loket?.stop();
    }
  });

  test('a till not enrolled shows no link', async ({ cashier, loket }) => {
    expect(await loket.call('storeLink')).toEqual({ state: 'not_enrolled', waiting: 0 });
    await expect(cashier.locator('header.bar')).toHaveAttribute('data-store-link', 'not_enrolled');
    await expect(cashier.getByTestId('store-link')).toHaveCount(0);
  });

  test("the manager's day and export read the whole store: each terminal's backlog, an incomplete day said so", async ({
    page,
  }) => {
    // T02 sold today and sent everything; T03 is enrolled and has never reported.
    const t2 = openTill('T02', { dir: await mkdtemp(join(tmpdir(), 'loket-e2e-t02-')), now: () => new Date() });
    extraDirs.push(t2.dir);
    const t2Url = await enrol(t2.dir, 'T02');
    t2.sell(3, { amount: 40_000 });
    const worker = new SyncWorker({ local: t2.local(), env: { LOKET_STORE_URL: t2Url }, clock: systemClock });
    expect(await worker.syncNow()).toMatchObject({ outcome: 'synced' });
    await worker.stop();
    t2.close();
    const t3 = await mkdtemp(join(tmpdir(), 'loket-e2e-t03-'));
    extraDirs.push(t3);
    await enrol(t3, 'T03');
    const today = dayIn(new Date(), 'Asia/Jakarta');

    let loket: LoketServer | undefined;
    try {
      loket = await startLoket([], { LOKET_DATA_DIR: dataDir, LOKET_STORE_URL: storeUrl, LOKET_TERMINAL_ID: 'T01' });
      await page.setViewportSize({ width: 1366, height: 768 });
      await page.goto(loket.cashierUrl);
      await expect(page.getByRole('button', { name: /^Tagih/ })).toBeVisible();
      await page.keyboard.press('F8');
      const setup = page.getByTestId('manager-setup');
      await setup.getByLabel('Nama', { exact: true }).fill('Bu Sri');
      await setup.getByLabel('PIN (4–8 angka)').fill('97531864');
      await setup.getByLabel('Ulangi PIN').fill('97531864');
      await page.getByTestId('setup-submit').click();
      await expect(page.getByTestId('manager-title')).toHaveText('Manajer: Bu Sri');

      await page.getByTestId('nav-day').click();
      await page.getByRole('radio', { name: /^Seluruh toko/ }).check();
      const store = page.getByTestId('store-day');
      await expect(store).toHaveAttribute('data-complete', 'false');
      await expect(page.getByTestId('store-day-incomplete')).toBeVisible();
      const terminals = page.getByTestId('store-terminals');
      await expect(terminals.locator('tr[data-terminal="T02"] td')).toHaveText(['3', 'Rp80.002', 'semua masuk']);
      await expect(terminals.locator('tr[data-terminal="T03"] td').last()).toHaveText('belum pernah melapor');
      // The till's own closing is not offered for the whole store.
      await expect(page.getByTestId('day-close')).toHaveCount(0);
      for (const lang of ['id', 'en'] as const) {
        await setLang(page, lang);
        for (const size of SIZES) {
          await page.setViewportSize(size);
          await page.screenshot({
            path: join(SHOTS, `day-store-${lang}-${size.width}x${size.height}.png`),
            fullPage: true,
          });
        }
      }
      await setLang(page, 'id');
      await page.setViewportSize({ width: 1366, height: 768 });
      // Back to this till: its own day, with its closing.
      await page.getByRole('radio', { name: /^Kasir ini/ }).check();
      await expect(page.getByTestId('day-closing')).toBeVisible();

      await page.getByTestId('nav-export').click();
      await page.getByRole('radio', { name: /^Seluruh toko/ }).check();
      await page.screenshot({ path: join(SHOTS, 'export-store-id-1366x768.png') });
      const download = page.waitForEvent('download');
      await page.getByTestId('export-run').click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`loket-store-orders-${today}.csv`);
      const rows = parse(readFileSync(await file.path()), { delimiter: ';', columns: true, bom: true }) as Record<
        string,
        string
      >[];
      expect(rows).toHaveLength(3);
      expect(rows.every((r) => r.order_id!.startsWith('T02-'))).toBe(true);
    } finally {
      await loket?.stop();
    }
  });
});
