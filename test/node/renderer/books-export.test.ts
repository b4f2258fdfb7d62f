// @vitest-environment jsdom
// The export: what prepareExport is asked (Indonesian Excel's defaults, nothing CSV-only for XLSX), the file
// handed over to be saved and what became of it; and how each transport delivers it — a download fetched with
// the token in browser mode (a stale ticket or a cut-off file is an error, never a saved file), the save dialog
// in the desktop app.
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { LoketBridge } from '../../../src-main/common/api';
import type { DownloadTicket, SaveResult } from '../../../src-main/common/reports';
import type { ExportDelivery } from '../../../src-renderer/src/api/client';
import { CallError } from '../../../src-renderer/src/api/errors';
import { httpCashierClient } from '../../../src-renderer/src/api/http-transport';
import { ipcCashierClient } from '../../../src-renderer/src/api/ipc-transport';
import { ManagerSession } from '../../../src-renderer/src/state/manager-session.svelte';
import { fakeClient, MANAGER, managerSession, managerView, tillStatus } from './fake-client';

const TOKEN = managerSession().token;
const NOW = Date.parse('2026-03-10T03:00:00.000Z');
const TICKET: DownloadTicket = { downloadId: 'AbCdEfGhIjKlMnOpQrStUvWx', filename: 'loket-orders-2026-03-10.csv' };

async function open(deliver?: (ticket: DownloadTicket) => Promise<ExportDelivery>) {
  const client = fakeClient();
  const fake = client.fake;
  fake.on('unlockManager', () => ({ ok: true, session: managerSession() })).on('managerView', () => managerView());
  fake.on('prepareExport', () => TICKET);
  const manager = new ManagerSession({
    api: fake.api,
    till: () => tillStatus(),
    now: () => NOW,
    deliverExport: deliver ?? ((ticket) => client.deliverExport(ticket)),
  });
  manager.pick(MANAGER.id);
  manager.pin.setText('97531864');
  expect(await manager.unlock()).toBe(true);
  const exporter = manager.editors!.export;
  manager.selectSection('export');
  return { client, fake, exporter, view: manager.editors!.storeView };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the export', () => {
  test("today, CSV of the money taken with ';' and a BOM by default; the ticket is handed over and the file named", async () => {
    const { client, fake, exporter } = await open();
    expect(exporter.choice.table).toBe('takings');
    expect(await exporter.run()).toBe(true);
    // What the store took leads (docs/export.md): the gateway's orders are one choice away.
    expect(fake.callsOf('prepareExport')).toEqual([
      [TOKEN, { from: '2026-03-10', to: '2026-03-10', format: 'csv', delimiter: ';', bom: true, table: 'takings' }],
    ]);
    expect(client.delivered).toEqual([TICKET]);
    expect(exporter.delivered).toEqual({ ticket: TICKET, delivery: { kind: 'downloaded', filename: TICKET.filename } });
    expect(exporter.busy).toBe(false);
  });

  test('XLSX is asked for without a delimiter or BOM; a range of days as picked', async () => {
    const { fake, exporter } = await open();
    exporter.set('from', '2026-03-01');
    exporter.set('to', '2026-03-31');
    exporter.set('format', 'xlsx');
    exporter.set('delimiter', ',');
    exporter.set('table', 'orders');
    await exporter.run();
    expect(fake.callsOf('prepareExport')).toEqual([[TOKEN, { from: '2026-03-01', to: '2026-03-31', format: 'xlsx' }]]);
  });

  test('a CSV of another table: the orders, the sale lines, the refunds, the tenders', async () => {
    const { fake, exporter } = await open();
    for (const table of ['orders', 'lines', 'refunds', 'tenders'] as const) {
      exporter.set('table', table);
      await exporter.run();
    }
    expect(fake.callsOf('prepareExport').map((call) => (call[1] as { table?: string }).table)).toEqual([
      'orders',
      'lines',
      'refunds',
      'tenders',
    ]);
  });

  test('a range running backwards is not sent', async () => {
    const { fake, exporter } = await open();
    exporter.set('from', '2026-03-11');
    expect(await exporter.run()).toBe(false);
    expect(exporter.problem).toBe('backwards');
    expect(fake.callsOf('prepareExport')).toEqual([]);
  });

  test('a file that could not be fetched is an error, not a saved file', async () => {
    const { exporter } = await open(() => Promise.reject(new CallError('not_found', 'This export is gone')));
    expect(await exporter.run()).toBe(false);
    expect(exporter.error?.code).toBe('not_found');
    expect(exporter.delivered).toBeNull();
  });

  test("the desktop's save dialog cancelled: nothing saved, in the server's words", async () => {
    const { exporter } = await open(async () => ({
      kind: 'not_saved',
      message: 'Not saved: the dialog was cancelled.',
    }));
    expect(await exporter.run()).toBe(false);
    expect(exporter.delivered?.delivery).toEqual({
      kind: 'not_saved',
      message: 'Not saved: the dialog was cancelled.',
    });
    expect(exporter.error).toBeNull();
  });

  test("prepareExport refused: the server's error is shown and nothing is handed over", async () => {
    const { client, fake, exporter } = await open();
    fake.fail('prepareExport', new CallError('invalid_arguments', 'to: must not be before from'));
    expect(await exporter.run()).toBe(false);
    expect(exporter.error?.code).toBe('invalid_arguments');
    expect(client.delivered).toEqual([]);
  });
});

describe("the whole store's export (the store book)", () => {
  test('enrolled: "Whole store" asks prepareStoreExport (its orders: no table); "This till" its own export', async () => {
    const { client, fake, exporter, view } = await open();
    const storeTicket: DownloadTicket = { downloadId: 'StOrEtIcKeTsToReTiCkEt12', filename: 'loket-store-orders.csv' };
    fake.on('storeLink', () => ({ state: 'synced', waiting: 0 })).on('prepareStoreExport', () => storeTicket);
    await view.check();
    expect(view.enrolled).toBe(true);
    view.setScope('store');
    expect(await exporter.run()).toBe(true);
    expect(fake.callsOf('prepareStoreExport')).toEqual([
      [TOKEN, { from: '2026-03-10', to: '2026-03-10', format: 'csv', delimiter: ';', bom: true }],
    ]);
    expect(fake.callsOf('prepareExport')).toEqual([]);
    expect(client.delivered).toEqual([storeTicket]);
    view.setScope('till');
    expect(await exporter.run()).toBe(true);
    expect(fake.callsOf('prepareExport')).toHaveLength(1);
  });

  test("not enrolled: no choice, and the till's own export whatever was picked", async () => {
    const { fake, exporter, view } = await open();
    fake.on('storeLink', () => ({ state: 'not_enrolled', waiting: 0 }));
    await view.check();
    expect(view.enrolled).toBe(false);
    view.setScope('store');
    expect(view.scope).toBe('till');
    expect(await exporter.run()).toBe(true);
    expect(fake.callsOf('prepareExport')).toHaveLength(1);
    expect(fake.callsOf('prepareStoreExport')).toEqual([]);
  });
});

describe('delivering an export', () => {
  function stubEventSource(): void {
    vi.stubGlobal(
      'EventSource',
      class {
        static readonly CLOSED = 2;
        close(): void {}
      },
    );
  }

  test('browser mode: fetched with the token, then handed to the downloads under its name', async () => {
    stubEventSource();
    const bytes = new TextEncoder().encode('\uFEFForder_id;amount\r\nT1;25000\r\n');
    const fetchMock = vi.fn(async () => new Response(bytes, { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:loket/1';
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });

    const client = httpCashierClient('token-1');
    expect(await client.deliverExport(TICKET)).toEqual({ kind: 'downloaded', filename: TICKET.filename });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(`/api/download/${TICKET.downloadId}`);
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer token-1');
    expect(clicked).toEqual([{ href: 'blob:loket/1', download: TICKET.filename }]);
    expect([...new Uint8Array(await created[0]!.arrayBuffer())]).toEqual([...bytes]);
    // The link is gone from the page once clicked.
    expect(document.querySelector('a[download]')).toBeNull();
    client.live.close();
  });

  test("browser mode: a ticket gone stale is the server's not_found; a cut-off body is a network error", async () => {
    stubEventSource();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const gone = JSON.stringify({ ok: false, error: { code: 'not_found', message: 'This export is gone' } });
    vi.stubGlobal('fetch', async () => new Response(gone, { status: 404 }));
    const client = httpCashierClient('token-1');
    await expect(client.deliverExport(TICKET)).rejects.toMatchObject({ code: 'not_found', status: 404 });

    const cut = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('order_id;'));
        controller.error(new Error('socket hang up'));
      },
    });
    vi.stubGlobal('fetch', async () => new Response(cut, { status: 200 }));
    await expect(client.deliverExport(TICKET)).rejects.toMatchObject({ code: 'network' });
    expect(click).not.toHaveBeenCalled();
    client.live.close();
  });

  test("the desktop app: the OS's save dialog, by the ticket's id; saved where the manager chose, or not", async () => {
    const answers: SaveResult[] = [
      { saved: true, path: '/home/sri/loket-orders-2026-03-10.csv', message: 'Saved.' },
      { saved: false, message: 'Not saved: the dialog was cancelled.' },
    ];
    const asked: string[] = [];
    const bridge = {
      onEvent: () => () => undefined,
      saveDownload: async (id: string) => {
        asked.push(id);
        return answers.shift()!;
      },
    } as unknown as LoketBridge;
    const client = ipcCashierClient(bridge);
    expect(await client.deliverExport(TICKET)).toEqual({
      kind: 'saved',
      path: '/home/sri/loket-orders-2026-03-10.csv',
    });
    expect(await client.deliverExport(TICKET)).toEqual({
      kind: 'not_saved',
      message: 'Not saved: the dialog was cancelled.',
    });
    expect(asked).toEqual([TICKET.downloadId, TICKET.downloadId]);
  });
});
