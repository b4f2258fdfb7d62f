import { cashOutIssue } from '../../common/cash';
import type { ShiftPerson } from '../../common/shifts';
import { NoOpenShiftError, type CashLedger, type SaleCashMovement } from './cash-ledger';
import type { DrawerCause } from './drawer';
import { invalidShiftInput } from './errors';
import type { ShiftBook } from './shift-book';

/** Called outside a transaction: a cash movement is written in its tender's transaction, never on its own. */
export class LedgerOutsideTransactionError extends Error {
  constructor() {
    super('CashLedger.record is called inside the transaction that writes the tender or the refund, and none is open');
    this.name = 'LedgerOutsideTransactionError';
  }
}

export interface ShiftLedgerOptions {
  /** This till's terminal id now. */
  terminalId: () => string;
  /** A member of staff's name, to keep with the event (undefined: not known here). */
  staffName?: (staffId: number) => string | undefined;
  /**
   * Called once the movement's transaction has ended, only when it committed (the event is in the log): the drawer
   * opens for the cash. Never called for a rolled-back tender.
   */
  committed?: (cause: DrawerCause, seq: number) => void;
  /** When "after the transaction" is: the next turn of the event loop by default (a transaction never spans one). */
  defer?: (fn: () => void) => void;
}

/**
 * The shift's side of the cash ledger port (cash-ledger.ts): a sale's cash tender or a refund's cash, written as an
 * event of the open shift in the caller's transaction. A refund larger than the cash the drawer should hold is
 * refused (common/cash.ts, cashOutIssue), which rolls the refund back with it.
 */
export class ShiftLedger implements CashLedger {
  constructor(
    private readonly book: ShiftBook,
    private readonly options: ShiftLedgerOptions,
  ) {}

  openShiftId(): string {
    const open = this.book.current(this.options.terminalId());
    if (!open) throw new NoOpenShiftError();
    return open.id;
  }

  record(movement: SaleCashMovement): void {
    if (!this.book.db.inTransaction) throw new LedgerOutsideTransactionError();
    const open = this.book.current(this.options.terminalId());
    if (!open || open.id !== movement.shiftId)
      throw new NoOpenShiftError(
        open
          ? `cash: shift ${movement.shiftId} is not this till's open shift (${open.id} is): read openShiftId() again`
          : undefined,
      );
    if (movement.type === 'cash_refund') {
      const issue = cashOutIssue(movement.amount, open.cash.expected);
      if (issue) throw invalidShiftInput([issue]);
    }
    const name = movement.staffId === null ? undefined : this.options.staffName?.(movement.staffId);
    const by: ShiftPerson | null =
      movement.staffId === null ? null : { staffId: movement.staffId, name: name ?? `staff ${movement.staffId}` };
    const event = this.book.append(movement.shiftId, {
      type: movement.type,
      at: movement.at,
      amount: movement.type === 'cash_tender' ? movement.handed : movement.amount,
      change: movement.type === 'cash_tender' ? movement.change : 0,
      documentId: movement.documentId,
      by,
    });
    const committed = this.options.committed;
    if (committed) {
      const defer = this.options.defer ?? ((fn) => void setImmediate(fn));
      defer(() => {
        // A log closed meanwhile (Loket stopping): the drawer stays shut, the cash is written.
        if (this.book.db.open && this.book.hasEvent(event.seq)) committed(movement.type, event.seq);
      });
    }
  }
}
