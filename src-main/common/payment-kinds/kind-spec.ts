import type { OrderRequest } from '../order-request';
import type { PaymentMethod } from '../payment-method-fields';
import { RETCODE } from '../retcodes';
import type { AnswerShape } from './answer-shapes';

/*
 * What is specific to a payment kind, in one place (docs/architecture.md, "A payment kind"): how the gateway's
 * answer reads, what the sandbox answers and shows, what receipts and screens say of it (as keys: the words stay
 * in i18n and in the receipts' bilingual texts). One module per kind under payment-kinds/, listed in index.ts.
 * Pure TypeScript with no Node import: the renderer reads the registry too.
 */

/**
 * The keys of the kinds' names on screens (`kinds` in src-renderer/src/i18n/en.ts and id.ts), in the order the
 * method picker shows its groups. Kinds may share one (both e-wallet kinds are "E-wallet").
 */
export const KIND_LABELS = ['qris', 'ewallet', 'va_bank', 'va_cstore', 'airtime'] as const;
export type KindLabelKey = (typeof KIND_LABELS)[number];

/** Everything the sandbox hands the payer, whichever of it a V2 answer shows for the method's kind. */
export interface SandboxPayment {
  qrString?: string;
  qrisUrl?: string;
  redirect?: string;
  back_url?: string;
  va?: string;
  payment_url?: string;
  keyword?: string;
  sms_code?: string;
  short_code?: string;
  trx_type?: string;
  phone_number?: string;
}

/** What the sandbox makes up for a new order; the kind picks what it needs (pure: the sandbox supplies the randomness). */
export interface SandboxPaymentContext {
  method: PaymentMethod;
  request: Pick<OrderRequest, 'redirect_url' | 'user_mdn'>;
  /** The hosted payment page of this order. */
  pageUrl: string;
  /** The QR image's address. */
  qrisUrl: string;
  /** A fresh QRIS payload for this order. */
  qrString(): string;
  /** A VA number or store code with the method's prefix, unique in the sandbox. */
  newVirtualAccount(): string;
  /** The SMS keyword and code (and short code, for a method with one). */
  smsDetails(): Pick<SandboxPayment, 'keyword' | 'sms_code' | 'trx_type' | 'short_code'>;
}

/** A sandbox order as a kind's answer and page read it (sandbox/orders.ts SandboxOrder fits). */
export interface SandboxKindOrder {
  request: OrderRequest;
  method: PaymentMethod;
  payment: SandboxPayment;
  transactionId: string;
  expiresAt: Date;
}

/** The page's helpers: HTML escaping, the QR as SVG (empty when there is none), digits in groups of four. */
export interface SandboxPageContext {
  esc(text: string): string;
  qrSvg: string;
  groupDigits(digits: string): string;
}

export const SANDBOX_CREATED_MESSAGE = 'Transaction created successfully';
/** The success envelope, in the key order the interface's examples use around each kind's fields. */
export const SANDBOX_OK = { message: SANDBOX_CREATED_MESSAGE, retcode: RETCODE.OK, success: true } as const;

export interface PaymentKindSpec<K extends string = string> {
  /** The catalogue's `kind` and the `orders.kind` column's value. */
  readonly kind: K;
  /** Its name on screens (an i18n key) and its group in the method picker. */
  readonly label: KindLabelKey;
  /** How the gateway's V2 success answer for it reads (a shared shape or its own). */
  readonly answer: AnswerShape;
  /** How long an order lives when the gateway does not say (the sandbox's default lifetime too). */
  readonly lifetimeSeconds: number;
  /**
   * A code the customer pays into later, away from the till: `va` (a bank virtual account) or `paymentCode` (a
   * store's payment code). It gives the receipt's line, the payment slip and its steps, the export's va_number,
   * and the warning that cancelling does not stop the code being paid.
   */
  readonly code?: 'va' | 'paymentCode';
  /**
   * The customer's phone: `sms_reply` (the SMS to reply to goes to it, asked for unless the method has a short
   * code) or `charged` (carrier billing charges it). Either way the receipt shows it masked.
   */
  readonly phone?: 'sms_reply' | 'charged';
  /** Catalogue fields only this kind may set. */
  readonly catalogue?: { readonly shortCode?: boolean; readonly customerName?: boolean };
  readonly sandbox: {
    /** What the sandbox hands the payer for a new order. */
    payment(ctx: SandboxPaymentContext): SandboxPayment;
    /** The V2 success body, with exactly the fields of the interface's answer table, in its order. */
    answer(order: SandboxKindOrder, timeZone: string): Record<string, unknown>;
    /** The hosted payment page's instructions (HTML). */
    page(order: SandboxKindOrder, ctx: SandboxPageContext): string;
  };
}

/** Checks a kind module against the spec while keeping its literal `kind` (so PaymentKind is a union of them). */
export function defineKind<const K extends string>(spec: PaymentKindSpec<K>): PaymentKindSpec<K> {
  return spec;
}
