import type { ApiHandlers, PrintResult, ReceiptView, ShiftApiMethod } from '../../common/api';
import type { ShiftChangeResult, ShiftReport, ShiftView, TillShift, TillShiftChange } from '../../common/shifts';
import type { AuditActor } from '../audit/audit-log';
import type { ReportDoc } from '../reports/report-model';
import { ManagerLockedError } from '../staff/errors';
import type { ShiftService } from './shift-service';

export interface ShiftApiOptions {
  /** Who acts at the till now: the member of staff signed in, else the till itself. */
  actor(): AuditActor;
  /** A live manager's session, or ManagerLockedError (AccessControl.requireManager). */
  requireManager(token: unknown): unknown;
  /** The report as the day report's model (shift-report-doc.ts), in the store's language. */
  doc(report: ShiftReport): ReportDoc;
  html(doc: ReportDoc): string;
  /** Prints on the receipt printer (ESC/POS) or the OS printer (the A4 page), as the day's report does. */
  print(doc: ReportDoc): Promise<PrintResult>;
}

/** The shift's API methods (common/api.ts, SHIFT_API_METHODS) over the ShiftService of the order log in use. */
export class ShiftApi implements Pick<ApiHandlers, ShiftApiMethod> {
  constructor(
    readonly service: ShiftService,
    private readonly o: ShiftApiOptions,
  ) {}

  currentShift: ApiHandlers['currentShift'] = () => {
    const open = this.service.current();
    return open && blind(open);
  };

  openShift: ApiHandlers['openShift'] = async (input) => blindChange(await this.service.open(input, this.o.actor()));

  shiftMovement: ApiHandlers['shiftMovement'] = async (input) =>
    blindChange(await this.service.movement(input, this.o.actor()));

  closeShift: ApiHandlers['closeShift'] = (input) => this.service.close(input, this.o.actor());

  shiftReport: ApiHandlers['shiftReport'] = (token, { shiftId }) => this.reportFor(token, shiftId);

  shiftReportHtml: ApiHandlers['shiftReportHtml'] = (token, { shiftId }): ReceiptView => ({
    html: this.o.html(this.o.doc(this.reportFor(token, shiftId))),
  });

  noSale: ApiHandlers['noSale'] = async (input) => blindChange(await this.service.noSale(input, this.o.actor()));

  printShiftReport: ApiHandlers['printShiftReport'] = (token, { shiftId }) =>
    this.o.print(this.o.doc(this.reportFor(token, shiftId)));

  /**
   * A shift's report for this caller. An open shift's (X) shows what the drawer should hold, which the cashier must
   * not know before the blind count: it needs a manager's session. A closed shift's (Z) says nothing the close's
   * answer has not already said to whoever counted, so anyone at the till may read and print it (null for a token).
   */
  private reportFor(token: string | null, shiftId: string | undefined): ShiftReport {
    const report = this.service.report(shiftId);
    if (report.kind === 'X') {
      if (token === null)
        throw new ManagerLockedError(
          "the X report shows the cash the drawer should hold: it needs a manager's session (a manager unlocks the " +
            "manager's screens with their PIN)",
        );
      this.o.requireManager(token);
    }
    return report;
  }
}

/** The shift without what the drawer should hold: the cashier sees that only in the answer to the count. */
function blind(shift: ShiftView): TillShift {
  const { cash: _cash, ...rest } = shift;
  return rest;
}

function blindChange(change: ShiftChangeResult): TillShiftChange {
  return { ...change, shift: blind(change.shift) };
}
