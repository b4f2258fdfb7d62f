import type { Lang } from '../../../src-main/common/app-info';
import { formatDateTime, formatDay } from '../../../src-main/common/dates';
import { formatRupiah } from '../../../src-main/common/money';
import type { PaymentMethod } from '../../../src-main/common/payment-methods';
import type { Reason } from '../../../src-main/common/reasons';
import type { Messages } from '../i18n/i18n.svelte';
import type { Say } from '../i18n/reason-words';

/** Where the words of a reason are read: the screen's language, the store's zone, the methods in effect. */
export interface SayContext {
  lang: Lang;
  /** The store's zone, for times (UTC when not known). */
  timeZone?: string;
  /** The payment methods, for their names in the screen's language (their ids otherwise). */
  methods?: readonly PaymentMethod[];
}

/** The formatters a reason's words use, in the screen's language. */
export function sayIn(t: Messages, ctx: SayContext): Say {
  const { lang } = ctx;
  const or = lang === 'id' ? 'atau' : 'or';
  return {
    rupiah: formatRupiah,
    state: (state) => t.states[state].toLocaleLowerCase(lang),
    method: (id) => ctx.methods?.find((m) => m.id === id)?.label[lang] ?? id,
    time: (iso) => formatDateTime(iso, ctx.timeZone ?? 'UTC', lang),
    day: formatDay,
    either: (items) =>
      items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${or} ${items.at(-1)}`,
  };
}

/**
 * A reason the server gave (src-main/common/reasons.ts), in the screen's language: the words are the screen's
 * own, the parameters the server's. Never the server's English.
 */
export function sayReason(reason: Reason, t: Messages, ctx: SayContext): string {
  const words = t.reasons[reason.key] as (params: Reason['params'], say: Say) => string;
  return words(reason.params, sayIn(t, ctx));
}
