import { z } from 'zod';
import type { PrintResult, ReceiptView } from '../print-result';
import type { ShiftCloseResult, ShiftReport, TillShift, TillShiftChange } from '../shifts';
import { CASHIER, returns, type ApiRow } from './row';
import { managerPin, session } from './shared-args';

/** Amounts and reasons of a shift are checked by its rules (common/cash.ts), which name the field and the rule. */
const shiftRef = z.object({ shiftId: z.string().min(1).max(64).optional() }).strict();
/** Anyone at the till, with a manager's session token or null first: the service says which answers need it. */
const TILL_OR_MANAGER = ['cashier', 'manager'] as const;

/**
 * This till's shift and its drawer (docs/tenders.md, "Shifts"): the cashier's, a manager's PIN where it is needed.
 */
export const SHIFT_METHODS = {
  currentShift: {
    access: CASHIER,
    args: z.tuple([]),
    result: returns<TillShift | null>(),
  },
  openShift: {
    access: CASHIER,
    args: z.tuple([z.object({ float: z.number() }).strict()]),
    result: returns<TillShiftChange>(),
  },
  shiftMovement: {
    access: CASHIER,
    args: z.tuple([
      z
        .object({
          type: z.enum(['pay_in', 'pay_out']),
          amount: z.number(),
          reason: z.string().max(1000),
          managerPin: managerPin.optional(),
        })
        .strict(),
    ]),
    result: returns<TillShiftChange>(),
  },
  /** The blind count, as one total or by denomination: the answer is the first to say what was expected. */
  closeShift: {
    access: CASHIER,
    args: z.tuple([
      z.union([
        z.object({ counted: z.number() }).strict(),
        z.object({ denominations: z.record(z.string().max(20), z.number()) }).strict(),
      ]),
    ]),
    result: returns<ShiftCloseResult>(),
  },
  // The X report (an open shift's) shows the cash the drawer should hold: only with a manager's session, its token
  // first. A closed shift's Z report is the cashier's too (null for the token): the close's answer told them all of it.
  shiftReport: {
    access: TILL_OR_MANAGER,
    args: z.tuple([session.nullable(), shiftRef]),
    result: returns<ShiftReport>(),
  },
  shiftReportHtml: {
    access: TILL_OR_MANAGER,
    args: z.tuple([session.nullable(), shiftRef]),
    result: returns<ReceiptView>(),
  },
  noSale: {
    access: CASHIER,
    args: z.tuple([z.object({ reason: z.string().max(1000), managerPin }).strict()]),
    result: returns<TillShiftChange>(),
  },
  printShiftReport: {
    access: TILL_OR_MANAGER,
    args: z.tuple([session.nullable(), shiftRef]),
    result: returns<PrintResult>(),
  },
} as const satisfies Record<string, ApiRow>;
