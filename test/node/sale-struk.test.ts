// The struk of a sale through the app host's API (saleReceipt, printSaleReceipt) and the customer display's view of a
// sale's tenders (the change of a cash sale, what is still due during a split). Real parts: the app host in training
// mode (its embedded sandbox over HTTP on 127.0.0.1), real SQLite files; the drawer's shift is an in-memory ledger.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import type { Cart } from '../../src-main/common/sale';
import { lineOfProduct } from '../../src-main/common/sale';
import { MemoryCashLedger } from './helpers/memory-cash-ledger';
import { tempDir } from './helpers/loket';

let dir: ReturnType<typeof tempDir>;
let host: AppHost;
let ledger: MemoryCashLedger;

beforeEach(async () => {
  dir = tempDir('loket-struk-');
  ledger = new MemoryCashLedger();
  ledger.shiftId = 'SHIFT-1';
  host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {}, cashLedger: () => ledger });
});
afterEach(async () => {
  await host.close();
  dir.remove();
});

async function cartOf(...codes: [string, number][]): Promise<Cart> {
  const lines = [];
  for (const [code, qty] of codes) {
    const product = await host.app.productByCode({ code });
    if (!product) throw new Error(`no product ${code}`);
    lines.push(lineOfProduct(product, `l${lines.length + 1}`, qty));
  }
  return { lines, saleDiscount: null };
}

describe("a sale's struk and its tenders on the display", () => {
  it('shows a cash sale with its change on the display, and prints its lines, tenders and change; the second is a copy', async () => {
    const cart = await cartOf(['KOPI-SUSU', 2], ['ES-TEH', 1]); // 44,000
    const charged = await host.app.chargeSale({ cart, tenders: [{ kind: 'cash', handed: 50_000 }] });
    if (!charged.ok) throw new Error(JSON.stringify(charged));
    expect(await host.app.displayState()).toMatchObject({
      order: null,
      sale: { total: 44_000, paid: 44_000, due: 0, change: 6_000, cash: true, complete: true },
    });

    const first = await host.app.saleReceipt({ saleId: charged.saleId, paper: 80, copy: false });
    expect(first.html).toContain('Kopi susu');
    expect(first.html).toContain('Es teh manis');
    expect(first.html).toContain('Rp50.000'); // cash handed
    expect(first.html).toContain('KEMBALIAN');
    expect(first.html).toContain('Rp6.000');
    expect(first.html).toMatch(/T\d+-000001|-000001/);
    expect(first.html).not.toContain('SALINAN');
    const again = await host.app.saleReceipt({ saleId: charged.saleId, paper: 'A4', copy: false });
    expect(again.html).toContain('SALINAN');

    // No printer set up in this host: the screen prints instead, and says why.
    const printed = await host.app.printSaleReceipt({ saleId: charged.saleId, copy: false });
    expect(printed).toMatchObject({ ok: false, reason: { key: 'print.no_printer' } });

    // A new sale clears the change off the display.
    await host.app.showOnDisplay(null);
    expect((await host.app.displayState()).sale).toBeUndefined();
  });

  it('shows what is still due beside the order during a split, and the struk lists the cash and the QRIS payment', async () => {
    const cart = await cartOf(['NASI-GORENG', 1], ['ES-TEH', 1]); // 43,000
    const split = await host.app.chargeSale({
      cart,
      tenders: [
        { kind: 'cash', handed: 20_000 },
        { kind: 'gateway', methodId: 'qris_dynamic' },
      ],
    });
    if (!split.ok || !split.order) throw new Error(JSON.stringify(split));
    expect(await host.app.displayState()).toMatchObject({
      order: { amount: 23_000, state: 'awaiting_payment' },
      sale: { total: 43_000, paid: 20_000, due: 23_000, cash: true, complete: false },
    });
    const unpaid = await host.app.saleReceipt({ saleId: split.saleId, paper: 58, copy: false });
    expect(unpaid.html).toContain('RINCIAN PENJUALAN');

    await host.app.simulatePayment(split.order.id);
    const paid = await host.app.saleReceipt({ saleId: split.saleId, paper: 58, copy: false });
    expect(paid.html).toContain('STRUK PENJUALAN');
    expect(paid.html).toContain('Rp20.000');
    expect(paid.html).toContain('Rp23.000');
    expect(paid.html).toContain('LUNAS');
    // The struk issued is noted on the order too: its paid screen says "print copy" after a reload.
    expect((await host.app.currentSale())?.receiptPrinted).toBe(true);
  });

  it('refuses a struk of a sale that does not exist, naming it', async () => {
    await expect(
      (async () => host.app.saleReceipt({ saleId: 'nope', paper: 80, copy: false }))(),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
