import type { CashIssue, CashRounding, TenderInput, TenderResult, TenderStep } from '../cash';
import type { SaleTender, TenderKind } from '../sale';

/**
 * One kind of tender (docs/tenders.md, "Tender kinds"): how a sale is paid — cash, "other" (a card terminal's slip, a
 * transfer), a gateway payment — and, next, points or an integrated card terminal. Each kind is one module of this
 * folder that says how it plans its part of a sale, what recording it means, how a sale it paid is refunded and how
 * it reads on the struk and in the books; the counter, refunds, receipts and reports ask the registry (index.ts)
 * rather than switching on the kind.
 */
export interface TenderKindSpec<K extends TenderKind = TenderKind> {
  kind: K;
  /**
   * Its step of a sale's tenders against what is still due (`at` prefixes its fields: `tenders[1].`): what it pays,
   * the cash handed and change, the rounding line.
   */
  step(due: number, input: Extract<TenderInput, { kind: K }>, rounding: CashRounding, at: string): TenderResult;
  /** The tender as the sale records it from its step. */
  tenderOf(step: TenderStep, input: Extract<TenderInput, { kind: K }>): Omit<SaleTender, 'no'>;
  /** Paid when it is recorded (cash, a slip), rather than pending until its gateway order is paid. */
  paidWhenRecorded: boolean;
  /** Its money goes into the drawer: the charge needs this till's open shift, moves its cash and opens the drawer. */
  intoDrawer: boolean;
  /** Its charge sends an order to the gateway (logged `creating` with the sale, then sent). */
  sendsOrder: boolean;
  /** At most so many of it in one sale, with the refusal's rule and words. */
  perSale?: { max: number; rule: string; message: string };
  /** A sale it paid part of may be refunded outside Loket (a transfer back, the card terminal's own refund). */
  refundsOutside: boolean;
  /** The books' group of a paid tender: its kind, and for a gateway tender its method. */
  bookKey(tender: Pick<SaleTender, 'kind' | 'methodId'>): string;
}

/** A kind's issue on its own field, as planTenders gives them. */
export type KindIssue = CashIssue;
