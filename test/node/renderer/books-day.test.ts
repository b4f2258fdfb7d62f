// @vitest-environment jsdom
// The end of the day against the fake API: the report of today (the store's), the official figures once
// closed, closing only after a confirmation, printing on the printer and the A4 page from the screen.
import { describe, expect, test } from 'vitest';
import type { ClosingRecord, SalesFigures, Takings } from '../../../src-main/common/reports';
import { CallError } from '../../../src-renderer/src/api/errors';
import { ManagerSession } from '../../../src-renderer/src/state/manager-session.svelte';
import {
  dayReport,
  FakeApi,
  figures,
  MANAGER,
  managerSession,
  managerView,
  settle,
  tillStatus,
  unknownItem,
} from './fake-client';

const TOKEN = managerSession().token;
/** 23:30 on 10 March in Jakarta (16:30 UTC). */
const EVENING = Date.parse('2026-03-10T16:30:00.000Z');

async function open(printDocument?: (html: string) => Promise<void>) {
  const fake = new FakeApi();
  fake.on('unlockManager', () => ({ ok: true, session: managerSession() })).on('managerView', () => managerView());
  const manager = new ManagerSession({
    api: fake.api,
    till: () => tillStatus(),
    now: () => EVENING,
    ...(printDocument ? { printDocument } : {}),
  });
  manager.pick(MANAGER.id);
  manager.pin.setText('97531864');
  expect(await manager.unlock()).toBe(true);
  return { fake, manager, book: manager.editors!.day };
}

function closing(day: string, paid: { count: number; amount: number }): ClosingRecord {
  return {
    day,
    timeZone: 'Asia/Jakarta',
    closedAt: '2026-03-10T16:00:00.000Z',
    closedBy: { staffId: 1, name: 'Bu Sri' },
    figures: figures(day, paid),
    openAttention: 0,
  };
}

describe("the day's report", () => {
  test('opens on today in the store’s zone; its figures are the figures now until closed', async () => {
    const { fake, manager, book } = await open();
    fake.on('dayReport', (_t, day) => dayReport(day, { figures: figures(day, { count: 2, amount: 46000 }) }));
    manager.selectSection('day');
    await settle();
    expect(fake.callsOf('dayReport')).toEqual([[TOKEN, '2026-03-10']]);
    expect(book.figures?.paid).toEqual({ count: 2, amount: 46000 });
    expect(book.closed).toBe(false);
    expect(book.canClose).toBe(true);
  });

  test('once closed, the figures of the closing count, not the figures now; it cannot be closed again', async () => {
    const { fake, book } = await open();
    fake.on('dayReport', (_t, day) =>
      dayReport(day, {
        figures: figures(day, { count: 3, amount: 70000 }),
        closing: closing(day, { count: 2, amount: 46000 }),
        afterClosing: [{ orderId: 'T1-X', at: '2026-03-10T16:10:00.000Z', type: 'state_changed', source: 'cli' }],
      }),
    );
    await book.open();
    expect(book.figures?.paid).toEqual({ count: 2, amount: 46000 });
    expect(book.report?.figures.paid.amount).toBe(70000);
    expect(book.canClose).toBe(false);
    book.askClose();
    expect(book.confirming).toBe(false);
  });

  test('another day: a date not whole is ignored, the old report is not shown under the new day', async () => {
    const { fake, book } = await open();
    fake.on('dayReport', (_t, day) => dayReport(day));
    await book.open();
    await book.setDay('2026-03-0');
    expect(book.day).toBe('2026-03-10');
    const held = fake.hold('dayReport');
    const loading = book.setDay('2026-03-09');
    await held.called;
    expect(book.report).toBeNull();
    held.resolve(dayReport('2026-03-09'));
    await loading;
    expect(book.report?.date).toBe('2026-03-09');
    expect(fake.callsOf('dayReport').map(([, d]) => d)).toEqual(['2026-03-10', '2026-03-09']);
  });

  test('a day that has not begun in the store’s zone cannot be closed', async () => {
    const { fake, book } = await open();
    fake.on('dayReport', (_t, day) => dayReport(day));
    await book.open();
    await book.setDay('2026-03-11');
    expect(book.canClose).toBe(false);
  });
});

describe('closing the day', () => {
  test('only after the confirmation; the report comes back with its closing record', async () => {
    const { fake, book } = await open();
    fake.on('dayReport', (_t, day) => dayReport(day, { attention: [unknownItem()] }));
    await book.open();
    expect(await book.close()).toBe(false);
    expect(fake.callsOf('closeDay')).toEqual([]);
    book.askClose();
    expect(book.confirming).toBe(true);
    book.keepOpen();
    expect(book.confirming).toBe(false);
    book.askClose();
    const closed = dayReport('2026-03-10', { closing: closing('2026-03-10', { count: 0, amount: 0 }) });
    fake.on('closeDay', () => closed);
    expect(await book.close()).toBe(true);
    expect(fake.callsOf('closeDay')).toEqual([[TOKEN, '2026-03-10']]);
    expect(book.report).toBe(closed);
    expect(book.closed).toBe(true);
    expect(book.confirming).toBe(false);
    expect(book.notice).toEqual({ kind: 'closed' });
  });

  test('closed elsewhere meanwhile: the refusal is shown, and the report as it is now', async () => {
    const { fake, book } = await open();
    fake.on('dayReport', (_t, day) => dayReport(day));
    await book.open();
    book.askClose();
    fake.fail('closeDay', new CallError('conflict', 'day 2026-03-10 was closed at … by Pak Budi'));
    fake.on('dayReport', (_t, day) => dayReport(day, { closing: closing(day, { count: 0, amount: 0 }) }));
    expect(await book.close()).toBe(false);
    expect(book.notice).toMatchObject({ kind: 'error', action: 'close', error: { code: 'conflict' } });
    expect(book.closed).toBe(true);
  });
});

describe('printing', () => {
  test("on the report printer: the printer's answer is shown, failed or not", async () => {
    const { fake, book } = await open();
    fake.on('dayReport', (_t, day) => dayReport(day));
    await book.open();
    const failed = { key: 'print.failed', params: { printer: '10.0.0.9:9100', problem: 'refused' } } as const;
    fake.on('printDayReport', () => ({ ok: false, message: 'the printer refused', reason: failed }));
    await book.print();
    expect(fake.callsOf('printDayReport')).toEqual([[TOKEN, '2026-03-10']]);
    expect(book.notice).toEqual({ kind: 'printed', ok: false, reason: failed });
  });

  test('with no printer set up, Print prints the A4 page from the screen instead', async () => {
    const printed: string[] = [];
    const { fake, book } = await open(async (html) => void printed.push(html));
    fake.on('dayReport', (_t, day) => dayReport(day));
    await book.open();
    fake.on('printDayReport', () => ({
      ok: false,
      message: 'No printer is set up: print the A4 page from the screen instead.',
      reason: { key: 'print.no_printer', params: { what: 'report' } },
    }));
    fake.on('dayReportHtml', () => ({ html: '<!doctype html><title>A4</title>' }));
    await book.print();
    expect(fake.callsOf('dayReportHtml')).toEqual([[TOKEN, '2026-03-10']]);
    expect(printed).toEqual(['<!doctype html><title>A4</title>']);
    expect(book.notice).toEqual({ kind: 'page' });
    expect(book.busy).toBeNull();
  });

  test('the A4 page: its HTML is printed from the screen; a print that fails says so', async () => {
    const printed: string[] = [];
    let fail = false;
    const { fake, book } = await open(async (html) => {
      if (fail) throw new Error('no frame');
      printed.push(html);
    });
    fake.on('dayReport', (_t, day) => dayReport(day));
    fake.on('dayReportHtml', () => ({ html: '<!doctype html><title>Laporan</title>' }));
    await book.open();
    await book.printPage();
    expect(fake.callsOf('dayReportHtml')).toEqual([[TOKEN, '2026-03-10']]);
    expect(printed).toEqual(['<!doctype html><title>Laporan</title>']);
    expect(book.notice).toEqual({ kind: 'page' });
    expect(book.busy).toBeNull();
    fail = true;
    await book.printPage();
    expect(book.notice).toEqual({ kind: 'page_failed' });
  });

  test('leads with the money taken: the closing’s once closed, the figure now beside it; before that the figure now', async () => {
    const { fake, book } = await open();
    const taken = (amount: number, count: number): Takings => ({
      amount,
      count,
      byTender: [
        { kind: 'cash', count: 1, amount: amount - 50_000 },
        { kind: 'gateway', methodId: 'va_bca', label: 'VA BCA', count: 1, amount: 50_000 },
      ],
      byStaff: [{ staffId: null, name: '(tanpa kasir)', count, amount }],
      withoutSale: { count: 1, amount: 50_000 },
    });
    const sales = (t?: Takings): SalesFigures => ({
      completed: { count: 1, amount: 10_000 },
      voided: { count: 0, amount: 0 },
      open: { count: 0, amount: 0 },
      subtotal: 10_000,
      discounts: 0,
      net: 10_000,
      tax: { dpp: 0, ppn: 0, pbjt: 0, service: 0 },
      total: 10_000,
      rounding: 0,
      byCategory: [],
      byProduct: [],
      tenders: { byKind: [{ kind: 'cash', count: 1, amount: 10_000 }], byMethod: [], cashHanded: 10_000, change: 0 },
      ...(t ? { taken: t } : {}),
    });
    // Not closed: the money taken now. (The gateway orders' paid figure is their detail, not the headline.)
    fake.on('dayReport', (_t, day) =>
      dayReport(day, { figures: figures(day, { count: 1, amount: 50_000 }), sales: sales(taken(60_000, 2)) }),
    );
    await book.open();
    expect(book.taken).toEqual({ taken: taken(60_000, 2), atClosing: false });
    // Closed: the closing's, and the figure now for the screen to say so when it differs.
    fake.on('dayReport', (_t, day) =>
      dayReport(day, {
        figures: figures(day, { count: 1, amount: 50_000 }),
        sales: sales(taken(90_000, 3)),
        closing: { ...closing(day, { count: 1, amount: 50_000 }), sales: sales(taken(60_000, 2)) },
      }),
    );
    await book.load();
    expect(book.taken).toEqual({ taken: taken(60_000, 2), atClosing: true, now: taken(90_000, 3) });
    // A closing made before Loket counted the money taken: the figure now, not said to be the closing's.
    fake.on('dayReport', (_t, day) =>
      dayReport(day, {
        figures: figures(day),
        sales: sales(taken(90_000, 3)),
        closing: { ...closing(day, { count: 0, amount: 0 }), sales: sales() },
      }),
    );
    await book.load();
    expect(book.taken).toEqual({ taken: taken(90_000, 3), atClosing: false, now: taken(90_000, 3) });
    // A report without sales (an older log): nothing to lead with.
    fake.on('dayReport', (_t, day) => dayReport(day));
    await book.load();
    expect(book.taken).toBeNull();
  });
});
