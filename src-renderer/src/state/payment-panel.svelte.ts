import type { LoketApi } from '../../../src-main/common/api';
import type { Order } from '../../../src-main/common/order';
import { toCallError } from '../api/errors';
import { i18n } from '../i18n/i18n.svelte';
import { describeError } from './describe-error';
import { isNotOlder } from './order-time';
import type { Paper } from './preferences.svelte';

export type PanelAction = 'simulate' | 'cancel' | 'print';

/** The outcome of the last action on the panel (a print result, a failed simulation, …). */
export interface Notice {
  ok: boolean;
  text: string;
}

export interface PaymentPanelDeps {
  api: Pick<LoketApi, 'simulatePayment' | 'cancelOrder' | 'printReceipt' | 'receipt' | 'showOnDisplay'>;
  /** Training mode (the embedded sandbox): payments can be simulated. */
  training: () => boolean;
  /** Receipts go to a network printer rather than the browser's print dialog. */
  networkPrinter: () => boolean;
  paper: () => Paper;
}

/** The order being paid, kept current by live events, and what the cashier can do with it. */
export class PaymentPanelManager {
  #order = $state.raw<Order | null>(null);
  #busy = $state<PanelAction | null>(null);
  #notice = $state.raw<Notice | null>(null);
  #receiptHtml = $state<string | null>(null);
  #cancelOpen = $state(false);
  /** Why a cancel was refused: shown in the dialog, where the cashier is looking, rather than behind it. */
  #cancelError = $state<string | undefined>(undefined);
  readonly #deps: PaymentPanelDeps;

  constructor(deps: PaymentPanelDeps) {
    this.#deps = deps;
  }

  get order(): Order | null {
    return this.#order;
  }

  get busy(): PanelAction | null {
    return this.#busy;
  }

  get notice(): Notice | null {
    return this.#notice;
  }

  get receiptHtml(): string | null {
    return this.#receiptHtml;
  }

  get cancelOpen(): boolean {
    return this.#cancelOpen;
  }

  get cancelError(): string | undefined {
    return this.#cancelError;
  }

  /** A new sale may start: nothing is waiting for payment. */
  get canStartNew(): boolean {
    return this.#order?.state !== 'awaiting_payment';
  }

  /** An order to follow: the one just charged, or one a check found. */
  show(order: Order): void {
    this.#notice = null;
    this.#order = order;
  }

  /**
   * Back to an order still waiting for payment (after a reload, from today's list), shown to the customer
   * again; if the display cannot be told, the cashier is.
   */
  async resume(order: Order): Promise<void> {
    this.show(order);
    try {
      await this.#deps.api.showOnDisplay(order.id);
    } catch (err) {
      this.#notice = { ok: false, text: describeError(toCallError(err), i18n.t) };
    }
  }

  /** A live event or an answer about the order on the panel; older news than shown is ignored. */
  observe(order: Order): void {
    if (this.#order?.id === order.id && isNotOlder(order, this.#order)) this.#order = order;
  }

  /** The sale is over: an empty panel. */
  clear(): void {
    this.#order = null;
    this.#notice = null;
    this.#receiptHtml = null;
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
      this.#cancelError = describeError(toCallError(err), i18n.t);
      return false;
    } finally {
      this.#busy = null;
    }
  }

  /**
   * The receipt: on the network printer when there is one (its answer is shown; a failure never undoes the
   * sale), else as HTML for the preview and the browser's print dialog, which is returned.
   */
  async printReceipt(orderId: string, copy: boolean): Promise<string | null> {
    if (this.#busy) return null;
    let html: string | null = null;
    await this.#act('print', async () => {
      const t = i18n.t;
      if (this.#deps.networkPrinter()) {
        const result = await this.#deps.api.printReceipt(orderId, { copy });
        this.#notice = { ok: result.ok, text: result.ok ? t.payment.printed : t.payment.printFailed(result.message) };
        return;
      }
      html = (await this.#deps.api.receipt(orderId, { paper: this.#deps.paper(), copy })).html;
      this.#receiptHtml = html;
    });
    return html;
  }

  closeReceipt(): void {
    this.#receiptHtml = null;
  }

  async #act(kind: PanelAction, run: () => Promise<void>): Promise<void> {
    this.#busy = kind;
    this.#notice = null;
    try {
      await run();
    } catch (err) {
      this.#notice = { ok: false, text: describeError(toCallError(err), i18n.t) };
    } finally {
      this.#busy = null;
    }
  }
}
