import { cashOutIssue } from '../../common/cash';
import { formatRupiah } from '../../common/money';
import { requireSafeInteger } from '../../common/money-math';
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
 * The shift's side of the cash ledger port (cash-ledger.ts): a sale's cash tender, a refund's cash or a voided sale's
 * cash given back, written as an event of the shift in the caller's transaction. A refund larger than the cash the
 * drawer should hold is refused (common/cash.ts, cashOutIssue), which rolls the refund back with it; a voided sale's
 * cash never is (checkVoid).
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
    if (movement.type === 'cash_void') this.checkVoid(movement);
    else {
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

  cashTakenFor(saleId: string): { shiftId: string; amount: number } | undefined {
    return this.book.cashTakenFor(saleId);
  }

  /**
   * A voided sale's cash goes back out of the shift that took it, which must still be open (a shift cannot close
   * while a sale is being paid), and never more than the sale's cash put in it. The drawer's expected cash is not
   * asked: the cash was just taken, and the customer is owed it.
   */
  private checkVoid(movement: Extract<SaleCashMovement, { type: 'cash_void' }>): void {
    requireSafeInteger('cash_void', 'amount', movement.amount, 1);
    const shift = this.book.get(movement.shiftId);
    if (!shift || shift.state !== 'open')
      throw new NoOpenShiftError(
        `cash: shift ${movement.shiftId}, which took the cash of sale ${movement.documentId}, is ` +
          `${shift ? 'closed' : 'unknown'}: a voided sale's cash goes back out of the shift that took it`,
      );
    const taken = this.book.cashTakenFor(movement.documentId);
    if (!taken || taken.shiftId !== movement.shiftId || movement.amount > taken.amount)
      throw new RangeError(
        `cash_void: sale ${movement.documentId} put ${taken ? formatRupiah(taken.amount) : 'no cash'} in shift ` +
          `${taken?.shiftId ?? movement.shiftId}, so ${formatRupiah(movement.amount)} cannot go back out of ` +
          `${movement.shiftId} (cashTakenFor says what and where)`,
      );
  }
}
