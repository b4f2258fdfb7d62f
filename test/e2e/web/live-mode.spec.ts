// Live mode (a gateway of its own, not the embedded sandbox), with that gateway down: no training badge or
// simulation, and a charge that could not be sent offers Retry, which sends the same order once the gateway
// is back.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, fillSale, startLoket, test } from './fixtures';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The standalone sandbox gateway (`cli sandbox`) on a given port. */
async function startSandbox(port: number): Promise<() => Promise<void>> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src-main/cli.ts', 'sandbox', '--port', String(port), '--quiet'],
    {
      cwd: join(import.meta.dirname, '../../..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the sandbox did not start within 20 s')), 20_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('base URL: ')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return async () => {
    child.kill('SIGTERM');
    await exited;
  };
}

test('live mode with the gateway down: "nothing was charged", then Retry sends the same order', async ({ page }) => {
  const port = await freePort();
  const loket = await startLoket([], {
    LOKET_GATEWAY_URL: `http://127.0.0.1:${port}`,
    LOKET_APP_ID: 'loket-sandbox',
    LOKET_APP_KEY: 'sandbox-appkey-not-secret',
  });
  let stopSandbox: (() => Promise<void>) | undefined;
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(loket.cashierUrl);
    await expect(page.getByTestId('mode-badge')).toHaveText('LANGSUNG');
    await expect(page.getByText('MODE LATIHAN')).toHaveCount(0);
    await expect(page.getByText('Simulasi bayar')).toHaveCount(0);

    await fillSale(page, { amount: 25000, item: 'Kopi susu', method: 'qris_dynamic' });
    await page.getByRole('button', { name: /^Tagih/ }).click();
    const problem = page.getByTestId('charge-problem');
    await expect(problem).toHaveAttribute('role', 'alert');
    await expect(problem).toHaveAttribute('data-kind', 'outage');
    await expect(problem).toContainText('Gateway tidak menjawab — tidak ada yang ditagih');
    await expect(problem).toContainText('Coba lagi: pesanan yang sama dikirim ulang, dengan nomor yang sama.');
    const retry = page.getByRole('button', { name: 'Coba lagi' });
    await expect(retry).toBeFocused();
    const [order] = await loket.call('listOrders', {});
    expect(order).toMatchObject({ state: 'unknown', delivery: 'not_sent' });

    stopSandbox = await startSandbox(port);
    await retry.click();
    const panel = page.getByTestId('payment-panel');
    await expect(panel).toHaveAttribute('data-state', 'awaiting_payment');
    await expect(panel).toHaveAttribute('data-order-id', order!.id);
    await expect(page.getByTestId('preview-qr')).toBeVisible();
    // Live mode: no simulated payments.
    await expect(page.getByRole('button', { name: /Simulasikan/ })).toHaveCount(0);
    expect(await loket.call('listOrders', {})).toHaveLength(1);
  } finally {
    await stopSandbox?.();
    await loket.stop();
  }
});
