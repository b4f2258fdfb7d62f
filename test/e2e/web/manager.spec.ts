// The manager's screens end to end in browser mode: first-use setup of the manager PIN, the gateway's
// credentials into a private keyring (and nowhere else), Test connection, going live against a standalone
// sandbox acting as the real gateway, back to training, locking; and the till's sign-in when the store asks
// cashiers for their PIN. Idle auto-lock (1 minute at the least) is not waited for here: the renderer's
// unit tests cover the `locked` answer and the screens' own deadline (test/node/renderer/manager-session.test.ts).
import { join } from 'node:path';
import type { Page, Response } from '@playwright/test';
import { startSandbox, type SandboxHandle } from '../../../src-main/sandbox/server';
import { startPrivateKeyring, type PrivateKeyring } from '../../node/helpers/private-keyring';
import { chargeToPanel, expect, fillSale, startLoket, test, type LoketServer } from './fixtures';

const APP_ID = 'warung-live';
const APP_KEY = 'live-appkey-7Hq2-Zx91-last';
const WRONG_KEY = 'not-the-appkey-at-all-9999';
const MANAGER = { name: 'Bu Sri', pin: '97531864' };
const CASHIER = { name: 'Ani', pin: '2468' };

let keyring: PrivateKeyring;
let gateway: SandboxHandle;
let loket: LoketServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  keyring = await startPrivateKeyring();
  // The "real" gateway: a standalone sandbox with credentials of its own.
  gateway = await startSandbox({ host: '127.0.0.1', port: 0, appId: APP_ID, appKey: APP_KEY });
  // The data folder inside the keyring's throwaway folder, so filesContaining() searches it too.
  loket = await startLoket([], { ...keyring.env, LOKET_DATA_DIR: join(keyring.home, 'loket-data') });
});

test.afterAll(async () => {
  await loket?.stop();
  await gateway?.close();
  await keyring?.stop();
});

/** Every answer of the API, read as text: none may carry a secret. */
function recordApiAnswers(page: Page): Promise<string>[] {
  const bodies: Promise<string>[] = [];
  page.on('response', (response: Response) => {
    if (new URL(response.url()).pathname.startsWith('/api/call/')) bodies.push(response.text().catch(() => ''));
  });
  return bodies;
}

async function openCashier(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(loket.cashierUrl);
  await expect(page.getByTestId('till-button')).toBeVisible();
}

async function saveGateway(page: Page): Promise<void> {
  await page.getByTestId('gateway-save').click();
  await expect(page.getByTestId('gateway-status')).toHaveText(/Tersimpan/);
}

async function testConnection(page: Page, verdict: string): Promise<void> {
  await page.getByTestId('test-connection').click();
  await expect(page.getByTestId('connection-report')).toHaveAttribute('data-verdict', verdict);
}

async function unlock(page: Page, pin: string): Promise<void> {
  await page.getByRole('radio', { name: MANAGER.name }).check();
  await page.getByLabel(`PIN ${MANAGER.name}`).fill(pin);
  await page.getByTestId('unlock-submit').click();
}

test('the manager: PIN, credentials, test, go live, a live sale, back to training, lock', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const answers = recordApiAnswers(page);
  await openCashier(page);
  await expect(page.getByTestId('mode-badge')).toHaveText('SANDBOX');

  // First use: F8 opens the manager's area, which asks for the first manager and their PIN.
  await page.keyboard.press('F8');
  await expect(page.getByRole('tab', { name: /Manajer/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('manager-setup')).toBeVisible();
  const setup = page.getByTestId('manager-setup');
  await setup.getByLabel('Nama', { exact: true }).fill(MANAGER.name);
  await setup.getByLabel('PIN (4–8 angka)').fill(MANAGER.pin);
  await setup.getByLabel('Ulangi PIN').fill('97531860');
  await page.getByTestId('setup-submit').click();
  await expect(page.locator('#setup-again-issue')).toHaveText(/Kedua PIN tidak sama/);
  await setup.getByLabel('Ulangi PIN').fill(MANAGER.pin);
  await page.getByTestId('setup-submit').click();
  await expect(page.getByTestId('manager-title')).toHaveText(`Manajer: ${MANAGER.name}`);
  await expect(page.getByTestId('lock-at')).toContainText('Terkunci otomatis pukul');
  // The SANDBOX badge stays in view on the manager's screens.
  await expect(page.getByTestId('mode-badge')).toHaveText('SANDBOX');

  // The store's name, for the customer display later.
  await page.getByTestId('nav-store').click();
  await page.getByLabel('Nama toko').fill('Warung Sri');
  await page.getByTestId('store-save').click();
  await expect(page.getByTestId('store-status')).toHaveText(/Tersimpan/);
  await expect(page.getByTestId('store-name')).toHaveText('Warung Sri');

  // The gateway: a field error is shown at its field, in the screen's language.
  await page.getByTestId('nav-gateway').click();
  const appkeyStatus = page.getByTestId('gateway-appkey-status');
  await expect(appkeyStatus).toContainText('Belum diisi');
  await page.getByLabel('Alamat gateway (base URL)').fill('ftp://gateway');
  await page.getByLabel('Appid').fill(APP_ID);
  await page.getByTestId('gateway-save').click();
  await expect(page.locator('#gateway-baseUrl-issue')).toContainText('Alamat http(s)');
  await expect(page.getByLabel('Alamat gateway (base URL)')).toBeFocused();

  await page.getByLabel('Alamat gateway (base URL)').fill(gateway.url);
  await page.getByLabel('Jalur cek status').fill('/api/status');
  await page.getByLabel('Appkey', { exact: true }).fill(APP_KEY);
  await saveGateway(page);
  // Only "set …last4": the field is empty again, and the key is nowhere on the page.
  await expect(appkeyStatus).toContainText('Tersimpan, berakhiran …last');
  await expect(appkeyStatus).toContainText('di keychain sistem');
  await expect(page.getByLabel('Appkey', { exact: true })).toHaveValue('');
  await expectKeyNotOnPage(page);

  // In the keyring, and in no file (the data folder and the keyring's folder are both under keyring.dir).
  const items = await keyring.search('Loket');
  expect(items.map((i) => [i.attributes.account, i.secret])).toContainEqual(['appkey', APP_KEY]);
  expect(keyring.filesContaining(APP_KEY)).toEqual([]);

  await testConnection(page, 'ok');
  const report = page.getByTestId('connection-report');
  await expect(report).toContainText('Terhubung');
  for (const fact of ['reachable', 'appId', 'signature'])
    await expect(page.getByTestId(`fact-${fact}`)).toHaveAttribute('data-value', 'true');
  expect(gateway.orders.all(), 'the test creates nothing').toHaveLength(0);

  // A wrong key: the test says the gateway refuses it; then the right one again.
  await page.getByLabel('Appkey', { exact: true }).fill(WRONG_KEY);
  await saveGateway(page);
  await expect(appkeyStatus).toContainText('…9999');
  await testConnection(page, 'bad_key');
  await expect(report).toContainText('Appkey ditolak gateway');
  await expect(page.getByTestId('fact-reachable')).toHaveAttribute('data-value', 'true');
  await expect(page.getByTestId('fact-appId')).toHaveAttribute('data-value', 'true');
  await page.getByLabel('Appkey', { exact: true }).fill(APP_KEY);
  await saveGateway(page);
  await testConnection(page, 'ok');

  // Going live names the gateway: a wrong address is refused in the server's words.
  await expect(page.getByTestId('mode-setting')).toHaveText('Latihan');
  await page.getByTestId('go-live').click();
  const dialog = page.getByTestId('mode-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('mode-dialog-url')).toHaveText(gateway.url);
  await dialog.getByLabel('Ketik alamat gateway').fill('https://not-the-gateway.example');
  await page.getByTestId('mode-confirm-submit').click();
  // In the screen's language, from the refusal's reason (never the server's English).
  await expect(page.getByTestId('mode-refused')).toContainText(`ketik alamat gateway persis: ${gateway.url}`);
  await dialog.getByLabel('Ketik alamat gateway').fill(gateway.url);
  await page.getByTestId('mode-confirm-submit').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('mode-badge')).toHaveText('LANGSUNG');
  await expect(page.getByText('SANDBOX', { exact: true })).toHaveCount(0);
  await expect(page.getByTestId('mode-running')).toHaveText('Gateway sungguhan');

  // The customer display, in a context of its own: the store's name, live.
  const displayContext = await browser.newContext({ viewport: { width: 1024, height: 600 } });
  try {
    const display = await displayContext.newPage();
    await display.goto(loket.displayUrl);
    await expect(display.getByTestId('display-store')).toHaveText('Warung Sri');
    await expect(display.getByTestId('mode-badge')).toHaveText('LANGSUNG');
    await expect(display.getByText('SANDBOX', { exact: true })).toHaveCount(0);
  } finally {
    await displayContext.close();
  }

  // A live sale reaches the real gateway (the standalone sandbox's order list).
  await page.keyboard.press('F2');
  await fillSale(page, { amount: 15000, item: 'Nasi goreng', method: 'qris_dynamic' });
  const orderId = await chargeToPanel(page);
  expect(gateway.orders.get(orderId)).toBeDefined();
  await expect(page.getByRole('button', { name: /Simulasikan/ })).toHaveCount(0);

  // Back to training waits for that order.
  await page.keyboard.press('F8');
  await expect(page.getByTestId('open-orders')).toHaveText('1');
  await page.getByTestId('go-training').click();
  await page.getByTestId('mode-confirm-submit').click();
  await expect(page.getByTestId('mode-refused')).toContainText('Masih ada 1 pesanan terbuka dalam mode langsung');
  await page.getByRole('button', { name: 'Batal' }).click();
  await expect(dialog).toBeHidden();

  await page.keyboard.press('F2');
  await page.getByRole('button', { name: 'Batalkan pesanan' }).click();
  await page.getByRole('textbox', { name: 'Alasan pembatalan' }).fill('pelanggan batal');
  await page.getByRole('button', { name: 'Ya, batalkan' }).click();
  await expect(page.getByTestId('payment-panel')).toHaveAttribute('data-state', 'cancelled');
  await expect(page.getByTestId('cancel-dialog')).toBeHidden();

  await page.keyboard.press('F8');
  await expect(page.getByTestId('open-orders')).toHaveText('0');
  await page.getByTestId('go-training').click();
  await page.getByTestId('mode-confirm-submit').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('mode-badge')).toHaveText('SANDBOX');
  await expect(page.getByTestId('mode-setting')).toHaveText('Latihan');

  // The audit log tells who did what, and never the key.
  await page.getByTestId('nav-audit').click();
  const audit = page.getByTestId('audit-table');
  await expect(audit.locator('tr[data-action="mode.changed"]')).toHaveCount(2);
  await expect(audit.locator('tr[data-action="secret.set"]').first()).toContainText(MANAGER.name);
  await expect(audit).not.toContainText(APP_KEY);

  // Lock: the PIN pad comes back; a wrong PIN is refused; the right one opens again.
  await page.getByTestId('manager-lock').click();
  await expect(page.getByTestId('manager-unlock')).toBeVisible();
  await expect(page.getByLabel(`PIN ${MANAGER.name}`)).toBeFocused();
  await unlock(page, '11111111');
  await expect(page.getByTestId('unlock-problem')).toHaveText(/PIN salah/);
  await expect(page.getByTestId('manager-screens')).toHaveCount(0);
  await unlock(page, MANAGER.pin);
  await expect(page.getByTestId('manager-title')).toHaveText(`Manajer: ${MANAGER.name}`);

  // A reload locks: the session's token lived in this page only.
  await page.reload();
  await expect(page.getByTestId('till-button')).toBeVisible();
  await page.keyboard.press('F8');
  await expect(page.getByTestId('manager-unlock')).toBeVisible();
  expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }))).not.toMatch(
    /manager|session/i,
  );

  await expectKeyNotOnPage(page);
  for (const body of await Promise.all(answers)) expect(body).not.toContain(APP_KEY);
  expect(answers.length).toBeGreaterThan(10);
});

test('with cashier PINs required, the sale form asks for sign-in, and a cashier with a PIN can charge', async ({
  page,
}) => {
  await openCashier(page);
  await page.keyboard.press('F8');
  await unlock(page, MANAGER.pin);

  await page.getByTestId('nav-staff').click();
  const add = page.getByRole('form', { name: 'Tambah staf' });
  await add.getByLabel('Nama', { exact: true }).fill(CASHIER.name);
  await add.getByLabel('PIN (4–8 angka)').fill(CASHIER.pin);
  await add.getByLabel('Ulangi PIN').fill(CASHIER.pin);
  await page.getByTestId('staff-add').click();
  await expect(page.getByTestId('staff-list').locator(`[data-staff="${CASHIER.name}"]`)).toContainText('Kasir');

  await page.getByTestId('nav-access').click();
  await page.getByLabel('Minta PIN kasir sebelum menagih').check();
  await page.getByTestId('access-save').click();
  await expect(page.getByTestId('access-status')).toHaveText(/Tersimpan/);

  // Nobody is signed in: the sale form gives way to signing in.
  await page.keyboard.press('F2');
  const prompt = page.getByTestId('sign-in-prompt');
  await expect(prompt).toBeVisible();
  await expect(page.getByTestId('sale-form')).toHaveCount(0);
  await expect(page.getByTestId('till-staff')).toHaveText('Belum masuk');

  await prompt.getByRole('radio', { name: CASHIER.name }).check();
  await prompt.getByLabel(`PIN ${CASHIER.name}`).fill('1357');
  await prompt.getByRole('button', { name: 'Masuk' }).click();
  await expect(page.getByTestId('prompt-problem')).toHaveText(/PIN salah/);

  // Typed on the PIN pad, as on a touch screen.
  for (const digit of CASHIER.pin) await prompt.getByRole('button', { name: digit, exact: true }).click();
  await prompt.getByRole('button', { name: 'Masuk' }).click();
  await expect(page.getByTestId('till-staff')).toHaveText(`Kasir: ${CASHIER.name}`);
  await expect(page.getByRole('textbox', { name: /^Jumlah/ })).toBeFocused();

  await fillSale(page, { amount: 12000, item: 'Teh manis', method: 'qris_dynamic' });
  const orderId = await chargeToPanel(page);
  const order = await loket.call('getOrder', orderId);
  expect(order?.state).toBe('awaiting_payment');

  // The header's button switches: signing out brings the prompt back once the sale is over.
  await page.getByRole('button', { name: 'Simulasikan pembayaran' }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('✓ Lunas');
  await page.getByTestId('till-button').click();
  await expect(page.getByTestId('sign-in-dialog')).toBeVisible();
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('till-staff')).toHaveText('Belum masuk');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: /Penjualan baru/ }).click();
  await expect(page.getByTestId('sign-in-prompt')).toBeVisible();
});

async function expectKeyNotOnPage(page: Page): Promise<void> {
  expect(await page.content()).not.toContain(APP_KEY);
  const values = await page
    .locator('input, textarea')
    .evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value));
  expect(values).not.toContain(APP_KEY);
}
