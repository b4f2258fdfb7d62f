import { NoOpenShiftError, type CashLedger, type SaleCashMovement } from '../../../src-main/core/shifts/cash-ledger';

/**
 * A cash ledger for the sale's tests (the shift's real one is core/shifts'): a shift is open or not, and every
 * movement recorded is kept in order. It holds no transaction of its own, as the port says.
 */
export class MemoryCashLedger implements CashLedger {
  readonly movements: SaleCashMovement[] = [];
  constructor(public shiftId: string | null = 'SHIFT-1') {}

  openShiftId(): string {
    if (this.shiftId === null) throw new NoOpenShiftError();
    return this.shiftId;
  }

  record(movement: SaleCashMovement): void {
    this.movements.push(movement);
  }

  /** The sale's cash tenders (handed − change) less its voided cash, in the shift of its first tender. */
  cashTakenFor(saleId: string): { shiftId: string; amount: number } | undefined {
    const mine = this.movements.filter((m) => m.documentId === saleId);
    const first = mine.find((m) => m.type === 'cash_tender');
    if (!first) return undefined;
    const amount = mine
      .filter((m) => m.shiftId === first.shiftId)
      .reduce(
        (a, m) => a + (m.type === 'cash_tender' ? m.handed - m.change : m.type === 'cash_void' ? -m.amount : 0),
        0,
      );
    return { shiftId: first.shiftId, amount };
  }
}
