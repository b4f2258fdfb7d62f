import type { ApiHandlers, PrintResult, ReceiptView, ShiftApiMethod } from '../../common/api';
import type { ShiftChangeResult, ShiftReport, ShiftView, TillShift, TillShiftChange } from '../../common/shifts';
import type { AuditActor } from '../audit/audit-log';
import type { ReportDoc } from '../reports/report-model';
import type { ShiftService } from './shift-service';

export interface ShiftApiOptions {
  /** Who acts at the till now: the member of staff signed in, else the till itself. */
  actor(): AuditActor;
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

  shiftReport: ApiHandlers['shiftReport'] = ({ shiftId }) => this.service.report(shiftId);

  shiftReportHtml: ApiHandlers['shiftReportHtml'] = ({ shiftId }): ReceiptView => ({
    html: this.o.html(this.o.doc(this.service.report(shiftId))),
  });

  noSale: ApiHandlers['noSale'] = async (input) => blindChange(await this.service.noSale(input, this.o.actor()));

  printShiftReport: ApiHandlers['printShiftReport'] = ({ shiftId }) =>
    this.o.print(this.o.doc(this.service.report(shiftId)));
}

/** The shift without what the drawer should hold: the cashier sees that only in the answer to the count. */
function blind(shift: ShiftView): TillShift {
  const { cash: _cash, ...rest } = shift;
  return rest;
}

function blindChange(change: ShiftChangeResult): TillShiftChange {
  return { ...change, shift: blind(change.shift) };
}
