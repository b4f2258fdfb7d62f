// With a network receipt printer (`serve --printer H:P`), receipts go to it; a printer that fails is reported
// and never undoes the sale.
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { chargeToPanel, expect, fillSale, startLoket, test } from './fixtures';

/** A stand-in for an ESC/POS printer on TCP: keeps every job's bytes. */
async function fakePrinter(): Promise<{ server: Server; port: number; jobs: Buffer[] }> {
  const jobs: Buffer[] = [];
  const server = createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      jobs.push(Buffer.concat(chunks));
      socket.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, jobs };
}

test('receipts print on the network printer; a failed print is reported and the sale stays paid', async ({ page }) => {
  const printer = await fakePrinter();
  const loket = await startLoket(['--printer', `127.0.0.1:${printer.port}`]);
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(loket.cashierUrl);
    await fillSale(page, { amount: 18000, item: 'Kopi susu', method: 'qris_dynamic' });
    const id = await chargeToPanel(page);
    await page.getByRole('button', { name: 'Simulasikan pembayaran' }).click();
    await expect(page.getByTestId('payment-state')).toHaveText('✓ Lunas');
    // The paper width is the printer's setting, not a choice on screen.
    await expect(page.getByRole('radio', { name: '58 mm' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Cetak struk' }).click();
    await expect(page.getByTestId('payment-notice')).toHaveText('Struk dicetak.');
    await expect.poll(() => printer.jobs.length).toBe(1);
    expect(printer.jobs[0]!.toString('latin1')).toContain('LUNAS');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await new Promise<void>((resolve) => printer.server.close(() => resolve()));
    // The original is out: the next is a copy.
    await page.getByRole('button', { name: 'Cetak salinan' }).click();
    const failure = page.getByRole('alert').filter({ hasText: 'Struk tidak tercetak' });
    // Why, in the screen's language (from the print's reason), not the printer adapter's English.
    await expect(failure).toContainText('Printer menolak sambungan');
    await expect(failure).not.toContainText('refused the connection');
    await expect(failure).toContainText('Penjualan tetap tercatat');
    await expect(page.getByTestId('payment-state')).toHaveText('✓ Lunas');
    expect(await loket.call('getOrder', id)).toMatchObject({ state: 'paid' });
  } finally {
    await loket.stop();
    printer.server.close();
  }
});

test('on the network printer too: a reprint from the paid screen says SALINAN, and a VA slip prints there', async ({
  page,
}) => {
  const printer = await fakePrinter();
  const loket = await startLoket(['--printer', `127.0.0.1:${printer.port}`]);
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(loket.cashierUrl);
    await fillSale(page, { amount: 150000, item: 'Beras premium', method: 'va_bni' });
    const id = await chargeToPanel(page);
    const va = ((await loket.call('getOrder', id))!.instruction as { va: string }).va;
    await page.getByRole('button', { name: 'Cetak slip pembayaran' }).click();
    await expect(page.getByTestId('payment-notice')).toHaveText('Slip pembayaran dicetak.');
    await expect.poll(() => printer.jobs.length).toBe(1);
    const slip = printer.jobs[0]!.toString('latin1');
    expect(slip).toContain('SLIP PEMBAYARAN');
    expect(slip).toContain(va.replace(/(.{4})(?=.)/g, '$1 '));
    expect(slip).toContain('Cara membayar');

    await page.getByRole('button', { name: 'Simulasikan pembayaran' }).click();
    await expect(page.getByTestId('payment-state')).toHaveText('✓ Lunas');
    await page.getByRole('button', { name: 'Cetak struk' }).click();
    await expect.poll(() => printer.jobs.length).toBe(2);
    await page.getByRole('button', { name: 'Cetak salinan' }).click();
    await expect.poll(() => printer.jobs.length).toBe(3);
    const [original, again] = printer.jobs.slice(1).map((job) => job.toString('latin1'));
    expect(original).toContain('LUNAS');
    expect(original).not.toContain('SALINAN');
    expect(again).toContain('** SALINAN **');
  } finally {
    await loket.stop();
    printer.server.close();
  }
});
