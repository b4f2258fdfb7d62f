// Training sales are the cashier's, as live ones are (docs/roles.md, "Who sold it"): a manager trains staff in
// training mode and reads per-cashier figures there too — the desk's cashier filter, the day's report, its A4
// page and the export name the cashier who was signed in, although training orders live in training/loket.db,
// which holds none of the store's staff.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { dayIn } from '../../src-main/common/gateway-time';
import { tempDir } from './helpers/loket';

let dir: ReturnType<typeof tempDir>;
let host: AppHost;
let session = '';
const today = dayIn(new Date(), 'Asia/Jakarta');

beforeEach(async () => {
  dir = tempDir('loket-training-staff-');
  host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {} });
  session = (await host.app.setupManager({ name: 'Bu Sri', pin: '97531864' })).token;
});
afterEach(async () => {
  await host.close();
  dir.remove();
});

async function sellAs(staffId: number, amount: number): Promise<string> {
  expect(await host.app.signIn(staffId, null)).toMatchObject({ ok: true });
  await host.app.showOnDisplay(null);
  const charged = await host.app.createOrder({ methodId: 'qris_dynamic', amount, itemName: 'Latihan' });
  if (!charged.ok) throw new Error(charged.failure.message);
  await host.app.simulatePayment(charged.order.id);
  return charged.order.id;
}

function csvOf(text: string): Record<string, string>[] {
  return parse(text, { columns: true }) as Record<string, string>[];
}

describe('training sales are attributed to the cashier signed in', () => {
  it("the desk filters by cashier; the report, the A4 page and the export name each cashier's sales", async () => {
    expect(host.loket.training).toBe(true);
    const added = await host.app.addStaff(session, { name: 'Ani', role: 'cashier', pin: '2468' });
    const ani = added.staff.find((s) => s.name === 'Ani')!.id;
    const sri = added.staff.find((s) => s.name === 'Bu Sri')!.id;
    const aniOrder = await sellAs(ani, 12_000);
    await sellAs(ani, 3_000);
    const sriOrder = await sellAs(sri, 5_000);

    expect(host.loket.log.get(aniOrder)!.staffId).toBe(ani);
    const page = await host.app.deskOrders(session, { from: today, to: today, staffId: ani });
    expect(page.orders.map((o) => o.staffId)).toEqual([ani, ani]);
    expect((await host.app.deskOrders(session, { from: today, to: today, staffId: sri })).orders[0]!.id).toBe(sriOrder);

    const report = await host.app.dayReport(session, today);
    expect(report.training).toBe(true);
    expect(report.figures.byStaff.map((s) => [s.name, s.staffId, s.paid.amount])).toEqual([
      ['Ani', ani, 15_000],
      ['Bu Sri', sri, 5_000],
    ]);
    const { html } = await host.app.dayReportHtml(session, today);
    expect(html).toContain('Ani');
    expect(html).not.toContain('tanpa kasir');

    const detail = await host.app.orderDetail(session, aniOrder);
    expect(detail.staffName).toBe('Ani');

    // The export reads the same file; each row names its cashier.
    const ticket = await host.app.prepareExport(session, { from: today, to: today, format: 'csv' });
    const download = host.app.takeDownload(ticket.downloadId)!;
    let text = '';
    await download.write(
      new Writable({
        write(chunk: Buffer, _enc, done) {
          text += chunk.toString('utf8');
          done();
        },
      }),
    );
    const rows = csvOf(text);
    expect(rows.map((r) => [r.staff_id, r.staff_name]).sort()).toEqual(
      [
        [String(ani), 'Ani'],
        [String(ani), 'Ani'],
        [String(sri), 'Bu Sri'],
      ].sort(),
    );
  });

  it('a member of staff added after training mode started (from the command line too) can sell at once', async () => {
    // The store's books change behind the running app, as `npm run cli -- staff add` does.
    const budi = await host.store.access.staff.add({ name: 'Budi', role: 'cashier', pin: '1357' });
    const id = await sellAs(budi.id, 7_000);
    expect(host.loket.log.get(id)).toMatchObject({ state: 'paid', staffId: budi.id });
    const report = await host.app.dayReport(session, today);
    expect(report.figures.byStaff.map((s) => s.name)).toEqual(['Budi']);
  });
});
