// A sale keeps the tax settings it was computed with (docs/tax.md, "A sale keeps its tax settings"): its struk and
// reprints read those, not the store's settings now, and a sale stored before Loket kept them reads today's. Real
// parts: the app host in training mode (its embedded sandbox over HTTP on 127.0.0.1), real SQLite files, the
// manager's Tax section through the API; the drawer's shift is an in-memory ledger.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { dayIn } from '../../src-main/common/gateway-time';
import type { ManagerResult } from '../../src-main/common/manager';
import { lineOfProduct, type Cart } from '../../src-main/common/sale';
import { DEFAULT_TAX_SETTINGS, taxSettingsSchema } from '../../src-main/common/tax';
import { SaleStore } from '../../src-main/core/sales/sale-store';
import { loadSaleSettings } from '../../src-main/core/settings/sale-settings';
import { FakeClock } from './helpers/fake-clock';
import { MemoryCashLedger } from './helpers/memory-cash-ledger';
import { tempDir } from './helpers/loket';

let dir: ReturnType<typeof tempDir>;
let host: AppHost;
let token: string;

beforeEach(async () => {
  dir = tempDir('loket-sale-tax-');
  const ledger = new MemoryCashLedger();
  ledger.shiftId = 'SHIFT-1';
  host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {}, cashLedger: () => ledger });
  token = (await host.app.setupManager({ name: 'Bu Sri', pin: '97531864' })).token;
});
afterEach(async () => {
  await host.close();
  dir.remove();
});

function saved(result: ManagerResult): void {
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
}

async function cartOf(code: string, qty: number): Promise<Cart> {
  const product = await host.app.productByCode({ code });
  if (!product) throw new Error(`no product ${code}`);
  return { lines: [lineOfProduct(product, 'l1', qty)], saleDiscount: null };
}

/** The struk's text, tags dropped (each row's label and value on its own line). */
async function strukText(saleId: string): Promise<string> {
  const { html } = await host.app.saleReceipt({ saleId, paper: 80, copy: false });
  return html
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, '\n')
    .replace(/&amp;/g, '&')
    .replace(/\n\s*\n+/g, '\n');
}

const LUXURY_EXCLUDING = {
  ppn: { rateBp: 1200, dpp: { num: 1, den: 1 } },
  pricesIncludeTax: false,
  pkp: { enabled: true, sellerName: 'PT Toko Maju', address: 'Jl. Merdeka 1\nBandung', npwp: '01.234.567.8-901.000' },
};

describe('a sale keeps its tax settings', () => {
  it('its struk, printed after the store changed them, says what the sale was charged under', async () => {
    saved(await host.app.updateSaleSettings(token, { tax: LUXURY_EXCLUDING }));
    const cart = await cartOf('KOPI-SUSU', 2); // 2 × 18.000, PPN 12% of the full price added: 36.000 + 4.320
    const charged = await host.app.chargeSale({ cart, tenders: [{ kind: 'cash', handed: 50_000 }] });
    if (!charged.ok) throw new Error(JSON.stringify(charged));
    const atCharge = loadSaleSettings(host.store.settings).tax;
    expect(charged.sale).toMatchObject({ net: 36_000, dpp: 36_000, ppn: 4320, total: 40_320 });
    expect(charged.sale.taxSettings).toEqual(atCharge);

    // The manager goes back to shelf prices including PPN on DPP nilai lain, and renames the seller.
    saved(
      await host.app.updateSaleSettings(token, {
        tax: {
          ppn: { rateBp: 1100, dpp: { num: 11, den: 12 } },
          pricesIncludeTax: true,
          pkp: { sellerName: 'PT Toko Baru', npwp: '3171234567890001' },
        },
      }),
    );
    expect(loadSaleSettings(host.store.settings).tax.pricesIncludeTax).toBe(true);

    const text = await strukText(charged.saleId);
    // Taxes added at the till, 12% of the full price: the words and rates of the sale, not of the settings now.
    expect(text).toContain('\nPajak\n');
    expect(text).not.toContain('Harga sudah termasuk pajak');
    expect(text).toContain('PPN 12%\nRp4.320');
    expect(text).toMatch(/\nDPP\nRp36\.000/);
    expect(text).not.toContain('DPP nilai lain');
    expect(text).not.toContain('11%');
    // The invoice's seller and NPWP as they were on the day of the sale.
    expect(text).toContain('PT Toko Maju');
    expect(text).toContain('01.234.567.8-901.000');
    expect(text).not.toContain('PT Toko Baru');
    // The sale read back from its store carries them too (the books and a reprint read the same).
    expect((await host.app.sale({ saleId: charged.saleId }))?.taxSettings).toEqual(atCharge);
    // The day's books sum the sale's stored figures: nothing is worked out again with the settings now.
    const day = dayIn(new Date(), (await host.app.managerView(token)).settings.timeZone);
    const report = await host.app.dayReport(token, day);
    expect(report.sales).toMatchObject({
      net: 36_000,
      tax: { dpp: 36_000, ppn: 4320, pbjt: 0, service: 0 },
      total: 40_320,
    });
  });

  it('a sale stored before Loket kept them (no tax settings) is printed with the settings now', async () => {
    const cart = await cartOf('KOPI-SUSU', 1);
    const charged = await host.app.chargeSale({ cart, tenders: [{ kind: 'cash', handed: 20_000 }] });
    if (!charged.ok) throw new Error(JSON.stringify(charged));
    expect(charged.sale.taxSettings).toEqual(DEFAULT_TAX_SETTINGS);
    // As migration 20 leaves a sale of before: its column NULL.
    host.loket.db.prepare('UPDATE sales SET tax_settings = NULL WHERE id = ?').run(charged.saleId);
    const sales = new SaleStore(host.loket.db, new FakeClock());
    expect(sales.get(charged.saleId)!.taxSettings).toBeUndefined();

    saved(await host.app.updateSaleSettings(token, { tax: LUXURY_EXCLUDING }));
    const text = await strukText(charged.saleId);
    // Today's settings name it; its stored amounts are the sale's (PPN 1.784 inside the 18.000).
    expect(text).toContain('PT Toko Maju');
    expect(text).toContain('\nPajak\n');
    expect(text).toContain('Rp1.784');
  });

  it('keeps them as written, a setting added since taking its default', () => {
    const sales = new SaleStore(host.loket.db, new FakeClock());
    const stored = { ...DEFAULT_TAX_SETTINGS, pricesIncludeTax: false } as Record<string, unknown>;
    delete stored.defaultCategory; // as if the setting came after the sale
    host.loket.db
      .prepare(
        `INSERT INTO sales (id, terminal_id, state, training, subtotal, line_discounts, sale_discount_amount, net, dpp,
           ppn, pbjt, service, total, categories, tax_settings, created_at, updated_at)
         VALUES ('S-OLD', 'T01', 'completed', 1, 10000, 0, 0, 10000, 9167, 1100, 0, 0, 11100, '[]', ?, ?, ?)`,
      )
      .run(JSON.stringify(stored), '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
    expect(sales.get('S-OLD')!.taxSettings).toEqual(taxSettingsSchema.parse(stored));
    expect(sales.get('S-OLD')!.taxSettings).toMatchObject({ pricesIncludeTax: false, defaultCategory: 'ppn' });
  });
});
