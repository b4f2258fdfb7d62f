import type { Lang } from '../../common/app-info';
import { formatRupiah } from '../../common/money';
import type { SalesFigures } from '../../common/reports';
import type { ReportSection } from './report-doc';

/**
 * The day's sales as sections of the printed report and the A4 page (docs/end-of-day.md, "Sales"): the figures with
 * the tax summary a PKP store files (DPP, PPN, PBJT, service), by category, and the top sellers. How they were paid is
 * the money taken, before them (taken-section.ts). Nothing when the day had no sale at all.
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
} satisfies Record<string, Text>;

const count = (n: number) => n.toLocaleString('id-ID');

export function salesSections(s: SalesFigures, lang: Lang, options: { atClosing: boolean }): ReportSection[] {
  if (s.completed.count + s.voided.count + s.open.count === 0) return [];
  const t = (x: Text) => x[lang];
  const left = (label: string) => ({ label, align: 'left' as const });
  const right = (label: string) => ({ label, align: 'right' as const });

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
  return [summary, byCategory, topSellers];
}
