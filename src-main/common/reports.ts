import type { Order, OrderEvent, OrderState } from './order';
import type { Reason } from './reasons';

/**
 * The manager's books: the figures of a store day (or a range of days), the attention queue, the closing
 * record, and the order desk's queries. Amounts are integers of rupiah; days are calendar days in the store's
 * time zone (YYYY-MM-DD); instants are UTC ISO-8601. See docs/end-of-day.md and docs/export.md.
 */

export interface CountAmount {
  count: number;
  amount: number;
}

export interface ReportFigures {
  /** The first and last store day covered (the same for a day's report). */
  from: string;
  to: string;
  timeZone: string;
  /** Orders in state `paid`. */
  paid: CountAmount;
  /**
   * Orders paid late: the gateway reported a payment after Loket had cancelled, expired, failed or read a refusal
   * of them (`late_payment`). Not in `paid` (the sale was not completed at the till) and not a state of its own
   * (the order keeps its state): the money is at the gateway until a manager settles it with the customer.
   * Absent from the figures of a closing made before Loket counted it.
   */
  latePaid: CountAmount;
  /** Every order created in the range, whatever its state. */
  orders: CountAmount;
  byMethod: (CountAmount & { methodId: string; label: string; paid: CountAmount })[];
  byState: (CountAmount & { state: OrderState })[];
  /** By the staff member who sold; `staffId` null for orders with nobody signed in. */
  byStaff: (CountAmount & { staffId: number | null; name: string; paid: CountAmount })[];
}

/** What needs a person before the day is closed (docs/end-of-day.md, "Attention"). */
export type AttentionKind =
  /** Sent, but its outcome is not known: it may be charged. */
  | 'unknown'
  /** A payment reported after the order was cancelled, expired, failed or rejected: the money is somewhere. */
  | 'late_payment'
  /** Still awaiting payment past its deadline: the gateway never said. */
  | 'overdue'
  /** An authentic callback Loket could not apply (no such order here, a different amount, not a forward change). */
  | 'callback_problem'
  /**
   * The gateway said something about the order that does not match it: a status answer naming another order,
   * amount or method (never applied), or a signed callback naming another payment method (applied). Open until
   * acknowledged, or until a check gets an answer that matches.
   */
  | 'mismatch';

/**
 * `set_aside`: for an order whose outcome is unknown, the manager lets the till that charged it sell again while the
 * order stays unknown (in the queue, still checked): the decision a new sale needs (docs/roles.md).
 */
export type AttentionAction = 'check' | 'mark_paid' | 'cancel' | 'acknowledge' | 'set_aside';

export interface AttentionItem {
  kind: AttentionKind;
  /** The order's id; for a callback about an order this log lacks, the id the callback named. */
  orderId: string;
  /** The order, when this log has it. */
  order?: Order;
  /** When the matter arose (UTC). */
  since: string;
  /** Plain words: what happened (the store's language: the CLI and the A4 page). */
  summary: string;
  /** The same, for a screen to word in its own language. */
  what: Reason;
  /** What a manager may do about it; each needs a reason and is audited. */
  actions: AttentionAction[];
  /** For a callback problem: its id, for acknowledging it. */
  issueId?: number;
}

export interface ClosingRecord {
  day: string;
  timeZone: string;
  closedAt: string;
  closedBy: { staffId?: number; name: string };
  /** The figures as they were at closing: never recomputed. */
  figures: ReportFigures;
  /** Attention items open at closing. */
  openAttention: number;
  /** The day's sales as they were at closing (absent from a closing made before Loket kept them: migration 13). */
  sales?: SalesFigures;
}

/** A change to an order of a closed day, after the day was closed: shown on that day's report, never folded in. */
export interface AfterClosingChange {
  orderId: string;
  at: string;
  from?: OrderState;
  to?: OrderState;
  type: OrderEvent['type'];
  source: OrderEvent['source'];
  actor?: string;
  reason?: string;
}

/**
 * How a tender pays: cash, a gateway payment (QRIS, e-wallet, VA…), or "other" (a card slip, a transfer); as
 * common/sale.ts's TENDER_KINDS (not imported: common/sale.ts imports the API, which imports these types).
 */
type TenderKind = 'cash' | 'gateway' | 'other';

/**
 * The money the store took in a range of store days (docs/end-of-day.md, "Money taken"; core/reports/takings.ts,
 * the one definition): the paid tenders of the completed sales made in them — cash at what it put in the drawer (the
 * amount applied to the sale, its cash rounding line included, the change not), "other" and each gateway method at
 * what they paid — and each paid gateway order of those days that has no sale (made before every charge was a sale),
 * as a tender of its method. Not in it: voided sales, sales still being paid, late payments, refunds (beside it).
 */
export interface Takings {
  /** The money taken: Σ of byTender's amounts. */
  amount: number;
  /** What it was taken for: the completed sales, and the old paid orders without a sale (one each). */
  count: number;
  /**
   * By tender, count (tenders) and amount: cash, other, then each gateway method (the catalogue's order, then any
   * other id alphabetically) with its name in the store's language; only what occurs.
   */
  byTender: (CountAmount & { kind: TenderKind; methodId?: string; label?: string })[];
  /** By the member of staff who sold (the staff lines): sales and old orders, and the money taken. */
  byStaff: (CountAmount & { staffId: number | null; name: string })[];
  /** Of all this: the old paid orders without a sale, counted as gateway tenders of their method. */
  withoutSale: CountAmount;
}

/**
 * The sales of a range of days (core/reports/sales-figures.ts; docs/end-of-day.md, "Sales"): completed sales only
 * in the figures, voided ones and those still being paid counted apart. `total` = Σ of the completed sales' totals;
 * the tenders pay total + rounding.
 */
export interface SalesFigures {
  completed: CountAmount;
  voided: CountAmount;
  /** Sales still being paid (their gateway order not settled). */
  open: CountAmount;
  subtotal: number;
  discounts: number;
  /** Without PPN, PBJT and service. */
  net: number;
  /** The tax summary a PKP store files. */
  tax: { dpp: number; ppn: number; pbjt: number; service: number };
  total: number;
  /** The cash rounding lines, summed (negative when rounded down more than up). */
  rounding: number;
  /** By the product's category ('' for none and for free-typed lines), largest total first. */
  byCategory: { category: string; qty: number; gross: number; discounts: number; net: number; total: number }[];
  /** The top sellers by total (at most 20): a product, or a free-typed line by its name. */
  byProduct: { sku: string; name: string; qty: number; net: number; total: number }[];
  tenders: {
    byKind: (CountAmount & { kind: TenderKind })[];
    /** The gateway tenders by payment method. */
    byMethod: (CountAmount & { methodId: string })[];
    /** Cash handed over by customers, and the change given back (cash applied = handed − change). */
    cashHanded: number;
    change: number;
  };
  /**
   * The money taken (core/reports/takings.ts): what the day's report, its closing, the workbook, the CSV and the
   * screens lead with. Absent from a closing made before Loket counted it (its day shows the money taken now).
   */
  taken?: Takings;
}

/**
 * The refunds made in a range of days (core/reports/refund-figures.ts; docs/end-of-day.md, "Refunds"): a refund
 * belongs to the day it was made, whichever day its sale was. amount: the line amounts given back (shares of the
 * sales' totals); money: with the sales' cash rounding (amount + rounding); paidBack: what went back (money + the
 * cash refunds' own rounding to Rp100). The tax given back: amount = net + ppn + pbjt + service.
 */
export interface RefundFigures {
  count: number;
  amount: number;
  rounding: number;
  money: number;
  cashRounding: number;
  paidBack: number;
  /** From the drawer (cash) or outside Loket, each with its count and what went back. */
  byHow: { how: 'cash' | 'outside'; count: number; paidBack: number }[];
  /** Refunds outside Loket by the gateway method the sale was paid with ('' for an "other" tender). */
  outsideByMethod: { methodId: string; count: number; paidBack: number }[];
  tax: { net: number; dpp: number; ppn: number; pbjt: number; service: number };
}

export interface DayReport {
  date: string;
  timeZone: string;
  /** Figures now (for a closed day, see `closing.figures` for the official ones). */
  figures: ReportFigures;
  attention: AttentionItem[];
  closing?: ClosingRecord;
  afterClosing: AfterClosingChange[];
  /** Training orders never count in a live store's figures; true when this report is of training orders. */
  training: boolean;
  /**
   * The day's orders whose money may still come (creating, awaiting payment, unknown), oldest first: closing the
   * day names them. At most WAITING_SHOWN; `waitingCount` says how many there are.
   */
  waiting: WaitingOrder[];
  waitingCount: number;
  /** The day's sales (absent from a report made before Loket kept sales). */
  sales?: SalesFigures;
  /** The day's refunds (absent from a report made before Loket kept refunds). */
  refunds?: RefundFigures;
  /**
   * The shifts that opened on the day (a shift past midnight is its opening day's): each one's cash, and once closed
   * its blind count and variance (docs/end-of-day.md, "Shifts and the cash variance").
   */
  shifts?: DayShift[];
}

/** A shift of the day as the day report shows it. */
export interface DayShift {
  id: string;
  terminalId: string;
  state: 'open' | 'closed';
  openedAt: string;
  closedAt?: string;
  openedBy: string;
  /** Opened at the till with nobody signed in (`openedBy` is then the server's English, for the log). */
  openedByNobody?: true;
  float: number;
  /** What the drawer should hold now (open), or held at the close (closed). */
  expected: number;
  counted?: number;
  /** counted − expected: below 0 the drawer was short. */
  difference?: number;
}

/** An order of the day still waiting, as the close confirmation names it. */
export interface WaitingOrder {
  id: string;
  amount: number;
  methodId: string;
  state: OrderState;
  createdAt: string;
  itemName: string;
}

/** How many waiting orders a report names (the rest are counted). */
export const WAITING_SHOWN = 20;

export interface DeskQuery {
  /** Store days, inclusive. */
  from: string;
  to: string;
  state?: OrderState;
  methodId?: string;
  staffId?: number;
  /** An order id, a gateway transaction id, a VA number or store code, or an amount (digits). */
  search?: string;
  limit?: number;
  offset?: number;
}

export interface DeskPage {
  orders: Order[];
  total: number;
}

export interface OrderDetail {
  order: Order;
  events: OrderEvent[];
  /** The request as sent (never a secret: secrets go in headers). */
  request: unknown;
  /** The gateway's answer as received (JSON when it was JSON, else text). */
  response?: unknown;
  staffName?: string;
}

/** What a manager's action on an attention item did. */
export interface AttentionResult {
  /** Whether the item has left the queue (a check may leave it: the gateway still says "waiting"). */
  resolved: boolean;
  /** Plain words: what happened (English: the CLI and the log). */
  message: string;
  /** The same, for a screen to word in its own language. */
  reason: Reason;
  order?: Order;
}

/** An export of the order log, ready to fetch once (browser mode: a download; the desktop app: a file). */
export interface DownloadTicket {
  downloadId: string;
  filename: string;
}

/** What saving an export to a file did (the desktop app: the manager picks the file in the OS's save dialog). */
export interface SaveResult {
  /** False when the manager cancelled the dialog, or the file could not be written (see message). */
  saved: boolean;
  /** The file written, when saved. */
  path?: string;
  /** Plain words: what happened (English). */
  message: string;
  /** The same, for a screen to word in its own language. */
  reason?: Reason;
}

// ---------------------------------------------------------------- the day's headline, and what changed after closing

/** States of an order whose money may still come: it is neither received nor given up. */
export const WAITING_STATES: readonly OrderState[] = ['creating', 'awaiting_payment', 'unknown'];
/** States of an order whose money will not come (a late payment is flagged apart: the attention queue). */
export const NOT_PAID_STATES: readonly OrderState[] = ['rejected', 'expired', 'cancelled', 'failed'];

/**
 * What a day's figures lead with (docs/end-of-day.md, "The figures"): the money received — the paid orders — and
 * beside it, apart, what is still waiting and what was not paid. Never one sum of paid and cancelled orders: "all
 * orders" is a count.
 */
export interface DayHeadline {
  received: CountAmount;
  waiting: CountAmount;
  notPaid: CountAmount;
  /** How many orders were made, whatever became of them. */
  orders: number;
}

/**
 * The money taken that a day's report leads with: the closing's once the day is closed (the official figure; a
 * closing made before Loket counted it: the money taken now, `atClosing` false), else the money taken now. One rule
 * for the screen, the paper, `report --json` and the CLI.
 */
export function takenOf(report: Pick<DayReport, 'closing' | 'sales'>): { taken: Takings; atClosing: boolean } | null {
  const closed = report.closing?.sales?.taken;
  if (closed) return { taken: closed, atClosing: true };
  const now = report.sales?.taken;
  return now ? { taken: now, atClosing: false } : null;
}

/** No money taken: a report of a log without the sales' tables. */
export const NOTHING_TAKEN: Takings = {
  amount: 0,
  count: 0,
  byTender: [],
  byStaff: [],
  withoutSale: { count: 0, amount: 0 },
};

/** Which file of the books' export a CSV holds (docs/export.md): the takings lead; the orders are their detail. */
export const EXPORT_TABLES = ['takings', 'orders', 'lines', 'refunds', 'tenders'] as const;
export type ExportTable = (typeof EXPORT_TABLES)[number];

export function dayHeadline(f: ReportFigures): DayHeadline {
  const sum = (states: readonly OrderState[]): CountAmount =>
    f.byState
      .filter((s) => states.includes(s.state))
      .reduce((to, s) => ({ count: to.count + s.count, amount: to.amount + s.amount }), { count: 0, amount: 0 });
  return { received: f.paid, waiting: sum(WAITING_STATES), notPaid: sum(NOT_PAID_STATES), orders: f.orders.count };
}

/**
 * The changes after closing, one line per order (the events of one sale after closing — created, sent, answered,
 * paid — are one change to the day): when it first and last changed, the state it had at closing (`from`, none for
 * a sale made after closing) and the state it has now (`to`, none when only notes or deliveries came), and who
 * changed it last.
 */
export interface AfterClosingOrder {
  orderId: string;
  firstAt: string;
  lastAt: string;
  /** Made after the day was closed. */
  created: boolean;
  from?: OrderState;
  to?: OrderState;
  /** A payment reported after the order was given up on (it keeps its state). */
  latePayment: boolean;
  /** Who made its last change: a source, and the person where one did (their reasons are in the order's history). */
  source: AfterClosingChange['source'];
  actor?: string;
  /** How many events it took. */
  events: number;
}

export function afterClosingByOrder(changes: readonly AfterClosingChange[]): AfterClosingOrder[] {
  const byOrder = new Map<string, AfterClosingOrder>();
  const stateSeen = new Set<string>();
  for (const c of changes) {
    let line = byOrder.get(c.orderId);
    if (!line) {
      line = {
        orderId: c.orderId,
        firstAt: c.at,
        lastAt: c.at,
        created: c.type === 'created',
        latePayment: false,
        source: c.source,
        events: 0,
      };
      byOrder.set(c.orderId, line);
    }
    line.events++;
    line.lastAt = c.at;
    if (c.type === 'late_payment') line.latePayment = true;
    if (c.type === 'state_changed' || c.type === 'created') {
      // The state at closing is where its first change since started from.
      if (!line.created && !stateSeen.has(c.orderId) && c.from !== undefined) line.from = c.from;
      stateSeen.add(c.orderId);
      if (c.to !== undefined) line.to = c.to;
    }
    if (c.type === 'delivery') continue;
    line.source = c.source;
    if (c.actor !== undefined) line.actor = c.actor;
    else delete line.actor;
  }
  return [...byOrder.values()];
}
