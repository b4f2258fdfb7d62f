import { checkReference, exactTender } from '../cash';
import type { TenderKindSpec } from './kind-spec';

/**
 * A payment taken outside Loket and recorded with its reference: a card terminal's slip or a bank transfer. Exact (no
 * change), at most what is still due; paid when recorded; refunded in cash or outside Loket (the terminal's refund).
 */
export const OTHER: TenderKindSpec<'other'> = {
  kind: 'other',
  step: (due, input, _rounding, at) => {
    const ref = checkReference(input.reference, at);
    return ref.ok ? exactTender('other', due, input.amount, at) : { ok: false, issue: ref.issue };
  },
  tenderOf: (step, input) => ({
    kind: 'other',
    state: 'paid',
    reference: input.reference.trim(),
    amount: step.applied,
    handed: step.handed,
    change: step.change,
    rounding: step.rounding,
  }),
  paidWhenRecorded: true,
  intoDrawer: false,
  sendsOrder: false,
  refundsOutside: true,
  bookKey: () => 'other',
};
