// The struk of a sale and the receipt of a refund: what they say (every figure as the sale's input carries it, never
// worked out again), their two renderings (ESC/POS bytes and HTML) against golden files, and a property: the printed
// goods, discounts, taxes and tenders add up to the printed total.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CASH_ROUNDINGS, type CashRounding } from '../../src-main/common/cash';
import { formatRupiah } from '../../src-main/common/money';
import { mulDivFloor } from '../../src-main/common/money-math';
import { computeSale } from '../../src-main/common/sale-totals';
import type { PaperWidth, Receipt, ReceiptRow } from '../../src-main/core/receipts/receipt-model';
import { CHARS_PER_LINE, renderEscPos, toPrinterText } from '../../src-main/core/receipts/receipt-escpos';
import { estimatePageHeightMm, renderReceiptHtml, type HtmlPaper } from '../../src-main/core/receipts/receipt-html';
import {
  buildRefundReceipt,
  buildSaleReceipt,
  type SaleReceiptContext,
} from '../../src-main/core/receipts/sale-receipt';
import type { SaleReceiptInput } from '../../src-main/core/receipts/sale-receipt-input';
import {
  refundReceiptEscPos,
  refundReceiptHtml,
  saleReceiptEscPos,
  saleReceiptHtml,
} from '../../src-main/core/receipts/sale-receipt-render';
import { checkGolden, checkGoldenText, GOLDEN_DIR, printedLines } from './helpers/golden';
import { propertyParams } from './helpers/property';
import { cartArb, saleDiscountArb, saleDiscountFor, taxSettingsArb, toLines } from './helpers/sale-arbitraries';
import { buildRefundInput, buildSaleInput, METHODS, QRIS, type TenderDraft } from './helpers/sale-receipt-fixtures';
import {
  cashRefundOfOneLine,
  cashSale,
  pbjtSale,
  pkpSale,
  qris20,
  SALES,
  splitSale,
} from './helpers/sale-receipt-scenarios';

const CTX: SaleReceiptContext = {
  lang: 'id',
  timeZone: 'Asia/Jakarta',
  copy: false,
  printedAt: new Date('2026-11-22T18:32:00Z'),
  methods: METHODS,
};
const ctx = (over: Partial<SaleReceiptContext> = {}): SaleReceiptContext => ({ ...CTX, ...over });

/** Every row of the struk's sections, in print order. */
function rows(receipt: Receipt): ReceiptRow[] {
  const s = receipt.sections;
  return [...(s?.beforeTotal ?? []), ...(s?.afterTotal ?? [])].flatMap((sec) => sec.rows);
}
const rowsOf = (receipt: Receipt, key: string) => rows(receipt).filter((r) => r.key === key);
const valueOf = (receipt: Receipt, key: string) => rowsOf(receipt, key)[0]?.value;

/** "Rp1.234.567" / "-Rp30" back to a number: what a reader of the paper would add up. */
function rupiah(text: string | undefined): number {
  if (text === undefined) return 0;
  const m = /^(-?)Rp(\d{1,3}(?:\.\d{3})*)$/.exec(text);
  if (!m) throw new Error(`not an amount: ${text}`);
  return (m[1] ? -1 : 1) * Number(m[2]!.replace(/\./g, ''));
}
const sumOf = (receipt: Receipt, key: string) => rowsOf(receipt, key).reduce((a, r) => a + rupiah(r.value), 0);

describe('the struk of a sale', () => {
  it('a 20-line sale paid by QRIS: each line with its name, qty × price, amount and discount; the sums; the tender', () => {
    const input = qris20();
    const r = buildSaleReceipt(input, CTX);
    expect(r.title).toBe('STRUK PENJUALAN');
    expect(r.paid).toBe(true);
    expect(r.marks).toEqual([]);
    expect(r.lines).toEqual([
      { key: 'serial', label: 'No. struk', value: 'T01-2026-000042' },
      { key: 'time', label: 'Waktu', value: '23/11/2026 01.31 WIB' },
      { key: 'staff', label: 'Kasir', value: 'Sari' },
      { key: 'sale', label: 'ID penjualan', value: '01JDX7Q3M2S8T01-0042' },
    ]);
    expect(rowsOf(r, 'item').map((x) => x.label)).toEqual(input.lines.map((l) => l.name));
    expect(rowsOf(r, 'qty')[1]).toEqual({ key: 'qty', label: '2 × Rp38.900', value: 'Rp77.800', sub: true });
    expect(rowsOf(r, 'lineDiscount')).toEqual([
      { key: 'lineDiscount', label: 'Diskon 10%', value: '-Rp3.500', sub: true },
      { key: 'lineDiscount', label: 'Diskon', value: '-Rp2.000', sub: true },
    ]);
    expect(valueOf(r, 'saleDiscount')).toBe('-Rp5.000');
    expect(r.sections?.beforeTotal.find((s) => s.key === 'tax')?.title).toBe('Harga sudah termasuk pajak');
    expect(rowsOf(r, 'ppn')[0]?.label).toBe('PPN 12%');
    expect(rowsOf(r, 'dpp')[0]?.label).toBe('DPP nilai lain 11/12');
    expect(rows(r).filter((x) => x.key === 'gateway')).toEqual([
      { key: 'gateway', label: 'QRIS (semua aplikasi)', value: 'Rp609.000' },
    ]);
    expect(valueOf(r, 'order')).toBe('T01-20261122-182955001-7F3K');
    expect(valueOf(r, 'status')).toBe('LUNAS');
    expect(rowsOf(r, 'change')).toEqual([]);
    expect(r.total).toEqual({ label: 'TOTAL', amount: 609_000, text: 'Rp609.000' });
    expect(r.notes).toEqual([]);
  });

  it('prints every figure exactly as the input carries it, for every sale (no recomputation)', () => {
    for (const { name, sale } of SALES) {
      const input = sale();
      const f = input.figures;
      for (const lang of ['id', 'en'] as const) {
        const r = buildSaleReceipt(input, ctx({ lang }));
        expect(r.total.text, name).toBe(formatRupiah(f.total));
        expect(r.total.amount, name).toBe(f.total);
        expect(valueOf(r, 'subtotal'), name).toBe(formatRupiah(f.subtotal));
        expect(rowsOf(r, 'qty').map((x) => x.value)).toEqual(input.lines.map((l) => formatRupiah(l.gross)));
        expect(rowsOf(r, 'qty').map((x) => x.label)).toEqual(
          input.lines.map((l) => `${l.qty} × ${formatRupiah(l.unitPrice)}`),
        );
        const shown = (key: string, amount: number, sign = 1) =>
          expect(valueOf(r, key), `${name} ${key}`).toBe(amount === 0 ? undefined : formatRupiah(sign * amount));
        shown('lineDiscounts', f.lineDiscounts, -1);
        shown('saleDiscount', f.saleDiscount, -1);
        shown('afterDiscounts', f.discounts === 0 ? 0 : f.afterDiscounts);
        shown('ppn', f.ppn);
        shown('dpp', f.dpp);
        shown('pbjt', f.pbjt);
        shown('service', f.service);
        expect(valueOf(r, 'net'), name).toBe(formatRupiah(f.net));
        const tenders = rows(r).filter((x) => ['cash', 'gateway', 'other'].includes(x.key));
        expect(tenders.map((x) => x.value)).toEqual(
          input.tenders.map((t) => formatRupiah(t.kind === 'cash' ? t.handed : t.applied)),
        );
        expect(rowsOf(r, 'rounding').map((x) => x.value)).toEqual(
          input.tenders.flatMap((t) => (t.kind === 'cash' && t.rounding !== 0 ? [formatRupiah(t.rounding)] : [])),
        );
      }
    }
  });

  it('prints the stored figures even where they disagree with a recomputation: the struk never works them out', () => {
    // Figures the sale's side stored are the truth; a struk that recomputed them would show other numbers here.
    const input = qris20();
    const stored = { ...input, figures: { ...input.figures, ppn: 12_345, dpp: 99_999, subtotal: 1 } };
    stored.lines = stored.lines.map((l, i) => (i === 0 ? { ...l, gross: 7 } : l));
    const r = buildSaleReceipt(stored, CTX);
    expect(valueOf(r, 'ppn')).toBe('Rp12.345');
    expect(valueOf(r, 'dpp')).toBe('Rp99.999');
    expect(valueOf(r, 'subtotal')).toBe('Rp1');
    expect(rowsOf(r, 'qty')[0]?.value).toBe('Rp7');
    expect(r.total.text).toBe('Rp609.000');
    // And both printers print what the model says.
    const doc = renderReceiptHtml(r, { paper: 80 });
    const printed = printedLines(renderEscPos(r, { paper: 80 })).map((l) => l.text);
    for (const row of rows(r).filter((x) => x.value !== undefined)) {
      expect(doc).toContain(`<dd>${row.value!}</dd>`);
      expect(printed.some((l) => l.endsWith(toPrinterText(row.value!)))).toBe(true);
    }
  });

  it('PBJT and a service charge added to the prices: their own lines, with their rates, summing to the total', () => {
    const input = pbjtSale();
    const r = buildSaleReceipt(input, ctx({ lang: 'en' }));
    expect(r.sections?.beforeTotal.find((s) => s.key === 'tax')?.title).toBe('Tax');
    expect(rowsOf(r, 'pbjt')[0]).toEqual({ key: 'pbjt', label: 'PBJT 10%', value: formatRupiah(input.figures.pbjt) });
    expect(rowsOf(r, 'service')[0]?.label).toBe('Service charge 5%');
    expect(input.figures.pbjt).toBeGreaterThan(0);
    expect(input.figures.service).toBeGreaterThan(0);
    expect(sumOf(r, 'net') + sumOf(r, 'ppn') + sumOf(r, 'pbjt') + sumOf(r, 'service')).toBe(input.figures.total);
  });

  it('a PKP store: the seller’s name, address and NPWP, the serial number and the date, as the tax invoice', () => {
    const r = buildSaleReceipt(pkpSale(), CTX);
    const invoice = r.sections?.beforeTotal.find((s) => s.key === 'invoice');
    expect(invoice).toEqual({
      key: 'invoice',
      title: 'Faktur pajak',
      rows: [
        { key: 'seller', label: 'Penjual', value: 'PT Sinar Jaya Makmur' },
        { key: 'sellerAddress', label: 'Jl. Merdeka 17\nBandung 40111' },
        { key: 'npwp', label: 'NPWP', value: '01.234.567.8-901.000' },
        { key: 'invoiceSerial', label: 'No. seri', value: 'T01-2026-000042' },
        { key: 'invoiceDate', label: 'Tanggal', value: '23/11/2026' },
      ],
    });
    expect(valueOf(r, 'other')).toBe('Rp159.800');
    expect(rowsOf(r, 'other')[0]?.label).toBe('Kartu (EDC)');
    expect(valueOf(r, 'reference')).toBe('EDC BCA 004512');
    // A store that is not PKP prints no invoice block.
    expect(buildSaleReceipt(qris20(), CTX).sections?.beforeTotal.some((s) => s.key === 'invoice')).toBe(false);
  });

  it('cash: what was handed, the rounding as its own line, and the change, large', () => {
    const input = cashSale();
    const cash = input.tenders[0]!;
    if (cash.kind !== 'cash') throw new Error('a cash tender');
    expect(cash.rounding).toBe(-30);
    const r = buildSaleReceipt(input, CTX);
    expect(rows(r).filter((x) => ['cash', 'rounding', 'change'].includes(x.key))).toEqual([
      { key: 'cash', label: 'Tunai', value: 'Rp100.000' },
      { key: 'rounding', label: 'Pembulatan', value: '-Rp30', sub: true },
      { key: 'change', label: 'KEMBALIAN', value: formatRupiah(cash.change), strong: true, large: true },
    ]);
    expect(cash.change).toBe(23_100);
    const en = buildSaleReceipt(input, ctx({ lang: 'en' }));
    expect(rowsOf(en, 'change')[0]?.label).toBe('CHANGE');
    expect(rowsOf(en, 'rounding')[0]?.label).toBe('Rounding');
  });

  it('a split tender: the cash part and the QRIS part, each with its amount; the change (Rp0) still shown', () => {
    const r = buildSaleReceipt(splitSale(), CTX);
    expect(
      rows(r)
        .filter((x) => ['cash', 'gateway', 'change'].includes(x.key))
        .map((x) => [x.key, x.value]),
    ).toEqual([
      ['cash', 'Rp50.000'],
      ['gateway', 'Rp37.000'],
      ['change', 'Rp0'],
    ]);
  });

  it('a struk printed after the first is SALINAN / COPY; a training sale is marked SANDBOX', () => {
    expect(buildSaleReceipt(qris20(), ctx({ copy: true })).marks).toEqual([{ kind: 'copy', text: 'SALINAN' }]);
    expect(buildSaleReceipt(qris20(), ctx({ copy: true, lang: 'en' })).marks).toEqual([{ kind: 'copy', text: 'COPY' }]);
    const training = buildSaleReceipt({ ...qris20(), training: true }, CTX);
    expect(training.marks).toEqual([{ kind: 'sandbox', text: 'SANDBOX — BUKAN TRANSAKSI NYATA' }]);
    // A training order among the tenders marks the struk too.
    const input = qris20();
    const t = input.tenders[0]!;
    if (t.kind !== 'gateway') throw new Error('a gateway tender');
    const marked = buildSaleReceipt({ ...input, tenders: [{ ...t, order: { ...t.order, training: true } }] }, CTX);
    expect(marked.marks.map((m) => m.kind)).toEqual(['sandbox']);
  });

  it('a sale not paid in full is not a proof of payment: its title, the order’s state and what is still due', () => {
    const input = buildSaleInput({
      lines: qris20().lines,
      tenders: [
        { kind: 'cash', handed: 100_000 },
        { kind: 'gateway', method: QRIS, order: { state: 'awaiting_payment', paidAt: undefined } },
      ],
    });
    const r = buildSaleReceipt(input, CTX);
    expect(r.paid).toBe(false);
    expect(r.title).toBe('RINCIAN PENJUALAN');
    expect(r.notes).toEqual(['Bukan bukti pembayaran.']);
    expect(valueOf(r, 'status')).toBe('BELUM DIBAYAR');
    expect(valueOf(r, 'stillDue')).toBe(formatRupiah(input.figures.total - 100_000));
    expect(renderReceiptHtml(r, { paper: 80 })).not.toContain('STRUK PENJUALAN');
  });

  it('a method that left the catalogue is named by its id', () => {
    const r = buildSaleReceipt(qris20(), ctx({ methods: [] }));
    expect(rowsOf(r, 'gateway')[0]?.label).toBe('qris_dynamic');
  });
});

describe('the receipt of a refund', () => {
  it('one line refunded in cash: the line, its quantity and amount, the roundings, how, why, and the sale', () => {
    const input = cashRefundOfOneLine();
    const r = buildRefundReceipt(input, CTX);
    expect(r.title).toBe('STRUK PENGEMBALIAN');
    expect(r.lines).toEqual([
      { key: 'refund', label: 'No. pengembalian', value: 'R-T01-2026-000007' },
      { key: 'time', label: 'Waktu', value: '23/11/2026 03.05 WIB' },
      { key: 'sale', label: 'Penjualan asal', value: '01JDX7Q3M2S8T01-0042' },
      { key: 'serial', label: 'No. struk asal', value: 'T01-2026-000042' },
      { key: 'staff', label: 'Kasir', value: 'Sari' },
      { key: 'approvedBy', label: 'Disetujui', value: 'Pak Budi' },
    ]);
    expect(rows(r).filter((x) => ['item', 'refundQty'].includes(x.key))).toEqual([
      { key: 'item', label: 'Roti tawar' },
      { key: 'refundQty', label: 'Kembali 1 dari 2', value: formatRupiah(input.plan.lines[0]!.amount), sub: true },
    ]);
    if (input.payout.kind !== 'cash') throw new Error('a cash refund');
    expect(r.total.text).toBe(formatRupiah(input.payout.handedBack));
    expect(valueOf(r, 'cash')).toBe(formatRupiah(input.payout.handedBack));
    expect(rowsOf(r, 'cash')[0]?.label).toBe('Tunai dari laci');
    expect(rowsOf(r, 'reason')[0]?.label).toBe('Alasan: Barang rusak (kemasan bocor)');
    // What the paper shows adds up: the lines, the share of the sale's rounding, the cash rounding.
    expect(sumOf(r, 'refundQty') + sumOf(r, 'saleRounding') + sumOf(r, 'cashRounding')).toBe(input.payout.handedBack);
    expect(rowsOf(r, 'saleRounding')[0]?.value).toBe(formatRupiah(input.plan.rounding));
    expect(rowsOf(r, 'cashRounding')[0]?.value).toBe(formatRupiah(input.payout.rounding));
    // The PPN given back, part of the line's amount, with its DPP under it; no PBJT or service on this sale.
    const tax = r.sections?.beforeTotal.find((x) => x.key === 'tax');
    expect(tax?.title).toBe('Pajak yang dikembalikan');
    expect(tax?.rows).toEqual([
      { key: 'ppn', label: 'PPN', value: formatRupiah(input.tax!.ppn) },
      { key: 'dpp', label: 'DPP', value: formatRupiah(input.tax!.dpp), sub: true },
    ]);
    expect(input.tax!.ppn).toBeGreaterThan(0);
  });

  it('prints the tax given back as the refund carries it, in both languages; none when it gave back none', () => {
    const input = { ...cashRefundOfOneLine(), tax: { dpp: 91_667, ppn: 11_000, pbjt: 3070, service: 1535 } };
    const en = buildRefundReceipt(input, ctx({ lang: 'en' })).sections?.beforeTotal.find((x) => x.key === 'tax');
    expect(en).toEqual({
      key: 'tax',
      title: 'Tax refunded',
      rows: [
        { key: 'ppn', label: 'VAT (PPN)', value: 'Rp11.000' },
        { key: 'dpp', label: 'DPP', value: 'Rp91.667', sub: true },
        { key: 'pbjt', label: 'PBJT', value: 'Rp3.070' },
        { key: 'service', label: 'Service charge', value: 'Rp1.535' },
      ],
    });
    const none = { ...input, tax: { dpp: 0, ppn: 0, pbjt: 0, service: 0 } };
    expect(buildRefundReceipt(none, CTX).sections?.beforeTotal.map((x) => x.key) ?? []).not.toContain('tax');
    const { tax: _tax, ...untaxed } = input;
    expect(buildRefundReceipt(untaxed, CTX).sections?.beforeTotal.map((x) => x.key) ?? []).not.toContain('tax');
  });

  it('a digital tender refunded outside Loket says so, names the method, and prints the whole amount', () => {
    const sale = qris20();
    const input = buildRefundInput(
      sale,
      { kind: 'whole' },
      { kind: 'outside', methodId: 'qris_dynamic' },
      'Salah beli',
    );
    const r = buildRefundReceipt(input, ctx({ lang: 'en' }));
    expect(r.title).toBe('REFUND RECEIPT');
    expect(rowsOf(r, 'item')).toHaveLength(20);
    expect(rowsOf(r, 'outside')[0]).toEqual({ key: 'outside', label: 'Outside Loket', value: 'Rp609.000' });
    expect(rowsOf(r, 'method')[0]?.value).toBe('QRIS (any app)');
    expect(r.total.text).toBe('Rp609.000');
    expect(r.notes).toEqual([
      'The money was refunded outside Loket (e.g. a transfer), not from the drawer.',
      'This sale is now refunded in full.',
    ]);
    expect(sumOf(r, 'refundQty')).toBe(input.plan.amount);
  });
});

// ------------------------------------------------------------------------------------------------ on paper

type Golden = { name: string; escpos: PaperWidth; html: HtmlPaper; render: (lang: 'id' | 'en') => Receipt };
const saleGolden = (name: string, escpos: PaperWidth, html: HtmlPaper, sale: () => SaleReceiptInput): Golden => ({
  name,
  escpos,
  html,
  render: (lang) => buildSaleReceipt(sale(), ctx({ lang })),
});
const GOLDEN: Golden[] = [
  saleGolden('sale-qris20', 58, 80, qris20),
  saleGolden('sale-pkp', 80, 'A4', pkpSale),
  saleGolden('sale-pbjt-service', 58, 58, pbjtSale),
  saleGolden('sale-cash-rounding', 58, 58, cashSale),
  saleGolden('sale-split-cash-qris', 80, 80, splitSale),
  {
    name: 'refund-cash-one-line',
    escpos: 80,
    html: 80,
    render: (lang) => buildRefundReceipt(cashRefundOfOneLine(), ctx({ lang })),
  },
];
const BOTH = GOLDEN.flatMap((g) => (['id', 'en'] as const).map((lang) => ({ ...g, lang, file: `${g.name}-${lang}` })));

describe('the struk on paper', () => {
  it.each(BOTH)('ESC/POS: $file equals its golden file byte for byte', ({ file, escpos, render, lang }) => {
    checkGolden(GOLDEN_DIR, `${file}-${escpos}`, renderEscPos(render(lang), { paper: escpos }));
  });

  it.each(BOTH)('HTML: $file equals its golden file', ({ file, html, render, lang }) => {
    checkGoldenText(GOLDEN_DIR, `${file}-${html}.html`, renderReceiptHtml(render(lang), { paper: html }));
  });

  it.each(BOTH)(
    'ESC/POS: $file fits 58 and 80 mm paper, and never cuts a word that fits a line',
    ({ render, lang }) => {
      const receipt = render(lang);
      for (const paper of [58, 80] as const) {
        const width = CHARS_PER_LINE[paper];
        const lines = printedLines(renderEscPos(receipt, { paper }));
        for (const line of lines) expect(line.columns, line.text).toBeLessThanOrEqual(width);
        const words = new Set(lines.flatMap((l) => l.text.split(' ')));
        for (const r of rows(receipt))
          for (const word of toPrinterText(r.label)
            .split(' ')
            .filter((w) => w.length <= width - 2))
            expect(words.has(word), `${paper} mm: "${word}" of "${r.label}"`).toBe(true);
        // Every amount is printed whole, right-aligned at the line's end.
        for (const r of rows(receipt).filter((x) => x.value?.includes('Rp')))
          expect(
            lines.some((l) => l.text.endsWith(toPrinterText(r.value!))),
            `${paper} mm: ${r.value}`,
          ).toBe(true);
      }
    },
  );

  it('the exported printers give the same output as building then rendering', () => {
    const opts = { ...CTX, paper: 80 as const };
    expect(saleReceiptEscPos(qris20(), opts).equals(renderEscPos(buildSaleReceipt(qris20(), CTX), opts))).toBe(true);
    expect(saleReceiptHtml(qris20(), { ...CTX, paper: 'A4' })).toBe(
      renderReceiptHtml(buildSaleReceipt(qris20(), CTX), { paper: 'A4' }),
    );
    const refund = cashRefundOfOneLine();
    expect(refundReceiptEscPos(refund, opts).equals(renderEscPos(buildRefundReceipt(refund, CTX), opts))).toBe(true);
    expect(refundReceiptHtml(refund, { ...CTX, paper: 58 })).toBe(
      renderReceiptHtml(buildRefundReceipt(refund, CTX), { paper: 58 }),
    );
  });

  it('HTML: A4 is an A4 page; thermal paper grows with the 20 lines; every text escaped', () => {
    const a4 = saleReceiptHtml(pkpSale(), { ...CTX, paper: 'A4' });
    expect(a4).toContain('<title>STRUK PENJUALAN T01-2026-000042</title>');
    expect(refundReceiptHtml(cashRefundOfOneLine(), { ...CTX, paper: 80 })).toContain(
      '<title>STRUK PENGEMBALIAN R-T01-2026-000007</title>',
    );
    expect(a4).toContain('@page { size: A4 portrait; margin: 15mm }');
    expect(a4).not.toMatch(/size: 58mm|size: 80mm/);
    const long = buildSaleReceipt(qris20(), CTX);
    const short = buildSaleReceipt(cashSale(), CTX);
    expect(estimatePageHeightMm(long, 58)).toBeGreaterThan(estimatePageHeightMm(short, 58) + 100);
    const input = qris20();
    input.lines[0] = { ...input.lines[0]!, name: '<img src=x onerror=alert(1)> & "kopi"' };
    const doc = saleReceiptHtml(input, { ...CTX, paper: 58 });
    expect(doc).not.toContain('<img');
    expect(doc).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;kopi&quot;');
  });
});

// ------------------------------------------------------------------------------------------------ a property

/** A random sale, its tenders (0–2 partial non-cash tenders, then cash or a gateway tender for the rest). */
const saleArb = fc.record({
  drafts: cartArb,
  discount: saleDiscountArb,
  tax: taxSettingsArb,
  rounding: fc.constantFrom<CashRounding>(...CASH_ROUNDINGS),
  parts: fc.array(fc.record({ share: fc.integer({ min: 1, max: 9_000 }), kind: fc.constantFrom('gateway', 'other') }), {
    maxLength: 2,
  }),
  last: fc.oneof(
    fc.record({ kind: fc.constant('cash' as const), extra: fc.integer({ min: 0, max: 100_000 }) }),
    fc.record({ kind: fc.constant('gateway' as const) }),
  ),
});

describe('the printed struk adds up', () => {
  it('goods, discounts, taxes and tenders sum to the printed total, for random sales and settings', () => {
    fc.assert(
      fc.property(saleArb, ({ drafts, discount, tax, rounding, parts, last }) => {
        const lines = toLines(drafts);
        const first = computeSale(lines, undefined, tax);
        fc.pre(first.ok); // a cart over the sale's limit is refused before any struk
        if (!first.ok) return;
        const saleDiscount = saleDiscountFor(discount, first.sale.afterDiscounts);
        const computed = computeSale(lines, saleDiscount, tax);
        if (!computed.ok) throw new Error(computed.issues[0]!.message);
        const total = computed.sale.total;
        const tenders: TenderDraft[] = [];
        let due = total;
        parts.forEach((p, i) => {
          const amount = mulDivFloor(total, p.share, 10_000);
          if (amount === 0 || amount >= due) return;
          due -= amount;
          tenders.push(
            p.kind === 'gateway'
              ? { kind: 'gateway', method: QRIS, amount }
              : { kind: 'other', reference: `REF-${i}`, amount },
          );
        });
        if (due > 0)
          tenders.push(
            last.kind === 'cash' ? { kind: 'cash', handed: due + 100 + last.extra } : { kind: 'gateway', method: QRIS },
          );
        const input = buildSaleInput({ lines, saleDiscount, tax, rounding, tenders });
        const r = buildSaleReceipt(input, CTX);
        const printedTotal = rupiah(r.total.text);
        expect(printedTotal).toBe(total);
        expect(r.paid).toBe(true);
        // The goods.
        const subtotal = rupiah(valueOf(r, 'subtotal'));
        expect(sumOf(r, 'qty')).toBe(subtotal);
        expect(sumOf(r, 'lineDiscount')).toBe(sumOf(r, 'lineDiscounts'));
        const afterDiscounts = subtotal + sumOf(r, 'lineDiscounts') + sumOf(r, 'saleDiscount');
        if (valueOf(r, 'afterDiscounts') !== undefined)
          expect(rupiah(valueOf(r, 'afterDiscounts'))).toBe(afterDiscounts);
        // The taxes: the tax block splits (or adds to) the sum into the total; without one the sum is the total.
        const taxBlock = r.sections?.beforeTotal.some((s) => s.key === 'tax');
        if (taxBlock)
          expect(sumOf(r, 'net') + sumOf(r, 'ppn') + sumOf(r, 'pbjt') + sumOf(r, 'service')).toBe(printedTotal);
        else expect(afterDiscounts).toBe(printedTotal);
        // The PPN printed is the printed rate times the printed DPP, half-up (what Coretax checks: docs/tax.md).
        if (valueOf(r, 'ppn') !== undefined) {
          const ppnRow = rowsOf(r, 'ppn')[0]!;
          const rate = /PPN (\d+(?:\.\d+)?)%/.exec(ppnRow.label);
          const rateBp = Math.round(Number(rate![1]) * 100);
          expect(rateBp).toBe(tax.ppn.rateBp);
          const dpp = rupiah(valueOf(r, 'dpp'));
          expect(sumOf(r, 'ppn')).toBe(Math.floor((2 * dpp * rateBp + 10_000) / 20_000));
        }
        // The tenders: cash handed − change, the other tenders, less the rounding line, make the total.
        const change = sumOf(r, 'change');
        expect(change).toBeGreaterThanOrEqual(0);
        const paid = sumOf(r, 'cash') - change + sumOf(r, 'gateway') + sumOf(r, 'other');
        expect(paid - sumOf(r, 'rounding')).toBe(printedTotal);
        // And the printer gets all of it within the paper, however large the amounts.
        for (const line of printedLines(renderEscPos(r, { paper: 58 })))
          expect(line.columns, line.text).toBeLessThanOrEqual(CHARS_PER_LINE[58]);
      }),
      propertyParams(300),
    );
  });
});
