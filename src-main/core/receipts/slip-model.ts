import { formatRupiah } from '../../common/money';
import type { Order } from '../../common/order';
import { kindSpec } from '../../common/payment-kinds';
import { OrderStateError } from '../../common/order-policy';
import { groupInFours, hasPaymentSlip } from '../../common/payment-instruction';
import {
  formatReceiptTime,
  RECEIPT_TEXT,
  receiptHeader,
  type Receipt,
  type ReceiptContext,
  type ReceiptLine,
  type ReceiptLineKey,
  type ReceiptMark,
  type Text,
} from './receipt-model';

/**
 * The payment slip: what a customer paying by bank virtual account or convenience-store code takes away to an
 * ATM or to an Alfamart or Indomaret — the code (large, in groups of four), the amount, the bank or store, how to
 * pay in a few steps, and the time to pay before in the store's zone. A Receipt, so both renderers print it as they
 * print a receipt; it is never a proof of payment, and printing it again is harmless (no COPY mark).
 * See docs/receipts.md, "The payment slip".
 */

export type SlipContext = Omit<ReceiptContext, 'copy'>;

const SLIP = {
  title: { id: 'SLIP PEMBAYARAN', en: 'PAYMENT SLIP' },
  bank: { id: 'Bank', en: 'Bank' },
  store: { id: 'Bayar di', en: 'Pay at' },
  deadline: { id: 'Batas bayar', en: 'Pay before' },
  amount: { id: 'JUMLAH YANG DIBAYAR', en: 'AMOUNT TO PAY' },
  steps: { id: 'Cara membayar', en: 'How to pay' },
  keep: { id: 'Simpan slip ini sampai pembayaran selesai.', en: 'Keep this slip until you have paid.' },
} satisfies Record<string, Text>;

/** How to pay, step by step, in the slip's language; `deadline` is already formatted (or absent). */
function slipSteps(code: 'va' | 'paymentCode', provider: string, amount: string, deadline?: string): Text[] {
  // The time stays on one line wherever the step wraps (a printer reads the no-break characters as - and space).
  const when = deadline?.replace(/-/g, '\u2011').replace(/ /g, '\u00a0');
  const pay: Text = when
    ? { id: `Bayar ${amount} sebelum ${when}.`, en: `Pay ${amount} before ${when}.` }
    : { id: `Bayar ${amount}.`, en: `Pay ${amount}.` };
  if (code === 'paymentCode') {
    return [
      { id: `Datang ke kasir ${provider} mana saja.`, en: `Go to the cashier at any ${provider}.` },
      {
        id: 'Katakan ingin membayar dengan kode bayar, lalu tunjukkan kode di atas.',
        en: 'Say you want to pay with a payment code, and show the code above.',
      },
      pay,
      { id: `Simpan struk dari ${provider}.`, en: `Keep the receipt ${provider} gives you.` },
    ];
  }
  return [
    {
      id: `Buka ATM, m-banking atau internet banking ${provider}.`,
      en: `Use a ${provider} ATM, or ${provider} mobile or internet banking.`,
    },
    { id: 'Pilih menu Transfer, lalu Virtual Account.', en: 'Choose Transfer, then Virtual Account.' },
    {
      id: 'Masukkan nomor VA di atas, lalu periksa nama dan jumlahnya.',
      en: 'Enter the VA number above; check the name and the amount.',
    },
    pay,
    { id: 'Simpan bukti transfer.', en: 'Keep the transfer receipt.' },
  ];
}

/**
 * Builds the payment slip of an order waiting for payment by virtual account or store code. Pure: the same order
 * and context always give the same slip. Throws OrderStateError for any other order (its code is then useless or
 * misleading: an expired VA must not be paid into).
 */
export function buildPaymentSlip(order: Order, ctx: SlipContext): Receipt {
  const ins = order.instruction;
  if (!hasPaymentSlip(order) || ins?.type !== 'virtual_account') {
    throw new OrderStateError(
      order.id,
      order.state,
      'a payment slip is printed only for a virtual account or store code that is waiting for payment',
    );
  }
  const { lang, timeZone } = ctx;
  const t = (text: Text) => text[lang];
  // The kind's code: a store's payment code is shown at its cashier, a VA is paid into from the bank.
  const code = kindSpec(order.kind).code ?? 'va';
  const store = code === 'paymentCode';
  const provider = ctx.method?.provider ?? order.methodId;
  const amount = formatRupiah(order.amount);
  const expires = order.expiresAt ? new Date(order.expiresAt) : undefined;
  const deadline = expires && !Number.isNaN(expires.getTime()) ? formatReceiptTime(expires, timeZone, lang) : undefined;

  const lines: ReceiptLine[] = [];
  const add = (key: ReceiptLineKey, label: Text, value: string | undefined) => {
    if (value !== undefined && value !== '') lines.push({ key, label: t(label), value });
  };
  add('provider', store ? SLIP.store : SLIP.bank, provider);
  add('customer', RECEIPT_TEXT.customer, ins.customer_name ?? order.customerName);
  add('deadline', SLIP.deadline, deadline);
  add('item', RECEIPT_TEXT.item, order.itemName);
  add('order', RECEIPT_TEXT.order, order.id);

  const marks: ReceiptMark[] = [];
  if (ctx.training || order.training) marks.push({ kind: 'sandbox', text: t(RECEIPT_TEXT.sandbox) });

  return {
    lang,
    header: receiptHeader(ctx),
    title: t(SLIP.title),
    marks,
    lines,
    paid: false,
    state: order.state,
    total: { label: t(SLIP.amount), amount: order.amount, text: amount },
    notes: [t(RECEIPT_TEXT.notProof), t(SLIP.keep)],
    footer: ctx.footerText || t(RECEIPT_TEXT.footer),
    printedAt: { label: t(RECEIPT_TEXT.printedAt), value: formatReceiptTime(ctx.printedAt, timeZone, lang) },
    code: { label: t(store ? RECEIPT_TEXT.paymentCode : RECEIPT_TEXT.va), text: groupInFours(ins.va) },
    steps: {
      title: t(SLIP.steps),
      items: slipSteps(code, provider, amount, deadline).map(t),
    },
  };
}
