import { afterEach, describe, expect, it } from 'vitest';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { tempDir } from './helpers/loket';

const dir = tempDir('loket-apphost-');
let host: AppHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('startAppHost across a restart (training mode)', () => {
  it('the terminal id is the one orders carry; simulating the payment of an order from before a restart says why it cannot', async () => {
    host = await startAppHost({ version: 't', dataDir: dir.path, env: { LOKET_TERMINAL_ID: 'K9' } });
    expect((await host.app.appInfo()).terminalId).toBe('K9');
    const charged = await host.app.createOrder({ methodId: 'qris_dynamic', amount: 5000, itemName: 'Teh' });
    if (!charged.ok) throw new Error(charged.failure.message);
    expect(charged.order.id.startsWith('K9-')).toBe(true);
    await host.close();

    host = await startAppHost({ version: 't', dataDir: dir.path, env: { LOKET_TERMINAL_ID: 'K9' } });
    await expect(host.app.simulatePayment(charged.order.id)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('no longer knows this order'),
    });
    expect((await host.app.getOrder(charged.order.id))!.state).toBe('awaiting_payment');
  });
});
