import type { AnswerShape } from './answer-shapes';
import { airtime } from './airtime';
import { airtimeSms } from './airtime-sms';
import { ewalletQrRedirect } from './ewallet-qr-redirect';
import { ewalletRedirect } from './ewallet-redirect';
import type { PaymentKindSpec } from './kind-spec';
import { PAYMENT_KINDS, type PaymentKind } from './kind-names';
import { qris } from './qris';
import { vaBank } from './va-bank';
import { vaCstore } from './va-cstore';

/*
 * The registry of payment kinds: a new kind is its module here, its name in PAYMENT_KINDS (kind-names.ts) and its
 * line in REGISTRY, its catalogue entries and its words (docs/architecture.md, "A payment kind"). Every place that
 * differs by kind asks this registry.
 */
export { PAYMENT_KINDS, type PaymentKind } from './kind-names';

/** Each kind's module; the type makes a kind named above without its module (or the reverse) a compile error. */
const REGISTRY: { readonly [K in PaymentKind]: PaymentKindSpec<K> } = {
  qris,
  ewallet_redirect: ewalletRedirect,
  ewallet_qr_redirect: ewalletQrRedirect,
  airtime_sms: airtimeSms,
  airtime,
  va_bank: vaBank,
  va_cstore: vaCstore,
};

/** The specs in the registry's order (PAYMENT_KINDS'). */
const SPECS: readonly PaymentKindSpec<PaymentKind>[] = PAYMENT_KINDS.map((k) => REGISTRY[k]);
const BY_KIND = new Map<string, PaymentKindSpec<PaymentKind>>(SPECS.map((s) => [s.kind, s]));

export function isPaymentKind(value: unknown): value is PaymentKind {
  return typeof value === 'string' && BY_KIND.has(value);
}

/** The spec of a kind; throws for a string that is not one (callers validated it, so that is a bug). */
export function kindSpec(kind: PaymentKind): PaymentKindSpec<PaymentKind> {
  const spec = BY_KIND.get(kind);
  if (!spec) throw new Error(unknownKindMessage('kind', kind));
  return spec;
}

/** The kinds whose spec passes `test`, in the registry's order. */
export function kindsWhere(test: (spec: PaymentKindSpec<PaymentKind>) => boolean): PaymentKind[] {
  return SPECS.filter((s) => test(s)).map((s) => s.kind);
}

/**
 * The answer shapes of a layout, each once, in the order they are tried: the registry's order, with the shapes
 * that take whatever the others did not (`last`) at the end.
 */
export function answerShapes(layout: AnswerShape['layout']): AnswerShape[] {
  const shapes = [...new Set(SPECS.map((s) => s.answer))].filter((a) => a.layout === layout);
  return [...shapes.filter((a) => !a.last), ...shapes.filter((a) => a.last)];
}

/**
 * The kinds with a code paid into later (a VA or a store's payment code), as an SQL list (`'va_bank', 'va_cstore'`)
 * for the exports' va_number column. Kind names are lower-case letters and underscores, so quoting is enough.
 */
export function codeKindsSql(): string {
  return kindsWhere((k) => k.code !== undefined)
    .map((k) => `'${k}'`)
    .join(', ');
}

/** A kind's order refused before it is written: which field, which rule. */
export function unknownKindMessage(field: string, value: unknown): string {
  return `${field}: ${JSON.stringify(value)} is not a payment kind (one of ${PAYMENT_KINDS.join(', ')})`;
}

export { KIND_LABELS, type KindLabelKey, type PaymentKindSpec } from './kind-spec';
export type { KindInstruction } from './answer-shapes';
