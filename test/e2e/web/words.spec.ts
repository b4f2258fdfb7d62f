// Text in the screen's language (docs/architecture.md, "Typed errors, one envelope"): every sentence the manager's
// screens show of the server's — a refused staff change, a print result, an attention outcome, a settings rule,
// a refused switch to live, the connection test, the audit log — comes from a reason or a rule and its numbers,
// worded in the screen's language; an Indonesian screen shows none of the server's English. Dates read and write as
// dd/mm/yyyy whatever the browser's own locale. And the "no keychain" notice: one line, with a link that opens the
// keychain's section of the docs. Screenshots of each screen in both languages go to /tmp/loket-shots-words/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { DEFAULT_GATEWAY_SETTINGS } from '../../../src-main/common/settings';
import { SETTINGS_KEY } from '../../../src-main/core/settings/settings-store';
import { openStoreBooks } from '../../../src-main/runtime';
import { startPrivateKeyring, type PrivateKeyring } from '../../node/helpers/private-keyring';
import { tempDir } from '../../node/helpers/loket';
import { expect, seriousViolations, startLoket, stubPrint, test, type LoketServer } from './fixtures';
import { layoutProblems, name, resize, type Size } from './layout-checks';

const MANAGER = { name: 'Bu Sri', pin: '97531864' };
const SHOTS = '/tmp/loket-shots-words';
const SIZES: Size[] = [
  { width: 1024, height: 600 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 600, height: 1024 },
];

/**
 * The server's English that an Indonesian screen once showed (issue 16): none may appear again. Each is a piece of
 * the server's `message` (the CLI's and the log's words), which the screens no longer show.
 */
const SERVER_ENGLISH = [
  'there is already a member of staff',
  'is the only active manager',
  'No printer is set up',
  'is now awaiting_payment',
  ' is now ',
  'milliseconds',
  'no appkey is stored',
  'type the gateway',
  'Loket did not contact',
  'not a setting Loket knows',
  'order(s) are still',
];

test.describe.configure({ mode: 'serial', timeout: 180_000 });

let loket: LoketServer;
let keyring: PrivateKeyring;
let context: BrowserContext;
let page: Page;

async function section(id: string): Promise<void> {
  await page.getByTestId(`nav-${id}`).click();
  await expect(page.locator(`#${id}-title`)).toBeFocused();
}

/** Nothing of the server's English on the whole page (the manager's screens and the till behind them). */
async function noServerEnglish(where: string): Promise<void> {
  const text = await page.locator('body').innerText();
  for (const words of SERVER_ENGLISH) expect(text, `${where}: "${words}"`).not.toContain(words);
}

/** The screen as it is now, in both languages at every size: screenshots, and nothing cut off or covered. */
async function shots(screen: string, options: { layout?: boolean } = {}): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const lang of ['id', 'en'] as const) {
    await page.locator('#ui-lang').selectOption(lang);
    for (const size of SIZES) {
      await resize(page, size);
      await page.screenshot({ path: `${SHOTS}/${screen}-${lang}-${name(size)}.png` });
      const panel = page.locator('.tabpanel:not([hidden])');
      if (await panel.evaluate((el) => el.scrollHeight > el.clientHeight + 1).catch(() => false)) {
        await panel.evaluate((el) => el.scrollTo(0, el.scrollHeight));
        await page.screenshot({ path: `${SHOTS}/${screen}-${lang}-${name(size)}-end.png` });
        await panel.evaluate((el) => el.scrollTo(0, 0));
      }
      if (options.layout !== false) expect(await layoutProblems(page), `${screen} ${lang} ${name(size)}`).toEqual([]);
    }
  }
  await page.locator('#ui-lang').selectOption('id');
  await resize(page, { width: 1366, height: 768 });
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  // A keychain of its own, empty: the gateway's appkey is not stored yet.
  keyring = await startPrivateKeyring();
  loket = await startLoket([], keyring.env);
  // The browser's own locale is American English: a native date field would show mm/dd/yyyy.
  context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US' });
  page = await context.newPage();
  await stubPrint(page);
  await page.goto(loket.cashierUrl);
  await expect(page.getByRole('button', { name: /^Tagih/ })).toBeVisible();
  await page.keyboard.press('F8');
  const setup = page.getByTestId('manager-setup');
  await setup.getByLabel('Nama', { exact: true }).fill(MANAGER.name);
  await setup.getByLabel('PIN (4–8 angka)').fill(MANAGER.pin);
  await setup.getByLabel('Ulangi PIN').fill(MANAGER.pin);
  await page.getByTestId('setup-submit').click();
  await expect(page.getByTestId('manager-title')).toHaveText(`Manajer: ${MANAGER.name}`);
});

test.afterAll(async () => {
  await context?.close();
  await loket?.stop();
  await keyring?.stop();
});

test('staff: a taken name and demoting the last manager are refused in Indonesian', async () => {
  await section('staff');
  const add = page.locator('form[aria-labelledby="staff-add-title"]');
  for (let i = 0; i < 2; i++) {
    await add.getByLabel('Nama', { exact: true }).fill('Ani');
    await add.getByLabel('PIN (4–8 angka)').fill('2468');
    await add.getByLabel('Ulangi PIN').fill('2468');
    await page.getByTestId('staff-add').click();
    if (i === 0) await expect(page.getByTestId('staff-list').locator('[data-staff="Ani"]')).toBeVisible();
  }
  await expect(add.getByRole('alert')).toHaveText('Sudah ada staf bernama Ani: pilih nama lain.');

  const me = page.getByTestId('staff-list').locator(`[data-staff="${MANAGER.name}"]`);
  await me.getByRole('combobox').selectOption('cashier');
  await expect(me.getByRole('alert')).toHaveText(
    `${MANAGER.name} adalah satu-satunya manajer aktif dan tidak dapat dijadikan kasir: jadikan staf lain manajer terlebih dahulu.`,
  );
  await noServerEnglish('staff');
  expect(await seriousViolations(page), 'staff').toEqual([]);
  await shots('staff-refused');
  // In English, from the same reasons.
  await page.locator('#ui-lang').selectOption('en');
  await expect(add.getByRole('alert')).toHaveText(
    'There is already a member of staff called Ani: choose another name.',
  );
  await page.locator('#ui-lang').selectOption('id');
});

test('the printer test, a settings rule in seconds, the connection test not tried, going live refused', async () => {
  await section('printer');
  await page.getByTestId('test-print').click();
  await expect(page.getByTestId('test-print-result')).toContainText('Uji cetak gagal');
  await expect(page.getByTestId('test-print-result')).toContainText('Belum ada printer yang diatur');
  await noServerEnglish('printer');
  await shots('printer-test');

  await section('gateway');
  await page.locator('#gateway-baseUrl').fill('https://gateway.example');
  await page.locator('#gateway-appId').fill('warung-1');
  await page.locator('#gateway-timeoutSeconds').fill('999');
  await page.getByTestId('gateway-save').click();
  // The setting is in milliseconds, the field in seconds: the rule is said in seconds.
  await expect(page.locator('#gateway-timeoutSeconds-issue')).toHaveText(/Bilangan bulat 1–120 \(detik\)/);
  await page.locator('#gateway-timeoutSeconds').fill('15');
  await page.getByTestId('gateway-save').click();
  await expect(page.getByTestId('gateway-status')).toHaveText(/Tersimpan/);

  // No appkey stored: the test sends nothing, and says "not tried", and why.
  await page.getByTestId('test-connection').click();
  const report = page.getByTestId('connection-report');
  await expect(report).toHaveAttribute('data-verdict', 'no_secret');
  await expect(report).toContainText('Tidak diuji');
  await expect(page.getByTestId('fact-reachable')).toContainText('tidak diuji');
  await expect(page.getByTestId('connection-message')).toContainText('Belum ada appkey yang tersimpan');
  await noServerEnglish('connection test');

  // Going live without readable credentials: refused, as the command line refuses it.
  await page.getByTestId('go-live').click();
  await page.locator('#mode-confirm').fill('https://gateway.example');
  await page.getByTestId('mode-confirm-submit').click();
  await expect(page.getByTestId('mode-refused')).toContainText('belum ada appkey yang tersimpan');
  await expect(page.getByTestId('mode-setting')).toHaveText('Latihan');
  await noServerEnglish('mode dialog');
  expect(await seriousViolations(page), 'mode dialog').toEqual([]);
  await shots('mode-refused', { layout: false });
  await page.keyboard.press('Escape');
  await page.locator('#gateway-timeoutSeconds').fill('999');
  await page.getByTestId('gateway-save').click();
  await expect(page.locator('#gateway-timeoutSeconds-issue')).toBeVisible();
  await shots('gateway');
});

test('the audit log says values in words; an attention outcome is worded, not "order … is now …"', async () => {
  await section('access');
  await page.getByLabel('Minta PIN kasir sebelum menagih').check();
  await page.getByTestId('access-save').click();
  await expect(page.getByTestId('access-status')).toHaveText(/Tersimpan/);
  await page.getByLabel('Minta PIN kasir sebelum menagih').uncheck();
  await page.getByTestId('access-save').click();
  await expect(page.getByTestId('access-status')).toHaveText(/Tersimpan/);

  await section('audit');
  const audit = page.getByTestId('audit-table');
  const pinRow = audit.locator('tr[data-action="settings.changed"]').filter({ hasText: 'requireCashierPin' });
  await expect(pinRow.first()).toContainText('ya → tidak');
  await expect(audit).not.toContainText('true');
  await expect(audit).not.toContainText('false');
  await expect(audit.locator('tr[data-action="connection.tested"]')).toContainText('hasil: Tidak diuji');
  await noServerEnglish('audit');
  await shots('audit');

  // An order whose outcome is unknown, checked with a reason: the outcome in words.
  await loket.setFaults({ http_status: null, drop_after_store: true, count: 2 });
  await loket.call('showOnDisplay', null);
  const made = await loket.call('createOrder', { methodId: 'qris_dynamic', amount: 9_000, itemName: 'Es teh' });
  expect(made.order?.state).toBe('unknown');
  await section('attention');
  await page.getByRole('button', { name: `Periksa ke gateway: ${made.order!.id}` }).click();
  await page.locator('#attention-reason').fill('Pelanggan menanyakan');
  await page.getByTestId('attention-confirm').click();
  await expect(page.getByTestId('attention-outcome')).toContainText(
    `Pesanan ${made.order!.id} sekarang menunggu pembayaran.`,
  );
  await noServerEnglish('attention');
  await shots('attention-outcome');
});

test('dates are dd/mm/yyyy in a browser set to American English; a date that is none is said at the field', async () => {
  await section('day');
  const field = page.locator('#day-date');
  await expect(field).toHaveValue(/^\d{2}\/\d{2}\/\d{4}$/);
  await field.fill('01/02/2026');
  await expect(page.getByTestId('day-name')).toHaveText('Minggu, 01/02/2026');
  await field.fill('31/02/2026');
  await expect(page.locator('#day-date-issue')).toContainText('Tulis tanggal sebagai hari/bulan/tahun');
  await expect(page.getByTestId('day-name')).toHaveText('Minggu, 01/02/2026');
  await field.fill('2026-02-03');
  await expect(page.getByTestId('day-name')).toHaveText('Selasa, 03/02/2026');
  await expect(field).toHaveValue('03/02/2026');
  await shots('day-date');
  await page.getByRole('button', { name: 'Hari ini', exact: true }).click();
});

test('the no-keychain notice: one line in the screen’s language, with the docs a click away', async ({ browser }) => {
  test.setTimeout(120_000);
  const broken = await startPrivateKeyring({ mode: 'no-secret-service' });
  const own = tempDir('loket-words-keychain-');
  const dataDir = join(own.path, 'data');
  // The settings say live, with a gateway; this Loket cannot reach a keychain.
  const store = openStoreBooks({ dataDir, env: {} });
  store.settings.set(SETTINGS_KEY, {
    ...store.settings.load(),
    mode: 'live',
    gateway: { ...DEFAULT_GATEWAY_SETTINGS, baseUrl: 'https://gateway.example', appId: 'warung-1' },
  });
  store.close();
  const live = await startLoket([], { ...broken.env, LOKET_DATA_DIR: dataDir });
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const p = await ctx.newPage();
  try {
    await p.goto(live.cashierUrl);
    const notice = p.getByTestId('notice');
    await expect(notice).toHaveText(/Mode latihan, bukan langsung: Mode langsung tidak dapat membaca appkey/);
    await expect(notice).toHaveAttribute('data-reason', 'live.keychain');
    // One line: no shell command, and the keypad and Charge stay on screen.
    const box = (await notice.boundingBox())!;
    expect(box.height).toBeLessThan(40);
    await expect(notice).not.toContainText('dbus-run-session');
    const charge = p.getByRole('button', { name: /^Tagih/ });
    await expect(charge).toBeInViewport();
    mkdirSync(SHOTS, { recursive: true });
    for (const lang of ['id', 'en'] as const) {
      await p.locator('#ui-lang').selectOption(lang);
      for (const size of SIZES) {
        await resize(p, size);
        await p.screenshot({ path: `${SHOTS}/keychain-notice-${lang}-${name(size)}.png` });
      }
    }
    await resize(p, { width: 1366, height: 768 });
    await expect(notice).toHaveText(/Training mode, not live: Live mode cannot read the appkey/);
    await p.locator('#ui-lang').selectOption('id');

    // The link opens the keychain's section of docs/settings.md, read from the docs shipped with Loket.
    await p.getByTestId('docs-link-keychain').click();
    const dialog = p.getByTestId('docs-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('heading')).toHaveText('The OS keychain, per system');
    await expect(dialog).toContainText('Dari docs/settings.md');
    await expect(p.getByTestId('docs-text')).toContainText('dbus-run-session');
    expect(await seriousViolations(p), 'docs dialog').toEqual([]);
    for (const size of SIZES) {
      await resize(p, size);
      await p.screenshot({ path: `${SHOTS}/keychain-docs-id-${name(size)}.png` });
    }
    await resize(p, { width: 1366, height: 768 });
    await p.keyboard.press('Escape');

    // The manager's Gateway section: the same one line.
    await p.keyboard.press('F8');
    const setup = p.getByTestId('manager-setup');
    await setup.getByLabel('Nama', { exact: true }).fill(MANAGER.name);
    await setup.getByLabel('PIN (4–8 angka)').fill(MANAGER.pin);
    await setup.getByLabel('Ulangi PIN').fill(MANAGER.pin);
    await p.getByTestId('setup-submit').click();
    await p.getByTestId('nav-gateway').click();
    const line = p.getByTestId('keychain-down');
    await expect(line).toHaveAttribute('data-problem', 'no_secret_service');
    await expect(line).toContainText('Keychain sistem tidak dapat dipakai (tidak ada layanan keyring yang menjawab)');
    await expect(line.getByTestId('docs-link-keychain')).toBeVisible();
    await expect(p.getByTestId('mode-notice')).toContainText('Mode langsung tidak dapat membaca appkey');
    for (const lang of ['id', 'en'] as const) {
      await p.locator('#ui-lang').selectOption(lang);
      for (const size of SIZES) {
        await resize(p, size);
        await line.evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await p.screenshot({ path: `${SHOTS}/keychain-gateway-${lang}-${name(size)}.png` });
        expect(await layoutProblems(p), `gateway ${lang} ${name(size)}`).toEqual([]);
      }
    }
  } finally {
    await ctx.close();
    await live.stop();
    await broken.stop();
    own.remove();
  }
});
