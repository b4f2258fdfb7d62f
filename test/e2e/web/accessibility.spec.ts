// axe-core finds no serious or critical violation on each screen and state; landmarks, language and live
// regions are what assistive technology needs.
import { chargeToPanel, expect, fillSale, seriousViolations, test } from './fixtures';

test('cashier: idle, with field errors, with a gateway error, with a payment panel, paid, and today', async ({
  cashier,
  loket,
}) => {
  // Six axe runs on one page: on a busy two-core machine they alone can take half a minute.
  test.slow();
  await expect(cashier.locator('html')).toHaveAttribute('lang', 'id');
  await expect(cashier.getByRole('banner')).toBeVisible();
  await expect(cashier.getByRole('main')).toBeVisible();
  await expect(cashier.getByRole('radiogroup', { name: 'Metode pembayaran' })).toBeVisible();
  await expect(cashier.getByTestId('mode-badge')).toHaveText('SANDBOX');
  expect(await seriousViolations(cashier), 'idle').toEqual([]);

  await fillSale(cashier, { amount: 5, item: 'Sepatu', method: 'va_bca' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  await expect(cashier.locator('#sale-customer-error')).toBeVisible();
  expect(await seriousViolations(cashier), 'field errors').toEqual([]);

  await loket.setFaults({ drop_after_store: true, count: 2 });
  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  await expect(cashier.getByTestId('charge-problem')).toBeVisible();
  expect(await seriousViolations(cashier), 'unknown outcome').toEqual([]);
  // An unknown outcome holds the till: Check again finds the order, which goes on the payment panel.
  await cashier.getByRole('button', { name: 'Periksa lagi' }).click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');
  await expect(cashier.getByTestId('preview-qr')).toBeVisible();
  // The payment state is announced politely as it changes.
  await expect(cashier.getByTestId('payment-state')).toHaveAttribute('aria-live', 'polite');
  expect(await seriousViolations(cashier), 'payment panel').toEqual([]);

  await cashier.getByRole('button', { name: 'Batalkan pesanan' }).click();
  await expect(cashier.getByRole('dialog')).toBeVisible();
  expect(await seriousViolations(cashier), 'cancel dialog').toEqual([]);
  await cashier.keyboard.press('Escape');

  await cashier.getByRole('button', { name: 'Simulasikan pembayaran' }).click();
  await expect(cashier.getByTestId('payment-state')).toHaveText('✓ Lunas');
  expect(await seriousViolations(cashier), 'paid').toEqual([]);

  await cashier.getByRole('tab', { name: /Hari ini/ }).click();
  await expect(cashier.getByTestId('today-table')).toBeVisible();
  expect(await seriousViolations(cashier), 'today').toEqual([]);
});

test('display: idle, a QR, a virtual account, and paid', async ({ cashier, display }) => {
  await expect(display.locator('html')).toHaveAttribute('lang', 'id');
  await expect(display.getByRole('main')).toBeVisible();
  await expect(display.getByText('Selamat datang')).toBeVisible();
  await expect(display.getByTestId('mode-badge')).toHaveText('SANDBOX');
  expect(await seriousViolations(display), 'idle').toEqual([]);

  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  await chargeToPanel(cashier);
  await expect(display.getByTestId('display-qr')).toBeVisible();
  expect(await seriousViolations(display), 'QR').toEqual([]);

  await cashier.getByRole('button', { name: 'Batalkan pesanan' }).click();
  await cashier.getByRole('textbox', { name: 'Alasan pembatalan' }).fill('salah metode');
  await cashier.getByRole('button', { name: 'Ya, batalkan' }).click();
  await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'cancelled');
  expect(await seriousViolations(display), 'cancelled').toEqual([]);
  await cashier.getByRole('button', { name: /Penjualan baru/ }).click();
  await expect(display.getByTestId('display-idle')).toBeVisible();

  await fillSale(cashier, { amount: 150000, item: 'Beras premium 5 kg', method: 'va_bni' });
  await chargeToPanel(cashier);
  await expect(display.getByTestId('display-va')).toBeVisible();
  expect(await seriousViolations(display), 'VA').toEqual([]);

  await cashier.getByRole('button', { name: 'Simulasikan pembayaran' }).click();
  await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'paid');
  expect(await seriousViolations(display), 'paid').toEqual([]);
  // The customer display has no controls at all.
  await expect(display.locator('button, input, select, textarea, a[href]')).toHaveCount(0);
});

test('the cashier switches to English: every label changes and the page says lang="en"', async ({
  cashier,
  display,
}) => {
  await cashier.getByLabel('Bahasa').selectOption('en');
  await expect(cashier.locator('html')).toHaveAttribute('lang', 'en');
  await expect(cashier.getByRole('button', { name: /^Charge Rp0$/ })).toBeVisible();
  await expect(cashier.getByRole('textbox', { name: /^Amount/ })).toBeVisible();
  await expect(cashier.getByRole('textbox', { name: 'Item name' })).toBeVisible();
  await expect(cashier.getByRole('radiogroup', { name: 'Payment method' })).toBeVisible();
  await expect(cashier.getByRole('heading', { name: 'Convenience store' })).toBeVisible();
  await expect(cashier.getByLabel('Use hosted payment page (V1)')).toBeVisible();
  await expect(cashier.getByText('TRAINING MODE')).toBeVisible();
  await expect(cashier.getByRole('tab', { name: /Today/ })).toBeVisible();
  // No Indonesian string is left on the screen.
  const text = await cashier.locator('body').innerText();
  for (const word of ['Tagih', 'Jumlah', 'Metode', 'Hari ini', 'Nama barang', 'LATIHAN'])
    expect(text).not.toContain(word);
  expect(await seriousViolations(cashier), 'English').toEqual([]);

  // The choice is kept for the next visit.
  await cashier.reload();
  await expect(cashier.locator('html')).toHaveAttribute('lang', 'en');

  // The display's language is the store's (from the display state), not the cashier's choice.
  await display.reload();
  await expect(display.getByText('Selamat datang')).toBeVisible();
  await expect(display.locator('html')).toHaveAttribute('lang', 'id');
});

test('manager: setup, PIN pad with a refusal, every section, the mode dialog; the till sign-in', async ({
  cashier,
  loket,
}) => {
  test.setTimeout(60_000);
  await cashier.keyboard.press('F8');
  await expect(cashier.getByTestId('manager-setup')).toBeVisible();
  await cashier.getByTestId('setup-submit').click();
  await expect(cashier.locator('#setup-name-issue')).toBeVisible();
  expect(await seriousViolations(cashier), 'setup with problems').toEqual([]);
  const setup = cashier.getByTestId('manager-setup');
  await setup.getByLabel('Nama', { exact: true }).fill('Bu Sri');
  await setup.getByLabel('PIN (4–8 angka)').fill('97531864');
  await setup.getByLabel('Ulangi PIN').fill('97531864');
  await cashier.getByTestId('setup-submit').click();
  await expect(cashier.getByTestId('manager-title')).toBeFocused();

  // The gateway, with a field error and a connection report.
  await cashier.getByLabel('Alamat gateway (base URL)').fill('bukan alamat');
  await cashier.getByLabel('Appid').fill('loket-sandbox');
  await cashier.getByTestId('gateway-save').click();
  await expect(cashier.locator('#gateway-baseUrl-issue')).toBeVisible();
  expect(await seriousViolations(cashier), 'gateway with a field error').toEqual([]);
  await cashier.getByLabel('Alamat gateway (base URL)').fill(loket.sandboxUrl);
  await cashier.getByTestId('gateway-save').click();
  await expect(cashier.getByTestId('gateway-status')).toHaveText(/Tersimpan/);
  await cashier.getByTestId('test-connection').click();
  await expect(cashier.getByTestId('connection-report')).toBeVisible();
  expect(await seriousViolations(cashier), 'gateway with a report').toEqual([]);
  await cashier.getByTestId('go-live').click();
  await expect(cashier.getByTestId('mode-dialog')).toBeVisible();
  expect(await seriousViolations(cashier), 'mode dialog').toEqual([]);
  await cashier.keyboard.press('Escape');
  await expect(cashier.getByTestId('mode-dialog')).toBeHidden();
  await expect(cashier.getByTestId('go-live')).toBeFocused();

  for (const section of ['store', 'methods', 'printer', 'display', 'staff', 'access', 'audit']) {
    await cashier.getByTestId(`nav-${section}`).click();
    await expect(cashier.locator(`#${section}-title`)).toBeFocused();
    expect(await seriousViolations(cashier), section).toEqual([]);
  }
  await cashier.getByTestId('nav-staff').click();
  await cashier.getByRole('button', { name: 'Atur PIN baru untuk Bu Sri' }).click();
  await expect(cashier.getByTestId('staff-pin-dialog')).toBeVisible();
  expect(await seriousViolations(cashier), 'staff PIN dialog').toEqual([]);
  await cashier.keyboard.press('Escape');

  // The PIN pad, with a refusal.
  await cashier.getByTestId('manager-lock').click();
  await expect(cashier.getByLabel('PIN Bu Sri')).toBeFocused();
  await cashier.keyboard.type('1111');
  await cashier.keyboard.press('Enter');
  await expect(cashier.getByTestId('unlock-problem')).toHaveText(/PIN salah/);
  expect(await seriousViolations(cashier), 'PIN pad with a refusal').toEqual([]);

  // The till: the sign-in dialog, and the prompt that stands in for the sale form.
  await loket.call('signIn', 1, null);
  await cashier.getByTestId('till-button').click();
  await expect(cashier.getByTestId('sign-in-dialog')).toBeVisible();
  expect(await seriousViolations(cashier), 'sign-in dialog').toEqual([]);
  await cashier.keyboard.press('Escape');
  await expect(cashier.getByTestId('till-button')).toBeFocused();
});

test('the manager screens in English: no Indonesian left on the titles and labels', async ({ cashier }) => {
  await cashier.getByLabel('Bahasa').selectOption('en');
  await cashier.keyboard.press('F8');
  const setup = cashier.getByTestId('manager-setup');
  await setup.getByLabel('Name', { exact: true }).fill('Bu Sri');
  await setup.getByLabel('PIN (4 to 8 digits)').fill('97531864');
  await setup.getByLabel('PIN again').fill('97531864');
  await cashier.getByTestId('setup-submit').click();
  await expect(cashier.getByTestId('manager-title')).toHaveText('Manager: Bu Sri');
  for (const section of ['gateway', 'store', 'methods', 'staff', 'access']) {
    await cashier.getByTestId(`nav-${section}`).click();
    const text = await cashier.getByTestId('manager-area').innerText();
    for (const word of ['Simpan', 'Toko', 'Kasir', 'Alamat', 'Nama', 'Pilih', 'Belum'])
      expect(text, `${section}: ${word}`).not.toContain(word);
  }
  expect(await seriousViolations(cashier), 'English').toEqual([]);
});
