import type { Lang } from '../../common/app-info';
import { formatRupiah } from '../../common/money';
import type { OrderEvent, OrderState } from '../../common/order';
import {
  afterClosingByOrder,
  dayHeadline,
  takenOf,
  type AfterClosingOrder,
  type AttentionAction,
  type AttentionKind,
  type DayReport,
  type DayShift,
  type ReportFigures,
} from '../../common/reports';
import { formatDateTime, formatDay } from '../../common/dates';
import { salesSections } from './sales-section';
import { takenSections } from './taken-section';
import type { ReportColumn, ReportContext, ReportDoc, ReportSection } from './report-doc';

/**
 * One model of a day's report, rendered two ways like a receipt (docs/receipts.md): an A4 page (report-html.ts)
 * and the receipt printer (report-escpos.ts). Plain, JSON-safe data: every text is already in the store's
 * language and every amount and time already formatted, so the renderers only lay it out. See
 * docs/end-of-day.md, "Printing the report".
 */

export type { PaperEntry, ReportColumn, ReportContext, ReportDoc, ReportSection, ReportSectionKey } from './report-doc';

type Text = Record<Lang, string>;

const TEXT = {
  title: { id: 'LAPORAN HARIAN', en: 'DAY REPORT' },
  day: { id: 'Tanggal', en: 'Day' },
  training: { id: 'SANDBOX — LATIHAN, BUKAN PEMBUKUAN TOKO', en: "SANDBOX — TRAINING, NOT THE STORE'S BOOKS" },
  notClosed: { id: 'BELUM DITUTUP — ANGKA SEMENTARA', en: 'NOT CLOSED — FIGURES MAY STILL CHANGE' },
  status: { id: 'Status', en: 'Status' },
  open: { id: 'belum ditutup', en: 'not closed' },
  closedAt: { id: 'Ditutup', en: 'Closed' },
  closedBy: { id: 'Oleh', en: 'By' },
  openAtClosing: { id: 'Perlu perhatian saat ditutup', en: 'Open items at closing' },
  figuresAtClosing: {
    id: 'Angka saat hari ditutup. Perubahan sesudahnya tercantum di bawah dan tidak dihitung di sini.',
    en: 'Figures as they were at closing. Changes since are listed below and are not counted here.',
  },
  summary: { id: 'Pesanan gateway (rincian)', en: 'Gateway orders (detail)' },
  received: { id: 'Diterima (lunas)', en: 'Received (paid)' },
  waiting: { id: 'Masih menunggu', en: 'Still waiting' },
  notPaid: { id: 'Tidak dibayar', en: 'Not paid' },
  latePaid: { id: 'Dibayar terlambat (tidak termasuk diterima)', en: 'Paid late (not in received)' },
  allOrders: { id: 'Semua pesanan', en: 'All orders' },
  orders: { id: 'Pesanan', en: 'Orders' },
  amount: { id: 'Jumlah', en: 'Amount' },
  paidCount: { id: 'Lunas', en: 'Paid' },
  paidAmount: { id: 'Jumlah lunas', en: 'Paid amount' },
  byMethod: { id: 'Pesanan per metode', en: 'Orders by method' },
  method: { id: 'Metode', en: 'Method' },
  byState: { id: 'Pesanan per status', en: 'Orders by state' },
  state: { id: 'Status', en: 'State' },
  byStaff: { id: 'Pesanan per kasir', en: 'Orders by staff' },
  staff: { id: 'Kasir', en: 'Staff' },
  total: { id: 'Total', en: 'Total' },
  noOrders: { id: 'Tidak ada pesanan.', en: 'No orders.' },
  attention: { id: 'Perlu perhatian', en: 'Needs attention' },
  noAttention: { id: 'Tidak ada yang perlu perhatian.', en: 'Nothing needs attention.' },
  kind: { id: 'Jenis', en: 'Kind' },
  order: { id: 'Pesanan', en: 'Order' },
  since: { id: 'Sejak', en: 'Since' },
  what: { id: 'Keterangan', en: 'What happened' },
  actions: { id: 'Tindakan', en: 'Actions' },
  afterClosing: { id: 'Perubahan setelah ditutup', en: 'Changes after closing' },
  afterClosingNote: {
    id: 'Tidak mengubah angka penutupan.',
    en: 'They do not change the figures of the closing.',
  },
  noChanges: { id: 'Tidak ada perubahan.', en: 'No changes.' },
  time: { id: 'Waktu', en: 'Time' },
  change: { id: 'Perubahan', en: 'Change' },
  by: { id: 'Oleh', en: 'By' },
  printedAt: { id: 'Dicetak', en: 'Printed' },
  ofPaid: { id: 'lunas', en: 'paid' },
} satisfies Record<string, Text>;

export const STATE_LABEL: Readonly<Record<OrderState, Text>> = {
  creating: { id: 'Sedang dibuat', en: 'Creating' },
  awaiting_payment: { id: 'Menunggu pembayaran', en: 'Awaiting payment' },
  rejected: { id: 'Ditolak', en: 'Rejected' },
  unknown: { id: 'Belum diketahui', en: 'Unknown' },
  paid: { id: 'Lunas', en: 'Paid' },
  expired: { id: 'Kedaluwarsa', en: 'Expired' },
  cancelled: { id: 'Dibatalkan', en: 'Cancelled' },
  failed: { id: 'Gagal', en: 'Failed' },
};

export const KIND_LABEL: Readonly<Record<AttentionKind, Text>> = {
  unknown: { id: 'Hasil belum diketahui', en: 'Outcome unknown' },
  late_payment: { id: 'Pembayaran terlambat', en: 'Late payment' },
  overdue: { id: 'Lewat batas waktu', en: 'Overdue' },
  callback_problem: { id: 'Masalah callback', en: 'Callback problem' },
  mismatch: { id: 'Jawaban gateway tidak cocok', en: 'Gateway answer does not match' },
};

export const ACTION_LABEL: Readonly<Record<AttentionAction, Text>> = {
  check: { id: 'periksa', en: 'check' },
  mark_paid: { id: 'tandai lunas', en: 'mark paid' },
  cancel: { id: 'batalkan', en: 'cancel' },
  acknowledge: { id: 'catat sudah ditangani', en: 'acknowledge' },
  set_aside: { id: 'sisihkan, kasir boleh menjual lagi', en: 'set aside, the till may sell again' },
};

const EVENT_LABEL: Readonly<Record<OrderEvent['type'], Text>> = {
  created: { id: 'Dibuat', en: 'Created' },
  state_changed: { id: 'Status berubah', en: 'State changed' },
  late_payment: { id: 'Pembayaran terlambat', en: 'Late payment' },
  delivery: { id: 'Pengiriman', en: 'Delivery' },
  note: { id: 'Catatan', en: 'Note' },
};

const count = (n: number) => n.toLocaleString('id-ID');

function time(iso: string, timeZone: string, lang: Lang): string {
  return formatDateTime(iso, timeZone, lang);
}

function figureSections(f: ReportFigures, t: (x: Text) => string, lang: Lang, note?: string): ReportSection[] {
  const right = (label: string): ReportColumn => ({ label, align: 'right' });
  const left = (label: string): ReportColumn => ({ label, align: 'left' });
  const paidOf = (p: { count: number }, all: { count: number }) =>
    `${count(p.count)}/${count(all.count)} ${t(TEXT.ofPaid)}`;
  const h = dayHeadline(f);
  // A closing made before the figure existed has none.
  const late = (f as Partial<ReportFigures>).latePaid ?? { count: 0, amount: 0 };
  return [
    {
      key: 'summary',
      title: t(TEXT.summary),
      ...(note ? { note } : {}),
      // What was received leads; what still waits and what was not paid stand apart, never added to it.
      columns: [left(''), right(t(TEXT.orders)), right(t(TEXT.amount))],
      // Money that reached the gateway after the order was given up on: its own line, only when there is some.
      rows: [
        [t(TEXT.received), count(h.received.count), formatRupiah(h.received.amount)],
        ...(late.count > 0 ? [[t(TEXT.latePaid), count(late.count), formatRupiah(late.amount)]] : []),
        [t(TEXT.waiting), count(h.waiting.count), formatRupiah(h.waiting.amount)],
        [t(TEXT.notPaid), count(h.notPaid.count), formatRupiah(h.notPaid.amount)],
        [t(TEXT.allOrders), count(h.orders), ''],
      ],
      paper: [
        {
          label: `${t(TEXT.received)} (${count(h.received.count)})`,
          value: formatRupiah(h.received.amount),
          strong: true,
        },
        ...(late.count > 0
          ? [{ label: `${t(TEXT.latePaid)} (${count(late.count)})`, value: formatRupiah(late.amount), strong: true }]
          : []),
        { label: `${t(TEXT.waiting)} (${count(h.waiting.count)})`, value: formatRupiah(h.waiting.amount) },
        { label: `${t(TEXT.notPaid)} (${count(h.notPaid.count)})`, value: formatRupiah(h.notPaid.amount) },
        { label: t(TEXT.allOrders), value: count(h.orders) },
      ],
      empty: t(TEXT.noOrders),
    },
    {
      key: 'byMethod',
      title: t(TEXT.byMethod),
      // Orders and what they brought in: an amount of every order, paid or cancelled, would add up money that
      // never came (the amounts by state are below).
      columns: [left(t(TEXT.method)), right(t(TEXT.orders)), right(t(TEXT.paidCount)), right(t(TEXT.paidAmount))],
      rows: f.byMethod.map((m) => [m.label, count(m.count), count(m.paid.count), formatRupiah(m.paid.amount)]),
      ...(f.byMethod.length
        ? { total: [t(TEXT.total), count(f.orders.count), count(f.paid.count), formatRupiah(f.paid.amount)] }
        : {}),
      paper: f.byMethod.map((m) => ({
        label: m.label,
        value: formatRupiah(m.paid.amount),
        detail: [paidOf(m.paid, m)],
      })),
      empty: t(TEXT.noOrders),
    },
    {
      key: 'byState',
      title: t(TEXT.byState),
      columns: [left(t(TEXT.state)), right(t(TEXT.orders)), right(t(TEXT.amount))],
      rows: f.byState.map((s) => [STATE_LABEL[s.state][lang], count(s.count), formatRupiah(s.amount)]),
      paper: f.byState.map((s) => ({
        label: `${STATE_LABEL[s.state][lang]} (${count(s.count)})`,
        value: formatRupiah(s.amount),
      })),
      empty: t(TEXT.noOrders),
    },
    {
      key: 'byStaff',
      title: t(TEXT.byStaff),
      columns: [left(t(TEXT.staff)), right(t(TEXT.orders)), right(t(TEXT.paidCount)), right(t(TEXT.paidAmount))],
      rows: f.byStaff.map((s) => [s.name, count(s.count), count(s.paid.count), formatRupiah(s.paid.amount)]),
      paper: f.byStaff.map((s) => ({ label: s.name, value: formatRupiah(s.paid.amount), detail: [paidOf(s.paid, s)] })),
      empty: t(TEXT.noOrders),
    },
  ];
}

/**
 * The report of a day as people read it: the money taken first (by tender, by staff), the sales, then the gateway's
 * orders as their detail; for a closed day the figures of its closing (the official ones), the attention items open
 * now, and the changes after closing; for a day not closed, the figures now, marked so.
 * Pure: the same report and context always give the same model.
 */
export function buildReportDoc(report: DayReport, ctx: ReportContext): ReportDoc {
  const { lang } = ctx;
  const t = (x: Text) => x[lang];
  const tz = report.timeZone;
  const closing = report.closing;
  const marks: ReportDoc['marks'] = [];
  if (report.training) marks.push({ kind: 'training', text: t(TEXT.training) });
  if (!closing) marks.push({ kind: 'open', text: t(TEXT.notClosed) });

  const status = closing
    ? [
        { label: t(TEXT.closedAt), value: time(closing.closedAt, tz, lang) },
        { label: t(TEXT.closedBy), value: closing.closedBy.name },
        { label: t(TEXT.openAtClosing), value: count(closing.openAttention) },
      ]
    : [{ label: t(TEXT.status), value: t(TEXT.open) }];

  const sections: ReportSection[] = [];
  // What the store took leads (a closed day's as it was at closing), then the sales it was taken for (a closing made
  // before Loket kept them: the sales now), then the gateway's orders as their detail.
  const sales = closing?.sales ?? report.sales;
  const taken = takenOf(report);
  if (taken)
    sections.push(
      ...takenSections(taken.taken, lang, {
        atClosing: taken.atClosing,
        closedBefore: closing !== undefined && !taken.atClosing,
        ...(sales ? { sales } : {}),
        ...(report.refunds ? { refunds: report.refunds } : {}),
      }),
    );
  if (sales) sections.push(...salesSections(sales, lang, { atClosing: closing?.sales !== undefined }));
  sections.push(
    ...figureSections(closing?.figures ?? report.figures, t, lang, closing ? t(TEXT.figuresAtClosing) : undefined),
  );
  sections.push({
    key: 'attention',
    title: `${t(TEXT.attention)} (${count(report.attention.length)})`,
    columns: [
      { label: t(TEXT.kind), align: 'left' },
      { label: t(TEXT.order), align: 'left' },
      { label: t(TEXT.since), align: 'left', nowrap: true },
      { label: t(TEXT.what), align: 'left' },
      { label: t(TEXT.actions), align: 'left' },
    ],
    rows: report.attention.map((a) => [
      KIND_LABEL[a.kind][lang],
      a.orderId,
      time(a.since, tz, lang),
      a.summary,
      a.actions.map((x) => ACTION_LABEL[x][lang]).join(', '),
    ]),
    paper: report.attention.map((a) => ({
      label: KIND_LABEL[a.kind][lang],
      value: time(a.since, tz, lang),
      detail: [a.orderId, a.summary],
    })),
    empty: t(TEXT.noAttention),
  });
  if (report.shifts && report.shifts.length > 0) sections.push(shiftsSection(report.shifts, tz, lang));
  if (closing) {
    // One line per order: a sale made after closing is one change to the day, not its four events.
    const changed = afterClosingByOrder(report.afterClosing);
    const by = (c: AfterClosingOrder) =>
      c.actor ? `${c.actor} (${SOURCE_LABEL[c.source][lang]})` : SOURCE_LABEL[c.source][lang];
    sections.push({
      key: 'afterClosing',
      title: `${t(TEXT.afterClosing)} (${count(changed.length)})`,
      note: t(TEXT.afterClosingNote),
      columns: [
        { label: t(TEXT.time), align: 'left', nowrap: true },
        { label: t(TEXT.order), align: 'left' },
        { label: t(TEXT.change), align: 'left' },
        { label: t(TEXT.by), align: 'left' },
      ],
      rows: changed.map((c) => [time(c.lastAt, tz, lang), c.orderId, changeText(c, lang), by(c)]),
      paper: changed.map((c) => ({
        label: changeText(c, lang),
        value: time(c.lastAt, tz, lang),
        detail: [c.orderId, by(c)],
      })),
      empty: t(TEXT.noChanges),
    });
  }

  return {
    lang,
    header: { storeName: ctx.storeName, ...(ctx.storeAddress ? { storeAddress: ctx.storeAddress } : {}) },
    title: t(TEXT.title),
    day: { label: t(TEXT.day), value: `${formatDay(report.date)} (${tz})` },
    marks,
    closed: closing !== undefined,
    status,
    sections,
    printedAt: { label: t(TEXT.printedAt), value: formatDateTime(ctx.printedAt, tz, lang) },
  };
}

const SHIFT_TEXT = {
  shifts: { id: 'Shift dan selisih kas', en: 'Shifts and the cash variance' },
  shift: { id: 'Shift', en: 'Shift' },
  opened: { id: 'Dibuka', en: 'Opened' },
  nobody: { id: 'kasir (belum masuk)', en: 'the till (nobody signed in)' },
  expected: { id: 'Seharusnya', en: 'Expected' },
  counted: { id: 'Dihitung', en: 'Counted' },
  difference: { id: 'Selisih', en: 'Difference' },
  stillOpen: { id: 'masih terbuka', en: 'still open' },
} satisfies Record<string, Text>;

/** The day's shifts: each one's expected cash, and once closed its blind count and the difference. */
function shiftsSection(shifts: readonly DayShift[], tz: string, lang: Lang): ReportSection {
  const t = (x: Text) => x[lang];
  const variance = (s: DayShift) => (s.difference === undefined ? t(SHIFT_TEXT.stillOpen) : formatRupiah(s.difference));
  const who = (s: DayShift) => (s.openedByNobody ? t(SHIFT_TEXT.nobody) : s.openedBy);
  return {
    key: 'shifts',
    title: t(SHIFT_TEXT.shifts),
    columns: [
      { label: t(SHIFT_TEXT.shift), align: 'left' },
      { label: t(SHIFT_TEXT.opened), align: 'left', nowrap: true },
      { label: t(SHIFT_TEXT.expected), align: 'right' },
      { label: t(SHIFT_TEXT.counted), align: 'right' },
      { label: t(SHIFT_TEXT.difference), align: 'right' },
    ],
    rows: shifts.map((s) => [
      `${s.id} (${who(s)})`,
      time(s.openedAt, tz, lang),
      formatRupiah(s.expected),
      s.counted === undefined ? '' : formatRupiah(s.counted),
      variance(s),
    ]),
    paper: shifts.map((s) => ({
      label: s.id,
      value: variance(s),
      detail: [
        `${who(s)}, ${time(s.openedAt, tz, lang)}`,
        `${t(SHIFT_TEXT.expected)} ${formatRupiah(s.expected)}` +
          (s.counted === undefined ? '' : `, ${t(SHIFT_TEXT.counted)} ${formatRupiah(s.counted)}`),
      ],
    })),
    empty: '',
  };
}

/** "Menunggu pembayaran → Lunas", "Penjualan baru → Lunas", "Pembayaran terlambat", "Catatan". */
function changeText(c: AfterClosingOrder, lang: Lang): string {
  const from = c.created ? NEW_SALE[lang] : c.from ? STATE_LABEL[c.from][lang] : undefined;
  const parts = [
    ...(c.to !== undefined && from !== undefined ? [`${from} → ${STATE_LABEL[c.to][lang]}`] : []),
    ...(c.latePayment ? [EVENT_LABEL.late_payment[lang]] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : EVENT_LABEL.note[lang];
}

const NEW_SALE: Text = { id: 'Penjualan baru', en: 'New sale' };

const SOURCE_LABEL: Readonly<Record<AfterClosingOrder['source'], Text>> = {
  cashier: { id: 'kasir', en: 'cashier' },
  gateway: { id: 'gateway', en: 'gateway' },
  callback: { id: 'callback', en: 'callback' },
  poll: { id: 'pengecekan berkala', en: 'status poll' },
  inquiry: { id: 'pengecekan status', en: 'status inquiry' },
  manager: { id: 'manajer', en: 'manager' },
  startup: { id: 'saat mulai', en: 'at start-up' },
  reconcile: { id: 'rekonsiliasi', en: 'reconciliation' },
  cli: { id: 'baris perintah', en: 'command line' },
  system: { id: 'sistem', en: 'system' },
};
