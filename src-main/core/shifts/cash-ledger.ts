import type { ShiftCashEvent } from '../../common/cash';

/**
 * Where a sale's cash meets the drawer's shift (docs/tenders.md). The sale's side (core/sales) records a cash tender
 * or a cash refund through this port, inside its own SQLite transaction, so the tender and its shift movement are
 * written together or not at all; the shift's side (core/shifts) implements it over its tables and rebuilds a shift's
 * figures from these movements (common/cash.ts, shiftCash).
 */
export interface CashLedger {
  /**
   * The id of this terminal's open shift. Throws NoOpenShiftError when none is open: no cash changes hands without
   * a shift to count it against.
   */
  openShiftId(): string;
  /**
   * Records a cash movement of a sale or a refund in the open shift; called inside the caller's transaction (the
   * ledger never opens one of its own), so it commits or rolls back with the tender.
   *
   * `cash_void` is the cash given back when a sale that took it is voided (a split sale whose gateway part failed):
   * `shiftId` is the shift that took the cash (`cashTakenFor`), which is still open — it cannot close while the sale
   * is being paid — and `amount` at most what the sale's cash put in it. It is never refused for a drawer that looks
   * short: the cash was just taken. It is no refund, and the X/Z report counts the sale as neither a sale nor a refund.
   */
  record(movement: SaleCashMovement): void;
  /**
   * The shift a sale's cash tenders went into and the net cash they put in the drawer (handed − change, less what a
   * `cash_void` of the sale already gave back); undefined when no cash tender of the sale is in any shift.
   */
  cashTakenFor(saleId: string): { shiftId: string; amount: number } | undefined;
}

/** A sale's or a refund's cash, as the shift counts it. */
export type SaleCashMovement = Extract<
  ShiftCashEvent,
  { type: 'cash_tender' } | { type: 'cash_refund' } | { type: 'cash_void' }
> & {
  shiftId: string;
  /** The sale (for a cash tender and a voided sale's cash) or the refund document (for a cash refund). */
  documentId: string;
  /** UTC ISO time from the injected clock. */
  at: string;
  staffId: number | null;
};

/** No shift is open on this terminal: a cash tender or refund is refused, naming what to do. */
export class NoOpenShiftError extends Error {
  readonly rule = 'no_open_shift';
  constructor(message = 'cash: no shift is open on this till: open a shift with its float first') {
    super(message);
    this.name = 'NoOpenShiftError';
  }
}
