// The export's tenders (docs/export.md, "Tenders"): one row per tender of every sale of the day, on a real SQLite file
// written by the app host's own sale path (training mode: its embedded sandbox over HTTP on 127.0.0.1 pays the QRIS
// tenders), with a split of cash and QRIS, "other" with its reference, the cash rounding line, and a sale voided
// while its QRIS tender was pending (its order cancelled: the tender is stored as failed). The manager's export
// (prepareExport, as the app and browser mode download it) carries the Tenders sheet, and its completed rows sum to
// the day report's tender figures to the rupiah.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { dayIn } from '../../src-main/common/gateway-time';
import type { Cart } from '../../src-main/common/sale';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { TENDER_COLUMNS } from '../../src-main/core/export/tenders-export';
import { MemoryCashLedger } from './helpers/memory-cash-ledger';
import { tempDir } from './helpers/loket';

const TZ = 'Asia/Jakarta';
let dir: ReturnType<typeof tempDir>;
let host: AppHost;
let token: string;

beforeEach(async () => {
  dir = tempDir('loket-tenders-export-');
  const ledger = new MemoryCashLedger();
  host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {}, cashLedger: () => ledger });
  token = (await host.app.setupManager({ name: 'Bu Sri', pin: '97531864' })).token;
  const set = await host.app.updateSaleSettings(token, { cash: { rounding: 'nearest' } });
  if (!set.ok) throw new Error(JSON.stringify(set.issues));
});
afterEach(async () => {
  await host.close();
  dir.remove();
});

/** A cart of one typed line of `price` (tax-exempt, so the total is the price). */
const cartOf = (price: number, name = 'Belanja'): Cart => ({
  lines: [{ lineId: 'a', name, unitPrice: price, qty: 1, taxCategory: 'exempt' }],
  saleDiscount: null,
});

/** The manager's export of `day` as the app downloads it (prepareExport, then the one-time download). */
async function download(day: string, format: 'csv' | 'xlsx'): Promise<Buffer> {
  const ticket = await host.app.prepareExport(token, { from: day, to: day, format });
  const file = host.app.takeDownload(ticket.downloadId);
  if (!file) throw new Error('the export was not there to take');
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await file.write(out);
  return Buffer.concat(chunks);
}

describe("the export's tenders", () => {
  it('one row per tender of every sale; the completed ones sum to the day report to the rupiah, in the app export too', async () => {
    // 1. Rp10.000 cash, the rest (Rp13.450) by QRIS, paid: the rounding is for cash paying the last of the total only.
    const split = await host.app.chargeSale({
      cart: cartOf(23_450, 'Kopi bubuk'),
      tenders: [
        { kind: 'cash', handed: 10_000 },
        { kind: 'gateway', methodId: 'qris_dynamic' },
      ],
    });
    if (!split.ok) throw new Error(JSON.stringify(split));
    await host.app.simulatePayment(split.order!.id);
    expect((await host.app.sale({ saleId: split.saleId }))?.state).toBe('completed');
    // 2. A card slip ("other") for Rp10.000, then Rp20.000 cash for the Rp13.450 left: rounded to Rp13.500 (+50),
    //    Rp6.500 change.
    const other = await host.app.chargeSale({
      cart: cartOf(23_450, '=Gula'),
      tenders: [
        { kind: 'other', amount: 10_000, reference: '=EDC 0042' },
        { kind: 'cash', handed: 20_000 },
      ],
    });
    if (!other.ok) throw new Error(JSON.stringify(other));
    expect(other.sale).toMatchObject({ state: 'completed', rounding: 50, change: 6_500 });
    // 3. Cash and a QRIS tender never paid: voiding cancels the order (the tender is failed), the sale is voided; its
    //    tenders are exported as stored, and not counted in the report.
    const voided = await host.app.chargeSale({
      cart: cartOf(15_000),
      tenders: [
        { kind: 'cash', handed: 5_000 },
        { kind: 'gateway', methodId: 'qris_dynamic' },
      ],
    });
    if (!voided.ok) throw new Error(JSON.stringify(voided));
    await host.app.voidSale({ saleId: voided.saleId, reason: 'customer left' });

    const day = dayIn(new Date(), TZ);
    const csv = parse((await download(day, 'csv')).toString('utf8'), { columns: true }) as Record<string, string>[];
    // A CSV asked for without a table is the orders (the tenders have their own: --tenders, and a workbook sheet).
    expect(Object.keys(csv[0] ?? {})).toContain('order_id');

    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await download(day, 'xlsx')) as unknown as ArrayBuffer);
    expect(book.worksheets.map((w) => w.name)).toEqual([
      'Ringkasan',
      'Takings',
      'Orders',
      'Sale lines',
      'Refunds',
      'Tenders',
    ]);
    const sheet = book.getWorksheet('Tenders')!;
    const values = sheet.getSheetValues().filter(Boolean) as unknown[][];
    const header = values[0]!.slice(1);
    expect(header).toEqual(TENDER_COLUMNS.map((c) => (c.kind === 'time' ? `${c.name} (${TZ})` : c.name)));
    const rows = values.slice(1).map((v) => Object.fromEntries(TENDER_COLUMNS.map((c, i) => [c.name, v[i + 1]])));
    const qrisOrderId = split.order!.id;
    expect(
      rows.map((r) => [
        r.sale_id,
        r.tender_no,
        r.kind,
        r.method_id,
        r.order_id,
        r.amount,
        r.cash_handed,
        r.change,
        r.rounding,
        r.reference,
        r.tender_state,
        r.sale_state,
      ]),
    ).toEqual([
      [split.saleId, 1, 'cash', undefined, undefined, 10_000, 10_000, 0, 0, undefined, 'paid', 'completed'],
      [split.saleId, 2, 'gateway', 'qris_dynamic', qrisOrderId, 13_450, 0, 0, 0, undefined, 'paid', 'completed'],
      // A reference a spreadsheet would read as a formula is written as text.
      [other.saleId, 1, 'other', undefined, undefined, 10_000, 0, 0, 0, "'=EDC 0042", 'paid', 'completed'],
      [other.saleId, 2, 'cash', undefined, undefined, 13_500, 20_000, 6_500, 50, undefined, 'paid', 'completed'],
      [voided.saleId, 1, 'cash', undefined, undefined, 5_000, 5_000, 0, 0, undefined, 'paid', 'voided'],
      [voided.saleId, 2, 'gateway', 'qris_dynamic', voided.order!.id, 10_000, 0, 0, 0, undefined, 'failed', 'voided'],
    ]);
    for (const r of rows) {
      // Date cells (docs/export.md, "Times in XLSX"): the store day, and the store's wall time of each instant.
      expect(r.business_day).toEqual(new Date(`${day}T00:00:00.000Z`));
      expect(r.terminal_id).toBe(split.sale.terminalId);
      expect(r.sale_time).toBeInstanceOf(Date);
      expect(r.tender_time).toBeInstanceOf(Date);
    }
    // The gateway method by its name in the store's language; none for cash and other.
    const qris = loadPaymentCatalogue().find((m) => m.id === 'qris_dynamic')!;
    expect(rows[1]!.method_label).toBe(qris.label.id);
    expect(rows[1]!.method_label).toMatch(/^QRIS/);
    expect(rows[0]!.method_label).toBeUndefined();

    // The completed sales' rows are the day report's tender figures, to the rupiah.
    const report = await host.app.dayReport(token, day);
    const tenders = report.sales!.tenders;
    const done = rows.filter((r) => r.sale_state === 'completed');
    const total = (xs: typeof rows, col: string) => xs.reduce((a, r) => a + Number(r[col] ?? 0), 0);
    for (const k of tenders.byKind) {
      const of = done.filter((r) => r.kind === k.kind);
      expect([k.kind, of.length, total(of, 'amount')]).toEqual([k.kind, k.count, k.amount]);
    }
    expect(tenders.byKind.map((k) => k.kind).sort()).toEqual(['cash', 'gateway', 'other']);
    expect(tenders.byMethod).toEqual([{ methodId: 'qris_dynamic', count: 1, amount: 13_450 }]);
    const cash = done.filter((r) => r.kind === 'cash');
    expect([total(cash, 'cash_handed'), total(cash, 'change')]).toEqual([tenders.cashHanded, tenders.change]);
    expect([tenders.cashHanded, tenders.change]).toEqual([30_000, 6_500]);
    expect(total(done, 'rounding')).toBe(report.sales!.rounding);
    expect(total(done, 'amount')).toBe(report.sales!.total + report.sales!.rounding);
    expect(total(done, 'amount')).toBe(23_450 + 23_500);
  });
});
