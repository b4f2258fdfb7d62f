import type { dayCashId } from './day-cash-id';

/** The day screen's shifts and refunds (components/manager/books/DayCash.svelte), in English. */
export const dayCashEn: typeof dayCashId = {
  shiftsTitle: 'Shifts and the cash drawer',
  shiftsNone: 'No shift was opened on this day.',
  shift: 'Shift',
  openedBy: 'Opened by',
  nobody: 'the till (nobody signed in)',
  float: 'Float',
  expected: 'Expected',
  counted: 'Counted',
  difference: 'Difference',
  stillOpen: 'still open',
  notCounted: 'not counted yet',
  short: 'short',
  over: 'over',
  even: 'even',
  refundsTitle: 'Refunds',
  refundsNone: 'No refund on this day.',
  how: 'How',
  count: 'Count',
  paidBack: 'Paid back',
  cash: 'Cash from the drawer',
  outside: 'Outside Loket',
  total: 'All refunds',
  taxBack: 'PPN given back',
};
