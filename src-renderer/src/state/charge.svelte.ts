import type { ChargeFailure, ChargeResult, LoketApi } from '../../../src-main/common/api';
import type { Order, OrderState } from '../../../src-main/common/order';
import type { PaymentMethod } from '../../../src-main/common/payment-methods';
import { toCallError, type CallError } from '../api/errors';
import { markCharge } from '../lib/timing';
import { isNotOlder } from './order-time';
import { lineOfProduct, type ChargeSaleInput, type ChargeSaleResult } from '../../../src-main/common/sale';
import type { SaleLine } from '../../../src-main/common/sale-line';
import type { FieldIssue } from '../../../src-main/common/order-request';
import { isQuickItemProduct } from '../lib/cart-edit';
import { asksForPhone } from '../../../src-main/common/payment-instruction';
import { CartState, type CartApi } from './cart.svelte';
import { SaleForm } from './sale-form.svelte';
import type { TenderInput } from '../../../src-main/common/cash';
import type { SaleView } from '../../../src-main/common/sale';
import { TenderManager, type TenderEntry } from './tenders.svelte';

/**
 * What a charge that gave no payment to wait for means for the cashier (field issues stay on the form):
 * - `unknown`: the order may exist at the gateway (`may_exist`): never charge again; check again if there is an order.
 * - `outage`: the gateway did not answer or is down and the order certainly never reached it (`class: 'outage'`,
 *   `safe_to_resend`): nothing was charged; Retry sends the same order (same id) again.
 * - `refused`: the gateway refused it (`rejected`, `final`): nothing was charged; a new charge may follow.
 * - `other`: never valid, or never sent (Loket could not record it): nothing was charged.
 * - `waiting`: Loket refused the charge because another sale is still waiting on the customer display.
 * - `error`: the call itself failed in a way that charged nothing (refused access, bad arguments).
 */
export type ChargeProblem =
  | { kind: 'error'; error: CallError; action: null }
  | { kind: 'waiting'; error: CallError; action: 'show' }
  | {
      kind: 'unknown' | 'outage' | 'refused' | 'other';
      failure: ChargeFailure;
      order?: Order;
      /** The one button that acts on it besides dismissing: re-send, or ask the gateway again. */
      action: 'retry' | 'check' | null;
      /** Loket itself could not be reached (or failed) during the charge or the check: said instead of the failure's words. */
      callError?: CallError;
    };

/** What a charge led to, so the view can move the focus to the right place. */
export type ChargeOutcome =
  | 'payment'
  | 'issues'
  | 'problem'
  | 'busy'
  | 'manager'
  /** The tender screen opened (Cash, or Card / transfer). */
  | 'tender'
  /** A tender was taken for part of the sale: the rest is still due. */
  | 'part'
  /** The sale was paid in cash or other only: the change shows, nothing waits. */
  | 'done';

/** A manager's approval of a discount above the limit, sent with the charge (checked by the server, never kept). */
export interface ManagerApproval {
  staffId: number;
  pin: string;
}

/** An order in one of these states goes on the payment panel, whatever answer came with it. */
export const PAYMENT_STATES_SHOWN: readonly OrderState[] = [
  'awaiting_payment',
  'paid',
  'expired',
  'cancelled',
  'failed',
];

/**
 * The server's verdict (`failure.retry` and `failure.class`, order-policy.ts) read once, here, for every
 * screen. "May exist" wins over everything: charging again could take the money twice.
 */
export function problemFrom(failure: ChargeFailure, order?: Order, callError?: CallError): ChargeProblem {
  const kind =
    failure.retry === 'may_exist'
      ? 'unknown'
      : failure.class === 'outage' || failure.retry === 'safe_to_resend'
        ? 'outage'
        : failure.class === 'rejected'
          ? 'refused'
          : 'other';
  const action = kind === 'outage' ? 'retry' : kind === 'unknown' && order ? 'check' : null;
  return { kind, failure, action, ...(order ? { order } : {}), ...(callError ? { callError } : {}) };
}

export interface ChargeDeps {
  api: Pick<LoketApi, 'retryOrder' | 'showOnDisplay' | 'currentSale' | 'chargeSale' | 'currentShift'> & CartApi;
  /** A new cart line's id. */
  newLineId?: () => string;
  /** A new sale's idempotency key (crypto.randomUUID in the app; a counter in tests). */
  newSaleKey?: () => string;
  /** The methods on offer, for the fields the chosen one takes. */
  methods: () => readonly PaymentMethod[];
  /** Something else holds the screen: an order on the payment panel, or an action on it in flight. */
  blocked: () => boolean;
  /** A charge is about to be sent. */
  onStart: () => void;
  /** A charge (or a check) gave an order to follow: it goes on the payment panel (with its sale, when a cart's). */
  onPayment: (order: Order, sale?: SaleView) => void;
  /** A sale paid in cash or other only: its change and struk go on the panel. */
  onSaleDone?: (sale: SaleView) => void;
}

/** How many orders' last live events are remembered for an answer they may have overtaken. */
const LATEST_KEPT = 50;

/** The sale being typed, sending it, and what to do when that gave no payment to wait for. */
export class ChargeManager {
  readonly form = new SaleForm();
  /** The lines being rung up; empty, the form's one amount and item is the sale (today's quick flow). */
  readonly cart: CartState;
  /** The tender screen: cash with change, card slip or transfer, a split with a gateway payment for the rest. */
  readonly tenders: TenderManager;

  #charging = $state(false);
  /** A re-send or a check of the problem's order in flight. */
  #checking = $state(false);
  #problem = $state.raw<ChargeProblem | null>(null);
  /** The typed one-line sale's idempotency key, kept until the server has written that sale. */
  #typedKey: string | undefined;
  /** Bookkeeping only (never shown), so a plain Map. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #latest = new Map<string, Order>();

  readonly #deps: ChargeDeps;

  constructor(deps: ChargeDeps) {
    this.#deps = deps;
    this.cart = new CartState({
      api: deps.api,
      newLineId: deps.newLineId ?? (() => crypto.randomUUID()),
      ...(deps.newSaleKey ? { newSaleKey: deps.newSaleKey } : {}),
    });
    this.tenders = new TenderManager({
      api: deps.api,
      total: () => (this.cart.quote?.ok ? this.cart.quote.figures.total : null),
      rounding: () => (this.cart.quote?.ok ? (this.cart.quote.cashRounding ?? 'off') : 'off'),
    });
  }

  get selectedMethod(): PaymentMethod | undefined {
    return this.#deps.methods().find((m) => m.id === this.form.methodId);
  }

  get charging(): boolean {
    return this.#charging;
  }

  get checking(): boolean {
    return this.#checking;
  }

  get problem(): ChargeProblem | null {
    return this.#problem;
  }

  /**
   * The last order is still open: it may exist at the gateway (charging again could take the money twice), or
   * the gateway was down and Retry sends it again. The cashier checks again or retries, or dismisses the
   * message (having read it) before a new charge; Loket refuses a second sale over an open one anyway.
   */
  get outcomeOpen(): boolean {
    const problem = this.#problem;
    return problem?.kind === 'unknown' || (problem?.kind === 'outage' && problem.order !== undefined);
  }

  get canCharge(): boolean {
    return !this.#charging && !this.#checking && !this.outcomeOpen && !this.#deps.blocked();
  }

  /**
   * The amount and item typed become a line of the cart (a free-typed line, or a quick item's product line); false
   * when there is nothing to add or the amount is not one (its rule shows at the field).
   */
  addTypedLine(): boolean {
    if (!this.form.commitAmount() || this.form.amount <= 0 || this.form.itemName.trim() === '') return false;
    // A quick item keeps its item_id in the cart: it becomes its catalogue product's line (CartState.addQuickItem).
    const itemId = this.form.itemId;
    if (itemId) this.cart.addQuickItem({ itemId, name: this.form.itemName.trim(), unitPrice: this.form.amount });
    else this.cart.addFree(this.form.itemName.trim(), this.form.amount);
    this.form.setAmountText('');
    this.form.setItemName('');
    return true;
  }

  async charge(managerPin?: ManagerApproval): Promise<ChargeOutcome> {
    if (!this.canCharge) return 'busy';
    if (this.tenders.isOpen) return this.chargeTenders(managerPin);
    if (!this.cart.empty) return this.#chargeCart(managerPin);
    // An amount that is not whole rupiah is refused here, with its rule at the field: nothing is sent.
    if (!this.form.commitAmount()) {
      this.#problem = null;
      return 'issues';
    }
    markCharge();
    this.#charging = true;
    this.#problem = null;
    this.#deps.onStart();
    try {
      // A typed item and amount is a one-line sale, charged as every cart is (one way to charge).
      // Sent in this turn unless a quick item's product must be looked up first (nothing else may start meanwhile).
      const typed = this.#typedSale();
      const result = await this.#deps.api.chargeSale(typed instanceof Promise ? await typed : typed);
      // The server wrote it (paid, refused or open): the next typed sale is another one, under a new key.
      if (result.saleId !== null) this.#typedKey = undefined;
      return this.#settleSale(result, { typed: true });
    } catch (err) {
      const error = toCallError(err);
      // Loket unreachable or failing mid-call: the order may have reached the gateway, so this is an open
      // outcome too, and Charge stays blocked until the cashier has read the message. The key stays: the same
      // charge sent again answers what the first did.
      if (error.code === 'network' || error.code === 'internal')
        this.#problem = problemFrom({ class: 'unknown', retry: 'may_exist', message: error.message }, undefined, error);
      // Another sale is still open: nothing was sent. When it is an order whose outcome is unknown (it may have been
      // charged; it holds the till even after its message was closed), that order's warning comes back.
      else if (error.code === 'conflict') {
        const held = await this.#heldSale();
        if (held) this.restore(held);
        else this.#problem = { kind: 'waiting', error, action: 'show' };
      } else this.#problem = { kind: 'error', error, action: null };
      return 'problem';
    } finally {
      this.#charging = false;
    }
  }

  /**
   * The form's item and amount as a one-line cart under the typed sale's key: a quick item picked from the list is its
   * catalogue product (sold with its item_id), while its amount and name are the item's; anything else a typed line.
   */
  #typedSale(): ChargeSaleInput | Promise<ChargeSaleInput> {
    const charge = this.form.toChargeInput(this.selectedMethod);
    const key = (this.#typedKey ??= this.#deps.newSaleKey?.() ?? crypto.randomUUID());
    const typed: SaleLine = {
      lineId: 'l1',
      name: charge.itemName,
      unitPrice: charge.amount,
      qty: 1,
      taxCategory: 'ppn',
    };
    const input = (line: SaleLine): ChargeSaleInput => ({
      cart: { lines: [line], saleDiscount: null, saleKey: key },
      methodId: charge.methodId,
      ...(charge.customerName ? { customerName: charge.customerName } : {}),
      ...(charge.phone ? { phone: charge.phone } : {}),
      ...(charge.api ? { api: charge.api } : {}),
    });
    const itemId = charge.itemId;
    if (!itemId) return input(typed);
    return this.#deps.api
      .productByCode({ code: itemId })
      .catch(() => null)
      .then((product) =>
        input(
          product && isQuickItemProduct(product, { itemId, unitPrice: charge.amount })
            ? lineOfProduct(product, 'l1')
            : typed,
        ),
      );
  }

  /**
   * The tender screen for the cart (an amount and item still typed join it first): nothing is sent until the tenders
   * settle the sale. A gateway method chosen on the form is offered for the rest of a split.
   */
  async openTenders(entry: TenderEntry): Promise<ChargeOutcome> {
    if (!this.canCharge) return 'busy';
    if ((this.form.amountText !== '' || this.form.itemName.trim() !== '') && !this.addTypedLine()) return 'issues';
    if (this.cart.empty) {
      this.form.showIssues([{ field: 'amount', rule: 'required', message: 'amount: ring up a line first' }]);
      return 'issues';
    }
    this.#problem = null;
    await Promise.all([this.tenders.open(entry, this.form.methodId), this.cart.quoteNow()]);
    return 'tender';
  }

  /** Enter on the tender screen: a part is taken, or the sale is charged with every tender. */
  async chargeTenders(managerPin?: ManagerApproval): Promise<ChargeOutcome> {
    if (!this.canCharge) return 'busy';
    const action = this.tenders.confirm();
    if (action.kind === 'invalid') return 'issues';
    if (action.kind === 'part') return 'part';
    return this.#chargeCart(managerPin, action.tenders);
  }

  /**
   * The cart as one sale (chargeSale): the server prices it again and sends its one gateway order; the payment
   * panel takes the order as it takes today's. An amount and item still typed join the cart first. With `tenders` (the
   * tender screen) the sale is paid by them: cash and other at once, a gateway tender by its order.
   */
  async #chargeCart(managerPin?: ManagerApproval, tenders?: TenderInput[]): Promise<ChargeOutcome> {
    if ((this.form.amountText !== '' || this.form.itemName.trim() !== '') && !this.addTypedLine()) {
      this.#problem = null;
      return 'issues';
    }
    markCharge();
    this.#charging = true;
    this.#problem = null;
    this.#deps.onStart();
    try {
      await this.cart.settled();
      const gateway = tenders?.find((t) => t.kind === 'gateway');
      const method = tenders ? this.#deps.methods().find((m) => m.id === gateway?.methodId) : this.selectedMethod;
      const input: ChargeSaleInput = tenders
        ? { cart: this.cart.cart, tenders }
        : { cart: this.cart.cart, methodId: this.form.methodId };
      if (method?.requiresCustomerName && this.form.customerName.trim())
        input.customerName = this.form.customerName.trim();
      if (method && asksForPhone(method) && this.form.phone.trim()) input.phone = this.form.phone.replace(/[\s-]/g, '');
      if (managerPin) input.managerPin = managerPin;
      return this.#settleSale(await this.#deps.api.chargeSale(input));
    } catch (err) {
      const error = toCallError(err);
      if (error.code === 'network' || error.code === 'internal')
        this.#problem = problemFrom({ class: 'unknown', retry: 'may_exist', message: error.message }, undefined, error);
      else if (error.code === 'conflict') this.#problem = { kind: 'waiting', error, action: 'show' };
      else this.#problem = { kind: 'error', error, action: null };
      return 'problem';
    } finally {
      this.#charging = false;
    }
  }

  #settleSale(result: ChargeSaleResult, options: { typed?: boolean } = {}): ChargeOutcome {
    this.form.clearIssues();
    // A typed one-line sale's issues are the form's: its line's price is the amount, its name the item.
    const formIssues = options.typed ? typedIssues(result) : [];
    if (formIssues.length > 0) {
      this.form.showIssues(formIssues);
      this.#problem = null;
      return 'issues';
    }
    if (result.ok) {
      this.cart.charged();
      this.tenders.reset();
      if (result.order) return this.#pay(this.#newest(result.order), result.sale);
      this.form.reset();
      this.#deps.onSaleDone?.(result.sale);
      return 'done';
    }
    if (result.issues?.length) {
      this.cart.showIssues(result.issues);
      if (this.tenders.isOpen) this.tenders.showIssues(result.issues);
      this.#problem = null;
      const pin = result.issues.some((i) => i.field === 'managerPin' || i.rule === 'manager_pin_required');
      return pin ? 'manager' : 'issues';
    }
    // The order's own fields (customer name, phone, method), as the order's checks name them: next to their inputs.
    if (result.failure.class === 'invalid_input' && result.failure.issues?.length) {
      this.form.showIssues(result.failure.issues);
      this.#problem = null;
      return 'issues';
    }
    // The sale was written and the gateway refused it or did not answer: the cart went with it (the server cleared
    // it); the order's problem shows as today's.
    if (result.saleId) {
      this.cart.charged();
      this.tenders.reset();
    }
    const order = result.order ? this.#newest(result.order) : undefined;
    if (order && PAYMENT_STATES_SHOWN.includes(order.state)) return this.#pay(order, result.sale ?? undefined);
    this.#problem = problemFrom(result.failure, order);
    return 'problem';
  }

  /** The problem's action: the same order again (same id, so never a second payment), or a new charge. */
  async retry(): Promise<ChargeOutcome> {
    const problem = this.#problem;
    if (problem?.kind === 'waiting' || problem?.kind === 'error') return 'busy';
    const order = problem?.action ? problem.order : undefined;
    if (!order) return this.charge();
    if (this.#checking || this.#charging || this.#deps.blocked()) return 'busy';
    this.#checking = true;
    try {
      return this.#settle(await this.#deps.api.retryOrder(order.id));
    } catch (err) {
      // The check itself failed: the order is as open as before, so its warning stays, with the new reason.
      const now = this.#problem;
      if (now && now.kind !== 'error' && now.kind !== 'waiting')
        this.#problem = { ...now, callError: toCallError(err) };
      return 'problem';
    } finally {
      this.#checking = false;
    }
  }

  /** The cashier has read the message: the customer display stops showing that order. */
  dismissProblem(): void {
    this.#problem = null;
    void this.#deps.api.showOnDisplay(null).catch(() => undefined);
  }

  /** Another order takes the screen (resumed from today's list): the message about this one goes. */
  clearProblem(): void {
    this.#problem = null;
  }

  /** A fresh sale: an empty form and no message. */
  startOver(): void {
    this.#problem = null;
    this.form.reset();
    this.tenders.reset();
  }

  /**
   * The sale as it was before a reload: an order whose outcome is open (unknown, still being created) or that
   * was refused stays the message on the form, with its order; nothing is sent.
   */
  restore(order: Order): void {
    if (order.state === 'rejected') {
      const rejection = order.rejection;
      this.#problem = problemFrom(
        {
          class: 'rejected',
          retry: 'final',
          message: rejection?.message ?? '',
          ...(rejection?.retcode ? { retcode: rejection.retcode } : {}),
          ...(rejection?.httpStatus ? { httpStatus: rejection.httpStatus } : {}),
        },
        order,
      );
    } else if (order.state === 'unknown' && order.delivery === 'not_sent') {
      // It certainly never left: Retry sends it.
      this.#problem = problemFrom({ class: 'not_sent', retry: 'safe_to_resend', message: '' }, order);
    } else {
      this.#problem = problemFrom({ class: 'unknown', retry: 'may_exist', message: '' }, order);
    }
    this.#latest.set(order.id, order);
  }

  /** Back to the form after an expired, failed or cancelled sale: the same sale, ready to be charged again. */
  chargeAgain(order: Order): void {
    this.#problem = null;
    this.form.fillFrom(order, this.#deps.methods());
  }

  /** A live event: it may settle the problem's order, or overtake the answer of the call in flight. */
  observe(order: Order): void {
    const seen = this.#latest.get(order.id);
    if (!isNotOlder(order, seen)) return;
    this.#latest.delete(order.id);
    this.#latest.set(order.id, order);
    if (this.#latest.size > LATEST_KEPT) this.#latest.delete(this.#latest.keys().next().value!);

    const problem = this.#problem;
    if (!problem || problem.kind === 'error' || problem.kind === 'waiting') return;
    if (problem.order?.id !== order.id || !isNotOlder(order, problem.order)) return;
    if (PAYMENT_STATES_SHOWN.includes(order.state)) {
      // An order whose outcome was open turned out to exist: follow it on the payment panel.
      this.#problem = null;
      this.#deps.onPayment(order);
    } else {
      this.#problem = problemFrom(problem.failure, order, problem.callError);
    }
  }

  /** The till's current sale when its outcome is unknown (Loket sends no other order until it is settled). */
  async #heldSale(): Promise<Order | undefined> {
    try {
      const current = await this.#deps.api.currentSale();
      return current?.order.state === 'unknown' ? current.order : undefined;
    } catch {
      return undefined;
    }
  }

  /** The call's answer, or the live event about the same order if that one is newer. */
  #newest(order: Order): Order {
    const seen = this.#latest.get(order.id);
    return seen && !isNotOlder(order, seen) ? seen : order;
  }

  #settle(result: ChargeResult): ChargeOutcome {
    this.form.clearIssues();
    if (result.ok) return this.#pay(this.#newest(result.order));
    const { failure } = result;
    const order = result.order ? this.#newest(result.order) : undefined;
    if (failure.class === 'invalid_input' && failure.issues?.length) {
      this.form.showIssues(failure.issues);
      this.#problem = null;
      return 'issues';
    }
    if (order && PAYMENT_STATES_SHOWN.includes(order.state)) return this.#pay(order);
    this.#problem = problemFrom(failure, order);
    return 'problem';
  }

  #pay(order: Order, sale?: SaleView): ChargeOutcome {
    this.#problem = null;
    // The form is the next sale's from now on: nothing of this one (the V1 choice included) sticks into it.
    this.form.reset();
    this.#deps.onPayment(order, sale);
    return 'payment';
  }
}

/** The form's field of a typed one-line sale's line field (lines[0].unitPrice is the amount). */
const TYPED_FIELD: Record<string, FieldIssue['field']> = {
  'lines[0].unitPrice': 'amount',
  'lines[0].name': 'item_name',
};

/**
 * A typed sale's issues for the form: the gateway order's own (its rules and numbers: the method's amount range, the
 * item name required, the phone), then the line's for a field they do not name (a price the cart refuses).
 */
function typedIssues(result: ChargeSaleResult): FieldIssue[] {
  if (result.ok || !result.issues) return [];
  const order = result.failure.issues ?? [];
  const line = result.issues.flatMap((i) => {
    const field = TYPED_FIELD[i.field];
    return field && !order.some((o) => o.field === field)
      ? [{ field, rule: 'format' as const, message: i.message }]
      : [];
  });
  return [...order, ...line];
}
