import type ExcelJS from 'exceljs';
import type { Lang } from '../../common/app-info';
import { formatDateTime, formatDay } from '../../common/dates';
import { dayHeadline, type ClosingRecord, type ReportFigures } from '../../common/reports';
import { STATE_LABEL } from '../reports/report-model';
import { neutralise } from './columns';

/** A closed day of the export: its closing record, and its figures now. */
export interface ClosingNow {
  closing: ClosingRecord;
  now: ReportFigures;
}

const WORDS = {
  en: {
    sheet: 'Summary',
    title: (f: ReportFigures) =>
      f.from === f.to
        ? `Orders of ${formatDay(f.from)} (${f.timeZone})`
        : `Orders from ${formatDay(f.from)} to ${formatDay(f.to)} (${f.timeZone})`,
    received: 'Received (paid)',
    latePaid: 'Paid late (not in received)',
    waiting: 'Still waiting',
    notPaid: 'Not paid',
    all: 'All orders',
    byMethod: 'By method',
    byState: 'By state',
    byStaff: 'By staff',
    methodId: 'Method id',
    method: 'Method',
    stateId: 'State id',
    state: 'State',
    staffId: 'Staff id',
    staff: 'Staff',
    nobody: '(nobody signed in)',
    orders: 'Orders',
    amount: 'Amount (Rp)',
    paidOrders: 'Paid orders',
    paidAmount: 'Paid amount (Rp)',
    closings: 'Closed days: the figures at closing and now',
    closedAt: (day: string, at: string, by: string) => `${day}: closed ${at} by ${by}`,
    atClosing: 'At closing',
    now: 'Now',
    changed: 'Changed after closing',
    yes: 'yes',
  },
  id: {
    sheet: 'Ringkasan',
    title: (f: ReportFigures) =>
      f.from === f.to
        ? `Pesanan ${formatDay(f.from)} (${f.timeZone})`
        : `Pesanan ${formatDay(f.from)} s.d. ${formatDay(f.to)} (${f.timeZone})`,
    received: 'Diterima (lunas)',
    latePaid: 'Dibayar terlambat (tidak termasuk diterima)',
    waiting: 'Masih menunggu',
    notPaid: 'Tidak dibayar',
    all: 'Semua pesanan',
    byMethod: 'Per metode',
    byState: 'Per status',
    byStaff: 'Per staf',
    methodId: 'Id metode',
    method: 'Metode',
    stateId: 'Id status',
    state: 'Status',
    staffId: 'Id staf',
    staff: 'Staf',
    nobody: '(tanpa kasir)',
    orders: 'Pesanan',
    amount: 'Jumlah (Rp)',
    paidOrders: 'Pesanan lunas',
    paidAmount: 'Jumlah lunas (Rp)',
    closings: 'Hari yang ditutup: angka saat ditutup dan sekarang',
    closedAt: (day: string, at: string, by: string) => `${day}: ditutup ${at} oleh ${by}`,
    atClosing: 'Saat ditutup',
    now: 'Sekarang',
    changed: 'Berubah setelah ditutup',
    yes: 'ya',
  },
} as const;

/** The summary sheet's name in each language ("Summary", "Ringkasan"). */
export function summarySheetName(lang: Lang): string {
  return WORDS[lang].sheet;
}

/**
 * The second sheet, in the store's language: the figures of the exported days as the report computed them — what
 * was received first, the late payments (money at the gateway for orders given up on, always a row), what still
 * waits and what was not paid apart (never summed with it), then by method, by state (the state's id and its name)
 * and by staff — and, for each closed day, its figures at closing beside its figures now, each line that differs
 * marked. Counts and amounts are number cells; text is neutralised as in the orders sheet.
 */
export function addSummarySheet(
  workbook: ExcelJS.Workbook,
  figures: ReportFigures,
  lang: Lang,
  closings: readonly ClosingNow[] = [],
  timeZone = figures.timeZone,
): void {
  const w = WORDS[lang];
  const sheet = workbook.addWorksheet(w.sheet);
  sheet.columns = [
    { key: 'a', width: 24 },
    { key: 'b', width: 26 },
    { key: 'c', width: 12, style: { numFmt: '#,##0' } },
    { key: 'd', width: 18, style: { numFmt: '#,##0' } },
    { key: 'e', width: 14, style: { numFmt: '#,##0' } },
    { key: 'f', width: 18, style: { numFmt: '#,##0' } },
    { key: 'g', width: 22 },
  ];
  const t = (s: string | number | null): string | null => (s === null ? null : neutralise(String(s)));
  const add = (cells: (string | number | null)[], bold = false) => {
    const row = sheet.addRow(cells);
    if (bold) row.font = { bold: true };
    row.commit();
  };
  const headline = (f: ReportFigures): [string, number, number | null][] => {
    const h = dayHeadline(f);
    return [
      [w.received, h.received.count, h.received.amount],
      // A closing made before late payments were counted apart has no such figure.
      [w.latePaid, f.latePaid?.count ?? 0, f.latePaid?.amount ?? 0],
      [w.waiting, h.waiting.count, h.waiting.amount],
      [w.notPaid, h.notPaid.count, h.notPaid.amount],
      [w.all, h.orders, null],
    ];
  };
  add([t(w.title(figures))], true);
  add([]);
  add([null, null, w.orders, w.amount], true);
  for (const [label, count, amount] of headline(figures)) add([label, null, count, amount]);
  add([]);
  add([w.byMethod], true);
  add([w.methodId, w.method, w.orders, w.amount, w.paidOrders, w.paidAmount], true);
  for (const m of figures.byMethod) add([t(m.methodId), t(m.label), m.count, m.amount, m.paid.count, m.paid.amount]);
  add([]);
  add([w.byState], true);
  add([w.stateId, w.state, w.orders, w.amount], true);
  for (const s of figures.byState) add([t(s.state), STATE_LABEL[s.state][lang], s.count, s.amount]);
  add([]);
  add([w.byStaff], true);
  add([w.staffId, w.staff, w.orders, w.amount, w.paidOrders, w.paidAmount], true);
  for (const s of figures.byStaff)
    add([
      s.staffId === null ? null : String(s.staffId),
      s.staffId === null ? w.nobody : t(s.name),
      s.count,
      s.amount,
      s.paid.count,
      s.paid.amount,
    ]);
  if (closings.length > 0) {
    add([]);
    add([w.closings], true);
    for (const { closing, now } of closings) {
      const at = formatDateTime(closing.closedAt, timeZone, lang);
      add([t(w.closedAt(formatDay(closing.day), at, closing.closedBy.name))], true);
      add([null, w.atClosing, w.orders, w.amount, w.now, w.amount, w.changed], true);
      const then = headline(closing.figures);
      const today = headline(now);
      then.forEach(([label, count, amount], i) => {
        const [, nowCount, nowAmount] = today[i]!;
        const changed = count !== nowCount || amount !== nowAmount;
        add([label, null, count, amount, nowCount, nowAmount, changed ? w.yes : null]);
      });
    }
  }
  sheet.commit();
}
