import type { CatalogueItem, ChargeFailure, ChargeResult, LiveEvent } from '../../../src-main/common/api';
import type { AppInfo } from '../../../src-main/common/app-info';
import type { Order, OrderState } from '../../../src-main/common/order';
import type { PaymentMethod } from '../../../src-main/common/payment-methods';
import { toCallError, type CallError, type CashierClient, type ConnectionStatus } from '../api';
import { i18n, isLang, type Messages } from '../i18n/i18n.svelte';
import { Emitter } from '../lib/emitter';
import { loadPreference, savePreference } from '../lib/storage';
import { SaleForm } from './sale-form.svelte';

export type Paper = 58 | 80;

/** A charge that did not give a payment to wait for, other than field issues (those stay on the form). */
export type Problem = { kind: 'failure'; failure: ChargeFailure; order?: Order } | { kind: 'error'; error: CallError };

/** What a charge led to, so the view can move the focus to the right place. */
export type ChargeOutcome = 'payment' | 'issues' | 'problem' | 'busy';

export const PAYMENT_STATES_SHOWN: readonly OrderState[] = [
  'awaiting_payment',
  'paid',
  'expired',
  'cancelled',
  'failed',
];
const PAPER_KEY = 'loket.paper';
const LANG_KEY = 'loket.lang';

/** Words for an API error in the screen's language; the server's own words are kept where they help. */
export function describeError(error: CallError, t: Messages): string {
  switch (error.code) {
    case 'network':
      return t.errors.network;
    case 'forbidden':
      return error.status === 401 ? t.errors.forbidden : t.errors.other(error.message);
    case 'conflict':
      return t.errors.conflict(error.message);
    case 'not_found':
      return t.errors.notFound;
    default:
      return t.errors.other(error.message);
  }
}

/**
 * The cashier screen's state: what Loket offers (methods, items), the sale being typed, the charge in flight,
 * its outcome, and the order on the payment panel, kept current by live events.
 */
export class CashierStore {
  info = $state.raw<AppInfo | null>(null);
  methods = $state.raw<PaymentMethod[]>([]);
  items = $state.raw<CatalogueItem[]>([]);
  loadError = $state.raw<CallError | null>(null);
  connection = $state<ConnectionStatus>('connecting');

  readonly form = new SaleForm();
  charging = $state(false);
  problem = $state.raw<Problem | null>(null);
  /** The order on the payment panel. */
  current = $state.raw<Order | null>(null);
  /** An action on the payment panel in flight. */
  busy = $state<null | 'retry' | 'simulate' | 'cancel' | 'print'>(null);
  /** The outcome of the last action on the panel (print result, a refused cancel, …). */
  notice = $state.raw<{ ok: boolean; text: string } | null>(null);
  receiptHtml = $state<string | null>(null);
  paper = $state<Paper>(loadPreference(PAPER_KEY) === '80' ? 80 : 58);
  tab = $state<'sale' | 'today'>('sale');

  selectedMethod = $derived(this.methods.find((m) => m.id === this.form.methodId));
  /**
   * The last order may exist at the gateway: charging again could take the money twice. The cashier checks
   * again, or dismisses the message (having read it) before a new charge.
   */
  outcomeUnknown = $derived.by(() => {
    const problem = this.problem;
    if (problem?.kind !== 'failure') return false;
    if (problem.failure.class === 'not_sent') return false;
    return (
      problem.order?.state === 'unknown' || problem.failure.class === 'unknown' || problem.failure.class === 'malformed'
    );
  });
  training = $derived(this.info?.mode === 'sandbox');
  /** A new sale may start: nothing is waiting for payment. */
  canStartNew = $derived(!this.current || this.current.state !== 'awaiting_payment');

  private readonly orderEvents = new Emitter<Order>();
  /** The last few orders seen on the live channel, by id (plain Map: bookkeeping, not shown). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly latest = new Map<string, Order>();
  private readonly reconnects = new Emitter<void>();
  private readonly cleanups: (() => void)[] = [];

  constructor(readonly client: CashierClient) {}

  async load(): Promise<void> {
    this.cleanups.push(this.client.live.subscribe((event) => this.onEvent(event)));
    let wasDown = false;
    this.cleanups.push(
      this.client.live.onStatus((status) => {
        this.connection = status;
        if (status === 'down') wasDown = true;
        if (status === 'open' && wasDown) {
          wasDown = false;
          void this.resync();
        }
      }),
    );
    try {
      const [info, methods, items] = await Promise.all([
        this.client.api.appInfo(),
        this.client.api.listMethods(),
        this.client.api.listItems(),
      ]);
      const saved = loadPreference(LANG_KEY);
      i18n.set(isLang(saved) ? saved : info.lang);
      this.info = info;
      this.methods = methods;
      this.items = items;
      if (!methods.some((m) => m.id === this.form.methodId)) this.form.methodId = methods[0]?.id ?? '';
    } catch (err) {
      this.loadError = toCallError(err);
    }
  }

  dispose(): void {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.client.live.close();
  }

  setLang(lang: AppInfo['lang']): void {
    i18n.set(lang);
    savePreference(LANG_KEY, lang);
  }

  setPaper(paper: Paper): void {
    this.paper = paper;
    savePreference(PAPER_KEY, String(paper));
  }

  /** Every order change, for lists that follow them (today's orders). */
  onOrder(listener: (order: Order) => void): () => void {
    return this.orderEvents.on(listener);
  }

  /** After the live channel comes back: events may have been missed. */
  onReconnect(listener: () => void): () => void {
    return this.reconnects.on(listener);
  }

  private onEvent(event: LiveEvent): void {
    if (event.type !== 'order') return;
    // A live event can overtake the call's own answer (a fast callback): remember it for settle().
    this.latest.set(event.order.id, event.order);
    if (this.latest.size > 50) this.latest.delete(this.latest.keys().next().value!);
    this.applyOrder(event.order);
    this.orderEvents.emit(event.order);
  }

  /** The call's answer, or the live event about the same order if that one is newer. */
  private newest(order: Order): Order {
    const seen = this.latest.get(order.id);
    return seen && seen.updatedAt > order.updatedAt ? seen : order;
  }

  private applyOrder(order: Order): void {
    if (this.current?.id === order.id) {
      // Events can arrive out of order with a call's answer: never step back in time.
      if (order.updatedAt >= this.current.updatedAt) this.current = order;
      return;
    }
    const pending = this.problem?.kind === 'failure' ? this.problem.order : undefined;
    if (pending?.id === order.id && this.problem?.kind === 'failure') {
      if (PAYMENT_STATES_SHOWN.includes(order.state)) {
        // An order whose outcome was unknown turned out to exist: follow it on the payment panel.
        this.problem = null;
        this.current = order;
      } else {
        this.problem = { ...this.problem, order };
      }
    }
  }

  private async resync(): Promise<void> {
    const id = this.current?.id;
    if (id) {
      try {
        const order = await this.client.api.getOrder(id);
        if (order) this.applyOrder(order);
      } catch {
        // The next event or reconnect brings it.
      }
    }
    this.reconnects.emit();
  }

  async charge(): Promise<ChargeOutcome> {
    if (this.charging || this.busy || this.current || this.outcomeUnknown) return 'busy';
    this.charging = true;
    this.problem = null;
    this.notice = null;
    try {
      const result = await this.client.api.createOrder(this.form.toChargeInput(this.selectedMethod));
      return this.settle(result);
    } catch (err) {
      const error = toCallError(err);
      // Loket unreachable or failing mid-call: the order may have reached the gateway. Treat it as an
      // unknown outcome, so Charge stays blocked until the cashier has read the message.
      this.problem =
        error.code === 'network' || error.code === 'internal'
          ? {
              kind: 'failure',
              failure: { class: 'unknown', retry: 'may_exist', message: describeError(error, i18n.t) },
            }
          : { kind: 'error', error };
      return 'problem';
    } finally {
      this.charging = false;
    }
  }

  /** Not sent: send the same order again. Unknown: ask again (the same id, so never a second payment). */
  async retry(): Promise<ChargeOutcome> {
    const order = this.problem?.kind === 'failure' ? this.problem.order : undefined;
    if (!order) return this.charge();
    if (this.busy) return 'busy';
    this.busy = 'retry';
    try {
      return this.settle(await this.client.api.retryOrder(order.id));
    } catch (err) {
      // The check itself failed: the order's outcome is as open as before, so its warning stays.
      const problem = this.problem;
      if (problem?.kind === 'failure') {
        this.problem = {
          ...problem,
          failure: { ...problem.failure, message: describeError(toCallError(err), i18n.t) },
        };
      }
      return 'problem';
    } finally {
      this.busy = null;
    }
  }

  private settle(result: ChargeResult): ChargeOutcome {
    this.form.issues = [];
    if (result.ok) {
      this.problem = null;
      this.current = this.newest(result.order);
      return 'payment';
    }
    const { failure } = result;
    const order = result.order ? this.newest(result.order) : undefined;
    if (failure.class === 'invalid_input' && failure.issues?.length) {
      this.form.issues = failure.issues;
      this.problem = null;
      return 'issues';
    }
    if (order && PAYMENT_STATES_SHOWN.includes(order.state)) {
      this.problem = null;
      this.current = order;
      return 'payment';
    }
    this.problem = { kind: 'failure', failure, ...(order ? { order } : {}) };
    return 'problem';
  }

  /** The cashier has read the message: the customer display stops showing that order. */
  dismissProblem(): void {
    this.problem = null;
    void this.client.api.showOnDisplay(null).catch(() => undefined);
  }

  /**
   * Back to the payment panel of an order still waiting for payment (after a reload, or from today's list),
   * and shows it to the customer again.
   */
  async resume(order: Order): Promise<void> {
    if (!this.canStartNew || this.outcomeUnknown || this.charging || order.state !== 'awaiting_payment') return;
    this.problem = null;
    this.notice = null;
    this.current = order;
    this.tab = 'sale';
    try {
      await this.client.api.showOnDisplay(order.id);
    } catch (err) {
      this.notice = { ok: false, text: describeError(toCallError(err), i18n.t) };
    }
  }

  async simulatePayment(): Promise<void> {
    const order = this.current;
    if (!order || !this.training || order.state !== 'awaiting_payment' || this.busy) return;
    await this.act('simulate', async () => this.applyOrder(await this.client.api.simulatePayment(order.id)));
  }

  async cancel(reason: string): Promise<boolean> {
    const order = this.current;
    if (!order || this.busy) return false;
    return this.act('cancel', async () => this.applyOrder(await this.client.api.cancelOrder(order.id, reason)));
  }

  /**
   * The receipt: on the network printer when there is one (its answer is shown; a failure never undoes the
   * sale), else as HTML for the preview and the browser's print dialog.
   */
  async printReceipt(orderId: string, copy: boolean): Promise<string | null> {
    if (this.busy) return null;
    let html: string | null = null;
    await this.act('print', async () => {
      const t = i18n.t;
      if (this.info?.networkPrinter) {
        const result = await this.client.api.printReceipt(orderId, { copy });
        this.notice = { ok: result.ok, text: result.ok ? t.payment.printed : t.payment.printFailed(result.message) };
        return;
      }
      html = (await this.client.api.receipt(orderId, { paper: this.paper, copy })).html;
      this.receiptHtml = html;
    });
    return html;
  }

  private async act(kind: NonNullable<CashierStore['busy']>, run: () => Promise<void>): Promise<boolean> {
    this.busy = kind;
    this.notice = null;
    try {
      await run();
      return true;
    } catch (err) {
      this.notice = { ok: false, text: describeError(toCallError(err), i18n.t) };
      return false;
    } finally {
      this.busy = null;
    }
  }

  /** Clears the sale and sends the customer display back to its welcome screen. */
  async newSale(): Promise<void> {
    // An unknown outcome is dismissed on purpose, never swept away by F2.
    if (!this.canStartNew || this.outcomeUnknown || this.charging) return;
    this.current = null;
    this.problem = null;
    this.notice = null;
    this.receiptHtml = null;
    this.form.reset();
    this.tab = 'sale';
    try {
      await this.client.api.showOnDisplay(null);
    } catch {
      // The display keeps the last order until the next one; nothing is lost.
    }
  }
}
