import type { dayTakenId } from './day-taken-id';

/** The day screen's money taken (components/manager/books/DayTaken.svelte), in English. */
export const dayTakenEn: typeof dayTakenId = {
  title: 'Money taken',
  official: 'As it was at closing (official).',
  soFar: 'So far; the day is not closed.',
  closedBefore: 'This day was closed before Loket counted the money taken: these are the figures now.',
  total: 'Taken, every tender',
  sales: (n) => `${n} sale${n === 1 ? '' : 's'}`,
  hint: 'Completed sales, paid: cash, card or transfer, and the gateway.',
  tenders: 'By tender',
  tender: 'Tender',
  count: 'Count',
  amount: 'Amount',
  cash: 'Cash',
  other: 'Other (card, transfer)',
  cashHanded: 'Cash handed over',
  change: 'Change given',
  withoutSale: (n, amount) =>
    `Includes ${n} old order${n === 1 ? '' : 's'} without a sale (${amount}), counted by their payment method.`,
  refunds: (n, amount) =>
    `Given back to customers this day: ${n} refund${n === 1 ? '' : 's'}, ${amount} (not taken off; see Refunds below).`,
  now: (amount, sales) => `Now: ${amount} (${sales}).`,
  byStaff: 'By staff',
  staff: 'Staff',
  salesCount: 'Sales',
  nobody: '(nobody signed in)',
  none: 'No money taken on this day yet.',
};
