import type { Lang } from '../../common/app-info';
import { formatDateTime, formatDay } from '../../common/dates';
import { dayIn } from '../../common/gateway-time';
import { formatRupiah } from '../../common/money';
import type { PaymentMethod } from '../../common/payment-methods';
import type { Discount } from '../../common/sale-line';
import { formatRateBp } from '../../common/tax';
import {
  formatReceiptTime,
  orderPaymentLines,
  RECEIPT_STATUS,
  RECEIPT_TEXT,
  receiptHeader,
  type Receipt,
  type ReceiptLine,
  type ReceiptLineKey,
  type ReceiptMark,
  type ReceiptRow,
  type ReceiptSection,
  type Text,
} from './receipt-model';
import type { RefundReceiptInput, SaleReceiptInput, SaleReceiptTender } from './sale-receipt-input';

/**
 * The struk of a sale and the receipt of a refund, as Receipts (receipt-model.ts), so the same two renderers print
 * them (HTML at 58 mm, 80 mm or A4; ESC/POS) as they print an order's receipt. Pure: the same input and context give
 * the same receipt. See docs/receipts.md, "The struk of a sale" and "The receipt of a refund".
 *
 * Every amount printed is one the input carries (computeSale's figures, the tenders from cash.ts, the refund from
 * refund.ts), formatted and never computed again, so the paper cannot drift from the books. The only arithmetic here
 * is what is still due on a struk printed before the sale is paid (total + rounding − Σ applied), which is not a
 * stored figure.
 *
 * How the struk adds up (tested as a property): the goods' amounts (qty × price) sum to the subtotal; subtotal −
 * discounts = the sum after discounts; the tax block's rows (before tax, PPN, PBJT, service) sum to the total (DPP is
 * PPN's base, printed for the tax invoice, and not a part of the sum); the tenders (cash handed − change, the rounding
 * line, each other tender's amount) sum to the total. Prices including tax: the tax block splits the total; prices
 * excluding it: it adds the taxes to the sum after discounts.
 *
 * Decided here: the tax block is printed whenever the sale carries PPN, PBJT, a service charge or a DPP; the change is
 * printed (large) whenever the sale has a cash tender, Rp0 included; a struk is a proof of payment (STRUK PENJUALAN,
 * LUNAS) only when the sale is complete and every gateway tender's order is paid — otherwise it is "RINCIAN
 * PENJUALAN", not a proof of payment, with what is still due.
 */

export interface SaleReceiptContext {
  lang: Lang;
  /** The store's IANA time zone: every time on the struk is its wall-clock time. */
  timeZone: string;
  /** A struk after the sale's first: marked SALINAN / COPY. */
  copy: boolean;
  printedAt: Date;
  /** The payment methods' catalogue, for a gateway tender's label (its id is shown when it left the catalogue). */
  methods?: readonly PaymentMethod[] | undefined;
}

const TEXT = {
  titleSale: { id: 'STRUK PENJUALAN', en: 'SALES RECEIPT' },
  titleSaleUnpaid: { id: 'RINCIAN PENJUALAN', en: 'SALE DETAILS' },
  titleRefund: { id: 'STRUK PENGEMBALIAN', en: 'REFUND RECEIPT' },
  serial: { id: 'No. struk', en: 'Receipt no.' },
  sale: { id: 'ID penjualan', en: 'Sale ID' },
  time: { id: 'Waktu', en: 'Time' },
  staff: { id: 'Kasir', en: 'Cashier' },
  invoice: { id: 'Faktur pajak', en: 'Tax invoice' },
  seller: { id: 'Penjual', en: 'Seller' },
  npwp: { id: 'NPWP', en: 'NPWP' },
  invoiceSerial: { id: 'No. seri', en: 'Serial no.' },
  invoiceDate: { id: 'Tanggal', en: 'Date' },
  discount: { id: 'Diskon', en: 'Discount' },
  subtotal: { id: 'Subtotal', en: 'Subtotal' },
  lineDiscounts: { id: 'Diskon barang', en: 'Item discounts' },
  saleDiscount: { id: 'Diskon penjualan', en: 'Sale discount' },
  afterDiscounts: { id: 'Setelah diskon', en: 'After discounts' },
  taxesIncluded: { id: 'Harga sudah termasuk pajak', en: 'Prices include tax' },
  taxesAdded: { id: 'Pajak', en: 'Tax' },
  net: { id: 'Sebelum pajak', en: 'Before tax' },
  // Indonesian tax terms on an English struk too: DPP (the tax base) and NPWP (the tax number) are what the tax
  // office and the buyer's books call them.
  dpp: { id: 'DPP', en: 'DPP' },
  dppOther: { id: 'DPP nilai lain', en: 'DPP' },
  ppn: { id: 'PPN', en: 'VAT (PPN)' },
  pbjt: { id: 'PBJT', en: 'PBJT' },
  service: { id: 'Biaya layanan', en: 'Service charge' },
  payment: { id: 'Pembayaran', en: 'Payment' },
  cash: { id: 'Tunai', en: 'Cash' },
  rounding: { id: 'Pembulatan', en: 'Rounding' },
  change: { id: 'KEMBALIAN', en: 'CHANGE' },
  card: { id: 'Kartu (EDC)', en: 'Card (terminal)' },
  transfer: { id: 'Transfer bank', en: 'Bank transfer' },
  other: { id: 'Lainnya', en: 'Other' },
  reference: { id: 'Ref.', en: 'Ref.' },
  paidAt: { id: 'Dibayar', en: 'Paid at' },
  stillDue: { id: 'Belum dibayar', en: 'Still due' },
  refund: { id: 'No. pengembalian', en: 'Refund no.' },
  originalSale: { id: 'Penjualan asal', en: 'Original sale' },
  originalSerial: { id: 'No. struk asal', en: 'Original receipt' },
  approvedBy: { id: 'Disetujui', en: 'Approved by' },
  refunded: { id: 'DIKEMBALIKAN', en: 'REFUNDED' },
  refundedItems: { id: 'Barang dikembalikan', en: 'Items refunded' },
  returned: { id: 'Kembali', en: 'Returned' },
  of: { id: 'dari', en: 'of' },
  saleRounding: { id: 'Pembulatan (penjualan)', en: 'Rounding (sale)' },
  cashRounding: { id: 'Pembulatan (tunai)', en: 'Rounding (cash)' },
  how: { id: 'Cara pengembalian', en: 'How it was refunded' },
  cashFromDrawer: { id: 'Tunai dari laci', en: 'Cash from the drawer' },
  outside: { id: 'Di luar Loket', en: 'Outside Loket' },
  outsideNote: {
    id: 'Uang dikembalikan di luar Loket (mis. transfer), bukan dari laci.',
    en: 'The money was refunded outside Loket (e.g. a transfer), not from the drawer.',
  },
  reason: { id: 'Alasan', en: 'Reason' },
  complete: { id: 'Penjualan ini sudah dikembalikan seluruhnya.', en: 'This sale is now refunded in full.' },
  taxRefunded: { id: 'Pajak yang dikembalikan', en: 'Tax refunded' },
} satisfies Record<string, Text>;

/** "2 × Rp12.500": what a line's amount is made of. */
function qtyTimesPrice(qty: number, unitPrice: number): string {
  return `${qty} × ${formatRupiah(unitPrice)}`;
}

/** A deduction as printed: "-Rp2.500". */
function minus(amount: number): string {
  return formatRupiah(-amount);
}

/** A discount's label: "Diskon 10%" for a percentage, "Diskon" for an amount. */
function discountLabel(label: Text, d: Discount | null | undefined, lang: Lang): string {
  return d?.kind === 'percent' ? `${label[lang]} ${formatRateBp(d.valueBp)}` : label[lang];
}

/** The store day of a stored time, written as dates are ("23/11/2026"); the text itself when it is not a time. */
function showDay(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  try {
    return formatDay(dayIn(date, timeZone));
  } catch {
    return formatDay(dayIn(date, 'UTC'));
  }
}

function personName(p: { id: string | number; name?: string | undefined } | undefined): string | undefined {
  if (!p) return undefined;
  return p.name && p.name.trim() !== '' ? p.name : String(p.id);
}

function lineAdder(lines: ReceiptLine[], lang: Lang) {
  return (key: ReceiptLineKey, label: Text, value: string | undefined) => {
    if (value !== undefined && value !== '') lines.push({ key, label: label[lang], value });
  };
}

/** Whether the struk is a proof of payment: the sale is complete and every gateway tender's order is paid. */
export function saleIsPaid(input: SaleReceiptInput): boolean {
  const applied = input.tenders.reduce((a, t) => a + t.applied, 0);
  const rounding = input.tenders.reduce((a, t) => a + (t.kind === 'cash' ? t.rounding : 0), 0);
  return (
    input.completedAt !== undefined &&
    applied === input.figures.total + rounding &&
    input.tenders.every((t) => t.kind !== 'gateway' || t.order.state === 'paid')
  );
}

function tenderRows(tender: SaleReceiptTender, ctx: SaleReceiptContext): { rows: ReceiptRow[]; training: boolean } {
  const { lang, timeZone } = ctx;
  const t = (text: Text) => text[lang];
  if (tender.kind === 'cash') {
    const rows: ReceiptRow[] = [{ key: 'cash', label: t(TEXT.cash), value: formatRupiah(tender.handed) }];
    if (tender.rounding !== 0)
      rows.push({ key: 'rounding', label: t(TEXT.rounding), value: formatRupiah(tender.rounding), sub: true });
    return { rows, training: false };
  }
  if (tender.kind === 'other') {
    const label = tender.via === 'card' ? TEXT.card : tender.via === 'transfer' ? TEXT.transfer : TEXT.other;
    return {
      rows: [
        { key: 'other', label: t(label), value: formatRupiah(tender.applied) },
        { key: 'reference', label: t(TEXT.reference), value: tender.reference, sub: true },
      ],
      training: false,
    };
  }
  const { order } = tender;
  const method = ctx.methods?.find((m) => m.id === order.methodId);
  const details = orderPaymentLines(order, method, lang);
  const rows: ReceiptRow[] = [
    {
      key: 'gateway',
      label: details.find((l) => l.key === 'method')?.value ?? order.methodId,
      value: formatRupiah(tender.applied),
    },
    { key: 'order', label: t(RECEIPT_TEXT.order), value: order.id, sub: true },
  ];
  for (const l of details) if (l.key !== 'method') rows.push({ key: l.key, label: l.label, value: l.value, sub: true });
  if (order.paidAt)
    rows.push({
      key: 'paidAt',
      label: t(TEXT.paidAt),
      value: formatDateTime(order.paidAt, timeZone, lang),
      sub: true,
    });
  rows.push({
    key: 'status',
    label: t(RECEIPT_TEXT.status),
    value: t(RECEIPT_STATUS[order.state]),
    sub: true,
    strong: true,
  });
  return { rows, training: order.training };
}

/** Builds the struk of a sale. */
export function buildSaleReceipt(input: SaleReceiptInput, ctx: SaleReceiptContext): Receipt {
  const { lang, timeZone } = ctx;
  const t = (text: Text) => text[lang];
  const f = input.figures;
  const paid = saleIsPaid(input);
  const when = input.completedAt ?? input.createdAt;

  const lines: ReceiptLine[] = [];
  const add = lineAdder(lines, lang);
  add('serial', TEXT.serial, input.serial);
  add('time', TEXT.time, formatDateTime(when, timeZone, lang));
  add('staff', TEXT.staff, personName(input.staff));
  add('sale', TEXT.sale, input.saleId);

  const before: ReceiptSection[] = [];
  const pkp = input.tax.pkp;
  if (pkp.enabled) {
    before.push({
      key: 'invoice',
      title: t(TEXT.invoice),
      rows: [
        { key: 'seller', label: t(TEXT.seller), value: pkp.sellerName },
        { key: 'sellerAddress', label: pkp.address },
        { key: 'npwp', label: t(TEXT.npwp), value: pkp.npwp },
        { key: 'invoiceSerial', label: t(TEXT.invoiceSerial), value: input.serial },
        { key: 'invoiceDate', label: t(TEXT.invoiceDate), value: showDay(when, timeZone) },
      ],
    });
  }

  const items: ReceiptRow[] = [];
  for (const line of input.lines) {
    items.push({ key: 'item', label: line.name });
    items.push({
      key: 'qty',
      label: qtyTimesPrice(line.qty, line.unitPrice),
      value: formatRupiah(line.gross),
      sub: true,
    });
    if (line.lineDiscount > 0)
      items.push({
        key: 'lineDiscount',
        label: discountLabel(TEXT.discount, line.discount, lang),
        value: minus(line.lineDiscount),
        sub: true,
      });
  }
  before.push({ key: 'items', rows: items });

  const sums: ReceiptRow[] = [{ key: 'subtotal', label: t(TEXT.subtotal), value: formatRupiah(f.subtotal) }];
  if (f.lineDiscounts > 0)
    sums.push({ key: 'lineDiscounts', label: t(TEXT.lineDiscounts), value: minus(f.lineDiscounts) });
  if (f.saleDiscount > 0)
    sums.push({
      key: 'saleDiscount',
      label: discountLabel(TEXT.saleDiscount, input.saleDiscount, lang),
      value: minus(f.saleDiscount),
    });
  if (f.discounts > 0)
    sums.push({
      key: 'afterDiscounts',
      label: t(TEXT.afterDiscounts),
      value: formatRupiah(f.afterDiscounts),
      strong: true,
    });
  before.push({ key: 'sums', rows: sums });

  if (f.dpp + f.ppn + f.pbjt + f.service > 0) {
    const { ppn, pbjt, service } = input.tax;
    const taxRows: ReceiptRow[] = [{ key: 'net', label: t(TEXT.net), value: formatRupiah(f.net) }];
    if (f.dpp > 0 || f.ppn > 0) {
      taxRows.push({ key: 'ppn', label: `${t(TEXT.ppn)} ${formatRateBp(ppn.rateBp)}`, value: formatRupiah(f.ppn) });
      const factor = ppn.dpp.num === ppn.dpp.den ? '' : ` ${ppn.dpp.num}/${ppn.dpp.den}`;
      const dppLabel = factor ? TEXT.dppOther : TEXT.dpp;
      taxRows.push({ key: 'dpp', label: `${t(dppLabel)}${factor}`, value: formatRupiah(f.dpp), sub: true });
    }
    if (f.pbjt > 0)
      taxRows.push({ key: 'pbjt', label: `${t(TEXT.pbjt)} ${formatRateBp(pbjt.rateBp)}`, value: formatRupiah(f.pbjt) });
    if (f.service > 0)
      taxRows.push({
        key: 'service',
        label: `${t(TEXT.service)} ${formatRateBp(service.rateBp)}`,
        value: formatRupiah(f.service),
      });
    before.push({
      key: 'tax',
      title: t(input.tax.pricesIncludeTax ? TEXT.taxesIncluded : TEXT.taxesAdded),
      rows: taxRows,
    });
  }

  const after: ReceiptSection[] = [];
  let training = input.training;
  const payRows: ReceiptRow[] = [];
  for (const tender of input.tenders) {
    const r = tenderRows(tender, ctx);
    payRows.push(...r.rows);
    training ||= r.training;
  }
  if (!paid) {
    // What is still due: the total (after the cash rounding) less what has been paid — a gateway tender counts only
    // once its order is paid.
    const settled = input.tenders.reduce(
      (a, x) => a + (x.kind === 'gateway' && x.order.state !== 'paid' ? 0 : x.applied),
      0,
    );
    const rounding = input.tenders.reduce((a, x) => a + (x.kind === 'cash' ? x.rounding : 0), 0);
    const due = f.total + rounding - settled;
    if (due > 0) payRows.push({ key: 'stillDue', label: t(TEXT.stillDue), value: formatRupiah(due), strong: true });
  }
  if (payRows.length > 0) after.push({ key: 'tenders', title: t(TEXT.payment), rows: payRows });
  const cash = input.tenders.filter((x) => x.kind === 'cash');
  if (cash.length > 0) {
    const change = cash.reduce((a, x) => a + x.change, 0);
    after.push({
      key: 'change',
      rows: [{ key: 'change', label: t(TEXT.change), value: formatRupiah(change), strong: true, large: true }],
    });
  }

  const marks: ReceiptMark[] = [];
  if (training) marks.push({ kind: 'sandbox', text: t(RECEIPT_TEXT.sandbox) });
  if (ctx.copy) marks.push({ kind: 'copy', text: t(RECEIPT_TEXT.copy) });

  return {
    lang,
    header: receiptHeader(storeContext(input.store)),
    title: t(paid ? TEXT.titleSale : TEXT.titleSaleUnpaid),
    marks,
    lines,
    paid,
    state: paid ? 'paid' : 'awaiting_payment',
    total: { label: t(RECEIPT_TEXT.total), amount: f.total, text: formatRupiah(f.total) },
    notes: paid ? [] : [t(RECEIPT_TEXT.notProof)],
    footer: input.store.footerText || t(RECEIPT_TEXT.footer),
    printedAt: { label: t(RECEIPT_TEXT.printedAt), value: formatReceiptTime(ctx.printedAt, timeZone, lang) },
    sections: { beforeTotal: before, afterTotal: after },
  };
}

function storeContext(store: SaleReceiptInput['store']) {
  return { storeName: store.name, storeAddress: store.address, headerText: store.headerText };
}

/**
 * The tax a refund gives back, part of the amounts above it: PPN with its DPP (sub), PBJT, the service charge, each
 * only when not 0. No rate is printed: a refund's PPN is its share of the sale's PPN (refund-tax.ts), cumulative so
 * that the refunds never give back more than the sale carried, and so not always the rate times the refund's DPP.
 */
function refundTaxRows(tax: RefundReceiptInput['tax'], lang: Lang): ReceiptRow[] {
  if (!tax) return [];
  const t = (text: Text) => text[lang];
  const rows: ReceiptRow[] = [];
  if (tax.ppn > 0 || tax.dpp > 0) {
    rows.push({ key: 'ppn', label: t(TEXT.ppn), value: formatRupiah(tax.ppn) });
    rows.push({ key: 'dpp', label: t(TEXT.dpp), value: formatRupiah(tax.dpp), sub: true });
  }
  if (tax.pbjt > 0) rows.push({ key: 'pbjt', label: t(TEXT.pbjt), value: formatRupiah(tax.pbjt) });
  if (tax.service > 0) rows.push({ key: 'service', label: t(TEXT.service), value: formatRupiah(tax.service) });
  return rows;
}

/** Builds the receipt of a refund: what was refunded (lines, quantities, amounts), how, why, and of which sale. */
export function buildRefundReceipt(input: RefundReceiptInput, ctx: SaleReceiptContext): Receipt {
  const { lang, timeZone } = ctx;
  const t = (text: Text) => text[lang];
  const { plan, payout } = input;

  const lines: ReceiptLine[] = [];
  const add = lineAdder(lines, lang);
  add('refund', TEXT.refund, input.refundId);
  add('time', TEXT.time, formatDateTime(input.at, timeZone, lang));
  add('sale', TEXT.originalSale, input.saleId);
  add('serial', TEXT.originalSerial, input.saleSerial);
  add('staff', TEXT.staff, personName(input.staff));
  add('approvedBy', TEXT.approvedBy, personName(input.approvedBy));

  const items: ReceiptRow[] = [];
  for (const line of plan.lines) {
    const sold = input.saleLines.find((l) => l.lineId === line.lineId);
    items.push({ key: 'item', label: sold?.name ?? line.lineId });
    const of = sold ? `${line.qty} ${t(TEXT.of)} ${sold.qty}` : String(line.qty);
    items.push({
      key: 'refundQty',
      label: `${t(TEXT.returned)} ${of}`,
      value: formatRupiah(line.amount),
      sub: true,
    });
  }
  const before: ReceiptSection[] = [{ key: 'items', title: t(TEXT.refundedItems), rows: items }];
  const sums: ReceiptRow[] = [];
  if (plan.rounding !== 0)
    sums.push({ key: 'saleRounding', label: t(TEXT.saleRounding), value: formatRupiah(plan.rounding) });
  if (payout.kind === 'cash' && payout.rounding !== 0)
    sums.push({ key: 'cashRounding', label: t(TEXT.cashRounding), value: formatRupiah(payout.rounding) });
  if (sums.length > 0) before.push({ key: 'sums', rows: sums });
  const taxRows = refundTaxRows(input.tax, lang);
  if (taxRows.length > 0) before.push({ key: 'tax', title: t(TEXT.taxRefunded), rows: taxRows });

  const amount = payout.kind === 'cash' ? payout.handedBack : plan.money;
  const how: ReceiptRow[] = [];
  if (payout.kind === 'cash') how.push({ key: 'cash', label: t(TEXT.cashFromDrawer), value: formatRupiah(amount) });
  else {
    const method = payout.methodId ? ctx.methods?.find((m) => m.id === payout.methodId) : undefined;
    how.push({ key: 'outside', label: t(TEXT.outside), value: formatRupiah(amount) });
    if (payout.methodId)
      how.push({
        key: 'method',
        label: t(RECEIPT_TEXT.method),
        value: method?.label[lang] ?? payout.methodId,
        sub: true,
      });
  }
  how.push({ key: 'reason', label: `${t(TEXT.reason)}: ${input.reason}` });

  const notes: string[] = [];
  if (payout.kind === 'outside') notes.push(t(TEXT.outsideNote));
  if (plan.complete) notes.push(t(TEXT.complete));

  const marks: ReceiptMark[] = [];
  if (input.training) marks.push({ kind: 'sandbox', text: t(RECEIPT_TEXT.sandbox) });
  if (ctx.copy) marks.push({ kind: 'copy', text: t(RECEIPT_TEXT.copy) });

  return {
    lang,
    header: receiptHeader(storeContext(input.store)),
    title: t(TEXT.titleRefund),
    marks,
    lines,
    // A refund is not a proof of payment; its own total is what went back.
    paid: false,
    state: 'paid',
    total: { label: t(TEXT.refunded), amount, text: formatRupiah(amount) },
    notes,
    footer: input.store.footerText || t(RECEIPT_TEXT.footer),
    printedAt: { label: t(RECEIPT_TEXT.printedAt), value: formatReceiptTime(ctx.printedAt, timeZone, lang) },
    sections: { beforeTotal: before, afterTotal: [{ key: 'how', title: t(TEXT.how), rows: how }] },
  };
}
