import { cashTender } from '../cash';
import type { TenderKindSpec } from './kind-spec';

/** Cash handed over: change and the cash rounding line worked out (common/cash.ts), into this till's drawer. */
export const CASH: TenderKindSpec<'cash'> = {
  kind: 'cash',
  step: (due, input, rounding, at) => cashTender(due, input.handed, rounding, at),
  tenderOf: (step) => ({
    kind: 'cash',
    state: 'paid',
    amount: step.applied,
    handed: step.handed,
    change: step.change,
    rounding: step.rounding,
  }),
  paidWhenRecorded: true,
  intoDrawer: true,
  sendsOrder: false,
  refundsOutside: false,
  bookKey: () => 'cash',
};
