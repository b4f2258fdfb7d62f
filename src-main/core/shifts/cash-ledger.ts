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
   */
  record(movement: SaleCashMovement): void;
}

/** A sale's or a refund's cash, as the shift counts it. */
export type SaleCashMovement = Extract<ShiftCashEvent, { type: 'cash_tender' } | { type: 'cash_refund' }> & {
  shiftId: string;
  /** The sale (for a cash tender) or the refund document (for a cash refund). */
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
