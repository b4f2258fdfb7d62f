// The manager's Tax section and the day's sales through the app host's API, on real SQLite files (docs/tax.md,
// docs/end-of-day.md "Sales"): the sale's settings saved by the rule the CLI uses, audited field by field, refused
// naming the field; a sale rung up under prices excluding PPN shows in the day report, its A4 page, and the closing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { dayIn } from '../../src-main/common/gateway-time';
import type { ManagerResult, ManagerView } from '../../src-main/common/manager';
import { formatRupiah } from '../../src-main/common/money';
import { lineOfProduct, type Cart } from '../../src-main/common/sale';
import { loadSaleSettings } from '../../src-main/core/settings/sale-settings';
import { MemoryCashLedger } from './helpers/memory-cash-ledger';
import { tempDir } from './helpers/loket';

let dir: ReturnType<typeof tempDir>;
let host: AppHost;
let token: string;

beforeEach(async () => {
  dir = tempDir('loket-tax-day-');
  const ledger = new MemoryCashLedger();
  host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {}, cashLedger: () => ledger });
  token = (await host.app.setupManager({ name: 'Bu Sri', pin: '97531864' })).token;
});
afterEach(async () => {
  await host.close();
  dir.remove();
});

function ok(result: ManagerResult): ManagerView {
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.view;
}

async function cartOf(...codes: [string, number][]): Promise<Cart> {
  const lines = [];
  for (const [code, qty] of codes) {
    const product = await host.app.productByCode({ code });
    if (!product) throw new Error(`no product ${code}`);
    lines.push(lineOfProduct(product, `l${lines.length + 1}`, qty));
  }
  return { lines, saleDiscount: null };
}

describe("the manager's Tax section", () => {
  it('saves PPN, PBJT, PKP, rounding and the limits; each changed field one audit entry; the CLI reads the same', async () => {
    const before = await host.app.managerView(token);
    expect(before.sale.tax).toMatchObject({ ppn: { rateBp: 1200, dpp: { num: 11, den: 12 } }, pricesIncludeTax: true });
    const auditBefore = (await host.app.auditLog(token, {})).length;

    const view = ok(
      await host.app.updateSaleSettings(token, {
        tax: {
          pricesIncludeTax: false,
          pbjt: { enabled: true },
          pkp: {
            enabled: true,
            sellerName: 'PT Toko Maju',
            address: 'Jl. Merdeka 1\nBandung',
            npwp: '01.234.567.8-901.000',
          },
        },
        cash: { rounding: 'nearest' },
        discounts: { saleBp: 1500 },
      }),
    );
    expect(view.sale.tax).toMatchObject({
      pricesIncludeTax: false,
      pbjt: { enabled: true, rateBp: 1000 },
      pkp: { enabled: true, sellerName: 'PT Toko Maju', npwp: '01.234.567.8-901.000' },
    });
    expect(view.sale.cash.rounding).toBe('nearest');
    expect(view.sale.discounts).toEqual({ lineBp: 1000, saleBp: 1500 });
    // Stored where the CLI's `config set-tax` and the sale read them.
    expect(loadSaleSettings(host.store.settings)).toEqual(view.sale);

    const all = await host.app.auditLog(token, {});
    const audit = all.slice(0, all.length - auditBefore);
    const changed = audit.filter((e) => e.action === 'settings.changed');
    expect(changed.map((e) => e.field).sort()).toEqual(
      [
        'cash.rounding',
        'discounts.saleBp',
        'tax.pbjt.enabled',
        'tax.pkp.address',
        'tax.pkp.enabled',
        'tax.pkp.npwp',
        'tax.pkp.sellerName',
        'tax.pricesIncludeTax',
      ].sort(),
    );
    expect(changed.find((e) => e.field === 'tax.pricesIncludeTax')).toMatchObject({
      actor: expect.objectContaining({ name: 'Bu Sri' }),
      detail: { from: true, to: false },
    });

    // The same again changes nothing and writes nothing.
    const count = (await host.app.auditLog(token, {})).length;
    ok(await host.app.updateSaleSettings(token, { tax: { pricesIncludeTax: false } }));
    expect((await host.app.auditLog(token, {})).length).toBe(count);
  });

  it('refuses a bad value naming each field with its rule (and its numbers), and changes nothing', async () => {
    const count = (await host.app.auditLog(token, {})).length;
    const refused = await host.app.updateSaleSettings(token, {
      tax: { ppn: { rateBp: 10_001 }, pkp: { enabled: true, sellerName: 'x'.repeat(61) } },
      cash: { rounding: 'up' },
    });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    const fields = refused.issues.map((i) => i.field).sort();
    expect(fields).toEqual(
      expect.arrayContaining([
        'cash.rounding',
        'tax.pkp.address',
        'tax.pkp.npwp',
        'tax.pkp.sellerName',
        'tax.ppn.rateBp',
      ]),
    );
    expect(refused.issues.find((i) => i.field === 'tax.pkp.sellerName')?.params).toEqual({ max: 60 });
    expect(refused.issues.find((i) => i.field === 'tax.ppn.rateBp')?.message).toMatch(/0 to 10000/);
    expect((await host.app.managerView(token)).sale.tax.ppn.rateBp).toBe(1200);
    expect((await host.app.auditLog(token, {})).length).toBe(count);
    await expect(host.app.updateSaleSettings('not-a-session', { tax: {} })).rejects.toThrow();
  });
});

describe("the day's sales", () => {
  it('a sale under prices excluding PPN: the report, its A4 page and the closing carry the same figures', async () => {
    ok(await host.app.updateSaleSettings(token, { tax: { pricesIncludeTax: false } }));
    // Kopi susu 18,000 × 2 = 36,000 without tax: PPN 12% × 11/12 = 3,960; DPP 33,000; the customer pays 39,960.
    const result = await host.app.chargeSale({ cart: await cartOf(['KOPI-SUSU', 2]), methodId: 'qris_dynamic' });
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(result.order?.amount).toBe(39_960);
    await host.app.simulatePayment(result.order!.id);

    const day = dayIn(new Date(), (await host.app.managerView(token)).settings.timeZone);
    const report = await host.app.dayReport(token, day);
    expect(report.sales).toMatchObject({
      completed: { count: 1, amount: 39_960 },
      subtotal: 36_000,
      net: 36_000,
      tax: { dpp: 33_000, ppn: 3_960, pbjt: 0, service: 0 },
      total: 39_960,
      tenders: { byKind: [{ kind: 'gateway', count: 1, amount: 39_960 }] },
    });

    const { html } = await host.app.dayReportHtml(token, day);
    const section = /<section id="sales">[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(section).toContain('<h2>Penjualan</h2>');
    expect(section).toMatch(/<td>PPN<\/td><td class="num"><\/td><td class="num">Rp3\.960<\/td>/);
    expect(section).toMatch(/<td>DPP<\/td><td class="num"><\/td><td class="num">Rp33\.000<\/td>/);
    expect(section).toContain(`<td class="num">${formatRupiah(39_960)}</td>`);
    expect(html).toContain('<section id="salesByCategory">');
    expect(html).toContain('<section id="topSellers">');
    // How it was paid is the money taken, which the page leads with.
    expect(html).toMatch(/<section id="taken">[\s\S]*Rp39\.960/);

    const closed = await host.app.closeDay(token, day);
    expect(closed.closing?.sales).toEqual(report.sales);
    // The record is the database's: read again from the file, it carries them.
    const stored = host.loket.db.prepare('SELECT sales FROM closings WHERE day = ?').pluck().get(day) as string;
    expect(JSON.parse(stored)).toMatchObject({ total: 39_960, tax: { ppn: 3_960, dpp: 33_000 } });
    // A closed day's page prints the closing's sales, said to be so.
    const after = (await host.app.dayReportHtml(token, day)).html;
    expect(after).toContain('Penjualan saat hari ditutup.');
  });
});
