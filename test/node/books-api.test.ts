// The manager's books over the API, as browser mode serves them (docs/end-of-day.md, docs/export.md): the desk,
// the attention queue, the day's report and its closing (with a backup), the A4 page, and the export as a
// download fetched once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import type { ApiEnvelope } from '../../src-main/common/api';
import { dayIn } from '../../src-main/common/gateway-time';
import { Backups } from '../../src-main/core/backup/backups';
import { startWebHost, type WebHost } from '../../src-main/web/web-host';
import { tempDir } from './helpers/loket';

// Each test has a host of its own on a fresh data folder, and makes the orders it needs: any one runs alone.
let dir: { path: string; remove(): void };
let host: AppHost;
let web: WebHost;
let token = '';
let session = '';
const today = dayIn(new Date(), 'Asia/Jakarta');

beforeEach(async () => {
  dir = tempDir('loket-books-');
  const staticDir = join(dir.path, 'renderer');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Loket</title>');
  host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {} });
  web = await startWebHost({ app: host.app, staticDir, port: 0 });
  token = new URLSearchParams(web.cashierUrl.split('?')[1]).get('token')!;
  session = (await host.app.setupManager({ name: 'Bu Sri', pin: '97531864' })).token;
});
afterEach(async () => {
  await web.close();
  await host.close();
  dir.remove();
});

async function call<T>(method: string, ...args: unknown[]): Promise<T> {
  const res = await fetch(`${web.url}/api/call/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ args }),
  });
  const body = (await res.json()) as ApiEnvelope<T>;
  if (!body.ok) throw Object.assign(new Error(body.error.message), { code: body.error.code });
  return body.result;
}

async function sell(amount: number, item: string) {
  await call('showOnDisplay', null);
  const charged = await call<{ ok: boolean; order: { id: string } }>('createOrder', {
    methodId: 'qris_dynamic',
    amount,
    itemName: item,
  });
  return charged.order.id;
}

/** A paid sale. */
async function paidSale(amount: number, item: string): Promise<string> {
  const id = await sell(amount, item);
  await call('simulatePayment', id);
  return id;
}

/** A sale whose answer was lost (unknown), in the attention queue. */
async function unknownSale(): Promise<string> {
  host.loket.sandbox!.faults.set({ drop_after_store: true, count: 2 });
  const failed = await call<{ ok: boolean; order: { id: string; state: string } }>('createOrder', {
    methodId: 'qris_dynamic',
    amount: 9000,
    itemName: 'Teh',
  });
  expect(failed.order.state).toBe('unknown');
  return failed.order.id;
}

/** A paid sale of Rp21.000 and an unknown one resolved by a check: the day the report and export tests read. */
async function aDay(): Promise<{ paidId: string; unknownId: string }> {
  const paidId = await paidSale(21000, 'Nasi uduk');
  const unknownId = await unknownSale();
  expect(
    (await call<{ resolved: boolean }>('resolveAttention', session, unknownId, 'check', 'customer asked')).resolved,
  ).toBe(true);
  return { paidId, unknownId };
}

describe("the manager's books over the API", () => {
  it('the desk finds orders by id and amount, and shows an order with its whole history', async () => {
    const paidId = await paidSale(21000, 'Nasi uduk');
    const page = await call<{ total: number; orders: { id: string }[] }>('deskOrders', session, {
      from: today,
      to: today,
      search: '21000',
    });
    expect(page.orders.map((o) => o.id)).toEqual([paidId]);
    const detail = await call<{ order: { state: string }; events: { to?: string }[] }>('orderDetail', session, paidId);
    expect(detail.order.state).toBe('paid');
    expect(detail.events.map((e) => e.to).filter(Boolean)).toEqual(['creating', 'awaiting_payment', 'paid']);
    // Manager only.
    await expect(call('deskOrders', 'x'.repeat(43), { from: today, to: today })).rejects.toMatchObject({
      code: 'locked',
    });
  });

  it('an unknown order is in the attention queue; a check with a reason resolves it, recorded with the manager', async () => {
    const unknownId = await unknownSale();
    const queue = await call<{ kind: string; orderId: string; actions: string[] }[]>('attentionQueue', session);
    expect(queue).toContainEqual(
      expect.objectContaining({ kind: 'unknown', orderId: unknownId, actions: expect.arrayContaining(['check']) }),
    );
    const result = await call<{ resolved: boolean }>('resolveAttention', session, unknownId, 'check', 'customer asked');
    expect(result.resolved).toBe(true);
    expect((await call<{ orderId: string }[]>('attentionQueue', session)).some((i) => i.orderId === unknownId)).toBe(
      false,
    );
    expect(host.loket.log.events(unknownId).some((e) => e.actor === 'Bu Sri')).toBe(true);
  });

  it("the day's report counts the paid total; closing it keeps the figures, backs up, and refuses a second close", async () => {
    await aDay();
    const report = await call<{ figures: { paid: { count: number; amount: number } } }>('dayReport', session, today);
    expect(report.figures.paid).toEqual({ count: 1, amount: 21000 });
    const closed = await call<{ closing?: { figures: { paid: { amount: number } }; closedBy: { name: string } } }>(
      'closeDay',
      session,
      today,
    );
    expect(closed.closing).toMatchObject({ figures: { paid: { amount: 21000 } }, closedBy: { name: 'Bu Sri' } });
    // The newest backup is the one taken after closing (the rotation keeps the newest of each day).
    expect(new Backups(join(dir.path, 'data')).newest()?.reason).toBe('close-day');
    await expect(call('closeDay', session, today)).rejects.toMatchObject({ code: 'conflict' });
    const { html } = await call<{ html: string }>('dayReportHtml', session, today);
    expect(html).toContain('Toko Loket');
    expect(await call('printDayReport', session, today)).toMatchObject({ ok: false });
    const audit = await call<{ action: string }[]>('auditLog', session, {});
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['day.closed', 'attention.resolved']));
  });

  it('an export is prepared, downloaded once as CSV that parses back, and then is gone', async () => {
    const { paidId, unknownId } = await aDay();
    const ticket = await call<{ downloadId: string; filename: string }>('prepareExport', session, {
      from: today,
      to: today,
      format: 'csv',
      delimiter: ';',
      bom: true,
    });
    expect(ticket.filename).toBe(`loket-orders-${today}-training.csv`);
    const url = `${web.url}/api/download/${ticket.downloadId}`;
    expect((await fetch(url)).status).toBe(401); // the cashier's token is needed, as for every call
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(ticket.filename);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parse(bytes.subarray(3).toString('utf8'), { delimiter: ';', columns: true }) as Record<
      string,
      string
    >[];
    expect(rows.map((r) => r.order_id)).toEqual(expect.arrayContaining([paidId, unknownId]));
    expect((await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
  });
});
