// What the cashier sees when a charge does not give a payment to wait for: field issues at their fields, a
// gateway refusal, and an order whose fate is unknown. The refusals come from the sandbox's fault switches.
import { expect, fillSale, test } from './fixtures';

test('a missing customer name for va_bca is shown at the customer name field, which gets the focus', async ({
  cashier,
  loket,
}) => {
  await fillSale(cashier, { amount: 50000, item: 'Sepatu', method: 'va_bca' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();

  const name = cashier.getByRole('textbox', { name: 'Nama pelanggan' });
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toBeFocused();
  const message = cashier.locator('#sale-customer-error');
  await expect(message).toHaveText(/Nama pelanggan wajib untuk Virtual Account BCA\./);
  await expect(message).toHaveAttribute('role', 'alert');
  await expect(name).toHaveAttribute('aria-describedby', /(^| )sale-customer-error( |$)/);
  // Next to its field: directly below the input, in the same column.
  const [input, error] = [(await name.boundingBox())!, (await message.boundingBox())!];
  expect(error.y).toBeGreaterThan(input.y);
  expect(error.y - (input.y + input.height)).toBeLessThan(80);
  expect(Math.abs(error.x - input.x)).toBeLessThan(10);
  // Nothing was charged and nothing reached the gateway.
  await expect(cashier.getByTestId('payment-panel')).toHaveCount(0);
  expect(await loket.call('listOrders', {})).toEqual([]);

  // Typing a name clears the message; the charge then goes through.
  await name.fill('Budi Santoso');
  await expect(name).not.toHaveAttribute('aria-invalid', 'true');
  await expect(message).toHaveCount(0);
  await cashier.keyboard.press('Enter');
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');
});

test('several field issues: each at its own field, translated, the first one focused', async ({ cashier }) => {
  await fillSale(cashier, { amount: 5, item: ' ', method: 'airtime_tri', phone: '12345' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();

  const amount = cashier.getByRole('textbox', { name: /^Jumlah/ });
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await expect(amount).toBeFocused();
  await expect(cashier.locator('#sale-amount-error')).toHaveText(
    /Jumlah harus antara Rp1\.000 dan Rp500\.000 untuk metode ini\./,
  );
  await expect(cashier.getByRole('textbox', { name: 'Nama barang' })).toHaveAttribute('aria-invalid', 'true');
  await expect(cashier.locator('#sale-item-error')).toHaveText(/Nama barang wajib diisi\./);
  await expect(cashier.getByRole('textbox', { name: 'Nomor HP pelanggan' })).toHaveAttribute('aria-invalid', 'true');
  await expect(cashier.locator('#sale-phone-error')).toHaveText(/Masukkan nomor HP Indonesia, misalnya 081234567890\./);

  // The same issues in English after switching the language.
  await cashier.getByLabel('Bahasa').selectOption('en');
  await expect(cashier.locator('#sale-amount-error')).toHaveText(
    /The amount must be between Rp1\.000 and Rp500\.000 for this method\./,
  );
  await expect(cashier.locator('#sale-item-error')).toHaveText(/Item name is required\./);
});

test('the item name stops at 25 characters, and the counter shows it', async ({ cashier }) => {
  const item = cashier.getByRole('textbox', { name: 'Nama barang' });
  await item.pressSequentially('Kopi susu');
  await expect(cashier.getByTestId('item-counter')).toContainText('9/25');
  await item.fill('');
  await item.pressSequentially('Nasi goreng spesial pakai telur dadar');
  await expect(item).toHaveValue('Nasi goreng spesial pakai');
  await expect(cashier.getByTestId('item-counter')).toContainText('25/25');
});

test('a gateway refusal (HTTP 503) shows its retcode and what to do next', async ({ cashier, display, loket }) => {
  await loket.setFaults({ http_status: 503, count: 1 });
  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();

  const problem = cashier.getByRole('alert').filter({ hasText: 'Gateway menolak pembayaran' });
  await expect(problem).toBeVisible();
  await expect(problem).toContainText('Gateway menolak pembayaran (retcode 5003): sandbox fault: injected HTTP 503');
  await expect(problem).toContainText('coba metode pembayaran lain');
  await expect(cashier.getByTestId('payment-panel')).toHaveCount(0);
  await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'rejected');

  // The switch is used up: charging again is a new sale, and it goes through.
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');
  await expect(display.getByTestId('display-qr')).toBeVisible();
});

test('a connection dropped after the gateway stored the order: "do not charge again", with the order id', async ({
  cashier,
  display,
  loket,
}) => {
  await loket.setFaults({ drop_after_store: true, count: 1 });
  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();

  const problem = cashier.getByTestId('charge-problem');
  await expect(problem).toHaveAttribute('role', 'alert');
  await expect(problem).toContainText('Kami tidak tahu apakah pesanan sampai ke gateway. JANGAN tagih lagi.');
  const [order] = await loket.call('listOrders', {});
  expect(order).toMatchObject({ state: 'unknown', delivery: 'sent' });
  await expect(cashier.getByTestId('problem-order-id')).toHaveText(order!.id);
  await expect(problem).toContainText('manajer dapat merekonsiliasi');
  const checkAgain = cashier.getByRole('button', { name: 'Periksa lagi' });
  await expect(checkAgain).toBeFocused();
  await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'unknown');
  await expect(display.getByText('Pembayaran sedang diperiksa')).toBeVisible();
  // Charging again could take the money twice: the Charge button and Enter do nothing meanwhile.
  const charge = cashier.getByRole('button', { name: /^Tagih/ });
  await expect(charge).toBeDisabled();
  await charge.click({ force: true });
  await cashier.getByRole('textbox', { name: 'Nama barang' }).press('Enter');
  await expect(cashier.getByTestId('payment-panel')).toHaveCount(0);
  expect(await loket.call('listOrders', {})).toHaveLength(1);

  // Checking again asks the gateway's status inquiry: the same order is found waiting for payment, and the
  // customer pays through the hosted payment page (shown as a QR); no second order exists.
  await checkAgain.click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');
  await expect(cashier.getByTestId('payment-order-id')).toHaveText(order!.id);
  await expect(display.getByTestId('display-qr')).toHaveAttribute(
    'data-qr-text',
    /\/api\/order\/loket-sandbox\/[0-9a-f]{32}$/,
  );
  expect(await loket.call('listOrders', {})).toHaveLength(1);
  await cashier.getByRole('button', { name: /Simulasikan pembayaran/ }).click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'paid');
  await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'paid');
  expect(await loket.call('listOrders', {})).toHaveLength(1);
});

test('an unknown outcome the gateway cannot settle stays "do not charge again" until dismissed', async ({
  cashier,
  display,
  loket,
}) => {
  // Both the create answer and the inquiry's answer are lost: the outcome is still unknown after checking.
  await loket.setFaults({ drop_after_store: true, count: 2 });
  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  const problem = cashier.getByTestId('charge-problem');
  await expect(problem).toContainText('JANGAN tagih lagi');
  await cashier.getByRole('button', { name: 'Periksa lagi' }).click();
  await expect(problem).toContainText('JANGAN tagih lagi');
  const [order] = await loket.call('listOrders', {});
  await expect(cashier.getByTestId('problem-order-id')).toHaveText(order!.id);
  expect(await loket.call('listOrders', {})).toHaveLength(1);

  // Once the cashier has read it and dismissed it, a new sale can be charged, and the display is idle again.
  await cashier.getByRole('button', { name: 'Tutup pesan' }).click();
  await expect(display.getByTestId('display-idle')).toBeVisible();
  const charge = cashier.getByRole('button', { name: /^Tagih/ });
  await expect(charge).toBeEnabled();
  await charge.click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');
});
