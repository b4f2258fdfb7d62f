import type ExcelJS from 'exceljs';
import type { Lang } from '../../common/app-info';
import { formatDateTime, formatDay } from '../../common/dates';
import {
  dayHeadline,
  type ClosingRecord,
  type DayShift,
  type RefundFigures,
  type ReportFigures,
  type SalesFigures,
  type Takings,
} from '../../common/reports';
import { STATE_LABEL } from '../reports/report-model';
import { AMOUNT_FORMAT, neutralise } from './columns';
import { SUMMARY_WORDS, type SummaryWords } from './summary-words';

/**
 * The books of the exported days, as the day report counts them (its own functions: the sheet adds nothing up),
 * leading with what the store took. Without `sales` (the store book's export, which holds orders only) the sheet is
 * the gateway orders' figures alone.
 */
export interface BooksSummary {
  /** The gateway orders' figures (core/reports/day-report.ts, figures). */
  figures: ReportFigures;
  /** The sales with the money taken (core/reports/takings.ts, salesTaken). */
  sales?: SalesFigures;
  refunds?: RefundFigures;
  /** The shifts opened on the days, with their cash variance. */
  shifts?: readonly DayShift[];
}

/** A closed day of the export: its closing record, and its figures and money taken now. */
export interface ClosingNow {
  closing: ClosingRecord;
  now: ReportFigures;
  takenNow?: Takings;
}

/** The summary sheet's name in each language ("Summary", "Ringkasan"). */
export function summarySheetName(lang: Lang): string {
  return SUMMARY_WORDS[lang].sheet;
}

type Cell = string | number | null;

/**
 * The summary sheet (docs/export.md, "XLSX"), first in the workbook and in the store's language: the money taken by
 * every tender (cash, other, each gateway method; the old orders without a sale in it, said so; the cash handed over
 * and the change) and by staff; the refunds; the sales with the tax summary (net before tax, DPP, PPN, PBJT,
 * service); each shift's cash variance; then the gateway orders as the detail — what was received, the late payments
 * (always a row), what still waits and what was not paid apart (never summed with it), by method, by state (its id
 * and its name) and by staff — and, for each closed day, its figures at closing beside its figures now, each line that
 * differs marked. Counts and amounts are number cells; text is neutralised as in the orders sheet.
 */
export function addSummarySheet(
  workbook: ExcelJS.Workbook,
  summary: BooksSummary,
  lang: Lang,
  closings: readonly ClosingNow[] = [],
  timeZone = summary.figures.timeZone,
): void {
  const w = SUMMARY_WORDS[lang];
  const sheet = workbook.addWorksheet(w.sheet);
  const money = { style: { numFmt: AMOUNT_FORMAT } };
  sheet.columns = [
    { key: 'a', width: 26 },
    { key: 'b', width: 30 },
    { key: 'c', width: 14, ...money },
    { key: 'd', width: 18, ...money },
    { key: 'e', width: 14, ...money },
    { key: 'f', width: 18, ...money },
    { key: 'g', width: 22 },
  ];
  const t = (s: string | number | null): string | null => (s === null ? null : neutralise(String(s)));
  const add = (cells: Cell[], bold = false) => {
    const row = sheet.addRow(cells);
    if (bold) row.font = { bold: true };
    row.commit();
  };
  const f = summary.figures;
  add([t(w.title(f.from, f.to, f.timeZone))], true);
  const taken = summary.sales?.taken;
  if (taken) {
    add([]);
    takenBlock(add, t, w, taken, summary.sales!);
  }
  if (summary.refunds) {
    add([]);
    refundsBlock(add, w, summary.refunds);
  }
  if (summary.sales) {
    add([]);
    salesBlock(add, w, summary.sales);
  }
  if (summary.shifts && summary.shifts.length > 0) {
    add([]);
    shiftsBlock(add, t, w, summary.shifts, timeZone, lang);
  }
  add([]);
  add([w.ordersBlock], true);
  add([null, null, w.orders, w.amount], true);
  for (const [label, count, amount] of headline(w, f)) add([label, null, count, amount]);
  add([]);
  add([w.byMethod], true);
  add([w.methodId, w.method, w.orders, w.amount, w.paidOrders, w.paidAmount], true);
  for (const m of f.byMethod) add([t(m.methodId), t(m.label), m.count, m.amount, m.paid.count, m.paid.amount]);
  add([]);
  add([w.byState], true);
  add([w.stateId, w.state, w.orders, w.amount], true);
  for (const s of f.byState) add([t(s.state), STATE_LABEL[s.state][lang], s.count, s.amount]);
  add([]);
  add([w.byStaff], true);
  add([w.staffId, w.staff, w.orders, w.amount, w.paidOrders, w.paidAmount], true);
  for (const s of f.byStaff)
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
    for (const c of closings) closingBlock(add, t, w, c, timeZone, lang);
  }
  sheet.commit();
}

type Add = (cells: Cell[], bold?: boolean) => void;
type Text = (s: string | number | null) => string | null;

/** The orders' headline: received, paid late, still waiting, not paid, all orders (a count). */
function headline(w: SummaryWords, f: ReportFigures): [string, number, number | null][] {
  const h = dayHeadline(f);
  return [
    [w.received, h.received.count, h.received.amount],
    // A closing made before late payments were counted apart has no such figure.
    [w.latePaid, f.latePaid?.count ?? 0, f.latePaid?.amount ?? 0],
    [w.waiting, h.waiting.count, h.waiting.amount],
    [w.notPaid, h.notPaid.count, h.notPaid.amount],
    [w.all, h.orders, null],
  ];
}

/** A tender's id (cash, other, or the gateway method's) and its name. */
function tenderOf(w: SummaryWords, x: Takings['byTender'][number]): [string, string] {
  if (x.kind === 'gateway') return [x.methodId ?? 'gateway', x.label ?? x.methodId ?? ''];
  return [x.kind, x.kind === 'cash' ? w.cash : w.other];
}

function takenBlock(add: Add, t: Text, w: SummaryWords, taken: Takings, sales: SalesFigures): void {
  add([w.taken], true);
  add([w.tenderId, w.tender, w.count, w.amount], true);
  add([w.takenTotal, w.sales(taken.count), taken.count, taken.amount], true);
  for (const x of taken.byTender) {
    const [id, name] = tenderOf(w, x);
    add([t(id), t(name), x.count, x.amount]);
  }
  if (taken.withoutSale.count > 0) add([w.withoutSale, null, taken.withoutSale.count, taken.withoutSale.amount]);
  if (sales.tenders.cashHanded > 0 || sales.tenders.change > 0) {
    add([w.cashHanded, null, null, sales.tenders.cashHanded]);
    add([w.change, null, null, sales.tenders.change]);
  }
  add([]);
  add([w.takenByStaff], true);
  add([w.staffId, w.staff, w.salesCount, w.amount], true);
  for (const s of taken.byStaff)
    add([s.staffId === null ? null : String(s.staffId), s.staffId === null ? w.nobody : t(s.name), s.count, s.amount]);
}

function refundsBlock(add: Add, w: SummaryWords, r: RefundFigures): void {
  add([w.refunds], true);
  add([null, null, w.refundsCount, w.paidBack], true);
  add([w.paidBack, null, r.count, r.paidBack]);
  for (const h of r.byHow) add([h.how === 'cash' ? w.refundCash : w.refundOutside, h.how, h.count, h.paidBack]);
  add([w.ppnBack, null, null, r.tax.ppn]);
  add([w.dppBack, null, null, r.tax.dpp]);
}

function salesBlock(add: Add, w: SummaryWords, s: SalesFigures): void {
  add([w.salesBlock], true);
  add([null, null, w.count, w.amount], true);
  add([w.completed, null, s.completed.count, s.completed.amount]);
  if (s.voided.count > 0) add([w.voided, null, s.voided.count, s.voided.amount]);
  if (s.open.count > 0) add([w.open, null, s.open.count, s.open.amount]);
  const lines: [string, number][] = [
    [w.subtotal, s.subtotal],
    [w.discounts, -s.discounts],
    [w.net, s.net],
    [w.dpp, s.tax.dpp],
    [w.ppn, s.tax.ppn],
    [w.pbjt, s.tax.pbjt],
    [w.service, s.tax.service],
    [w.total, s.total],
    [w.rounding, s.rounding],
  ];
  for (const [label, amount] of lines) add([label, null, null, amount]);
}

function shiftsBlock(
  add: Add,
  t: Text,
  w: SummaryWords,
  shifts: readonly DayShift[],
  timeZone: string,
  lang: Lang,
): void {
  add([w.shifts], true);
  add([w.shift, w.openedBy, w.float, w.expected, w.counted, w.difference, null], true);
  for (const s of shifts) {
    const who = s.openedByNobody ? w.tillNobody : s.openedBy;
    const variance =
      s.difference === undefined ? w.stillOpen : s.difference < 0 ? w.short : s.difference > 0 ? w.over : w.even;
    add([
      t(s.id),
      t(`${who}, ${formatDateTime(s.openedAt, timeZone, lang)}`),
      s.float,
      s.expected,
      s.counted ?? null,
      s.difference ?? null,
      variance,
    ]);
  }
}

function closingBlock(add: Add, t: Text, w: SummaryWords, c: ClosingNow, timeZone: string, lang: Lang): void {
  const { closing, now } = c;
  const at = formatDateTime(closing.closedAt, timeZone, lang);
  add([t(w.closedAt(formatDay(closing.day), at, closing.closedBy.name))], true);
  add([null, w.atClosing, w.count, w.amount, w.now, w.amount, w.changed], true);
  const line = (label: string, then: [number, number | null] | null, today: [number, number | null]) => {
    const changed = then === null || then[0] !== today[0] || then[1] !== today[1];
    add([
      label,
      then === null ? w.notKept : null,
      then?.[0] ?? null,
      then?.[1] ?? null,
      ...today,
      changed ? w.yes : null,
    ]);
  };
  // The money taken first: a closing made before Loket counted it has none to compare.
  const takenThen = closing.sales?.taken;
  if (c.takenNow)
    line(w.takenTotal, takenThen ? [takenThen.count, takenThen.amount] : null, [c.takenNow.count, c.takenNow.amount]);
  const then = headline(w, closing.figures);
  const today = headline(w, now);
  then.forEach(([label, count, amount], i) => {
    const [, nowCount, nowAmount] = today[i]!;
    line(label, [count, amount], [nowCount, nowAmount]);
  });
}
