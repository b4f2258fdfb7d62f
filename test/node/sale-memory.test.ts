// Which sale is on the display is remembered across restarts, but only as a convenience: a disk that refuses
// that write must not turn a charge the gateway took into an error, and an unchanged sale is not written again.
import { afterEach, describe, expect, it } from 'vitest';
import { AppService } from '../../src-main/core/app-service';
import { systemClock } from '../../src-main/core/ports';
import { openLoket, type Loket } from '../../src-main/runtime';
import { appCounterDeps } from './helpers/counter';
import { tempDir } from './helpers/loket';

const dir = tempDir('loket-sale-memory-');
let loket: Loket | undefined;
afterEach(async () => {
  await loket?.close();
  loket = undefined;
});

async function service(save: (id: string | null) => void) {
  loket = await openLoket({ dataDir: dir.path, env: {} });
  const l = loket;
  return new AppService({
    info: () =>
      ({
        name: 'Loket',
        version: 't',
        mode: 'sandbox',
        storeName: 'Toko',
        terminalId: l.terminalId,
        timeZone: 'Asia/Jakarta',
        lang: 'id',
        networkPrinter: false,
      }) as never,
    ...appCounterDeps(l),
    log: l.log,
    orders: l.orders,
    methods: l.methods,
    items: [],
    clock: systemClock,
    receipts: { html: () => '', slipHtml: () => '' },
    saleMemory: { load: () => null, save },
  });
}

describe('the sale on the display, remembered', () => {
  it('a refused write leaves the charge as the gateway answered it, shown on the display', async () => {
    const app = await service(() => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    });
    const charged = await app.createOrder({ methodId: 'qris_dynamic', amount: 15_000, itemName: 'Kopi' });
    expect(charged.ok).toBe(true);
    expect(charged.order?.state).toBe('awaiting_payment');
    expect(app.displayState().order?.amount).toBe(15_000);
  });

  it('is written when the sale changes, not again for the same sale', async () => {
    const saved: (string | null)[] = [];
    const app = await service((id) => saved.push(id));
    const charged = await app.createOrder({ methodId: 'qris_dynamic', amount: 15_000, itemName: 'Kopi' });
    app.showOnDisplay(charged.order!.id);
    app.showOnDisplay(null);
    app.showOnDisplay(null);
    expect(saved).toEqual([charged.order!.id, null]);
  });
});
