// What the cashier sees when a charge does not give a payment to wait for: field issues at their fields, a
// gateway refusal, and an order whose fate is unknown. The refusals come from the sandbox's fault switches.
import type { Page } from '@playwright/test';
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

test('an amount that is not whole rupiah is refused at the field with its rule, never charged as another', async ({
  cashier,
  loket,
}) => {
  const amount = cashier.getByRole('textbox', { name: /^Jumlah/ });
  const message = cashier.locator('#sale-amount-error');
  await cashier.getByLabel('Nama barang').fill('Kopi susu');
  // Typed key by key: what was typed stays, and the rule shows at once.
  await amount.pressSequentially('1e12');
  await expect(amount).toHaveValue('1e12');
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await expect(message).toContainText(
    'Jumlah hanya berisi angka, titik pemisah ribuan dan Rp di depan (misalnya Rp25.000).',
  );
  await expect(cashier.getByRole('button', { name: /^Tagih/ })).toHaveText('Tagih');
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  await expect(amount).toBeFocused();
  expect(await loket.call('listOrders', {})).toEqual([]);

  await amount.fill('12,5');
  await expect(amount).toHaveValue('12,5');
  await expect(message).toContainText('Jumlah harus rupiah utuh, tanpa sen (tanpa koma): misalnya 25000 atau 25.000.');
  await cashier.keyboard.press('Enter');
  expect(await loket.call('listOrders', {})).toEqual([]);

  // A dot-grouped amount half typed says nothing yet; leaving the field names the rule.
  await amount.fill('12.5');
  await expect(message).toHaveCount(0);
  await cashier.getByLabel('Nama barang').focus();
  await expect(message).toContainText(
    'Jumlah: titik memisahkan ribuan, tiga angka setelah setiap titik (misalnya 25.000 atau 1.250.000).',
  );
  await cashier.getByLabel('Bahasa').selectOption('en');
  await expect(message).toContainText(
    'Amount: a dot separates thousands, three digits after each dot (for example 25.000 or 1.250.000).',
  );
  await cashier.getByLabel('Language').selectOption('id');

  // The natural ways of writing a rupiah amount are taken as they are meant.
  await amount.fill('Rp25.000');
  await expect(amount).toHaveValue('25.000');
  await expect(message).toHaveCount(0);
  await expect(cashier.getByRole('button', { name: /^Tagih/ })).toHaveText(/Tagih\s+Rp25\.000/);
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');
  expect(await loket.call('listOrders', {})).toMatchObject([{ amount: 25000 }]);
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

test('an outage (HTTP 503, nothing stored) is not a refusal: nothing was charged, and Retry sends the same order', async ({
  cashier,
  display,
  loket,
}) => {
  await loket.setFaults({ http_status: 503, count: 1 });
  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();

  const problem = cashier.getByTestId('charge-problem');
  await expect(problem).toHaveAttribute('data-kind', 'outage');
  await expect(problem).toHaveAttribute('role', 'alert');
  await expect(problem).toContainText('Gateway tidak menjawab — tidak ada yang ditagih');
  await expect(problem).toContainText('Pelanggan tidak ditagih.');
  await expect(problem).not.toContainText('ditolak');
  const [order] = await loket.call('listOrders', {});
  await expect(cashier.getByTestId('problem-order-id')).toHaveText(order!.id);
  const retry = cashier.getByRole('button', { name: 'Coba lagi' });
  await expect(retry).toBeFocused();
  // The customer is told the truth: nothing was charged, wait for the cashier — not "being checked".
  const outcome = display.getByTestId('display-outcome');
  await expect(outcome).toHaveAttribute('data-state', 'unknown');
  await expect(outcome).toHaveAttribute('data-not-charged', 'true');
  await expect(outcome.getByRole('heading')).toHaveText('Tidak ada yang ditagih');
  await expect(display.getByTestId('display-outcome-text')).toHaveText('Mohon tunggu kasir.');
  await expect(display.getByText('Pembayaran sedang diperiksa')).toHaveCount(0);
  // The order is still open: no second sale over it.
  await expect(cashier.getByRole('button', { name: /^Tagih/ })).toHaveAttribute('aria-disabled', 'true');

  // The switch is used up: Retry sends the same order (same id) and it goes through; no second order.
  await retry.click();
  const panel = cashier.getByTestId('payment-panel');
  await expect(panel).toHaveAttribute('data-state', 'awaiting_payment');
  await expect(panel).toHaveAttribute('data-order-id', order!.id);
  await expect(display.getByTestId('display-qr')).toBeVisible();
  expect(await loket.call('listOrders', {})).toHaveLength(1);
});

test('a refusal (HTTP 4xx) is "refused", with the reason in our words and the gateway\'s only as a detail', async ({
  cashier,
  display,
  loket,
}) => {
  await loket.setFaults({ http_status: 422, count: 1 });
  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();

  const problem = cashier.getByTestId('charge-problem');
  await expect(problem).toHaveAttribute('data-kind', 'refused');
  await expect(problem).toContainText('Pembayaran ditolak');
  await expect(cashier.getByTestId('refusal-reason')).toHaveText(
    'Alasan: Gateway tidak dapat membaca permintaan dari Loket. Hubungi manajer.',
  );
  await expect(problem).toContainText('Pelanggan tidak ditagih.');
  // The gateway's own English words: a small detail, marked as English.
  const detail = problem.locator('[lang=en]');
  await expect(detail).toContainText('sandbox fault: injected HTTP 422');
  await expect(detail).toContainText('retcode 5003, HTTP 422');
  expect(await detail.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeLessThan(16);
  await expect(cashier.getByTestId('payment-panel')).toHaveCount(0);
  await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'rejected');
  // A refusal is final: what was typed stays, and charging again is a new sale.
  await expect(cashier.getByRole('textbox', { name: 'Nama barang' })).toHaveValue('Kopi susu');
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');
  expect(await loket.call('listOrders', {})).toHaveLength(2);

  // In English, the same refusal in English words. (The waiting sale is settled first: Loket keeps asking the
  // gateway about a cancelled one until its deadline, and such an inquiry would take the fault switch.)
  await cashier.getByLabel('Bahasa').selectOption('en');
  await cashier.getByRole('button', { name: /Simulate payment/ }).click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'paid');
  await cashier.getByRole('button', { name: /New sale/ }).click();
  await loket.setFaults({ http_status: 403, count: 1 });
  await fillSaleEn(cashier);
  await cashier.getByRole('button', { name: /^Charge/ }).click();
  await expect(cashier.getByTestId('refusal-reason')).toHaveText(
    'Reason: The gateway refused this store’s credentials (appid, appkey or signature). Ask the manager.',
  );
});

/** The orders the embedded sandbox gateway holds (its control endpoint, on this machine). */
async function sandboxOrders(sandboxUrl: string): Promise<unknown[]> {
  const response = await fetch(`${sandboxUrl}/sandbox/orders`);
  return ((await response.json()) as { data: unknown[] }).data;
}

async function fillSaleEn(page: Page): Promise<void> {
  await page.getByRole('textbox', { name: /^Amount/ }).fill('25000');
  await page.getByLabel('Item name').fill('Kopi susu');
  await page.locator('input[type=radio][data-method="qris_dynamic"]').check();
}

test('a connection dropped after the gateway stored the order: found at once, with the QRIS code it had', async ({
  cashier,
  display,
  loket,
}) => {
  // The create answer is lost; Loket asks the gateway's status inquiry at once and finds the order.
  await loket.setFaults({ drop_after_store: true, count: 1 });
  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  const panel = cashier.getByTestId('payment-panel');
  await expect(panel).toHaveAttribute('data-state', 'awaiting_payment');
  const [order] = await loket.call('listOrders', {});
  expect(order!.instruction?.type).toBe('qr');
  await expect(display.getByTestId('display-qr')).toHaveAttribute(
    'data-qr-text',
    (order!.instruction as { qrString: string }).qrString,
  );
  await expect(display.getByTestId('display-countdown')).toBeVisible();
  expect(await loket.call('listOrders', {})).toHaveLength(1);
});

test('an outcome still unknown after the quick check: "do not charge again"; Check again finds it, QRIS and all', async ({
  cashier,
  display,
  loket,
}) => {
  // The create answer and the quick inquiry's answer are both lost.
  await loket.setFaults({ drop_after_store: true, count: 2 });
  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();

  const problem = cashier.getByTestId('charge-problem');
  await expect(problem).toHaveAttribute('role', 'alert');
  await expect(problem).toContainText('Kami tidak tahu apakah pesanan sampai ke gateway. JANGAN tagih lagi.');
  const [order] = await loket.call('listOrders', {});
  expect(order).toMatchObject({ state: 'unknown', delivery: 'sent' });
  await expect(cashier.getByTestId('problem-order-id')).toHaveText(order!.id);
  await expect(problem).toContainText('atau minta manajer memutuskannya');
  const checkAgain = cashier.getByRole('button', { name: 'Periksa lagi' });
  await expect(checkAgain).toBeFocused();
  await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'unknown');
  await expect(display.getByText('Pembayaran sedang diperiksa')).toBeVisible();
  await expect(display.getByTestId('display-outcome')).not.toHaveAttribute('data-not-charged', 'true');
  // Charging again could take the money twice: the Charge button and Enter do nothing meanwhile.
  const charge = cashier.getByRole('button', { name: /^Tagih/ });
  await expect(charge).toHaveAttribute('aria-disabled', 'true');
  await charge.click({ force: true });
  await cashier.getByRole('textbox', { name: 'Nama barang' }).press('Enter');
  await expect(cashier.getByTestId('payment-panel')).toHaveCount(0);
  expect(await loket.call('listOrders', {})).toHaveLength(1);

  // Checking again asks the status inquiry: the same order, waiting, and the customer sees the same kind of
  // instruction it had — its QRIS code and countdown, not a page address. No second order exists.
  await checkAgain.click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');
  await expect(cashier.getByTestId('payment-order-id')).toHaveText(order!.id);
  const found = (await loket.call('getOrder', order!.id))!;
  expect(found.instruction?.type).toBe('qr');
  await expect(display.getByTestId('display-instruction')).toHaveAttribute('data-type', 'qr');
  await expect(display.getByTestId('display-qr')).toHaveAttribute(
    'data-qr-text',
    (found.instruction as { qrString: string }).qrString,
  );
  await expect(display.getByTestId('display-countdown')).toBeVisible();
  await expect(cashier.getByTestId('preview-instruction')).toHaveAttribute('data-type', 'qr');
  expect(await loket.call('listOrders', {})).toHaveLength(1);
  await cashier.getByRole('button', { name: /Simulasikan pembayaran/ }).click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'paid');
  await expect(display.getByTestId('display-outcome')).toHaveAttribute('data-state', 'paid');
  expect(await loket.call('listOrders', {})).toHaveLength(1);
});

test('an unknown outcome holds the till: "Close message" and Charge send no second order; a manager decides it', async ({
  cashier,
  display,
  loket,
}) => {
  // The create answer, the quick inquiry and the cashier's check all get no answer; the gateway has the order.
  await loket.setFaults({ drop_after_store: true, count: 3 });
  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  const problem = cashier.getByTestId('charge-problem');
  await expect(problem).toContainText('JANGAN tagih lagi');
  await cashier.getByRole('button', { name: 'Periksa lagi' }).click();
  await expect(problem).toContainText('JANGAN tagih lagi');
  const [order] = await loket.call('listOrders', {});
  await expect(cashier.getByTestId('problem-order-id')).toHaveText(order!.id);
  await expect(cashier.getByTestId('problem-held')).toHaveText(
    'Selama hasilnya belum jelas, Loket tidak mengirim pesanan lain: periksa lagi, atau minta manajer memutuskannya (Manajer → Perlu perhatian).',
  );

  // The cashier closes the message (the display goes idle) and charges the same sale again: nothing is sent; the
  // warning about the first order comes back.
  await cashier.getByRole('button', { name: 'Tutup pesan' }).click();
  await expect(display.getByTestId('display-idle')).toBeVisible();
  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  await expect(problem).toContainText('JANGAN tagih lagi');
  await expect(cashier.getByTestId('problem-order-id')).toHaveText(order!.id);
  expect(await loket.call('listOrders', {})).toHaveLength(1);
  expect(await sandboxOrders(loket.sandboxUrl)).toHaveLength(1);
  // A reload comes back to it too.
  await cashier.reload();
  await expect(cashier.getByTestId('problem-order-id')).toHaveText(order!.id);

  // A manager decides it (here: sets it aside, with a reason; it stays in the attention queue): the till may sell.
  const manager = await loket.call('setupManager', { name: 'Bu Sri', pin: '97531864' });
  const decided = await loket.call(
    'resolveAttention',
    manager.token,
    order!.id,
    'set_aside',
    'Gateway mati, dicek nanti',
  );
  expect(decided.resolved).toBe(false);
  await cashier.getByRole('button', { name: 'Tutup pesan' }).click();
  await fillSale(cashier, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
  await cashier.getByRole('button', { name: /^Tagih/ }).click();
  await expect(cashier.getByTestId('payment-panel')).toHaveAttribute('data-state', 'awaiting_payment');
  expect(await loket.call('listOrders', {})).toHaveLength(2);
  expect((await loket.call('getOrder', order!.id))!.state).toBe('unknown');
});
