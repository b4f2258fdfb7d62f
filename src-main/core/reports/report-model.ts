import type { Lang } from '../../common/app-info';
import { formatRupiah } from '../../common/money';
import type { OrderEvent, OrderState } from '../../common/order';
import type { AttentionAction, AttentionKind, DayReport, ReportFigures } from '../../common/reports';
import { formatReceiptTime } from '../receipts/receipt-model';

/**
 * One model of a day's report, rendered two ways like a receipt (docs/receipts.md): an A4 page (report-html.ts)
 * and the receipt printer (report-escpos.ts). Plain, JSON-safe data: every text is already in the store's
 * language and every amount and time already formatted, so the renderers only lay it out. See
 * docs/end-of-day.md, "Printing the report".
 */

export interface ReportColumn {
  label: string;
  align: 'left' | 'right';
  /** Kept on one line (a time). */
  nowrap?: boolean;
}

/** One entry as the receipt printer shows it: the label left and the value right, details under it. */
export interface PaperEntry {
  label: string;
  value?: string;
  detail?: string[];
  strong?: boolean;
}

export type ReportSectionKey = 'summary' | 'byMethod' | 'byState' | 'byStaff' | 'attention' | 'afterClosing';

export interface ReportSection {
  key: ReportSectionKey;
  title: string;
  /** A sentence under the title. */
  note?: string;
  /** The A4 page's table. */
  columns: ReportColumn[];
  rows: string[][];
  /** A total row, in bold. */
  total?: string[];
  /** The same content, for narrow paper. */
  paper: PaperEntry[];
  /** What is shown when there are no rows. */
  empty: string;
}

export interface ReportDoc {
  lang: Lang;
  header: { storeName: string; storeAddress?: string };
  title: string;
  /** The day and the zone it is counted in. */
  day: { label: string; value: string };
  /** Impossible-to-miss marks: the training log, a day not closed yet. */
  marks: { kind: 'training' | 'open'; text: string }[];
  closed: boolean;
  /** Closed when, by whom, with how many items open; or "not closed". */
  status: { label: string; value: string }[];
  sections: ReportSection[];
  printedAt: { label: string; value: string };
}

export interface ReportContext {
  storeName: string;
  storeAddress?: string;
  lang: Lang;
  printedAt: Date;
}

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
  summary: { id: 'Ringkasan', en: 'Summary' },
  paid: { id: 'Lunas', en: 'Paid' },
  latePaid: { id: 'Dibayar terlambat (tidak termasuk lunas)', en: 'Paid late (not in paid)' },
  allOrders: { id: 'Semua pesanan', en: 'All orders' },
  orders: { id: 'Pesanan', en: 'Orders' },
  amount: { id: 'Jumlah', en: 'Amount' },
  paidCount: { id: 'Lunas', en: 'Paid' },
  paidAmount: { id: 'Jumlah lunas', en: 'Paid amount' },
  byMethod: { id: 'Per metode', en: 'By method' },
  method: { id: 'Metode', en: 'Method' },
  byState: { id: 'Per status', en: 'By state' },
  state: { id: 'Status', en: 'State' },
  byStaff: { id: 'Per kasir', en: 'By staff' },
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
  reason: { id: 'Alasan', en: 'Reason' },
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

function time(iso: string, timeZone: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatReceiptTime(date, timeZone);
}

function figureSections(f: ReportFigures, t: (x: Text) => string, lang: Lang, note?: string): ReportSection[] {
  const right = (label: string): ReportColumn => ({ label, align: 'right' });
  const left = (label: string): ReportColumn => ({ label, align: 'left' });
  const paidOf = (p: { count: number }, all: { count: number }) =>
    `${count(p.count)}/${count(all.count)} ${t(TEXT.ofPaid)}`;
  // A closing made before the figure existed has none.
  const late = (f as Partial<ReportFigures>).latePaid ?? { count: 0, amount: 0 };
  return [
    {
      key: 'summary',
      title: t(TEXT.summary),
      ...(note ? { note } : {}),
      columns: [left(''), right(t(TEXT.orders)), right(t(TEXT.amount))],
      // Money that reached the gateway after the order was given up on: its own line, only when there is some.
      rows: [
        [t(TEXT.paid), count(f.paid.count), formatRupiah(f.paid.amount)],
        ...(late.count > 0 ? [[t(TEXT.latePaid), count(late.count), formatRupiah(late.amount)]] : []),
        [t(TEXT.allOrders), count(f.orders.count), formatRupiah(f.orders.amount)],
      ],
      paper: [
        { label: `${t(TEXT.paid)} (${count(f.paid.count)})`, value: formatRupiah(f.paid.amount), strong: true },
        ...(late.count > 0
          ? [{ label: `${t(TEXT.latePaid)} (${count(late.count)})`, value: formatRupiah(late.amount), strong: true }]
          : []),
        { label: `${t(TEXT.allOrders)} (${count(f.orders.count)})`, value: formatRupiah(f.orders.amount) },
      ],
      empty: t(TEXT.noOrders),
    },
    {
      key: 'byMethod',
      title: t(TEXT.byMethod),
      columns: [
        left(t(TEXT.method)),
        right(t(TEXT.orders)),
        right(t(TEXT.amount)),
        right(t(TEXT.paidCount)),
        right(t(TEXT.paidAmount)),
      ],
      rows: f.byMethod.map((m) => [
        m.label,
        count(m.count),
        formatRupiah(m.amount),
        count(m.paid.count),
        formatRupiah(m.paid.amount),
      ]),
      ...(f.byMethod.length
        ? {
            total: [
              t(TEXT.total),
              count(f.orders.count),
              formatRupiah(f.orders.amount),
              count(f.paid.count),
              formatRupiah(f.paid.amount),
            ],
          }
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
 * The report of a day as people read it: for a closed day the figures of its closing (the official ones), the
 * attention items open now, and the changes after closing; for a day not closed, the figures now, marked so.
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
        { label: t(TEXT.closedAt), value: time(closing.closedAt, tz) },
        { label: t(TEXT.closedBy), value: closing.closedBy.name },
        { label: t(TEXT.openAtClosing), value: count(closing.openAttention) },
      ]
    : [{ label: t(TEXT.status), value: t(TEXT.open) }];

  const sections = figureSections(
    closing?.figures ?? report.figures,
    t,
    lang,
    closing ? t(TEXT.figuresAtClosing) : undefined,
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
      time(a.since, tz),
      a.summary,
      a.actions.map((x) => ACTION_LABEL[x][lang]).join(', '),
    ]),
    paper: report.attention.map((a) => ({
      label: KIND_LABEL[a.kind][lang],
      value: time(a.since, tz),
      detail: [a.orderId, a.summary],
    })),
    empty: t(TEXT.noAttention),
  });
  if (closing) {
    sections.push({
      key: 'afterClosing',
      title: `${t(TEXT.afterClosing)} (${count(report.afterClosing.length)})`,
      note: t(TEXT.afterClosingNote),
      columns: [
        { label: t(TEXT.time), align: 'left', nowrap: true },
        { label: t(TEXT.order), align: 'left' },
        { label: t(TEXT.change), align: 'left' },
        { label: t(TEXT.by), align: 'left' },
        { label: t(TEXT.reason), align: 'left' },
      ],
      rows: report.afterClosing.map((c) => [
        time(c.at, tz),
        c.orderId,
        changeText(c, lang),
        c.actor ? `${c.actor} (${c.source})` : c.source,
        c.reason ?? '',
      ]),
      paper: report.afterClosing.map((c) => ({
        label: changeText(c, lang),
        value: time(c.at, tz),
        detail: [c.orderId, ...(c.actor ? [`${c.actor} (${c.source})`] : [c.source]), ...(c.reason ? [c.reason] : [])],
      })),
      empty: t(TEXT.noChanges),
    });
  }

  return {
    lang,
    header: { storeName: ctx.storeName, ...(ctx.storeAddress ? { storeAddress: ctx.storeAddress } : {}) },
    title: t(TEXT.title),
    day: { label: t(TEXT.day), value: `${report.date} (${tz})` },
    marks,
    closed: closing !== undefined,
    status,
    sections,
    printedAt: { label: t(TEXT.printedAt), value: formatReceiptTime(ctx.printedAt, tz) },
  };
}

function changeText(c: { type: OrderEvent['type']; from?: OrderState; to?: OrderState }, lang: Lang): string {
  if (c.type === 'created') return EVENT_LABEL.created[lang];
  if (c.to !== undefined) return `${c.from ? STATE_LABEL[c.from][lang] : '∅'} → ${STATE_LABEL[c.to][lang]}`;
  return EVENT_LABEL[c.type][lang];
}
