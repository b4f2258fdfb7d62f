import type { CashRule, CountDifference, DenominationId, ShiftCash } from './cash';
import type { OrderState } from './order';
import type { Reason } from './reasons';

/**
 * A shift at one till, as the API, the CLI and the reports see it (docs/tenders.md, "Shifts"). The drawer's figures
 * are always rebuilt from the shift's events (common/cash.ts, shiftCash); the stored count and difference are the
 * close's, written once.
 */

export const SHIFT_EVENT_TYPES = [
  'float',
  'cash_tender',
  'cash_refund',
  /** Cash given back to the customer when a sale that took it is voided (a split sale whose QRIS part failed). */
  'cash_void',
  'pay_in',
  'pay_out',
  'no_sale',
  'close',
] as const;
export type ShiftEventType = (typeof SHIFT_EVENT_TYPES)[number];

export interface ShiftPerson {
  staffId?: number;
  name: string;
}

export interface ShiftEventView {
  seq: number;
  at: string;
  type: ShiftEventType;
  /** The float, a pay-in or pay-out, a cash refund, a voided sale's cash; for a cash tender the cash handed over. */
  amount: number;
  /** A cash tender's change given back. */
  change: number;
  /** The sale of a cash tender or of a voided sale's cash given back, the refund document of a cash refund. */
  documentId?: string;
  reason?: string;
  by?: ShiftPerson;
  /** The manager whose PIN allowed it (a pay-out over the limit, a no sale). */
  approvedBy?: ShiftPerson;
}

export interface ShiftCount extends CountDifference {
  /** The count by denomination, when the cashier counted so. */
  byDenomination?: Partial<Record<DenominationId, number>>;
}

export interface ShiftView {
  id: string;
  terminalId: string;
  /** The store day it opened on (in timeZone): a shift past midnight stays that day's. */
  businessDay: string;
  timeZone: string;
  state: 'open' | 'closed';
  openedAt: string;
  openedBy: ShiftPerson;
  float: number;
  closedAt?: string;
  closedBy?: ShiftPerson;
  /** The drawer's figures, from the events. */
  cash: ShiftCash;
  /** The blind count and its difference, once closed. */
  count?: ShiftCount;
}

/**
 * The shift as the cashier's screen gets it: without its cash figures, so that what the drawer should hold is not seen
 * before the blind count (the close's answer is the first to say it; the X report is the manager's print).
 */
export type TillShift = Omit<ShiftView, 'cash'>;

/** What the cashier's screen gets for a change of the shift. */
export interface TillShiftChange {
  shift: TillShift;
  event: ShiftEventView;
  drawer: DrawerResult;
}

/** What a tender brought in during the shift: cash from the drawer's events, the rest from the sales' tenders. */
export interface ShiftTenderLine {
  tender: 'cash' | 'gateway' | 'other';
  /** A gateway tender's payment method. */
  methodId?: string;
  count: number;
  amount: number;
}

/** The X report (the shift still open) or the Z report (at its close). */
export interface ShiftReport {
  kind: 'X' | 'Z';
  shift: ShiftView;
  /**
   * Sales by tender: cash first — the cash tenders of the shift's sales that were not voided (handed − change), which
   * is the day report's cash of those sales once they completed — then what the sales' tenders add.
   */
  tenders: ShiftTenderLine[];
  /** Every cash tender the drawer took, voided sales' too: what came in, the change, and handed − change. */
  cashTenders: { count: number; handed: number; change: number; net: number };
  /** Sales voided after they took cash: how many, and the cash given back (it came in and went out; not a refund). */
  voided: { count: number; amount: number };
  refunds: { count: number; amount: number };
  payIns: ShiftEventView[];
  payOuts: ShiftEventView[];
  noSales: ShiftEventView[];
  /** The cash rounding lines of the shift's sales (negative: rounded down). */
  rounding: number;
  expected: number;
  /** Z only: the blind count and the difference. */
  count?: ShiftCount;
}

/** What the drawer did when it was to open: never a reason to block a sale or lose an event. */
export interface DrawerResult {
  ok: boolean;
  /** Plain words (English: the CLI and the log). */
  message: string;
  reason: Reason;
}

/** The answer to closing a shift: only now is the expected cash revealed. */
export interface ShiftCloseResult extends CountDifference {
  shift: ShiftView;
  report: ShiftReport;
  drawer: DrawerResult;
}

export interface ShiftChangeResult {
  shift: ShiftView;
  event: ShiftEventView;
  drawer: DrawerResult;
}

/** A field of a shift's input that breaks a rule: the field and the rule (common/cash.ts's CashIssue). */
export interface ShiftFieldIssue {
  field: string;
  rule: CashRule | 'pin';
  message: string;
  /** An amount's rule: its range. */
  params?: { min: number; max: number };
}

/**
 * A sale of this till still being paid (`tendering`): a shift cannot close under it (its cash is the shift's, and so
 * is any cash to give back should it be voided). Named as its struk is, with its gateway order still waiting.
 */
export interface SaleBeingPaid {
  saleId: string;
  /** The struk's number: `T01-000042`. */
  serial: string;
  total: number;
  /** When it was rung up (UTC ISO). */
  since: string;
  /** Its gateway part still waiting: the order, its payment method and the order's state (unknown: a manager's). */
  orderId?: string;
  methodId?: string;
  orderState?: OrderState;
}
