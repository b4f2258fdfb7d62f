// @vitest-environment jsdom
// The manager's Tax section against the fake API (docs/tax.md): the draft over the view's sale settings, percentages
// typed as people type them and sent as basis points, only what changed sent, a typing mistake caught before sending,
// the server's problems at their fields in the screen's words; and the day's sales (the closing's once closed).
import { describe, expect, test } from 'vitest';
import type { ManagerView } from '../../../src-main/common/manager';
import type { SalesFigures } from '../../../src-main/common/reports';
import { i18n, messagesFor } from '../../../src-renderer/src/i18n/i18n.svelte';
import { showIssue } from '../../../src-renderer/src/lib/settings-issues';
import { ManagerSession } from '../../../src-renderer/src/state/manager-session.svelte';
import { parseFraction, percentText } from '../../../src-renderer/src/state/tax-editor.svelte';
import { dayReport, FakeApi, figures, MANAGER, managerSession, managerView, settle, tillStatus } from './fake-client';

const TOKEN = managerSession().token;

async function open(view: ManagerView = managerView()) {
  const fake = new FakeApi();
  fake.on('unlockManager', () => ({ ok: true, session: managerSession() })).on('managerView', () => view);
  const manager = new ManagerSession({
    api: fake.api,
    till: () => tillStatus(),
    now: () => Date.parse('2026-03-10T05:00:00.000Z'),
  });
  manager.pick(MANAGER.id);
  manager.pin.setText('97531864');
  expect(await manager.unlock()).toBe(true);
  return { fake, manager, editors: manager.editors! };
}

function withSale(view: ManagerView, change: (sale: ManagerView['sale']) => void): ManagerView {
  const next = structuredClone(view);
  change(next.sale);
  return next;
}

describe('the Tax section', () => {
  test('shows the saved settings as typed: percentages, the base as a fraction', async () => {
    const { editors } = await open();
    const tax = editors.tax;
    expect(tax.draft).toMatchObject({
      ppnRate: '12',
      dpp: '11/12',
      pricesIncludeTax: true,
      pbjtEnabled: false,
      pbjtRate: '10',
      serviceRate: '5',
      defaultCategory: 'ppn',
      pkpEnabled: false,
      cashRounding: 'off',
      lineDiscountLimit: '10',
      saleDiscountLimit: '10',
    });
    expect(percentText(1250)).toBe('12.5');
    expect(parseFraction(' 11 / 12 ')).toEqual({ num: 11, den: 12 });
    expect(parseFraction('11:12')).toBeUndefined();
  });

  test('sends only what changed, rates in basis points ("12,5" → 1250), each under its section; the newer view shows', async () => {
    const { fake, editors, manager } = await open();
    const tax = editors.tax;
    tax.set('ppnRate', '12,5');
    tax.set('pricesIncludeTax', false);
    tax.set('pkpEnabled', true);
    tax.set('sellerName', '  PT Toko Maju ');
    tax.set('npwp', '01.234.567.8-901.000');
    tax.set('sellerAddress', 'Jl. Merdeka 1');
    tax.set('cashRounding', 'nearest');
    tax.set('saleDiscountLimit', '15');
    expect(tax.dirty).toBe(true);
    const saved = withSale(managerView(), (s) => {
      s.tax.ppn.rateBp = 1250;
      s.tax.pricesIncludeTax = false;
      s.tax.pkp = { enabled: true, sellerName: 'PT Toko Maju', address: 'Jl. Merdeka 1', npwp: '01.234.567.8-901.000' };
      s.cash.rounding = 'nearest';
      s.discounts.saleBp = 1500;
    });
    fake.on('updateSaleSettings', () => ({ ok: true, view: saved }));
    expect(await tax.save()).toBe(true);
    expect(fake.callsOf('updateSaleSettings')).toEqual([
      [
        TOKEN,
        {
          tax: {
            ppn: { rateBp: 1250 },
            pricesIncludeTax: false,
            pkp: { enabled: true, sellerName: 'PT Toko Maju', address: 'Jl. Merdeka 1', npwp: '01.234.567.8-901.000' },
          },
          cash: { rounding: 'nearest' },
          discounts: { saleBp: 1500 },
        },
      ],
    ]);
    expect(manager.view?.sale.tax.ppn.rateBp).toBe(1250);
    expect(tax.saved).toBe(true);
    expect(tax.dirty).toBe(false);
    expect(tax.value('ppnRate')).toBe('12.5');
  });

  test('a rate or a base that cannot be read is caught at its field; nothing is sent', async () => {
    const { fake, editors } = await open();
    const tax = editors.tax;
    tax.set('ppnRate', 'twelve');
    tax.set('dpp', '11:12');
    expect(await tax.save()).toBe(false);
    expect(fake.callsOf('updateSaleSettings')).toEqual([]);
    expect(tax.firstIssueField).toBe('ppnRate');
    expect(showIssue(tax.issueFor('ppnRate')!, messagesFor('en'), 'en').text).toMatch(/A percentage from 0 to 100/);
    expect(showIssue(tax.issueFor('dpp')!, messagesFor('id'), 'id').text).toMatch(/Pecahan seperti 11\/12/);
    // Editing a field clears its problem only.
    tax.set('ppnRate', '11');
    expect(tax.issueFor('ppnRate')).toBeUndefined();
    expect(tax.issueFor('dpp')).toBeDefined();
  });

  test("the server's refusals are at their fields, in the screen's words from the rule and its numbers", async () => {
    const { fake, editors } = await open();
    const tax = editors.tax;
    tax.set('pkpEnabled', true);
    tax.set('sellerName', 'x'.repeat(61));
    fake.on('updateSaleSettings', () => ({
      ok: false,
      issues: [
        { field: 'tax.pkp.sellerName', message: 'tax.pkp.sellerName: at most 60 characters', params: { max: 60 } },
        { field: 'tax.pkp.npwp', message: 'tax.pkp.npwp: required for a PKP store: …' },
      ],
    }));
    expect(await tax.save()).toBe(false);
    expect(tax.firstIssueField).toBe('sellerName');
    i18n.set('id');
    expect(showIssue(tax.issueFor('sellerName')!, i18n.t, 'id').text).toBe(
      'Nama terdaftar, paling banyak 60 karakter dalam satu baris; wajib untuk toko PKP.',
    );
    expect(showIssue(tax.issueFor('npwp')!, messagesFor('en'), 'en').text).toMatch(/^The NPWP: 15 or 16 digits/);
    // What was typed stays.
    expect(tax.value('sellerName')).toBe('x'.repeat(61));
  });

  test('nothing changed: nothing is sent', async () => {
    const { fake, editors } = await open();
    editors.tax.set('ppnRate', '12');
    expect(await editors.tax.save()).toBe(true);
    expect(fake.callsOf('updateSaleSettings')).toEqual([]);
  });
});

const SALES: SalesFigures = {
  completed: { count: 1, amount: 39_960 },
  voided: { count: 0, amount: 0 },
  open: { count: 0, amount: 0 },
  subtotal: 36_000,
  discounts: 0,
  net: 36_000,
  tax: { dpp: 33_000, ppn: 3_960, pbjt: 0, service: 0 },
  total: 39_960,
  rounding: 0,
  byCategory: [{ category: 'Minuman', qty: 2, gross: 36_000, discounts: 0, net: 36_000, total: 39_960 }],
  byProduct: [{ sku: 'KOPI-SUSU', name: 'Kopi susu', qty: 2, net: 36_000, total: 39_960 }],
  tenders: { byKind: [{ kind: 'gateway', count: 1, amount: 39_960 }], byMethod: [], cashHanded: 0, change: 0 },
};

describe("the day's sales", () => {
  test("the sales now until closed; then the closing's, said to be so", async () => {
    const { fake, manager, editors } = await open();
    const day = '2026-03-10';
    fake.on('dayReport', () => dayReport(day, { sales: SALES }));
    manager.selectSection('day');
    await settle();
    expect(editors.day.sales).toEqual({ figures: SALES, atClosing: false });

    const atClosing = { ...SALES, total: 10_000 };
    fake.on('dayReport', () =>
      dayReport(day, {
        sales: SALES,
        closing: {
          day,
          timeZone: 'Asia/Jakarta',
          closedAt: '2026-03-10T16:00:00.000Z',
          closedBy: { name: 'Bu Sri' },
          figures: figures(day, { count: 1, amount: 39_960 }),
          openAttention: 0,
          sales: atClosing,
        },
      }),
    );
    await editors.day.load();
    expect(editors.day.sales).toEqual({ figures: atClosing, atClosing: true });
  });

  test('a closing made before Loket kept sales: the sales now', async () => {
    const { fake, manager, editors } = await open();
    const day = '2026-03-10';
    fake.on('dayReport', () =>
      dayReport(day, {
        sales: SALES,
        closing: {
          day,
          timeZone: 'Asia/Jakarta',
          closedAt: '2026-03-10T16:00:00.000Z',
          closedBy: { name: 'Bu Sri' },
          figures: figures(day, { count: 1, amount: 39_960 }),
          openAttention: 0,
        },
      }),
    );
    manager.selectSection('day');
    await settle();
    expect(editors.day.sales).toEqual({ figures: SALES, atClosing: false });
  });
});
