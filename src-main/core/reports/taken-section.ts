import type { Lang } from '../../common/app-info';
import { formatRupiah } from '../../common/money';
import type { RefundFigures, SalesFigures, Takings } from '../../common/reports';
import type { ReportSection } from './report-doc';

/**
 * What the printed report and the A4 page lead with (docs/end-of-day.md, "Money taken"): the money the store took,
 * by every tender — cash, other (card slips, transfers), each gateway method — with the cash handed over and the
 * change, and the staff lines (sales and money per member of staff). The gateway's orders follow, as their detail.
 */

type Text = Record<Lang, string>;

const TEXT = {
  taken: { id: 'Uang diterima', en: 'Money taken' },
  atClosing: { id: 'Angka saat hari ditutup.', en: 'As it was at closing.' },
  now: {
    id: 'Penutupan ini dibuat sebelum Loket menghitung uang diterima: ini angka sekarang.',
    en: 'This closing was made before Loket counted the money taken: these are the figures now.',
  },
  tender: { id: 'Cara bayar', en: 'Tender' },
  count: { id: 'Jumlah', en: 'Count' },
  amount: { id: 'Nilai', en: 'Amount' },
  cash: { id: 'Tunai', en: 'Cash' },
  other: { id: 'Lainnya (kartu, transfer)', en: 'Other (card, transfer)' },
  cashHanded: { id: 'Tunai diterima dari pelanggan', en: 'Cash handed over' },
  change: { id: 'Kembalian', en: 'Change given' },
  none: { id: 'Belum ada uang diterima.', en: 'No money taken.' },
  byStaff: { id: 'Uang diterima per kasir', en: 'Money taken by staff' },
  staff: { id: 'Kasir', en: 'Staff' },
  sales: { id: 'Penjualan', en: 'Sales' },
} satisfies Record<string, Text>;

type Phrase = Record<Lang, (...values: string[]) => string>;

const PHRASE = {
  withoutSale: {
    id: (n, amount) => `Termasuk ${n} pesanan lama tanpa penjualan (${amount}), dihitung menurut metode pembayarannya.`,
    en: (n, amount) => `Includes ${n} old order(s) without a sale (${amount}), counted by their payment method.`,
  },
  refunds: {
    id: (n, amount) => `Dikembalikan kepada pelanggan hari ini: ${n} refund, ${amount} (tidak dikurangkan).`,
    en: (n, amount) => `Given back to customers this day: ${n} refund(s), ${amount} (not taken off).`,
  },
  total: { id: (n) => `Diterima (${n} penjualan)`, en: (n) => `Taken (${n} sale(s))` },
  salesOf: { id: (n) => `${n} penjualan`, en: (n) => `${n} sale(s)` },
} satisfies Record<string, Phrase>;

const count = (n: number) => n.toLocaleString('id-ID');

/** A tender's line: cash, other, or a gateway method by its name in the store's language. */
export function tenderLabel(t: Takings['byTender'][number], lang: Lang): string {
  if (t.kind === 'cash') return TEXT.cash[lang];
  if (t.kind === 'other') return TEXT.other[lang];
  return t.label ?? t.methodId ?? '';
}

export interface TakenContext {
  /** The money taken is the closing's (the official figure). */
  atClosing: boolean;
  /** The day is closed, but its closing predates the money taken: the figure is the money taken now. */
  closedBefore: boolean;
  /** The sales the money was taken for (cash handed over and the change), when the report has them. */
  sales?: SalesFigures;
  refunds?: RefundFigures;
}

export function takenSections(taken: Takings, lang: Lang, ctx: TakenContext): ReportSection[] {
  const t = (k: keyof typeof TEXT) => TEXT[k][lang];
  const notes = [
    ...(ctx.atClosing ? [t('atClosing')] : ctx.closedBefore ? [t('now')] : []),
    ...(taken.withoutSale.count > 0
      ? [PHRASE.withoutSale[lang](count(taken.withoutSale.count), formatRupiah(taken.withoutSale.amount))]
      : []),
    ...(ctx.refunds && ctx.refunds.count > 0
      ? [PHRASE.refunds[lang](count(ctx.refunds.count), formatRupiah(ctx.refunds.paidBack))]
      : []),
  ];
  const tenders = ctx.sales?.tenders;
  const cash = tenders !== undefined && (tenders.cashHanded > 0 || tenders.change > 0);
  const cashLines: [string, number][] = cash
    ? [
        [t('cashHanded'), tenders.cashHanded],
        [t('change'), tenders.change],
      ]
    : [];
  const total = PHRASE.total[lang](count(taken.count));
  const main: ReportSection = {
    key: 'taken',
    title: t('taken'),
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
    columns: [
      { label: t('tender'), align: 'left' },
      { label: t('count'), align: 'right' },
      { label: t('amount'), align: 'right' },
    ],
    rows: [
      ...taken.byTender.map((x) => [tenderLabel(x, lang), count(x.count), formatRupiah(x.amount)]),
      ...cashLines.map(([label, amount]) => [label, '', formatRupiah(amount)]),
    ],
    total: [total, '', formatRupiah(taken.amount)],
    paper: [
      { label: total, value: formatRupiah(taken.amount), strong: true },
      ...taken.byTender.map((x) => ({
        label: `${tenderLabel(x, lang)} (${count(x.count)})`,
        value: formatRupiah(x.amount),
      })),
      ...cashLines.map(([label, amount]) => ({ label, value: formatRupiah(amount) })),
    ],
    empty: t('none'),
  };
  const byStaff: ReportSection = {
    key: 'takenByStaff',
    title: t('byStaff'),
    columns: [
      { label: t('staff'), align: 'left' },
      { label: t('sales'), align: 'right' },
      { label: t('amount'), align: 'right' },
    ],
    rows: taken.byStaff.map((s) => [s.name, count(s.count), formatRupiah(s.amount)]),
    paper: taken.byStaff.map((s) => ({
      label: s.name,
      value: formatRupiah(s.amount),
      detail: [PHRASE.salesOf[lang](count(s.count))],
    })),
    empty: t('none'),
  };
  return [main, byStaff];
}
