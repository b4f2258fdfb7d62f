import type ExcelJS from 'exceljs';
import type { Lang } from '../../common/app-info';
import type { ReportFigures } from '../../common/reports';
import { neutralise } from './columns';

const WORDS = {
  en: {
    sheet: 'Summary',
    title: (f: ReportFigures) =>
      f.from === f.to ? `Orders of ${f.from} (${f.timeZone})` : `Orders from ${f.from} to ${f.to} (${f.timeZone})`,
    paid: 'Paid',
    latePaid: 'Paid late (not in paid)',
    all: 'All orders',
    byMethod: 'By method',
    byState: 'By state',
    byStaff: 'By staff',
    methodId: 'Method id',
    method: 'Method',
    state: 'State',
    staffId: 'Staff id',
    staff: 'Staff',
    orders: 'Orders',
    amount: 'Amount (Rp)',
    paidOrders: 'Paid orders',
    paidAmount: 'Paid amount (Rp)',
  },
  id: {
    sheet: 'Ringkasan',
    title: (f: ReportFigures) =>
      f.from === f.to ? `Pesanan ${f.from} (${f.timeZone})` : `Pesanan ${f.from} s.d. ${f.to} (${f.timeZone})`,
    paid: 'Lunas',
    latePaid: 'Dibayar terlambat (tidak termasuk lunas)',
    all: 'Semua pesanan',
    byMethod: 'Per metode',
    byState: 'Per status',
    byStaff: 'Per staf',
    methodId: 'Id metode',
    method: 'Metode',
    state: 'Status',
    staffId: 'Id staf',
    staff: 'Staf',
    orders: 'Pesanan',
    amount: 'Jumlah (Rp)',
    paidOrders: 'Pesanan lunas',
    paidAmount: 'Jumlah lunas (Rp)',
  },
} as const;

/** The summary sheet's name in each language ("Summary", "Ringkasan"). */
export function summarySheetName(lang: Lang): string {
  return WORDS[lang].sheet;
}

/**
 * The second sheet: the figures of the exported days as the report computed them (paid total, paid late, every order,
 * by method, by state, by staff). Counts and amounts are number cells; text is neutralised as in the orders sheet.
 */
export function addSummarySheet(workbook: ExcelJS.Workbook, figures: ReportFigures, lang: Lang): void {
  const w = WORDS[lang];
  const sheet = workbook.addWorksheet(w.sheet);
  sheet.columns = [
    { key: 'a', width: 22 },
    { key: 'b', width: 26 },
    { key: 'c', width: 12, style: { numFmt: '#,##0' } },
    { key: 'd', width: 18, style: { numFmt: '#,##0' } },
    { key: 'e', width: 14, style: { numFmt: '#,##0' } },
    { key: 'f', width: 18, style: { numFmt: '#,##0' } },
  ];
  const t = (s: string | number | null): string | null => (s === null ? null : neutralise(String(s)));
  const add = (cells: (string | number | null)[], bold = false) => {
    const row = sheet.addRow(cells);
    if (bold) row.font = { bold: true };
    row.commit();
  };
  add([t(w.title(figures))], true);
  add([]);
  add([null, null, w.orders, w.amount], true);
  add([w.paid, null, figures.paid.count, figures.paid.amount]);
  // Late payments (the order's late_payment column): money at the gateway for orders given up on; always a row.
  add([w.latePaid, null, figures.latePaid.count, figures.latePaid.amount]);
  add([w.all, null, figures.orders.count, figures.orders.amount]);
  add([]);
  add([w.byMethod], true);
  add([w.methodId, w.method, w.orders, w.amount, w.paidOrders, w.paidAmount], true);
  for (const m of figures.byMethod) add([t(m.methodId), t(m.label), m.count, m.amount, m.paid.count, m.paid.amount]);
  add([]);
  add([w.byState], true);
  add([w.state, null, w.orders, w.amount], true);
  for (const s of figures.byState) add([t(s.state), null, s.count, s.amount]);
  add([]);
  add([w.byStaff], true);
  add([w.staffId, w.staff, w.orders, w.amount, w.paidOrders, w.paidAmount], true);
  for (const s of figures.byStaff)
    add([s.staffId === null ? null : String(s.staffId), t(s.name), s.count, s.amount, s.paid.count, s.paid.amount]);
  sheet.commit();
}
