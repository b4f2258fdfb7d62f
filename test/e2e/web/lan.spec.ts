// Browser mode on the store's network (`serve --host 0.0.0.0 --lan`), in a real browser: a tablet opens the
// customer display by the till's LAN address; the cashier's screen opened that way sends no token over the
// network (plain HTTP) and says where it opens instead; on the till (127.0.0.1) everything works as ever.
import { networkInterfaces } from 'node:os';
import { expect, startLoket, test, type LoketServer } from './fixtures';

/** This machine's first non-loopback IPv4 address: what a tablet in the store would type. */
function lanAddress(): string {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  throw new Error('this test needs a non-loopback IPv4 address on this machine (none found)');
}

const lan = lanAddress();
let loket: LoketServer;
test.beforeAll(async () => {
  loket = await startLoket(['--host', '0.0.0.0', '--lan']);
});
test.afterAll(async () => loket?.stop());

const onLan = (url: string) => {
  const u = new URL(url);
  u.hostname = lan;
  return u.href;
};

test('the cashier URL opened by the LAN address sends no token and says to open it on the till', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1024, height: 600 } });
  try {
    const page = await context.newPage();
    const sent: string[] = [];
    page.on('request', (r) => {
      const auth = r.headers()['authorization'] ?? '';
      if (r.url().includes(loket.token) || auth.includes(loket.token) || new URL(r.url()).pathname.startsWith('/api/'))
        sent.push(r.url());
    });
    await page.goto(onLan(loket.cashierUrl));
    await expect(page.getByRole('heading', { name: 'Layar kasir hanya terbuka di komputer kasir' })).toBeVisible();
    await expect(page.getByText('http://127.0.0.1:…')).toBeVisible();
    // A reload (the token now in this tab's storage) still sends nothing.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Layar kasir hanya terbuka di komputer kasir' })).toBeVisible();
    expect(sent).toEqual([]);
  } finally {
    await context.close();
  }
});

test('a tablet shows the customer display by the LAN address while the till charges on 127.0.0.1', async ({
  browser,
}) => {
  const tablet = await browser.newContext({ viewport: { width: 600, height: 1024 } });
  const till = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const display = await tablet.newPage();
    await display.goto(onLan(loket.displayUrl));
    await expect(display.getByText('Selamat datang')).toBeVisible();
    const cashier = await till.newPage();
    await cashier.goto(loket.cashierUrl);
    await cashier.getByRole('textbox', { name: /^Jumlah/ }).fill('12000');
    await cashier.getByLabel('Nama barang').fill('Es teh');
    await cashier.locator('input[type=radio][data-method="qris_dynamic"]').check();
    await cashier.getByRole('button', { name: /^Tagih/ }).click();
    await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');
    await expect(display.getByTestId('display-qr')).toBeVisible();
  } finally {
    await tablet.close();
    await till.close();
  }
});

test('the page in English when this browser chose English before', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(() => localStorage.setItem('loket.lang', 'en'));
    await page.goto(onLan(loket.cashierUrl));
    await expect(page.getByRole('heading', { name: "The cashier's screen opens on the till only" })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  } finally {
    await context.close();
  }
});
