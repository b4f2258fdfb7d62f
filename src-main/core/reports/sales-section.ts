import type { Lang } from '../../common/app-info';
import { formatRupiah } from '../../common/money';
import type { ReportFigures, SalesFigures } from '../../common/reports';
import type { ReportSection } from './report-doc';

/**
 * The day's sales as sections of the printed report and the A4 page (docs/end-of-day.md, "Sales"): the figures with
 * the tax summary a PKP store files (DPP, PPN, PBJT, service), by category, the top sellers, and the tenders by kind
 * and gateway method. Nothing when the day had no sale at all, so a day of orders alone prints as before.
 */

type Text = Record<Lang, string>;

const TEXT = {
  sales: { id: 'Penjualan', en: 'Sales' },
  atClosing: { id: 'Penjualan saat hari ditutup.', en: 'Sales as they were at closing.' },
  completed: { id: 'Penjualan selesai', en: 'Sales completed' },
  voided: { id: 'Penjualan dibatalkan (tidak dihitung)', en: 'Sales voided (not counted)' },
  open: { id: 'Penjualan masih dibayar (tidak dihitung)', en: 'Sales being paid (not counted)' },
  subtotal: { id: 'Subtotal', en: 'Subtotal' },
  discounts: { id: 'Diskon', en: 'Discounts' },
  net: { id: 'Neto (tanpa pajak)', en: 'Net (without tax)' },
  // A category's lines after their discounts, at shelf price (taxes in it when prices include them): not its net.
  afterDiscounts: { id: 'Setelah diskon', en: 'After discounts' },
  dpp: { id: 'DPP', en: 'DPP (tax base)' },
  ppn: { id: 'PPN', en: 'PPN' },
  pbjt: { id: 'PBJT', en: 'PBJT' },
  service: { id: 'Biaya layanan', en: 'Service charge' },
  total: { id: 'Total', en: 'Total' },
  rounding: { id: 'Pembulatan tunai', en: 'Cash rounding' },
  count: { id: 'Jumlah', en: 'Count' },
  amount: { id: 'Nilai', en: 'Amount' },
  noSales: { id: 'Tidak ada penjualan.', en: 'No sales.' },
  byCategory: { id: 'Penjualan per kategori', en: 'Sales by category' },
  category: { id: 'Kategori', en: 'Category' },
  noCategory: { id: '(tanpa kategori)', en: '(no category)' },
  qty: { id: 'Qty', en: 'Qty' },
  topSellers: { id: 'Produk terlaris', en: 'Top sellers' },
  product: { id: 'Produk', en: 'Product' },
  tenders: { id: 'Pembayaran penjualan', en: 'Tenders' },
  tender: { id: 'Jenis', en: 'Kind' },
  cash: { id: 'Tunai', en: 'Cash' },
  gateway: { id: 'Pembayaran gateway', en: 'Gateway payments' },
  other: { id: 'Lainnya', en: 'Other' },
  cashHanded: { id: 'Tunai diterima dari pelanggan', en: 'Cash handed over' },
  change: { id: 'Kembalian', en: 'Change given' },
} satisfies Record<string, Text>;

const count = (n: number) => n.toLocaleString('id-ID');

export function salesSections(
  s: SalesFigures,
  lang: Lang,
  options: { atClosing: boolean; figures: ReportFigures },
): ReportSection[] {
  if (s.completed.count + s.voided.count + s.open.count === 0) return [];
  const t = (x: Text) => x[lang];
  const left = (label: string) => ({ label, align: 'left' as const });
  const right = (label: string) => ({ label, align: 'right' as const });
  // A method's name as the order figures label it (in the store's language), else its id.
  const methodLabel = (id: string) => options.figures.byMethod.find((m) => m.methodId === id)?.label ?? id;

  const money: [string, number][] = [
    [t(TEXT.subtotal), s.subtotal],
    [t(TEXT.discounts), -s.discounts],
    [t(TEXT.net), s.net],
    [t(TEXT.dpp), s.tax.dpp],
    [t(TEXT.ppn), s.tax.ppn],
    [t(TEXT.pbjt), s.tax.pbjt],
    [t(TEXT.service), s.tax.service],
  ];
  const counted: [string, { count: number; amount: number }][] = [
    [t(TEXT.completed), s.completed],
    ...(s.voided.count > 0 ? [[t(TEXT.voided), s.voided] as [string, typeof s.voided]] : []),
    ...(s.open.count > 0 ? [[t(TEXT.open), s.open] as [string, typeof s.open]] : []),
  ];
  const summary: ReportSection = {
    key: 'sales',
    title: t(TEXT.sales),
    ...(options.atClosing ? { note: t(TEXT.atClosing) } : {}),
    columns: [left(''), right(t(TEXT.count)), right(t(TEXT.amount))],
    rows: [
      ...counted.map(([label, c]) => [label, count(c.count), formatRupiah(c.amount)]),
      ...money.map(([label, amount]) => [label, '', formatRupiah(amount)]),
      ...(s.rounding !== 0 ? [[t(TEXT.rounding), '', formatRupiah(s.rounding)]] : []),
    ],
    total: [t(TEXT.total), '', formatRupiah(s.total)],
    paper: [
      ...counted.map(([label, c]) => ({ label: `${label} (${count(c.count)})`, value: formatRupiah(c.amount) })),
      ...money.map(([label, amount]) => ({ label, value: formatRupiah(amount) })),
      { label: t(TEXT.total), value: formatRupiah(s.total), strong: true },
      ...(s.rounding !== 0 ? [{ label: t(TEXT.rounding), value: formatRupiah(s.rounding) }] : []),
    ],
    empty: t(TEXT.noSales),
  };
  const categoryName = (c: string) => (c === '' ? t(TEXT.noCategory) : c);
  const byCategory: ReportSection = {
    key: 'salesByCategory',
    title: t(TEXT.byCategory),
    columns: [left(t(TEXT.category)), right(t(TEXT.qty)), right(t(TEXT.afterDiscounts)), right(t(TEXT.total))],
    rows: s.byCategory.map((c) => [categoryName(c.category), count(c.qty), formatRupiah(c.net), formatRupiah(c.total)]),
    paper: s.byCategory.map((c) => ({
      label: `${categoryName(c.category)} (${count(c.qty)})`,
      value: formatRupiah(c.total),
    })),
    empty: t(TEXT.noSales),
  };
  const topSellers: ReportSection = {
    key: 'topSellers',
    title: t(TEXT.topSellers),
    columns: [left(t(TEXT.product)), right(t(TEXT.qty)), right(t(TEXT.total))],
    rows: s.byProduct.map((p) => [p.sku ? `${p.name} (${p.sku})` : p.name, count(p.qty), formatRupiah(p.total)]),
    paper: s.byProduct.map((p) => ({ label: `${p.name} (${count(p.qty)})`, value: formatRupiah(p.total) })),
    empty: t(TEXT.noSales),
  };
  const kindRows = s.tenders.byKind.flatMap((k) => [
    { label: t(TEXT[k.kind]), count: k.count, amount: k.amount, sub: false },
    ...(k.kind === 'gateway'
      ? s.tenders.byMethod.map((m) => ({ label: methodLabel(m.methodId), count: m.count, amount: m.amount, sub: true }))
      : []),
  ]);
  const cash = s.tenders.cashHanded > 0 || s.tenders.change > 0;
  const tenders: ReportSection = {
    key: 'saleTenders',
    title: t(TEXT.tenders),
    columns: [left(t(TEXT.tender)), right(t(TEXT.count)), right(t(TEXT.amount))],
    rows: [
      ...kindRows.map((r) => [`${r.sub ? '  ' : ''}${r.label}`, count(r.count), formatRupiah(r.amount)]),
      ...(cash
        ? [
            [t(TEXT.cashHanded), '', formatRupiah(s.tenders.cashHanded)],
            [t(TEXT.change), '', formatRupiah(s.tenders.change)],
          ]
        : []),
    ],
    paper: [
      ...kindRows.map((r) => ({
        label: `${r.sub ? '  ' : ''}${r.label} (${count(r.count)})`,
        value: formatRupiah(r.amount),
      })),
      ...(cash
        ? [
            { label: t(TEXT.cashHanded), value: formatRupiah(s.tenders.cashHanded) },
            { label: t(TEXT.change), value: formatRupiah(s.tenders.change) },
          ]
        : []),
    ],
    empty: t(TEXT.noSales),
  };
  return [summary, byCategory, topSellers, tenders];
}
