import type { ShiftEventView, ShiftReport, ShiftTenderLine, ShiftView } from '../../common/shifts';

/**
 * What the sales' own tables add to a shift's report: the gateway and "other" tenders taken while it was open (by
 * method) and the cash rounding lines of its sales. The drawer's events know only cash; the sale's side (core/sales)
 * knows the rest, and plugs in here. Until it does, a report shows cash alone and rounding 0.
 */
export interface ShiftTenderSource {
  ofShift(shift: ShiftView): { tenders: ShiftTenderLine[]; rounding: number };
}

export const NO_TENDER_SOURCE: ShiftTenderSource = { ofShift: () => ({ tenders: [], rounding: 0 }) };

/**
 * The X report (open shift) or Z report (closed) of `shift` from its events: the cash sales (the cash tenders of the
 * sales not voided: the day report's cash of those sales once completed), every cash tender the drawer took (handed,
 * change, net), the sales voided after they took cash and the cash given back, the cash refunds, each pay-in, pay-out
 * and no sale, then `extra`'s other tenders and rounding; the expected cash is the events' (common/cash.ts,
 * shiftCash), and a closed shift carries its blind count.
 */
export function buildShiftReport(
  shift: ShiftView,
  events: readonly ShiftEventView[],
  extra: { tenders: ShiftTenderLine[]; rounding: number },
): ShiftReport {
  const tenders = events.filter((e) => e.type === 'cash_tender');
  const refunds = events.filter((e) => e.type === 'cash_refund');
  const voids = events.filter((e) => e.type === 'cash_void');
  const voided = new Set(voids.map((e) => e.documentId));
  const sold = tenders.filter((e) => !voided.has(e.documentId));
  const cash = shift.cash;
  const cashLine: ShiftTenderLine = {
    tender: 'cash',
    count: sold.length,
    amount: sold.reduce((a, e) => a + e.amount - e.change, 0),
  };
  return {
    kind: shift.state === 'open' ? 'X' : 'Z',
    shift,
    tenders: [cashLine, ...extra.tenders.filter((t) => t.tender !== 'cash')],
    cashTenders: { count: tenders.length, handed: cash.cashIn, change: cash.change, net: cash.cashSales },
    voided: { count: voided.size, amount: cash.cashVoids },
    refunds: { count: refunds.length, amount: cash.cashRefunds },
    payIns: events.filter((e) => e.type === 'pay_in'),
    payOuts: events.filter((e) => e.type === 'pay_out'),
    noSales: events.filter((e) => e.type === 'no_sale'),
    rounding: extra.rounding,
    expected: cash.expected,
    ...(shift.count ? { count: shift.count } : {}),
  };
}
