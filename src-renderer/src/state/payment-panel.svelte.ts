import type { Reason } from '../../../src-main/common/reasons';
import { SvelteSet } from 'svelte/reactivity';
import type { LoketApi } from '../../../src-main/common/api';
import type { Order } from '../../../src-main/common/order';
import { hasPaymentSlip } from '../../../src-main/common/payment-instruction';
import { toCallError, type CallError } from '../api/errors';
import { isNotOlder } from './order-time';
import type { Paper } from './preferences.svelte';
import type { SaleView } from '../../../src-main/common/sale';

export type PanelAction = 'simulate' | 'cancel' | 'print' | 'slip' | 'park';

/**
 * The outcome of the last action on the panel, worded by the view in the screen's language (a language
 * switched later words it again): a print, a failed action with the server's error, a parked sale.
 */
export type Notice =
  | { kind: 'printed'; auto: boolean }
  /** The payment slip went to the printer set up, or did not (`reason`: why, for the screen's words). */
  | { kind: 'slip_printed' }
  | { kind: 'slip_failed'; reason?: Reason }
  /** `reason`: why, for the screen's words (the server's English message is for the log). */
  | { kind: 'print_failed'; reason?: Reason }
  | { kind: 'error'; error: CallError }
  | { kind: 'parked' }
  /** The sale in progress came back after a reload or a restart. */
  | { kind: 'restored' };

export function noticeOk(notice: Notice): boolean {
  return (
    notice.kind === 'printed' ||
    notice.kind === 'slip_printed' ||
    notice.kind === 'parked' ||
    notice.kind === 'restored'
  );
}

export interface PaymentPanelDeps {
  api: Pick<
    LoketApi,
    | 'simulatePayment'
    | 'cancelOrder'
    | 'printReceipt'
    | 'receipt'
    | 'showOnDisplay'
    | 'parkSale'
    | 'paymentSlip'
    | 'printPaymentSlip'
    | 'saleOf'
    | 'saleReceipt'
    | 'printSaleReceipt'
  >;
  /** Training mode (the embedded sandbox): payments can be simulated. */
  training: () => boolean;
  /** Receipts go to a network printer rather than the browser's print dialog. */
  networkPrinter: () => boolean;
  paper: () => Paper;
  /** The store prints a receipt by itself when an order turns paid (settings: printer.autoPrint). */
  autoPrint: () => boolean;
  /** Prints a receipt document with the browser's print (once); resolves when it has been handed over. */
  printDocument: (html: string) => Promise<void>;
}

/** The order being paid, kept current by live events, and what the cashier can do with it. */
export class PaymentPanelManager {
  #order = $state.raw<Order | null>(null);
  /**
   * The sale on the panel: the cart sale the order pays (its struk is what prints), or a sale paid in cash or other
   * only (no order: its change shows, and its struk).
   */
  #sale = $state.raw<SaleView | null>(null);
  /** Sales whose struk has been issued here (the order's own mark covers a sale with an order). */
  readonly #salesPrinted = new SvelteSet<string>();
  #busy = $state<PanelAction | null>(null);
  #notice = $state.raw<Notice | null>(null);
  #cancelOpen = $state(false);
  /** Why a cancel was refused: shown in the dialog, where the cashier is looking, rather than behind it. */
  #cancelError = $state.raw<CallError | undefined>(undefined);
  /** Orders whose receipt has been printed (here, or before a reload as the server says). */
  readonly #printed = new SvelteSet<string>();
  /** Orders printed automatically already, or tried: an automatic receipt is never printed twice. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #autoTried = new Set<string>();
  readonly #deps: PaymentPanelDeps;

  constructor(deps: PaymentPanelDeps) {
    this.#deps = deps;
  }

  get order(): Order | null {
    return this.#order;
  }

  get sale(): SaleView | null {
    return this.#sale;
  }

  /** The struk of the sale on the panel has been issued (a sale without an order: printed here). */
  get saleReceiptPrinted(): boolean {
    return this.#sale !== null && this.#salesPrinted.has(this.#sale.id);
  }

  get busy(): PanelAction | null {
    return this.#busy;
  }

  get notice(): Notice | null {
    return this.#notice;
  }

  get cancelOpen(): boolean {
    return this.#cancelOpen;
  }

  get cancelError(): CallError | undefined {
    return this.#cancelError;
  }

  /** The receipt of the order on the panel has been printed. */
  get receiptPrinted(): boolean {
    return this.#order !== null && this.#printed.has(this.#order.id);
  }

  /** A new sale may start: nothing is waiting for payment. */
  get canStartNew(): boolean {
    return this.#order?.state !== 'awaiting_payment';
  }

  /**
   * An order to follow: the one just charged, one a check found, or the sale in progress after a reload
   * (`receiptPrinted`: the server's word that its receipt has been printed already).
   */
  show(order: Order, options: { receiptPrinted?: boolean; restored?: boolean; sale?: SaleView } = {}): void {
    this.#notice = options.restored ? { kind: 'restored' } : null;
    if (order.id !== this.#order?.id) {
      // A cancel dialog was about the order that was on the panel: it must not cancel the one that comes now.
      this.#cancelOpen = false;
      this.#cancelError = undefined;
      // An order shown without its sale (after a reload, from today's list) may still be a cart sale's: Print asks.
      this.#sale = options.sale ?? null;
    } else if (options.sale) this.#sale = options.sale;
    this.#order = order;
    if (options.receiptPrinted) this.#markPrinted(order.id);
    this.#autoPrintWhenDue();
  }

  /**
   * Back to an order still waiting for payment (from today's list), shown to the customer again; if the
   * display cannot be told, the cashier is.
   */
  async resume(order: Order): Promise<void> {
    this.show(order);
    try {
      await this.#deps.api.showOnDisplay(order.id);
    } catch (err) {
      this.#notice = { kind: 'error', error: toCallError(err) };
    }
  }

  /** A live event or an answer about the order on the panel; older news than shown is ignored. */
  observe(order: Order): void {
    if (this.#order?.id === order.id && isNotOlder(order, this.#order)) {
      this.#order = order;
      this.#autoPrintWhenDue();
    }
  }

  /**
   * A sale paid in cash or other only: nothing waits, the panel shows its change and prints its struk (once by itself
   * when the store prints automatically).
   */
  showSale(sale: SaleView): void {
    this.#order = null;
    this.#cancelOpen = false;
    this.#notice = null;
    this.#sale = sale;
    if (this.#deps.autoPrint() && !this.#busy) void this.printSale(false, undefined, true);
  }

  /** The cart sale an order pays, or null (a plain order; or not known: its own receipt prints, nothing is lost). */
  async #saleOfOrder(orderId: string): Promise<SaleView | null> {
    try {
      return await this.#deps.api.saleOf({ orderId });
    } catch {
      return null;
    }
  }

  /** The sale is over: an empty panel. */
  clear(): void {
    this.#sale = null;
    this.#order = null;
    this.#notice = null;
    this.#cancelOpen = false;
  }

  clearNotice(): void {
    this.#notice = null;
  }

  async simulatePayment(): Promise<void> {
    const order = this.#order;
    if (!order || !this.#deps.training() || order.state !== 'awaiting_payment' || this.#busy) return;
    await this.#act('simulate', async () => this.observe(await this.#deps.api.simulatePayment(order.id)));
  }

  /**
   * Takes the waiting order off the customer display and the panel; it keeps waiting for payment (and being
   * watched), and the cashier resumes it from today's list. True when it was parked.
   */
  async park(): Promise<boolean> {
    const order = this.#order;
    if (!order || order.state !== 'awaiting_payment' || this.#busy) return false;
    let parked = false;
    await this.#act('park', async () => {
      await this.#deps.api.parkSale(order.id);
      parked = true;
    });
    if (parked && this.#order?.id === order.id) {
      this.clear();
      this.#notice = { kind: 'parked' };
    }
    return parked;
  }

  /** Opens the cancel dialog. */
  askCancel(): void {
    if (!this.#order || this.#busy) return;
    this.#cancelError = undefined;
    this.#cancelOpen = true;
  }

  /** Closes the cancel dialog: the order stays. */
  keepOrder(): void {
    this.#cancelOpen = false;
  }

  /** Cancels the order on the panel; a refusal is shown in the dialog, which stays open. */
  async cancel(reason: string): Promise<boolean> {
    const order = this.#order;
    if (!order || this.#busy) return false;
    this.#busy = 'cancel';
    this.#cancelError = undefined;
    this.#notice = null;
    try {
      this.observe(await this.#deps.api.cancelOrder(order.id, reason));
      this.#cancelOpen = false;
      return true;
    } catch (err) {
      this.#cancelError = toCallError(err);
      return false;
    } finally {
      this.#busy = null;
    }
  }

  /**
   * Prints the receipt once: on the network printer when there is one (its answer is shown; a failure never
   * undoes the sale), else with the browser's print of the receipt's HTML. No preview: one click, one print.
   * While a print is in flight, another click does nothing.
   */
  async printReceipt(orderId: string, copy: boolean, auto = false): Promise<void> {
    if (this.#busy) return;
    await this.#act('print', async () => {
      // A cart sale's order: the sale's struk (its lines, tax and tenders) is the receipt. Not known yet (a reload, a
      // reprint from today's list): asked first.
      const known = this.#sale?.tenders.some((t) => t.orderId === orderId) ? this.#sale : null;
      const sale = known ?? (await this.#saleOfOrder(orderId));
      if (sale) {
        if (this.#order?.id === orderId) this.#sale = sale;
        return this.#printStruk(sale, copy, undefined, auto);
      }
      if (this.#deps.networkPrinter()) {
        const result = await this.#deps.api.printReceipt(orderId, { copy });
        this.#notice = result.ok
          ? { kind: 'printed', auto }
          : { kind: 'print_failed', ...(result.reason ? { reason: result.reason } : {}) };
        if (result.ok) this.#markPrinted(orderId);
        return;
      }
      const { html } = await this.#deps.api.receipt(orderId, { paper: this.#deps.paper(), copy });
      await this.#deps.printDocument(html);
      this.#markPrinted(orderId);
    });
  }

  /**
   * Prints the struk of the sale on the panel once: on the printer set up (its answer shown; a failure never undoes
   * the sale), else with the browser's print of its HTML on the paper chosen, or on A4 (`paper`).
   */
  async printSale(copy: boolean, paper?: 'A4', auto = false): Promise<void> {
    const sale = this.#sale;
    if (!sale || this.#busy) return;
    await this.#act('print', () => this.#printStruk(sale, copy, paper, auto));
  }

  async #printStruk(sale: SaleView, copy: boolean, paper: 'A4' | undefined, auto: boolean): Promise<void> {
    const orderId = sale.tenders.find((t) => t.orderId)?.orderId;
    const issued = this.#salesPrinted.has(sale.id) || (orderId !== undefined && this.#printed.has(orderId));
    if (this.#deps.networkPrinter() && paper === undefined) {
      const result = await this.#deps.api.printSaleReceipt({ saleId: sale.id, copy: copy || issued });
      this.#notice = result.ok
        ? { kind: 'printed', auto }
        : { kind: 'print_failed', ...(result.reason ? { reason: result.reason } : {}) };
      if (result.ok) this.#markSalePrinted(sale.id, orderId);
      return;
    }
    const { html } = await this.#deps.api.saleReceipt({
      saleId: sale.id,
      paper: paper ?? this.#deps.paper(),
      copy: copy || issued,
    });
    await this.#deps.printDocument(html);
    this.#markSalePrinted(sale.id, orderId);
  }

  #markSalePrinted(saleId: string, orderId: string | undefined): void {
    this.#salesPrinted.add(saleId);
    if (orderId) this.#markPrinted(orderId);
  }

  /**
   * Prints the payment slip of the order on the panel (a VA or store code waiting for payment) once: on the printer
   * set up, else with the browser's print of its HTML. It changes nothing of the sale.
   */
  async printSlip(): Promise<void> {
    const order = this.#order;
    if (!order || !hasPaymentSlip(order) || this.#busy) return;
    await this.#act('slip', async () => {
      if (this.#deps.networkPrinter()) {
        const result = await this.#deps.api.printPaymentSlip(order.id);
        this.#notice = result.ok
          ? { kind: 'slip_printed' }
          : { kind: 'slip_failed', ...(result.reason ? { reason: result.reason } : {}) };
        return;
      }
      const { html } = await this.#deps.api.paymentSlip(order.id, { paper: this.#deps.paper() });
      await this.#deps.printDocument(html);
    });
  }

  #markPrinted(orderId: string): void {
    this.#printed.add(orderId);
  }

  /** The automatic receipt: once per order, when the order on the panel is paid and nothing else is running. */
  #autoPrintWhenDue(): void {
    const order = this.#order;
    if (!order || order.state !== 'paid' || this.#busy || !this.#deps.autoPrint()) return;
    if (this.#printed.has(order.id) || this.#autoTried.has(order.id)) return;
    this.#autoTried.add(order.id);
    void this.printReceipt(order.id, false, true);
  }

  async #act(kind: PanelAction, run: () => Promise<void>): Promise<void> {
    this.#busy = kind;
    this.#notice = null;
    try {
      await run();
    } catch (err) {
      this.#notice = { kind: 'error', error: toCallError(err) };
    } finally {
      this.#busy = null;
    }
    // An order that turned paid while something ran gets its automatic receipt now.
    this.#autoPrintWhenDue();
  }
}
