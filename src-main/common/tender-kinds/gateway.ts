import { exactTender } from '../cash';
import type { TenderKindSpec } from './kind-spec';

/**
 * A payment through the aggregator: one order of `methodId` (QRIS, an e-wallet, a VA, a store code, airtime) for what
 * it pays, logged `creating` with the sale and sent after; pending until its order is paid. One per sale: one order on
 * the customer display at a time. The aggregator has no refund call: a sale it paid is refunded in cash or outside.
 */
export const GATEWAY: TenderKindSpec<'gateway'> = {
  kind: 'gateway',
  step: (due, input, _rounding, at) =>
    typeof input.methodId !== 'string' || input.methodId.trim() === ''
      ? {
          ok: false,
          issue: { field: `${at}methodId`, rule: 'method', message: `${at}methodId: the payment method's id` },
        }
      : exactTender('gateway', due, input.amount, at),
  tenderOf: (step, input) => ({
    kind: 'gateway',
    state: 'pending',
    methodId: input.methodId,
    amount: step.applied,
    handed: step.handed,
    change: step.change,
    rounding: step.rounding,
  }),
  paidWhenRecorded: false,
  intoDrawer: false,
  sendsOrder: true,
  perSale: {
    max: 1,
    rule: 'one_gateway_tender',
    message: 'tenders: at most one gateway payment per sale (one order on the customer display at a time)',
  },
  refundsOutside: true,
  bookKey: (t) => `gateway:${t.methodId ?? ''}`,
};
