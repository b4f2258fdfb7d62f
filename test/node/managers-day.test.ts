// The manager's day over the API, on a real SQLite file (docs/end-of-day.md): the figures lead with what was
// received (never paid and cancelled added up), closing names the orders still waiting, a sale after closing is one
// line of "changes after closing", and an export made after closing marks where it differs from the closing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { dayIn } from '../../src-main/common/gateway-time';
import { afterClosingByOrder, dayHeadline } from '../../src-main/common/reports';
import { tempDir } from './helpers/loket';

const dir = tempDir('loket-managers-day-');
let host: AppHost;
let session = '';
const today = dayIn(new Date(), 'Asia/Jakarta');
const ids: Record<string, string> = {};

async function sell(amount: number, item: string): Promise<string> {
  await host.app.showOnDisplay(null);
  const charged = await host.app.createOrder({ methodId: 'qris_dynamic', amount, itemName: item });
  if (!charged.ok) throw new Error(charged.failure.message);
  return charged.order.id;
}

async function download(format: 'csv' | 'xlsx'): Promise<Buffer> {
  const ticket = await host.app.prepareExport(session, { from: today, to: today, format });
  const chunks: Buffer[] = [];
  await host.app.takeDownload(ticket.downloadId)!.write(
    new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {} });
  session = (await host.app.setupManager({ name: 'Bu Sri', pin: '97531864' })).token;
  ids.paid = await sell(25_000, 'Kopi susu');
  await host.app.simulatePayment(ids.paid!);
  ids.cancelled = await sell(40_000, 'Nasi goreng');
  await host.app.cancelOrder(ids.cancelled!, 'customer changed mind');
  ids.waiting = await sell(12_000, 'Teh manis');
  await host.app.parkSale(ids.waiting!);
});
afterAll(async () => {
  await host.close();
  dir.remove();
});

describe("the manager's day", () => {
  it('leads with what was received; what waits and what was not paid stand apart; closing names the waiting', async () => {
    const report = await host.app.dayReport(session, today);
    // The old headline added them up: Rp77.000 of "all orders", Rp25.000 of it received.
    expect(report.figures.orders.amount).toBe(77_000);
    expect(dayHeadline(report.figures)).toEqual({
      received: { count: 1, amount: 25_000 },
      waiting: { count: 1, amount: 12_000 },
      notPaid: { count: 1, amount: 40_000 },
      orders: 3,
    });
    expect(report.waitingCount).toBe(1);
    expect(report.waiting).toEqual([
      expect.objectContaining({ id: ids.waiting, amount: 12_000, state: 'awaiting_payment', itemName: 'Teh manis' }),
    ]);
    const { html } = await host.app.dayReportHtml(session, today);
    expect(html).toMatch(/Diterima \(lunas\)<\/td><td class="num">1<\/td><td class="num">Rp25\.000</);
    expect(html).not.toContain('Rp77.000');
  });

  it('after closing: a sale is one line (not its events), and a waiting order paid later another', async () => {
    await host.app.closeDay(session, today);
    ids.late = await sell(9_000, 'Es jeruk');
    await host.app.simulatePayment(ids.late!);
    await host.app.simulatePayment(ids.waiting!);
    const report = await host.app.dayReport(session, today);
    // Several events each (created, sent, answered, paid; a note when parked)…
    expect(report.afterClosing.filter((c) => c.orderId === ids.late).length).toBeGreaterThanOrEqual(3);
    // …one line per order.
    const lines = afterClosingByOrder(report.afterClosing);
    expect(lines.map((l) => [l.orderId, l.created, l.from, l.to])).toEqual([
      [ids.late, true, undefined, 'paid'],
      [ids.waiting, false, 'awaiting_payment', 'paid'],
    ]);
    const { html } = await host.app.dayReportHtml(session, today);
    expect(html).toContain('Perubahan setelah ditutup (2)');
    expect(html).toContain('<td>Penjualan baru → Lunas</td>');
    expect(html).toContain('<td>Menunggu pembayaran → Lunas</td>');
  });

  it('an export after closing marks the orders changed since, and sets the closing beside the figures now', async () => {
    const rows = parse(await download('csv'), { columns: true }) as Record<string, string>[];
    const changed = Object.fromEntries(rows.map((r) => [r.order_id, r.changed_after_closing]));
    expect(changed).toEqual({
      [ids.paid!]: 'false',
      [ids.cancelled!]: 'false',
      [ids.waiting!]: 'true',
      [ids.late!]: 'true',
    });

    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await download('xlsx')) as unknown as ExcelJS.Buffer);
    const orders = book.getWorksheet('Orders')!;
    const header = (orders.getRow(1).values as unknown[]).slice(1);
    const col = header.indexOf('changed_after_closing') + 1;
    const marked = new Map<string, unknown>();
    orders.eachRow((row, n) => {
      if (n > 1) marked.set(String(row.getCell(1).value), row.getCell(col).value);
    });
    expect(marked.get(ids.late!)).toBe(true);
    expect(marked.get(ids.paid!)).toBe(false);

    // The store's language (id): the summary says the states by name, and the closing against now.
    const summary = book.getWorksheet('Ringkasan')!;
    const lines = summary.getRows(1, summary.rowCount)!.map((r) => (r.values as unknown[]).slice(1));
    expect(lines.some((l) => l[0] === 'paid' && l[1] === 'Lunas')).toBe(true);
    expect(lines.some((l) => String(l[0]).startsWith('Hari yang ditutup'))).toBe(true);
    // Received: 1 order (Rp25.000) at closing, 3 (Rp46.000) now — marked as changed.
    const received = lines.filter((l) => l[0] === 'Diterima (lunas)');
    expect(received[0]).toEqual(['Diterima (lunas)', undefined, 3, 46_000]);
    expect(received[1]).toEqual(['Diterima (lunas)', undefined, 1, 25_000, 3, 46_000, 'ya']);
    const notPaid = lines.filter((l) => l[0] === 'Tidak dibayar');
    expect(notPaid[1]).toEqual(['Tidak dibayar', undefined, 1, 40_000, 1, 40_000]);
  });
});
