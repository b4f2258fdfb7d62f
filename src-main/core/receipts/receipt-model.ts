import type { Lang } from '../../common/app-info';
import { formatDateTime } from '../../common/dates';
import { formatRupiah } from '../../common/money';
import type { Order, OrderState } from '../../common/order';
import { maskPhone } from '../../common/payment-instruction';
import { kindSpec } from '../../common/payment-kinds';
import type { PaymentMethod } from '../../common/payment-methods';

/**
 * One receipt model, rendered two ways (HTML for a browser or PDF, ESC/POS bytes for a thermal printer).
 * A Receipt is plain, JSON-safe data: every text is already in the receipt's language and every amount and
 * time is already formatted, so the renderers only lay it out. See docs/receipts.md.
 */

/** Thermal paper width in mm. */
export type PaperWidth = 58 | 80;

export type ReceiptMarkKind = 'copy' | 'sandbox';

/** A mark that must be impossible to miss: a reprint (COPY) or a training receipt (SANDBOX). */
export interface ReceiptMark {
  kind: ReceiptMarkKind;
  text: string;
}

export type ReceiptLineKey =
  | 'order'
  | 'time'
  | 'item'
  | 'itemId'
  | 'method'
  | 'va'
  | 'paymentCode'
  | 'smsCode'
  | 'phone'
  | 'customer'
  | 'transaction'
  | 'reason'
  | 'status'
  /** A payment slip's bank or store, and the time to pay before. */
  | 'provider'
  | 'deadline'
  /** A sale's struk and a refund's (sale-receipt.ts). */
  | 'serial'
  | 'sale'
  | 'staff'
  | 'refund'
  | 'approvedBy';

export interface ReceiptLine {
  /** What the line is, for renderers and tests; never shown. */
  key: ReceiptLineKey;
  label: string;
  value: string;
}

export interface Receipt {
  lang: Lang;
  header: { storeName: string; storeAddress?: string };
  /** "STRUK PEMBAYARAN" for a paid order; "RINCIAN PESANAN" (not a proof of payment) for any other state. */
  title: string;
  /** In the order they are shown: SANDBOX first, then COPY. */
  marks: ReceiptMark[];
  lines: ReceiptLine[];
  /** Only a `paid` order is a proof of payment. */
  paid: boolean;
  state: OrderState;
  total: { label: string; amount: number; text: string };
  /** Plain sentences shown under the total (e.g. "not a proof of payment", a late payment). */
  notes: string[];
  footer: string;
  printedAt: { label: string; value: string };
  /** A payment slip (slip-model.ts): the code to pay with, printed large and grouped for reading. */
  code?: { label: string; text: string };
  /** A payment slip: how to pay, in short numbered steps. */
  steps?: { title: string; items: string[] };
  /**
   * A sale's struk (sale-receipt.ts): blocks of rows printed between the lines and the total (the tax invoice's
   * fields, the goods, the sums and taxes), and after the total (the tenders, the change).
   */
  sections?: { beforeTotal: ReceiptSection[]; afterTotal: ReceiptSection[] };
}

/** A block of rows on a sale's struk, under an optional heading. */
export interface ReceiptSection {
  /** What the block is, for renderers and tests; never shown. */
  key: string;
  title?: string;
  rows: ReceiptRow[];
}

/**
 * A row: its text on the left (wrapped as needed), its value (an amount) on the right. A row without a value is a
 * line of text of its own (an item's name). `sub` rows belong to the row above and are indented under it (an item's
 * quantity × price, a tender's order number); `large` rows are printed larger and bold (the change).
 */
export interface ReceiptRow {
  key: string;
  label: string;
  value?: string;
  sub?: boolean;
  strong?: boolean;
  large?: boolean;
}

export interface ReceiptContext {
  storeName: string;
  storeAddress?: string;
  /** The store's own lines under its name and address (settings: receipt header), up to 3. */
  headerText?: string;
  /** Replaces the closing "Terima kasih" (settings: receipt footer), up to 3 lines. */
  footerText?: string;
  /** The order's method from the catalogue; undefined when it is no longer there (the id is shown). */
  method: PaymentMethod | undefined;
  /** The store's IANA time zone: every time on the receipt is its wall-clock time. */
  timeZone: string;
  lang: Lang;
  /** A reprint. */
  copy: boolean;
  /** Training mode (the embedded sandbox). A training order is marked SANDBOX even when this is false. */
  training: boolean;
  printedAt: Date;
}

/** A text in each of the receipt's languages. */
export type Text = Record<Lang, string>;

const TEXT = {
  titlePaid: { id: 'STRUK PEMBAYARAN', en: 'PAYMENT RECEIPT' },
  titleOther: { id: 'RINCIAN PESANAN', en: 'ORDER DETAILS' },
  copy: { id: 'SALINAN', en: 'COPY' },
  sandbox: { id: 'SANDBOX — BUKAN TRANSAKSI NYATA', en: 'SANDBOX — NOT A REAL PAYMENT' },
  order: { id: 'No. pesanan', en: 'Order no.' },
  paidAt: { id: 'Dibayar', en: 'Paid at' },
  createdAt: { id: 'Dibuat', en: 'Created' },
  item: { id: 'Barang', en: 'Item' },
  itemId: { id: 'Kode barang', en: 'Item code' },
  method: { id: 'Metode', en: 'Method' },
  va: { id: 'No. VA', en: 'VA number' },
  paymentCode: { id: 'Kode bayar', en: 'Payment code' },
  smsCode: { id: 'Kode SMS', en: 'SMS code' },
  phone: { id: 'No. HP', en: 'Phone' },
  customer: { id: 'Nama', en: 'Name' },
  transaction: { id: 'ID transaksi', en: 'Transaction ID' },
  reason: { id: 'Alasan', en: 'Reason' },
  status: { id: 'Status', en: 'Status' },
  total: { id: 'TOTAL', en: 'TOTAL' },
  notProof: { id: 'Bukan bukti pembayaran.', en: 'This is not a proof of payment.' },
  latePayment: {
    id: 'Pembayaran terlambat tercatat: hubungi manajer.',
    en: 'A late payment was recorded: see the manager.',
  },
  footer: { id: 'Terima kasih', en: 'Thank you' },
  printedAt: { id: 'Dicetak', en: 'Printed' },
} satisfies Record<string, Text>;

/** The receipt's words, shared with the payment slip (slip-model.ts) so both say a thing the same way. */
export const RECEIPT_TEXT: typeof TEXT = TEXT;

/** What each state prints as its status. Only `paid` reads LUNAS/PAID. */
export const RECEIPT_STATUS: Readonly<Record<OrderState, Text>> = {
  paid: { id: 'LUNAS', en: 'PAID' },
  creating: { id: 'BELUM DIBAYAR', en: 'NOT PAID' },
  awaiting_payment: { id: 'BELUM DIBAYAR', en: 'NOT PAID' },
  unknown: { id: 'BELUM DIKONFIRMASI', en: 'NOT CONFIRMED' },
  rejected: { id: 'DITOLAK', en: 'REJECTED' },
  expired: { id: 'KEDALUWARSA', en: 'EXPIRED' },
  cancelled: { id: 'DIBATALKAN', en: 'CANCELLED' },
  failed: { id: 'GAGAL', en: 'FAILED' },
};

/**
 * "23/11/2026 13.30 WIB" (id), "23/11/2026 13:30 WIB" (en): the store's wall-clock time to the minute, with the
 * zone, as the screens write it (common/dates.ts).
 */
export function formatReceiptTime(date: Date, timeZone: string, lang: Lang): string {
  return formatDateTime(date, timeZone, lang);
}

/** A stored UTC ISO time; an unreadable one is shown as it is rather than failing the receipt. */
function showStoredTime(iso: string, timeZone: string, lang: Lang): string {
  return formatDateTime(iso, timeZone, lang);
}

/** Builds the receipt of an order. Pure: the same order and context always give the same receipt. */
export function buildReceipt(order: Order, ctx: ReceiptContext): Receipt {
  const { lang, timeZone } = ctx;
  const t = (text: Text) => text[lang];
  const paid = order.state === 'paid';
  const lines: ReceiptLine[] = [];
  const add = (key: ReceiptLineKey, label: Text, value: string | undefined) => {
    if (value !== undefined && value !== '') lines.push({ key, label: t(label), value });
  };

  add('order', TEXT.order, order.id);
  if (order.paidAt) add('time', TEXT.paidAt, showStoredTime(order.paidAt, timeZone, lang));
  else add('time', TEXT.createdAt, showStoredTime(order.createdAt, timeZone, lang));
  add('item', TEXT.item, order.itemName);
  add('itemId', TEXT.itemId, order.itemId);
  lines.push(...orderPaymentLines(order, ctx.method, lang));
  add('status', TEXT.status, t(RECEIPT_STATUS[order.state]));

  const marks: ReceiptMark[] = [];
  if (ctx.training || order.training) marks.push({ kind: 'sandbox', text: t(TEXT.sandbox) });
  if (ctx.copy) marks.push({ kind: 'copy', text: t(TEXT.copy) });

  const notes: string[] = [];
  if (!paid) notes.push(t(TEXT.notProof));
  if (order.latePayment) notes.push(t(TEXT.latePayment));

  return {
    lang,
    header: receiptHeader(ctx),
    title: t(paid ? TEXT.titlePaid : TEXT.titleOther),
    marks,
    lines,
    paid,
    state: order.state,
    total: { label: t(TEXT.total), amount: order.amount, text: formatRupiah(order.amount) },
    notes,
    footer: ctx.footerText || t(TEXT.footer),
    printedAt: { label: t(TEXT.printedAt), value: formatReceiptTime(ctx.printedAt, timeZone, lang) },
  };
}

/**
 * What the receipt says of an order's payment: the method, the VA or payment code and its customer name, the SMS
 * code, the masked phone, the gateway's transaction id and, for a refused order, the reason. Shared by an order's
 * receipt and a sale's struk (a gateway tender), so both say it the same way.
 */
export function orderPaymentLines(
  order: Pick<
    Order,
    'methodId' | 'kind' | 'instruction' | 'customerName' | 'phone' | 'gatewayTransactionId' | 'state' | 'rejection'
  >,
  method: PaymentMethod | undefined,
  lang: Lang,
): ReceiptLine[] {
  const t = (text: Text) => text[lang];
  const lines: ReceiptLine[] = [];
  const add = (key: ReceiptLineKey, label: Text, value: string | undefined) => {
    if (value !== undefined && value !== '') lines.push({ key, label: t(label), value });
  };
  add('method', TEXT.method, method ? method.label[lang] : order.methodId);

  const ins = order.instruction;
  const spec = kindSpec(order.kind);
  if (ins?.type === 'virtual_account') {
    // The kind says what its code is called; a V1 order's VA answer (no code of its kind's) reads as a VA number.
    const code = spec.code ?? 'va';
    add(code, TEXT[code], ins.va);
    add('customer', TEXT.customer, ins.customer_name ?? order.customerName);
  } else if (order.customerName) {
    add('customer', TEXT.customer, order.customerName);
  }
  if (ins?.type === 'sms_reply') add('smsCode', TEXT.smsCode, ins.sms_code);
  if (spec.phone !== undefined && order.phone) add('phone', TEXT.phone, maskPhone(order.phone));

  const transactionId =
    order.gatewayTransactionId ?? (ins?.type === 'virtual_account' ? ins.transaction_id : undefined);
  add('transaction', TEXT.transaction, transactionId);
  if (order.state === 'rejected' && order.rejection) {
    const { retcode, message } = order.rejection;
    add('reason', TEXT.reason, retcode ? `${message} (${retcode})` : message);
  }
  return lines;
}

/** The store's name, then its address and its own header lines, one per line as the manager typed them. */
export function receiptHeader(
  ctx: Pick<ReceiptContext, 'storeName' | 'storeAddress' | 'headerText'>,
): Receipt['header'] {
  const header: Receipt['header'] = { storeName: ctx.storeName };
  const under = [ctx.storeAddress, ctx.headerText].filter((text): text is string => Boolean(text));
  if (under.length > 0) header.storeAddress = under.join('\n');
  return header;
}

/**
 * A test page for the printer settings: the store's header and footer as a sale would print them, and the
 * width of the paper, so the manager sees at once whether the settings fit.
 */
export function buildTestReceipt(
  ctx: Pick<
    ReceiptContext,
    'storeName' | 'storeAddress' | 'headerText' | 'footerText' | 'lang' | 'timeZone' | 'printedAt'
  >,
): Receipt {
  const t = (text: Text) => text[ctx.lang];
  const test = { id: 'CETAK UJI', en: 'TEST PRINT' };
  const ruler = { id: 'Lebar kertas', en: 'Paper width' };
  return {
    lang: ctx.lang,
    header: receiptHeader(ctx),
    title: t(test),
    marks: [],
    lines: [{ key: 'status', label: t(ruler), value: '1234567890'.repeat(3).slice(0, 24) }],
    paid: false,
    state: 'awaiting_payment',
    total: { label: t(TEXT.total), amount: 0, text: formatRupiah(0) },
    notes: [t({ id: 'Bukan transaksi.', en: 'Not a transaction.' })],
    footer: ctx.footerText || t(TEXT.footer),
    printedAt: { label: t(TEXT.printedAt), value: formatReceiptTime(ctx.printedAt, ctx.timeZone, ctx.lang) },
  };
}
