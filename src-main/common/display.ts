import type { AppInfo } from './app-info';
import type { OrderState, PaymentInstruction } from './order';
import type { PaymentKind } from './payment-kinds/kind-names';

/** What the customer display shows: only what the customer needs, never ids or raw data. */
export interface DisplayOrder {
  amount: number;
  itemName: string;
  methodLabel: { id: string; en: string };
  provider: string;
  kind: PaymentKind;
  state: OrderState;
  expiresAt?: string;
  instruction?: PaymentInstruction;
  /** An SMS reply without a short code: the number the SMS to reply to goes to, masked (smsReplyNumber). */
  smsTo?: string;
  /**
   * An order whose outcome is open because the gateway did not take it (an outage, or the request never left):
   * nothing was charged. The display says so rather than "being checked".
   */
  notCharged?: true;
}

/** The cart being rung up, as the customer display shows it: each line's name, quantity and total, and the sale's. */
export interface DisplayCart {
  lines: { name: string; qty: number; total: number }[];
  /** The sale's total as the server computes it; null while the cart has an issue (the lines still show). */
  total: number | null;
}

/**
 * The sale of the order on the display, or a sale just paid in cash or other (tenders-ui): what is paid so far and
 * still due during a split tender, and the change of a cash tender (shown large).
 */
export interface DisplaySale {
  total: number;
  /** Paid so far by cash and other tenders and paid gateway orders (a settling cash tender: the rounded due). */
  paid: number;
  /** Still due: what the order on the display asks for during a split; 0 once paid. */
  due: number;
  /** The change given back (cash only). */
  change: number;
  /** The cash rounding line (negative when rounded down); 0 when none. */
  rounding: number;
  /** The sale has a cash tender (its change is shown, Rp0 included). */
  cash: boolean;
  complete: boolean;
}

export interface DisplayState {
  mode: AppInfo['mode'];
  storeName: string;
  /** The customer display's own language (settings: display), not the cashier's. */
  lang: AppInfo['lang'];
  /** What the idle display says between sales (settings: display). */
  idleMessage: string;
  /** The store's zone: a tablet display may be set to another, and times are shown in the store's. */
  timeZone: string;
  order: DisplayOrder | null;
  /** The cart being rung up at the till, when it has lines (shown until an order takes the display). */
  cart?: DisplayCart;
  /** The sale of the order on the display, or a sale just paid in cash or other (no order): tenders-ui. */
  sale?: DisplaySale;
}
