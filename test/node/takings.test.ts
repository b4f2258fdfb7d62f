// The day's books lead with what the store took (docs/end-of-day.md, "Money taken"), on a real SQLite file written by
// the app host's own paths (training mode: its embedded sandbox over HTTP on 127.0.0.1 pays the QRIS tenders): a day
// of cash sales with rounding, a card slip with cash, cash with QRIS, QRIS alone, a split voided while its QRIS part
// was pending, a QRIS sale still being paid, and orders made before every charge was a sale (one paid, one cancelled
// and paid late). The money taken — the completed sales' paid tenders and the old paid order, by tender and by the
// staff who sold — is checked against the sales as charged (an oracle that adds them up itself), and the report's
// headline and staff lines, `report --json`, the A4 page, the closing, the workbook's summary and Takings sheet and
// the manager's CSV all say the same figure to the rupiah.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { dayIn } from '../../src-main/common/gateway-time';
import type { DayReport, Takings } from '../../src-main/common/reports';
import type { Cart, SaleView } from '../../src-main/common/sale';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { dayReportJson } from '../../src-main/core/reports/day-report';
import { runReportCommand } from '../../src-main/cli/report-commands';
import { MemoryCashLedger } from './helpers/memory-cash-ledger';
import { oldOrder } from './helpers/old-orders';
import { tempDir } from './helpers/loket';

const TZ = 'Asia/Jakarta';
const dir = tempDir('loket-takings-');
let host: AppHost;
let token: string;
let ani: number;
let day: string;
/** The completed sales as charged, and the old orders paid: what the oracle adds up. */
const completed: SaleView[] = [];
let report: DayReport;

const cartOf = (price: number, name = 'Belanja'): Cart => ({
  lines: [{ lineId: 'a', name, unitPrice: price, qty: 1, taxCategory: 'exempt' }],
  saleDiscount: null,
});

async function charge(cart: Cart, tenders: Parameters<AppHost['app']['chargeSale']>[0]['tenders']) {
  const r = await host.app.chargeSale({ cart, tenders });
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r;
}

async function download(format: 'csv' | 'xlsx', table?: 'takings' | 'orders'): Promise<Buffer> {
  const ticket = await host.app.prepareExport(token, { from: day, to: day, format, ...(table ? { table } : {}) });
  const file = host.app.takeDownload(ticket.downloadId)!;
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await file.write(out);
  return Buffer.concat(chunks);
}

/** The oracle: the money taken added up from the sales as they were charged and the old orders paid. */
function expected(oldPaid: { methodId: string; amount: number }[]): {
  amount: number;
  count: number;
  byTender: Map<string, { count: number; amount: number }>;
} {
  const byTender = new Map<string, { count: number; amount: number }>();
  const add = (key: string, amount: number) => {
    const t = byTender.get(key) ?? { count: 0, amount: 0 };
    byTender.set(key, { count: t.count + 1, amount: t.amount + amount });
  };
  for (const s of completed) for (const t of s.tenders) add(t.kind === 'gateway' ? t.methodId! : t.kind, t.amount);
  for (const o of oldPaid) add(o.methodId, o.amount);
  const amount = [...byTender.values()].reduce((a, t) => a + t.amount, 0);
  return { amount, count: completed.length + oldPaid.length, byTender };
}

const tenderKey = (t: Takings['byTender'][number]) => (t.kind === 'gateway' ? t.methodId! : t.kind);
const OLD_PAID = [{ methodId: 'va_bca', amount: 50_000 }];

beforeAll(async () => {
  const ledger = new MemoryCashLedger();
  host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {}, cashLedger: () => ledger });
  token = (await host.app.setupManager({ name: 'Bu Sri', pin: '97531864' })).token;
  const set = await host.app.updateSaleSettings(token, { cash: { rounding: 'nearest' } });
  if (!set.ok) throw new Error(JSON.stringify(set.issues));
  const view = await host.app.addStaff(token, { name: 'Ani', role: 'cashier', pin: '2468' });
  ani = view.staff.find((s) => s.name === 'Ani')!.id;
  expect(await host.app.signIn(ani, '2468')).toMatchObject({ ok: true });

  // Ani: cash, rounded to Rp100 (23.450 → 23.500, change 26.500); a card slip and cash; cash and QRIS.
  completed.push((await charge(cartOf(23_450, 'Kopi'), [{ kind: 'cash', handed: 50_000 }])).sale);
  completed.push(
    (
      await charge(cartOf(23_450, 'Gula'), [
        { kind: 'other', amount: 10_000, reference: 'EDC 0042' },
        { kind: 'cash', handed: 20_000 },
      ])
    ).sale,
  );
  const split = await charge(cartOf(23_450, 'Teh'), [
    { kind: 'cash', handed: 10_000 },
    { kind: 'gateway', methodId: 'qris_dynamic' },
  ]);
  await host.app.simulatePayment(split.order!.id);
  completed.push((await host.app.sale({ saleId: split.saleId }))!);
  await host.app.signOut();
  // Nobody signed in: QRIS alone, paid.
  const qris = await charge(cartOf(15_000, 'Roti'), [{ kind: 'gateway', methodId: 'qris_dynamic' }]);
  await host.app.simulatePayment(qris.order!.id);
  completed.push((await host.app.sale({ saleId: qris.saleId }))!);
  // Cash and a QRIS part never paid: voided (its cash went back). Not money taken.
  const voided = await charge(cartOf(15_000), [
    { kind: 'cash', handed: 5_000 },
    { kind: 'gateway', methodId: 'qris_dynamic' },
  ]);
  await host.app.voidSale({ saleId: voided.saleId, reason: 'pelanggan pergi' });
  // Orders made before every charge was a sale: one paid (money taken, by its method), one cancelled and then paid
  // late (money at the gateway, not taken).
  const methods = loadPaymentCatalogue();
  oldOrder(host.loket.log, methods, {
    id: 'T01-OLD-PAID',
    methodId: 'va_bca',
    amount: 50_000,
    state: 'paid',
    training: true,
  });
  oldOrder(host.loket.log, methods, {
    id: 'T01-OLD-LATE',
    methodId: 'qris_dynamic',
    amount: 20_000,
    state: 'cancelled',
    training: true,
    latePayment: true,
  });
  // Last: a QRIS sale still being paid. Not money taken (its money may not come).
  await charge(cartOf(30_000, 'Beras'), [{ kind: 'gateway', methodId: 'qris_dynamic' }]);
  expect(completed.map((s) => s.state)).toEqual(['completed', 'completed', 'completed', 'completed']);

  day = dayIn(new Date(), TZ);
  report = await host.app.dayReport(token, day);
});
afterAll(async () => {
  await host.close();
  dir.remove();
});

describe('the books lead with what the store took', () => {
  it("the money taken is the completed sales' paid tenders and the old paid orders, by tender and by staff", () => {
    const taken = report.sales!.taken!;
    const want = expected(OLD_PAID);
    expect(taken.amount).toBe(want.amount);
    // By hand: cash 23.500 + 13.500 + 10.000; a card slip 10.000; QRIS 13.450 + 15.000; the old VA order 50.000.
    expect(taken.amount).toBe(135_450);
    expect(taken.count).toBe(5);
    expect(new Map(taken.byTender.map((t) => [tenderKey(t), { count: t.count, amount: t.amount }]))).toEqual(
      want.byTender,
    );
    expect(taken.byTender.map(tenderKey)).toEqual(['cash', 'other', 'qris_dynamic', 'va_bca']);
    expect(taken.byTender.find((t) => t.methodId === 'qris_dynamic')!.label).toMatch(/^QRIS/);
    expect(taken.withoutSale).toEqual({ count: 1, amount: 50_000 });
    // The staff lines: sales and money per member of staff (nobody signed in last).
    expect(taken.byStaff).toEqual([
      { staffId: ani, name: 'Ani', count: 3, amount: 23_500 + 23_500 + 23_450 },
      { staffId: null, name: '(tanpa kasir)', count: 2, amount: 15_000 + 50_000 },
    ]);
    // The sales it was taken for pay their total and rounding; the old order adds its amount.
    expect(taken.amount).toBe(report.sales!.total + report.sales!.rounding + 50_000);
    // The gateway orders are the detail: three paid (two QRIS of sales, the old VA order), one paid late apart.
    expect(report.figures.paid).toEqual({ count: 3, amount: 13_450 + 15_000 + 50_000 });
    expect(report.figures.latePaid).toEqual({ count: 1, amount: 20_000 });
  });

  it("report --json's top-level paid is the money taken by every tender; the orders' figure is ordersPaid", async () => {
    const json = dayReportJson(report);
    expect(json.paid).toEqual({ count: 5, amount: 135_450 });
    expect(json.taken).toEqual(report.sales!.taken);
    expect(json.ordersPaid).toEqual(report.figures.paid);
    // The command line prints the same.
    let out = '';
    const code = await runReportCommand(
      ['--date', day, '--json'],
      { dataDir: join(dir.path, 'data'), env: {}, store: host.store },
      {
        out: (t) => (out += t),
        err: () => undefined,
      },
    );
    expect(code).toBe(0);
    const printed = JSON.parse(out) as Record<string, unknown>;
    expect(printed.paid).toEqual({ count: 5, amount: 135_450 });
    expect(printed.ordersPaid).toEqual({ count: 3, amount: 78_450 });
    let text = '';
    await runReportCommand(
      ['--date', day],
      { dataDir: join(dir.path, 'data'), env: {}, store: host.store },
      {
        out: (t) => (text += t),
        err: () => undefined,
      },
    );
    expect(text).toMatch(/Money taken\s+5\s+Rp135\.450/);
    expect(text.indexOf('Money taken')).toBeLessThan(text.indexOf('Gateway orders'));
  });

  it('the A4 page leads with it, by tender, then the staff lines; the orders come after', async () => {
    const { html } = await host.app.dayReportHtml(token, day);
    const first = /<section id="([a-zA-Z]+)">/.exec(html)![1];
    expect(first).toBe('taken');
    const taken = /<section id="taken">[\s\S]*?<\/section>/.exec(html)![0];
    expect(taken).toMatch(/Diterima \(5 penjualan\)<\/td><td class="num"><\/td><td class="num">Rp135\.450/);
    expect(taken).toContain('<td>Tunai</td><td class="num">3</td><td class="num">Rp47.000</td>');
    expect(taken).toContain('Termasuk 1 pesanan lama tanpa penjualan (Rp50.000)');
    expect(html).toMatch(
      /<section id="takenByStaff">[\s\S]*<td>Ani<\/td><td class="num">3<\/td><td class="num">Rp70\.450/,
    );
    expect(html.indexOf('id="taken"')).toBeLessThan(html.indexOf('id="summary"'));
  });

  it("the workbook's summary leads with it (and the refunds, the sales' tax, the shifts); its Takings sheet adds up to it", async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await download('xlsx')) as unknown as ArrayBuffer);
    expect(book.worksheets[0]!.name).toBe('Ringkasan');
    const summary = book.worksheets[0]!;
    const rows = summary.getRows(1, summary.rowCount)!.map((r) => (r.values as unknown[]).slice(1));
    const row = (label: string) => rows.find((r) => r[0] === label)!;
    expect(row('Diterima').slice(2, 4)).toEqual([5, 135_450]);
    expect(row('cash').slice(1, 4)).toEqual(['Tunai', 3, 47_000]);
    expect(row('other').slice(2, 4)).toEqual([1, 10_000]);
    expect(row('qris_dynamic').slice(2, 4)).toEqual([2, 28_450]);
    expect(row('va_bca').slice(2, 4)).toEqual([1, 50_000]);
    expect(row('Termasuk pesanan lama tanpa penjualan').slice(2, 4)).toEqual([1, 50_000]);
    expect(row(String(ani)).slice(1, 4)).toEqual(['Ani', 3, 70_450]);
    expect(row('PPN')[3]).toBe(report.sales!.tax.ppn);
    expect(row('Neto (sebelum pajak)')[3]).toBe(report.sales!.net);
    expect(row('Dikembalikan')[2]).toBe(0);
    // The gateway orders follow, as the detail.
    const at = (label: string) => rows.findIndex((r) => r[0] === label);
    expect(at('Diterima')).toBeLessThan(at('Pesanan gateway (rincian)'));
    expect(row('Diterima (lunas)').slice(2, 4)).toEqual([3, 78_450]);

    const sheet = book.getWorksheet('Takings')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1).map((h) => String(h).replace(/ \(.*\)$/, ''));
    const takings = (sheet.getSheetValues().filter(Boolean) as unknown[][])
      .slice(1)
      .map((v) => Object.fromEntries(header.map((h, i) => [h, v[i + 1]])));
    expect(takings.reduce((a, r) => a + Number(r.amount), 0)).toBe(135_450);
    expect(takings.filter((r) => r.without_sale === true).map((r) => r.order_id)).toEqual(['T01-OLD-PAID']);
    expect(takings.every((r) => r.sale_time instanceof Date && r.business_day instanceof Date)).toBe(true);
  });

  it("the manager's CSV holds the money taken, one row per tender; its sums are the report's by tender and by staff", async () => {
    const csv = parse((await download('csv', 'takings')).toString('utf8'), { columns: true }) as Record<
      string,
      string
    >[];
    expect(csv).toHaveLength(7);
    expect(csv.reduce((a, r) => a + Number(r.amount), 0)).toBe(report.sales!.taken!.amount);
    for (const t of report.sales!.taken!.byTender) {
      const of = csv.filter((r) => (r.kind === 'gateway' ? r.method_id : r.kind) === tenderKey(t));
      expect([of.length, of.reduce((a, r) => a + Number(r.amount), 0)]).toEqual([t.count, t.amount]);
    }
    for (const s of report.sales!.taken!.byStaff) {
      const of = csv.filter((r) => r.staff_id === (s.staffId === null ? '' : String(s.staffId)));
      const docs = new Set(of.map((r) => r.sale_id || r.order_id));
      expect([docs.size, of.reduce((a, r) => a + Number(r.amount), 0)]).toEqual([s.count, s.amount]);
    }
    expect(csv.find((r) => r.order_id === 'T01-OLD-PAID')).toMatchObject({ kind: 'gateway', without_sale: 'true' });
    // The orders stay one choice away.
    const orders = parse((await download('csv', 'orders')).toString('utf8'), { columns: true }) as Record<
      string,
      string
    >[];
    expect(orders.some((r) => r.order_id === 'T01-OLD-PAID')).toBe(true);
  });

  it('the closing keeps the money taken as it was; a sale after closing changes the figure now, never the closed one', async () => {
    const closed = await host.app.closeDay(token, day);
    expect(closed.closing!.sales!.taken).toEqual(report.sales!.taken);
    // The QRIS sale still being paid is paid after closing: now counted, not in the closed figure.
    const pending = (await host.app.currentSale())!;
    await host.app.simulatePayment(pending.order.id);
    const after = await host.app.dayReport(token, day);
    expect(after.closing!.sales!.taken!.amount).toBe(135_450);
    expect(after.sales!.taken!.amount).toBe(135_450 + 30_000);
    expect(dayReportJson(after).paid).toEqual({ count: 5, amount: 135_450 });
    expect(dayReportJson(after).takenAtClosing).toBe(true);
  });
});
