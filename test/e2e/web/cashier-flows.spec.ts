// The cashier screen's own behaviour: typing the amount, the keypad, quick items, today's orders and reprints,
// and what it shows when Loket goes away.
import { chargeToPanel, expect, fillSale, prints, test } from './fixtures';

test('the amount is grouped as it is typed, and the keypad edits it', async ({ cashier }) => {
  const amount = cashier.getByRole('textbox', { name: /^Jumlah/ });
  await amount.pressSequentially('1234567');
  await expect(amount).toHaveValue('1.234.567');
  await expect(cashier.getByRole('button', { name: /^Tagih/ })).toHaveText(/Tagih\s*Rp1\.234\.567/);
  // Leading zeros go; a letter is not dropped silently: it stays, and the field says what an amount may hold.
  await amount.fill('');
  await amount.pressSequentially('0025');
  await expect(amount).toHaveValue('25');
  await amount.pressSequentially('b');
  await expect(amount).toHaveValue('25b');
  await expect(cashier.locator('#sale-amount-error')).toContainText('Jumlah hanya berisi angka');

  const keypad = cashier.getByRole('group', { name: 'Papan angka' });
  await keypad.getByRole('button', { name: 'Kosongkan jumlah' }).click();
  await expect(amount).toHaveValue('');
  for (const key of ['2', '5', '000']) await keypad.getByRole('button', { name: key, exact: true }).click();
  await expect(amount).toHaveValue('25.000');
  await keypad.getByRole('button', { name: 'Hapus angka terakhir' }).click();
  await expect(amount).toHaveValue('2.500');
  // Every key is a big touch target.
  for (const box of await keypad
    .getByRole('button')
    .evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect()))) {
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
  }
});

test('a quick item fills the name and price and sends its item id', async ({ cashier, loket }) => {
  await cashier
    .getByRole('toolbar', { name: 'Barang cepat' })
    .getByRole('button', { name: /Nasi goreng spesial/ })
    .click();
  await expect(cashier.getByRole('textbox', { name: /^Jumlah/ })).toHaveValue('35.000');
  await expect(cashier.getByRole('textbox', { name: 'Nama barang' })).toHaveValue('Nasi goreng spesial');
  await expect(cashier.getByTestId('item-counter')).toContainText('19/25');
  const id = await chargeToPanel(cashier);
  expect(await loket.call('getOrder', id)).toMatchObject({
    itemId: 'NASI-GORENG',
    itemName: 'Nasi goreng spesial',
    amount: 35000,
  });
});

test("today's orders: live, filtered by state, a parked sale resumed, and a receipt reprinted as a copy", async ({
  cashier,
  display,
  loket,
}) => {
  await fillSale(cashier, { amount: 18000, item: 'Kopi susu', method: 'qris_dynamic' });
  await chargeToPanel(cashier);
  await cashier.getByRole('button', { name: 'Simulasikan pembayaran' }).click();
  await expect(cashier.getByTestId('payment-state')).toHaveText('✓ Lunas');
  await cashier.getByRole('button', { name: /Penjualan baru/ }).click();
  await fillSale(cashier, { amount: 8000, item: 'Es teh manis', method: 'ewallet_dana' });
  const waiting = await chargeToPanel(cashier);
  // Parked: off the display, still waiting, in today's list with Resume.
  await cashier.getByRole('button', { name: 'Parkir' }).click();
  await expect(cashier.getByTestId('parked-notice')).toBeVisible();
  await expect(display.getByTestId('display-idle')).toBeVisible();

  await cashier.getByRole('tab', { name: /Hari ini/ }).click();
  const rows = cashier.getByTestId('today-table').locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Es teh manis');
  await expect(rows.nth(0)).toContainText('Rp8.000');
  await expect(rows.nth(0)).toContainText('Menunggu pembayaran');
  await expect(rows.nth(1)).toContainText('Kopi susu');
  await expect(rows.nth(1)).toContainText('Lunas');
  await expect(rows.nth(1)).toContainText(/^\d{2}\.\d{2}/);
  await expect(cashier.getByRole('columnheader', { name: 'Waktu (WIB)' })).toBeVisible();
  await expect(cashier.getByText('2 pesanan · Total lunas: Rp18.000')).toBeVisible();

  // An order from elsewhere (another till, the command line) shows up without a reload.
  const other = await loket.call('createOrder', { methodId: 'va_bri', amount: 99000, itemName: 'Kompor' });
  expect(other.ok).toBe(true);
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('Kompor');
  await loket.call('showOnDisplay', null);

  await cashier.getByLabel('Tampilkan status').selectOption('paid');
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText('Kopi susu');

  // One click, one print, straight away: a copy.
  await rows
    .nth(0)
    .getByRole('button', { name: /Cetak ulang/ })
    .click();
  await expect.poll(() => prints(cashier)).toHaveLength(1);
  const [copy] = await prints(cashier);
  expect(copy).toContain('SALINAN');
  expect(copy).toContain('LUNAS');
  expect(copy).toContain('Rp18.000');

  // The parked sale, resumed: back on the panel and on the display.
  await cashier.getByLabel('Tampilkan status').selectOption('');
  await cashier.getByRole('button', { name: `Lanjutkan pesanan ${waiting} dan tampilkan lagi ke pelanggan` }).click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-order-id', waiting);
  await expect(cashier.getByRole('heading', { name: 'Pembayaran' })).toBeFocused();
  await expect(display.getByTestId('display-amount')).toHaveText('Rp8.000');
});

test('the paper width choice is remembered', async ({ cashier }) => {
  await fillSale(cashier, { amount: 5000, item: 'Air mineral', method: 'qris_dynamic' });
  await chargeToPanel(cashier);
  await cashier.getByRole('button', { name: 'Simulasikan pembayaran' }).click();
  await cashier.getByRole('radio', { name: '80 mm' }).check();
  // A typed amount is a one-line sale: its struk is the sale's (saleReceipt), at the paper chosen.
  const answer = cashier.waitForResponse((r) => r.url().endsWith('/api/call/saleReceipt'));
  await cashier.getByRole('button', { name: 'Cetak struk' }).click();
  expect(((await (await answer).json()) as { result: { html: string } }).result.html).toContain('paper-80');
  await expect.poll(() => prints(cashier)).toHaveLength(1);
  await cashier.getByRole('button', { name: /Penjualan baru/ }).click();
  await cashier.reload();
  await fillSale(cashier, { amount: 5000, item: 'Air mineral', method: 'qris_dynamic' });
  await chargeToPanel(cashier);
  await cashier.getByRole('button', { name: 'Simulasikan pembayaran' }).click();
  await expect(cashier.getByRole('radio', { name: '80 mm' })).toBeChecked();
});

test('when Loket stops answering, both screens say they are reconnecting', async ({ cashier, display, loket }) => {
  await expect(cashier.getByTestId('reconnecting')).toHaveCount(0);
  await expect(display.getByTestId('reconnecting')).toHaveCount(0);
  await loket.stop();
  await expect(cashier.getByTestId('reconnecting')).toBeVisible();
  await expect(cashier.getByTestId('reconnecting')).toHaveText('Koneksi terputus, menyambung ulang…');
  await expect(display.getByTestId('reconnecting')).toBeVisible();
});
