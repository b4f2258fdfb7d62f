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
}
