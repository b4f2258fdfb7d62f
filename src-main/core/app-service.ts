import {
  ApiError,
  type ApiHandlers,
  type ChargeInput,
  type ChargeResult,
  type CurrentSale,
  type CatalogueItem,
  type DisplayCart,
  type DisplaySale,
  type DisplayState,
  type LiveEvent,
  type OrderApiMethod,
  type PrintResult,
} from '../common/api';
import type { AppInfo } from '../common/app-info';
import { dayIn, dayRange } from '../common/gateway-time';
import type { Order, OrderState } from '../common/order';
import { OrderRuleError, OrderStateError } from '../common/order-policy';
import { smsReplyNumber } from '../common/payment-instruction';
import { reason } from '../common/reasons';
import { printProblemOf } from './print-problem';
import type { PaymentMethod } from '../common/payment-methods';
import type { StaffSummary } from '../common/staff';
import { publicFailure } from './gateway/client';
import type { OrderLog } from './orders/order-log';
import type { Actor, CreateOutcome, OrderService } from './payments/order-service';
import type { ChargeSaleInput, ChargeSaleResult } from '../common/sale';
import type { TaxCategory } from '../common/tax';
import type { Charger, Counter, OrderFields } from './counter/counter';
import { chargeBlocker } from './counter/charge-guard';
import { chargeResultOf, oneLineSale, orderFieldsOf, orderRefusalOf } from './counter/one-line-sale';
import type { Clock } from './ports';

/** The note a cashier's "seen" of a late payment writes (its payload); a manager's acknowledgement hides it too. */
export const TILL_SAW_LATE_PAYMENT = { tillSeen: 'late_payment' } as const;

/** States in which a sale on the display is still going on: no second sale may start over it. */
const OPEN_SALE_STATES: readonly OrderState[] = ['creating', 'awaiting_payment', 'unknown'];

/** Receipt rendering and printing, provided by the host (browser printing or a network printer). */
export interface ReceiptPort {
  html(order: Order, options: { paper: 58 | 80; copy: boolean }): string;
  /** Sends the receipt to the network printer; rejects with plain words when it cannot. */
  print?(order: Order, options: { copy: boolean }): Promise<void>;
  /** The payment slip of a VA or store-code order waiting for payment (core/receipts/slip-model.ts). */
  slipHtml(order: Order, options: { paper: 58 | 80 }): string;
  /** Sends the payment slip to the printer set up; rejects with plain words when it cannot. */
  printSlip?(order: Order): Promise<void>;
}

export interface AppServiceDeps {
  /** Read at each call: a manager's change to the store or the mode shows at once. */
  info: () => AppInfo;
  /** The customer display's language and idle message (the store's settings); the cashier's language else. */
  display?: () => { lang: AppInfo['lang']; idleMessage: string };
  log: OrderLog;
  orders: OrderService;
  methods: readonly PaymentMethod[];
  items: readonly CatalogueItem[];
  clock: Clock;
  receipts: ReceiptPort;
  /** Training mode only: tells the sandbox the customer paid. */
  simulatePayment?: (orderId: string) => Promise<void>;
  /** Starts automatic confirmation (polling) for an order waiting for payment. */
  watch?: (order: Order) => void;
  /** Remembers the sale on the display across restarts (the store's books); in memory only when absent. */
  saleMemory?: { load(): string | null; save(orderId: string | null): void };
  /**
   * Who sells at this till, recorded on every order and change the cashier makes; `required` when the
   * store's settings make a cashier sign in with a PIN before charging.
   */
  till?: () => { staff: StaffSummary | null; required: boolean };
  /** The cart being rung up at the till, for the customer display (null when empty). */
  cart?: () => DisplayCart | null;
  /** A sale as the customer display shows it (tenders-ui): the sale of an order, or a sale by its id; null: none. */
  saleOnDisplay?: (ref: { orderId: string } | { saleId: string }) => DisplaySale | null;
  /** The counter: every charge, of every tender (core/counter/counter.ts). */
  counter: Counter;
  /** This till's terminal id now (the order that holds it is read from the log). */
  terminalId: () => string;
  /** The tax category of a typed line (the sale settings'): a typed item and amount is a one-line sale of it. */
  typedCategory: () => TaxCategory;
}

/**
 * The API every host serves (IPC in the desktop app, HTTP in browser mode): one implementation, so
 * both behave alike. It also keeps what the customer display shows and pushes live events.
 */
export class AppService implements Pick<ApiHandlers, OrderApiMethod> {
  private displayOrderId: string | null = null;
  /** A sale paid in cash or other (no order) whose change the display shows until the next sale (tenders-ui). */
  private displaySaleId: string | null = null;
  /**
   * Orders whose last charge the gateway certainly did not take (retry safety `safe_to_resend`: an outage, or the
   * request never left): nothing was charged, and the display says so. Known from the charge's outcome only.
   */
  private readonly notCharged = new Set<string>();
  /** Orders being sent again (retryOrder): their outcome is open until the answer comes. */
  private readonly retrying = new Set<string>();
  private readonly listeners = new Set<(event: LiveEvent) => void>();
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: AppServiceDeps) {
    // The sale in progress before a restart comes back, unless it is over and its receipt was printed.
    const remembered = deps.saleMemory?.load();
    const order = remembered ? deps.log.get(remembered) : undefined;
    if (order && (OPEN_SALE_STATES.includes(order.state) || (order.state === 'paid' && !this.receiptPrinted(order.id))))
      this.displayOrderId = order.id;
    // The live events and the display are a projection of the log's committed changes; the books are not decided here.
    this.unsubscribe = deps.log.onChange((order) => {
      if (order.state !== 'unknown') this.notCharged.delete(order.id);
      this.emit({ type: 'order', order });
      if (order.id === this.displayOrderId) this.emit({ type: 'display', state: this.displayStateOf(order) });
    });
  }

  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.unsubscribe();
    this.listeners.clear();
  }

  appInfo(): AppInfo {
    return this.deps.info();
  }

  listMethods(): PaymentMethod[] {
    return this.deps.methods.filter((m) => m.enabled);
  }

  listItems(): CatalogueItem[] {
    return [...this.deps.items];
  }

  /**
   * The sale on the customer display, as the cashier's screen must show it after a reload or a restart; with none on
   * the display, the order that holds the till (its outcome unknown), so the screen comes back to it.
   */
  currentSale(): CurrentSale | null {
    const id = this.displayOrderId ?? this.heldOrderId();
    const order = id ? this.deps.log.get(id) : undefined;
    return order ? { order, receiptPrinted: this.receiptPrinted(order.id) } : null;
  }

  /**
   * Late payments the till has not been shown yet: orders paid after Loket gave them up (or read a refusal), whose
   * last late payment neither the till nor a manager has acknowledged. The cashier sees them at once, on any screen.
   */
  latePayments(): Order[] {
    return this.deps.log.latePaymentsUnseen();
  }

  /** The cashier has seen the late payment (the manager's attention item stays until a manager deals with it). */
  acknowledgeLatePayment(id: string): Order {
    const order = this.deps.log.require(id);
    if (!order.latePayment) throw new OrderStateError(id, order.state, 'it has no late payment to acknowledge');
    this.deps.log.note(id, {
      ...this.cashier(),
      reason: 'late payment seen at the till',
      payload: TILL_SAW_LATE_PAYMENT,
    });
    return this.deps.log.require(id);
  }

  /**
   * Takes a sale still waiting off the display so another can start: it keeps waiting (and being watched),
   * shows in today's orders, and can be resumed. A note records who parked it.
   */
  parkSale(id: string): null {
    const order = this.deps.log.require(id);
    if (this.displayOrderId === id) {
      this.setCurrent(null);
      this.emit({ type: 'display', state: this.displayState() });
    }
    this.deps.log.note(id, {
      ...this.cashier(),
      reason: `sale parked while ${order.state}`,
      payload: { parked: true },
    });
    return null;
  }

  /**
   * A typed item and amount: a one-line sale paid by one gateway tender, through the counter like every charge (its
   * order's item_name, item_id and user id as given). Kept for scripts and the command line's `order create`; the
   * cashier's screen charges through chargeSale.
   */
  async createOrder(input: ChargeInput): Promise<ChargeResult> {
    const refused = orderRefusalOf(input, this.deps.methods);
    if (refused) return refused;
    const result = await this.chargeSale(oneLineSale(input, this.deps.typedCategory()), orderFieldsOf(input));
    return chargeResultOf(result);
  }

  /**
   * Charges a sale (the counter's one way, core/counter/counter.ts) and keeps the customer display: one sale at a time
   * on the customer's screen (a second one would hide the first's QR or VA), the new order shown at once whatever its
   * outcome (or the change of a sale paid with no order), and an order waiting for payment watched.
   */
  async chargeSale(input: ChargeSaleInput, fields?: OrderFields): Promise<ChargeSaleResult> {
    const waiting = this.displayOrderId ? this.deps.log.get(this.displayOrderId) : undefined;
    const sameCharge = input.cart.saleKey !== undefined && waiting && this.saleKeyOf(waiting.id) === input.cart.saleKey;
    if (waiting && OPEN_SALE_STATES.includes(waiting.state) && !sameCharge) {
      throw new ApiError(
        'conflict',
        `Another sale is still ${waiting.state === 'unknown' ? 'open (its outcome is unknown)' : 'waiting for payment'} ` +
          `(order ${waiting.id}): finish it, cancel it, or park it to start a new one.`,
        reason('sale.waiting', { orderId: waiting.id, unknown: waiting.state === 'unknown' }),
      );
    }
    const result = await this.deps.counter.charge(input, this.charger(), fields);
    this.settleCharge(result);
    return result;
  }

  async retryOrder(id: string): Promise<ChargeResult> {
    this.deps.log.require(id);
    // While the same order goes out again its outcome is open: the display says "being checked" until it settles.
    this.retrying.add(id);
    this.notCharged.delete(id);
    if (id === this.displayOrderId) this.emit({ type: 'display', state: this.displayState() });
    let outcome: CreateOutcome;
    try {
      outcome = await this.deps.orders.resolve(id, this.cashier());
    } finally {
      this.retrying.delete(id);
    }
    return this.settleOrder(outcome);
  }

  getOrder(id: string): Order | null {
    return this.deps.log.get(id) ?? null;
  }

  listOrders(filter: { date?: string; state?: OrderState }): Order[] {
    const tz = this.deps.info().timeZone;
    const day = filter.date ?? dayIn(this.deps.clock.now(), tz);
    const range = dayRange(day, tz);
    if (!range)
      throw new ApiError(
        'invalid_arguments',
        `date: must be a real date YYYY-MM-DD (got ${JSON.stringify(day)})`,
        reason('order.bad_day', { day }),
      );
    // Newest first: the cashier looks for the sale just made.
    return this.deps.log.list({ ...range, ...(filter.state ? { state: filter.state } : {}) }).reverse();
  }

  cancelOrder(id: string, reason: string): Order {
    return this.deps.orders.cancel(id, { ...this.cashier(), reason });
  }

  async simulatePayment(id: string): Promise<Order> {
    if (!this.deps.simulatePayment || this.deps.info().mode !== 'sandbox') {
      throw new ApiError(
        'forbidden',
        'payments can be simulated in training mode (sandbox) only',
        reason('sale.simulate_training_only'),
      );
    }
    const order = this.deps.log.require(id);
    if (order.state !== 'awaiting_payment') {
      throw new OrderStateError(
        id,
        order.state,
        'only an order waiting for payment can be paid',
        reason('order.not_awaiting_payment', { orderId: id, state: order.state }),
      );
    }
    await this.deps.simulatePayment(id);
    return this.deps.log.require(id);
  }

  showOnDisplay(id: string | null): DisplayState {
    if (id !== null) this.deps.log.require(id);
    this.setCurrent(id);
    const state = this.displayState();
    this.emit({ type: 'display', state });
    return state;
  }

  /**
   * A sale paid in cash or other only (no order to follow): the display shows its change until the next sale or a
   * new cart. Not remembered across a restart (nothing is waiting).
   */
  showSale(saleId: string): DisplayState {
    this.setCurrent(null);
    this.displaySaleId = saleId;
    const state = this.displayState();
    this.emit({ type: 'display', state });
    return state;
  }

  displayState(): DisplayState {
    return this.displayStateOf(this.displayOrderId ? this.deps.log.get(this.displayOrderId) : undefined);
  }

  private displayStateOf(order: Order | undefined): DisplayState {
    const info = this.deps.info();
    const display = this.deps.display?.();
    const method = order ? this.deps.methods.find((m) => m.id === order.methodId) : undefined;
    const smsTo = order ? smsReplyNumber(order) : undefined;
    return {
      mode: info.mode,
      storeName: info.storeName,
      lang: display?.lang ?? info.lang,
      idleMessage: display?.idleMessage ?? '',
      timeZone: info.timeZone,
      ...this.cartOnDisplay(),
      ...this.saleOnDisplay(order),
      order: order
        ? {
            amount: order.amount,
            itemName: order.itemName,
            methodLabel: method?.label ?? { id: order.methodId, en: order.methodId },
            provider: method?.provider ?? order.methodId,
            kind: order.kind,
            state: order.state,
            ...(order.expiresAt ? { expiresAt: order.expiresAt } : {}),
            ...(order.instruction ? { instruction: order.instruction } : {}),
            ...(smsTo ? { smsTo } : {}),
            ...(this.nothingCharged(order) ? { notCharged: true as const } : {}),
          }
        : null,
    };
  }

  private saleOnDisplay(order: Order | undefined): { sale?: DisplaySale } {
    try {
      const ref = order ? { orderId: order.id } : this.displaySaleId ? { saleId: this.displaySaleId } : undefined;
      const sale = ref ? this.deps.saleOnDisplay?.(ref) : undefined;
      return sale ? { sale } : {};
    } catch {
      // The display shows the order without its sale's figures rather than nothing.
      return {};
    }
  }

  private cartOnDisplay(): { cart?: DisplayCart } {
    try {
      const cart = this.deps.cart?.();
      return cart ? { cart } : {};
    } catch {
      // The display shows the order and the store without the cart rather than nothing.
      return {};
    }
  }

  /**
   * The receipt's HTML, for the screen's print. A receipt after the first one of the sale is a copy (COPY /
   * SALINAN) whatever the caller asked: there is one original per sale.
   */
  receipt(id: string, options: { paper: 58 | 80; copy: boolean }): { html: string } {
    const order = this.deps.log.require(id);
    const copy = options.copy || this.originalIssued(id);
    this.deps.log.note(id, {
      source: 'cashier',
      reason: `receipt shown for printing (${options.paper} mm${copy ? ', copy' : ''})`,
      payload: { receipt: 'shown', copy },
    });
    return { html: this.deps.receipts.html(order, { paper: options.paper, copy }) };
  }

  /** Prints the receipt on the printer set up; after the sale's first receipt, it is a copy (see receipt()). */
  async printReceipt(id: string, options: { copy: boolean }): Promise<PrintResult> {
    const order = this.deps.log.require(id);
    if (!this.deps.receipts.print)
      return {
        ok: false,
        message: 'No network printer is set up: print from this screen instead.',
        reason: reason('print.no_printer', { what: 'receipt' }),
      };
    const copy = options.copy || this.originalIssued(id);
    try {
      await this.deps.receipts.print(order, { copy });
      this.deps.log.note(id, {
        source: 'cashier',
        reason: `receipt printed on the network printer${copy ? ' (copy)' : ''}`,
        payload: { receipt: 'printed', copy },
      });
      return {
        ok: true,
        message: copy ? 'Copy printed.' : 'Receipt printed.',
        reason: reason('print.done', { what: copy ? 'copy' : 'receipt' }),
      };
    } catch (err) {
      // The sale stands whatever the printer does; the cashier is told and can print again. A printer that took
      // the job and did not finish may have printed it: the next one is a copy then, never a second original.
      const maybe = (err as { reason?: unknown }).reason === 'unfinished';
      this.deps.log.note(id, {
        source: 'cashier',
        reason: `receipt printer failed: ${(err as Error).message}`,
        ...(maybe ? { payload: { receipt: 'uncertain', copy } } : {}),
      });
      return {
        ok: false,
        message: (err as Error).message,
        reason: reason('print.failed', { problem: printProblemOf(err) }),
      };
    }
  }

  /** The payment slip's HTML, for the screen's print: only for a VA or store code waiting for payment. */
  paymentSlip(id: string, options: { paper: 58 | 80 }): { html: string } {
    const order = this.deps.log.require(id);
    const html = this.deps.receipts.slipHtml(order, options);
    this.deps.log.note(id, { source: 'cashier', reason: `payment slip shown for printing (${options.paper} mm)` });
    return { html };
  }

  /** Prints the payment slip on the printer set up (network or the OS's); a failure changes nothing of the sale. */
  async printPaymentSlip(id: string): Promise<PrintResult> {
    const order = this.deps.log.require(id);
    if (!this.deps.receipts.printSlip)
      return {
        ok: false,
        message: 'No printer is set up: print from this screen instead.',
        reason: reason('print.no_printer', { what: 'slip' }),
      };
    try {
      await this.deps.receipts.printSlip(order);
    } catch (err) {
      if (err instanceof OrderRuleError) throw err;
      this.deps.log.note(id, { source: 'cashier', reason: `payment slip printer failed: ${(err as Error).message}` });
      return {
        ok: false,
        message: (err as Error).message,
        reason: reason('print.failed', { problem: printProblemOf(err) }),
      };
    }
    this.deps.log.note(id, { source: 'cashier', reason: 'payment slip printed' });
    return { ok: true, message: 'Payment slip printed.', reason: reason('print.done', { what: 'slip' }) };
  }

  /**
   * An open outcome that is not open at the gateway: the last charge was certainly not taken (remembered from its
   * outcome), or the order is recorded as never sent (after a restart too) and is not being sent again now.
   */
  private nothingCharged(order: Order): boolean {
    if (order.state !== 'unknown' || this.retrying.has(order.id)) return false;
    return this.notCharged.has(order.id) || order.delivery === 'not_sent';
  }

  /** A re-sent or checked order's outcome, on the display (retryOrder). */
  private settleOrder(outcome: CreateOutcome): ChargeResult {
    const failure = outcome.ok ? undefined : publicFailure(outcome.failure, outcome.order?.state);
    if (outcome.order) this.showCharged(outcome.order, failure?.retry === 'safe_to_resend');
    if (outcome.ok) return { ok: true, order: outcome.order };
    return { ok: false, ...(outcome.order ? { order: outcome.order } : {}), failure: failure! };
  }

  /**
   * A charge's outcome, on the display: its order whatever its outcome. A sale paid with no order is shown by the host
   * (chargeSale's row flag `showsPaidSale`, host/api-routing.ts).
   */
  private settleCharge(result: ChargeSaleResult): void {
    if (result.order) this.showCharged(result.order, !result.ok && result.failure.retry === 'safe_to_resend');
  }

  private showCharged(order: Order, safeToResend: boolean): void {
    if (safeToResend) this.notCharged.add(order.id);
    else this.notCharged.delete(order.id);
    // The customer sees the new order at once, whatever its outcome (the order in hand: no read again).
    this.setCurrent(order.id);
    this.emit({ type: 'display', state: this.displayStateOf(order) });
    if (order.state === 'awaiting_payment') this.deps.watch?.(order);
  }

  /**
   * The order that holds this till (its outcome unknown, it may have been charged): read from the log, as the counter's
   * guard reads it (core/counter/charge-guard.ts), so the screen comes back to it after a reload or a restart.
   */
  private heldOrderId(): string | null {
    const blocker = chargeBlocker(this.deps.log.db, this.deps.terminalId());
    return blocker?.state === 'unknown' ? blocker.orderId : null;
  }

  /** The idempotency key of the sale an order pays a tender of (a charge made again under it is the same charge). */
  private saleKeyOf(orderId: string): string | undefined {
    return (
      this.deps.log.db
        .prepare<[string], string | null>(
          'SELECT s.charge_key FROM sale_tenders t JOIN sales s ON s.id = t.sale_id WHERE t.order_id = ?',
        )
        .pluck()
        .get(orderId) ?? undefined
    );
  }

  /** Who charges: the member of staff signed in; a store that asks every cashier for a PIN refuses nobody. */
  private charger(): Charger {
    const till = this.deps.till?.();
    if (till?.required && !till.staff)
      throw new ApiError(
        'locked',
        'Sign in at the till first: this store asks every cashier for their PIN.',
        reason('sale.sign_in_required'),
      );
    return { source: 'cashier', staff: till?.staff ?? null };
  }

  /** The cashier as an actor: the staff member signed in at the till, or the till itself. */
  private cashier(): Actor {
    const staff = this.deps.till?.().staff;
    return { source: 'cashier', actor: staff?.name ?? 'cashier', ...(staff ? { staffId: staff.id } : {}) };
  }

  private setCurrent(id: string | null): void {
    // Another sale (or none) takes the display: a cash sale's change goes with it.
    this.displaySaleId = null;
    if (id === this.displayOrderId) return;
    this.displayOrderId = id;
    try {
      this.deps.saleMemory?.save(id);
    } catch (err) {
      // Only which sale to show again after a restart: the order itself is in the log already, and a full disk
      // must not turn a charge the gateway took into an error (the log's own pending writes handle the order).
      console.error(`[counter] the sale on the display could not be remembered: ${(err as Error).message}`);
    }
  }

  /** The sale's original receipt has been issued (printed, shown for printing, or maybe printed): the rest are copies. */
  private originalIssued(id: string): boolean {
    return this.deps.log.events(id).some((e) => {
      const p = e.payload as { receipt?: unknown } | undefined;
      return e.type === 'note' && (p?.receipt === 'shown' || p?.receipt === 'printed' || p?.receipt === 'uncertain');
    });
  }

  private receiptPrinted(id: string): boolean {
    return this.deps.log.events(id).some((e) => {
      const p = e.payload as { receipt?: unknown; copy?: unknown } | undefined;
      return e.type === 'note' && (p?.receipt === 'shown' || p?.receipt === 'printed') && p.copy !== true;
    });
  }

  private emit(event: LiveEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
