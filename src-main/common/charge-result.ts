import type { FieldIssue } from './order-request';
import type { Order } from './order';
import type { FailureClass, RetrySafety } from './order-policy';

/*
 * What a charge answers (createOrder, retryOrder, and chargeSale's failure), apart from the API's gate (api.ts) so
 * that the table of methods (api-table/) and the sale's types (sale.ts) read it without importing the gate.
 */

/** A failure the cashier can act on, in plain data: no raw bodies, no secrets. */
export interface ChargeFailure {
  class: FailureClass;
  /** What the cashier may do next (order-policy.ts): screens show this, they do not work it out. */
  retry: RetrySafety;
  message: string;
  issues?: FieldIssue[];
  retcode?: string;
  httpStatus?: number;
}

export type ChargeResult = { ok: true; order: Order } | { ok: false; order?: Order; failure: ChargeFailure };

/**
 * The sale in progress at this till: the order on the customer display, kept across reloads and restarts,
 * until a new sale starts or the cashier parks it. The cashier's screen comes back to it exactly as it was.
 */
export interface CurrentSale {
  order: Order;
  /** Its receipt was printed (or shown for printing), not as a copy: a paid sale still needing one is not. */
  receiptPrinted: boolean;
}
