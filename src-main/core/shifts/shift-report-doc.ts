import type { Lang } from '../../common/app-info';
import { formatDateTime, formatDay } from '../../common/dates';
import { formatRupiah } from '../../common/money';
import type { PaymentMethod } from '../../common/payment-methods';
import type { ShiftEventView, ShiftReport } from '../../common/shifts';
import type { ReportContext, ReportDoc, ReportSection } from '../reports/report-model';

/**
 * A shift's X report (while it is open) or Z report (at its close) as the day report's model (report-model.ts), so
 * the same two renderers print it: the receipt printer's ESC/POS (report-escpos.ts) and the A4 page
 * (report-html.ts). Pure: every text in the store's language, every amount and time already formatted.
 */

type Text = Record<Lang, string>;

const TEXT = {
  x: { id: 'LAPORAN X — SHIFT BERJALAN', en: 'X REPORT — SHIFT IN PROGRESS' },
  z: { id: 'LAPORAN Z — SHIFT DITUTUP', en: 'Z REPORT — SHIFT CLOSED' },
  shift: { id: 'Shift', en: 'Shift' },
  training: { id: 'SANDBOX — LATIHAN, BUKAN PEMBUKUAN TOKO', en: "SANDBOX — TRAINING, NOT THE STORE'S BOOKS" },
  open: { id: 'SHIFT MASIH TERBUKA — ANGKA SEMENTARA', en: 'SHIFT STILL OPEN — FIGURES MAY STILL CHANGE' },
  terminal: { id: 'Kasir (terminal)', en: 'Till (terminal)' },
  businessDay: { id: 'Hari buka', en: 'Business day' },
  openedAt: { id: 'Dibuka', en: 'Opened' },
  openedBy: { id: 'Dibuka oleh', en: 'Opened by' },
  closedAt: { id: 'Ditutup', en: 'Closed' },
  closedBy: { id: 'Ditutup oleh', en: 'Closed by' },
  tenders: { id: 'Penjualan per cara bayar', en: 'Sales by tender' },
  tender: { id: 'Cara bayar', en: 'Tender' },
  count: { id: 'Jumlah transaksi', en: 'Count' },
  amount: { id: 'Nilai', en: 'Amount' },
  cash: { id: 'Tunai', en: 'Cash' },
  other: { id: 'Lainnya (kartu, transfer)', en: 'Other (card, transfer)' },
  noSales: { id: 'Belum ada penjualan.', en: 'No sales yet.' },
  drawer: { id: 'Kas di laci', en: 'Cash in the drawer' },
  float: { id: 'Modal awal', en: 'Float' },
  cashIn: { id: 'Uang diterima tunai', en: 'Cash handed over' },
  change: { id: 'Kembalian', en: 'Change given' },
  refunds: { id: 'Pengembalian tunai', en: 'Cash refunds' },
  voided: { id: 'Penjualan batal, tunai dikembalikan', en: 'Voided sales, cash given back' },
  payIns: { id: 'Kas masuk', en: 'Pay-ins' },
  payOuts: { id: 'Kas keluar', en: 'Pay-outs' },
  rounding: { id: 'Pembulatan tunai', en: 'Cash rounding' },
  expected: { id: 'Kas seharusnya', en: 'Expected cash' },
  movements: { id: 'Kas masuk, kas keluar, buka laci', en: 'Pay-ins, pay-outs, no sale' },
  noMovements: { id: 'Tidak ada.', en: 'None.' },
  time: { id: 'Waktu', en: 'Time' },
  kind: { id: 'Jenis', en: 'Kind' },
  reason: { id: 'Alasan', en: 'Reason' },
  by: { id: 'Oleh', en: 'By' },
  noSale: { id: 'Buka laci (tanpa penjualan)', en: 'No sale' },
  approved: { id: 'disetujui', en: 'approved by' },
  countTitle: { id: 'Hitungan buta', en: 'Blind count' },
  counted: { id: 'Dihitung', en: 'Counted' },
  difference: { id: 'Selisih', en: 'Difference' },
  even: { id: 'pas', en: 'even' },
  over: { id: 'lebih', en: 'over' },
  short: { id: 'kurang', en: 'short' },
  printedAt: { id: 'Dicetak', en: 'Printed' },
} satisfies Record<string, Text>;

export interface ShiftReportContext extends ReportContext {
  training: boolean;
  /** To name a gateway tender's method. */
  methods?: readonly PaymentMethod[];
}

export function buildShiftReportDoc(report: ShiftReport, ctx: ShiftReportContext): ReportDoc {
  const { lang } = ctx;
  const t = (x: Text) => x[lang];
  const tz = report.shift.timeZone;
  const time = (iso: string) => formatDateTime(iso, tz, lang);
  const shift = report.shift;
  const marks: ReportDoc['marks'] = [];
  if (ctx.training) marks.push({ kind: 'training', text: t(TEXT.training) });
  if (report.kind === 'X') marks.push({ kind: 'open', text: t(TEXT.open) });

  const status = [
    { label: t(TEXT.shift), value: shift.id },
    { label: t(TEXT.terminal), value: shift.terminalId },
    { label: t(TEXT.businessDay), value: formatDay(shift.businessDay) },
    { label: t(TEXT.openedAt), value: time(shift.openedAt) },
    { label: t(TEXT.openedBy), value: shift.openedBy.name },
    ...(shift.closedAt ? [{ label: t(TEXT.closedAt), value: time(shift.closedAt) }] : []),
    ...(shift.closedBy ? [{ label: t(TEXT.closedBy), value: shift.closedBy.name }] : []),
  ];

  const tenderLabel = (l: ShiftReport['tenders'][number]) =>
    l.tender === 'cash'
      ? t(TEXT.cash)
      : l.tender === 'other'
        ? t(TEXT.other)
        : (ctx.methods?.find((m) => m.id === l.methodId)?.label[lang] ?? l.methodId ?? 'gateway');
  const tenders: ReportSection = {
    key: 'shiftTenders',
    title: t(TEXT.tenders),
    columns: [
      { label: t(TEXT.tender), align: 'left' },
      { label: t(TEXT.count), align: 'right' },
      { label: t(TEXT.amount), align: 'right' },
    ],
    rows: report.tenders.map((l) => [tenderLabel(l), String(l.count), formatRupiah(l.amount)]),
    total: [
      '',
      String(report.tenders.reduce((a, l) => a + l.count, 0)),
      formatRupiah(report.tenders.reduce((a, l) => a + l.amount, 0)),
    ],
    paper: report.tenders.map((l) => ({ label: `${tenderLabel(l)} (${l.count})`, value: formatRupiah(l.amount) })),
    empty: t(TEXT.noSales),
  };

  const c = shift.cash;
  const cashLines: [string, number, boolean?][] = [
    [t(TEXT.float), c.float],
    [t(TEXT.cashIn), c.cashIn],
    [t(TEXT.change), -c.change],
    // A sale voided after it took cash (a split sale whose QRIS part failed): its cash came in and went back out.
    ...(report.voided.count > 0
      ? [[`${t(TEXT.voided)} (${report.voided.count})`, -report.voided.amount] as [string, number]]
      : []),
    [`${t(TEXT.refunds)} (${report.refunds.count})`, -c.cashRefunds],
    [`${t(TEXT.payIns)} (${report.payIns.length})`, c.payIns],
    [`${t(TEXT.payOuts)} (${report.payOuts.length})`, -c.payOuts],
    [t(TEXT.expected), c.expected, true],
  ];
  const cash: ReportSection = {
    key: 'shiftCash',
    title: t(TEXT.drawer),
    // The rounding lines are part of the cash applied to sales already; shown for the books, not added again.
    note: `${t(TEXT.rounding)}: ${formatRupiah(report.rounding)}`,
    columns: [
      { label: '', align: 'left' },
      { label: t(TEXT.amount), align: 'right' },
    ],
    rows: cashLines.filter(([, , strong]) => !strong).map(([label, v]) => [label, formatRupiah(v)]),
    total: [t(TEXT.expected), formatRupiah(c.expected)],
    paper: cashLines.map(([label, v, strong]) => ({ label, value: formatRupiah(v), ...(strong ? { strong } : {}) })),
    empty: '',
  };

  const moves = [...report.payIns, ...report.payOuts, ...report.noSales].sort((a, b) => a.seq - b.seq);
  const kindOf = (e: ShiftEventView) =>
    e.type === 'pay_in' ? t(TEXT.payIns) : e.type === 'pay_out' ? t(TEXT.payOuts) : t(TEXT.noSale);
  const who = (e: ShiftEventView) =>
    [e.by?.name, e.approvedBy ? `${t(TEXT.approved)} ${e.approvedBy.name}` : undefined].filter(Boolean).join(', ');
  const movements: ReportSection = {
    key: 'shiftMovements',
    title: t(TEXT.movements),
    columns: [
      { label: t(TEXT.time), align: 'left', nowrap: true },
      { label: t(TEXT.kind), align: 'left' },
      { label: t(TEXT.amount), align: 'right' },
      { label: t(TEXT.reason), align: 'left' },
      { label: t(TEXT.by), align: 'left' },
    ],
    rows: moves.map((e) => [
      time(e.at),
      kindOf(e),
      e.type === 'no_sale' ? '' : formatRupiah(e.amount),
      e.reason ?? '',
      who(e),
    ]),
    paper: moves.map((e) => ({
      label: kindOf(e),
      ...(e.type === 'no_sale' ? {} : { value: formatRupiah(e.amount) }),
      detail: [time(e.at), e.reason ?? '', who(e)].filter((d) => d !== ''),
    })),
    empty: t(TEXT.noMovements),
  };

  const sections = [tenders, cash, movements];
  if (report.count) {
    const k = report.count;
    const diff = `${formatRupiah(k.difference)} (${t(TEXT[k.status])})`;
    sections.push({
      key: 'shiftCount',
      title: t(TEXT.countTitle),
      columns: [
        { label: '', align: 'left' },
        { label: t(TEXT.amount), align: 'right' },
      ],
      rows: [
        [t(TEXT.expected), formatRupiah(k.expected)],
        [t(TEXT.counted), formatRupiah(k.counted)],
      ],
      total: [t(TEXT.difference), diff],
      paper: [
        { label: t(TEXT.expected), value: formatRupiah(k.expected) },
        { label: t(TEXT.counted), value: formatRupiah(k.counted) },
        { label: t(TEXT.difference), value: diff, strong: true },
      ],
      empty: '',
    });
  }

  return {
    lang,
    header: { storeName: ctx.storeName, ...(ctx.storeAddress ? { storeAddress: ctx.storeAddress } : {}) },
    title: t(report.kind === 'X' ? TEXT.x : TEXT.z),
    day: { label: t(TEXT.businessDay), value: `${formatDay(shift.businessDay)} (${tz})` },
    marks,
    closed: report.kind === 'Z',
    status,
    sections,
    printedAt: { label: t(TEXT.printedAt), value: formatDateTime(ctx.printedAt, tz, lang) },
  };
}
