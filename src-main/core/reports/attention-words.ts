import type { Lang } from '../../common/app-info';
import { formatRupiah } from '../../common/money';
import type { Order } from '../../common/order';
import { reason as saying, type Reason } from '../../common/reasons';
import type { PaymentMethod } from '../../common/payment-methods';
import type { AttentionKind } from '../../common/reports';
import type { CallbackIssue, CallbackIssueReason } from './callback-issues';

/**
 * What an attention item says (docs/end-of-day.md, "Attention"): its summary in the store's language (the CLI and the
 * A4 page) and its reason, for a screen to word in its own. Pure words: the queue (attention-queue.ts) finds the
 * items, this names them.
 */

/** The summaries' language, and the methods for their names. */
export interface SummaryOptions {
  lang?: Lang;
  methods?: readonly PaymentMethod[];
}

type Text = Record<Lang, string>;
const say = (lang: Lang, text: Text) => text[lang];

function methodName(order: Order, options: SummaryOptions, lang: Lang): string {
  return options.methods?.find((m) => m.id === order.methodId)?.label[lang] ?? order.methodId;
}

/** The kinds of item that are about an order of this log (a callback problem may not be). */
export type OrderKind = Exclude<AttentionKind, 'callback_problem'>;

/** What the last mismatch note of an order says (OrderService.noteMismatch's payload). */
export interface MismatchNote {
  via: 'inquiry' | 'callback';
  fields: string[];
  reported: Record<string, unknown>;
  applied: boolean;
}

function mismatchSummary(order: Order, note: MismatchNote | undefined, what: string, lang: Lang): string {
  const said = note ? note.fields.map((f) => `${f} ${JSON.stringify(note.reported[f] ?? null)}`).join(', ') : '?';
  const status = String(note?.reported.status ?? '?');
  if (note?.applied)
    return say(lang, {
      en:
        `A signed callback reported ${status} with another ${said} than the order's: applied; ` +
        `check which way the customer paid (${what}).`,
      id:
        `Callback bertanda tangan melaporkan ${status} dengan ${said} yang berbeda dari pesanan: diterapkan; ` +
        `periksa cara pelanggan membayar (${what}).`,
    });
  const via = note?.via === 'callback';
  return say(lang, {
    en:
      `The gateway's ${via ? 'callback' : 'status answer'} does not match the order (${said}): not applied; ` +
      `check the order at the gateway (${what}).`,
    id:
      `Jawaban ${via ? 'callback' : 'status'} gateway tidak cocok dengan pesanan (${said}): tidak diterapkan; ` +
      `periksa pesanan di gateway (${what}).`,
  });
}

export function orderSummary(kind: OrderKind, order: Order, options: SummaryOptions, note?: MismatchNote): string {
  const lang = options.lang ?? 'en';
  const what = `${formatRupiah(order.amount)}, ${methodName(order, options, lang)}`;
  switch (kind) {
    case 'unknown':
      return say(lang, {
        en: `Sent, but its outcome is not known: it may have been charged (${what}).`,
        id: `Terkirim, tetapi hasilnya belum diketahui: mungkin sudah ditagih (${what}).`,
      });
    case 'late_payment':
      return say(lang, {
        en: `Paid after it was ${order.state}: the money is somewhere (${what}).`,
        id: `Dibayar setelah ${STATE_ID[order.state] ?? order.state}: uangnya ada di suatu tempat (${what}).`,
      });
    case 'overdue':
      return say(lang, {
        en: `Still awaiting payment past its deadline: the gateway never said (${what}).`,
        id: `Masih menunggu pembayaran melewati batas waktunya: gateway belum memberi kabar (${what}).`,
      });
    case 'mismatch':
      return mismatchSummary(order, note, what, lang);
  }
}

const STATE_ID: Partial<Record<Order['state'], string>> = {
  cancelled: 'dibatalkan',
  expired: 'kedaluwarsa',
  failed: 'gagal',
  paid: 'lunas',
  awaiting_payment: 'menunggu pembayaran',
  unknown: 'belum diketahui',
  rejected: 'ditolak',
  creating: 'sedang dibuat',
};

export function issueSummary(issue: CallbackIssue, order: Order | undefined, lang: Lang): string {
  const amount = issue.amount === undefined ? '' : ` ${formatRupiah(issue.amount)}`;
  const texts: Record<CallbackIssueReason, Text> = {
    unknown_order: {
      en: `An authentic ${issue.status}${amount} callback for an order this till does not have.`,
      id: `Callback ${issue.status}${amount} yang sah untuk pesanan yang tidak ada di kasir ini.`,
    },
    amount_mismatch: {
      en: `A ${issue.status} callback reports${amount}, but the order is for ${formatRupiah(order?.amount ?? 0)}: not applied.`,
      id: `Callback ${issue.status} melaporkan${amount}, padahal pesanan sebesar ${formatRupiah(order?.amount ?? 0)}: tidak diterapkan.`,
    },
    not_forward: {
      en: `The gateway reported ${issue.status} while the order is ${order?.state ?? '?'}: ignored.`,
      id: `Gateway melaporkan ${issue.status} padahal pesanan ${order ? (STATE_ID[order.state] ?? order.state) : '?'}: diabaikan.`,
    },
  };
  return say(lang, texts[issue.reason]);
}

/** What an order's item is about, as a reason a screen words in its own language. */
export function orderWhat(kind: Exclude<AttentionKind, 'callback_problem'>, order: Order): Reason {
  const of = { amount: order.amount, methodId: order.methodId };
  switch (kind) {
    case 'unknown':
      return saying('attention.item.unknown', of);
    case 'late_payment':
      return saying('attention.item.late_payment', { ...of, state: order.state });
    case 'overdue':
      return saying('attention.item.overdue', of);
    case 'mismatch':
      return saying('attention.item.mismatch', of);
  }
}

export function issueWhat(issue: CallbackIssue, order: Order | undefined): Reason {
  const amount = issue.amount === undefined ? {} : { amount: issue.amount };
  switch (issue.reason) {
    case 'unknown_order':
      return saying('attention.item.unknown_order', { status: issue.status, ...amount });
    case 'amount_mismatch':
      return saying('attention.item.amount_mismatch', {
        status: issue.status,
        ...amount,
        orderAmount: order?.amount ?? 0,
      });
    case 'not_forward':
      return saying('attention.item.not_forward', { status: issue.status, ...(order ? { state: order.state } : {}) });
  }
}
