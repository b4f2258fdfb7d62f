import type { DrawerResult } from './shifts';
import type { LineLeft } from './refund';

/**
 * The refund document as the API and the command line carry it (docs/tenders.md, "Refunds"): what is left to refund
 * of a sale, the request, and the stored refund. The rules (what a refund gives back) are refund.ts's; the storage is
 * core/sales/refund-store.ts.
 */

/** How the money went back: from the drawer (needs the till's open shift), or outside Loket (a digital tender). */
export const REFUND_HOWS = ['cash', 'outside'] as const;
export type RefundHow = (typeof REFUND_HOWS)[number];

export interface RefundSaleInput {
  saleId: string;
  /** Lines and quantities; absent: the whole sale (everything not refunded yet). */
  lines?: { lineId: string; qty: number }[] | undefined;
  reason: string;
  how: RefundHow;
  /** The manager who allows it (at the till); the command line's account approves at the command line. */
  managerPin?: { staffId: number; pin: string } | undefined;
}

/** A field that breaks a rule: `lines[0].qty` `qty`, `reason` `reason`, `how` `no_open_shift`, `managerPin` `wrong_pin`. */
export interface RefundFieldIssue {
  field: string;
  rule: string;
  message: string;
  /** The numbers of the rule (`left`, `asked`, `position`), for a screen to word it. */
  params?: Record<string, number | string> | undefined;
}

export interface RefundLineView {
  /** The refund's own line number, from 1. */
  lineNo: number;
  /** The sale's line it gives back (its number on the sale's struk). */
  saleLineNo: number;
  lineId: string;
  name: string;
  qty: number;
  amount: number;
}

export interface RefundView {
  id: string;
  saleId: string;
  terminalId: string;
  training: boolean;
  how: RefundHow;
  /** Outside Loket: the gateway method of the sale it was paid by (absent: an "other" tender or none). */
  methodId?: string;
  /** The shift whose drawer paid a cash refund. */
  shiftId?: string;
  reason: string;
  lines: RefundLineView[];
  /** Σ of the lines' amounts (their shares of the sale's total). */
  amount: number;
  /** The refund's share of the sale's cash rounding: money = amount + rounding. */
  rounding: number;
  money: number;
  /** A cash refund rounded down to Rp100: paidBack = money + cashRounding. */
  cashRounding: number;
  /** What went back to the customer. */
  paidBack: number;
  /** The tax given back: amount = net + ppn + pbjt + service. */
  tax: { net: number; dpp: number; ppn: number; pbjt: number; service: number };
  /** Nothing of the sale is left to refund after this one. */
  complete: boolean;
  staffId?: number;
  staffName?: string;
  approvedBy: { staffId?: number; name: string };
  createdAt: string;
}

export interface RefundableLine extends LineLeft {
  name: string;
  unitPrice: number;
}

/** What is left to refund of a sale, and its refunds so far. */
export interface RefundableView {
  saleId: string;
  saleState: string;
  /** Only a completed sale is refunded (one still being paid is voided). */
  refundable: boolean;
  total: number;
  /** What was paid: the total plus the cash rounding line. */
  paid: number;
  lines: RefundableLine[];
  amountRefunded: number;
  moneyRefunded: number;
  moneyLeft: number;
  /** How its money may go back: cash always (with a shift open); outside when a digital or other tender paid it. */
  hows: RefundHow[];
  /** Cash when cash paid part of it, else outside. */
  defaultHow: RefundHow;
  refunds: RefundView[];
}

export type RefundSaleResult =
  | {
      ok: true;
      refund: RefundView;
      refundable: RefundableView;
      /** A cash refund: whether the drawer opened for it (the refund is written whatever the drawer does). */
      drawer?: DrawerResult;
    }
  | { ok: false; issues: RefundFieldIssue[] };
