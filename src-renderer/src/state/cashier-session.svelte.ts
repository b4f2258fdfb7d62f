import type { CatalogueItem, LiveEvent } from '../../../src-main/common/api';
import type { AppInfo } from '../../../src-main/common/app-info';
import type { TillStatus } from '../../../src-main/common/manager';
import type { Order } from '../../../src-main/common/order';
import type { PaymentMethod } from '../../../src-main/common/payment-methods';
import type { CashierClient, ConnectionStatus } from '../api/client';
import { toCallError, type CallError } from '../api/errors';
import { i18n } from '../i18n/i18n.svelte';
import { printHtml } from '../lib/print';
import { markOrderEvent } from '../lib/timing';
import { ChargeManager, PAYMENT_STATES_SHOWN } from './charge.svelte';
import { LatePaymentsManager } from './late-payments.svelte';
import { ManagerSession } from './manager-session.svelte';
import { PaymentPanelManager } from './payment-panel.svelte';
import { PreferencesManager } from './preferences.svelte';
import { systemNow } from './store-day';
import { TillManager } from './till.svelte';
import { TodayOrdersManager } from './today-orders.svelte';
import { RefundManager } from './refund.svelte';

export type Tab = 'sale' | 'today' | 'manager';

/** Used until the store's own zone is known. */
const DEFAULT_TIME_ZONE = 'Asia/Jakarta';

/**
 * The cashier screen: what Loket offers, the live channel, the tab on show, and the managers, wired together
 * (a charge that gives an order hands it to the payment panel; every live event reaches each manager; an
 * `info` event brings the mode, the store and who is signed in at the till).
 */
export class CashierSession {
  #info = $state.raw<AppInfo | null>(null);
  #methods = $state.raw<PaymentMethod[]>([]);
  #items = $state.raw<CatalogueItem[]>([]);
  #loadError = $state.raw<CallError | null>(null);
  #connection = $state<ConnectionStatus>('connecting');
  #tab = $state<Tab>('sale');
  /** The tender screen asked for the shift screen (cash needs an open shift): the shift screen answers it. */
  #shiftRequested = $state(false);

  readonly preferences = new PreferencesManager();
  readonly payment: PaymentPanelManager;
  readonly charge: ChargeManager;
  readonly today: TodayOrdersManager;
  /** The refund dialog (docs/tenders.md, "The refund screen"). */
  readonly refund: RefundManager;
  readonly till: TillManager;
  readonly manager: ManagerSession;
  /** Payments that came in after their sale ended: shown on every screen until seen. */
  readonly late: LatePaymentsManager;

  readonly #client: CashierClient;
  readonly #cleanups: (() => void)[] = [];

  constructor(
    client: CashierClient,
    options: {
      now?: () => Date;
      /** The browser's print of a receipt document; tests count the prints. */
      printDocument?: (html: string) => Promise<void>;
    } = {},
  ) {
    this.#client = client;
    const api = client.api;
    const nowMs = options.now ? () => options.now!().getTime() : Date.now;
    this.till = new TillManager({ api, now: nowMs });
    this.manager = new ManagerSession({
      api,
      till: () => this.till.status,
      now: nowMs,
      deliverExport: (ticket) => client.deliverExport(ticket),
      printDocument: options.printDocument ?? ((html) => printHtml(html, i18n.t.day.frameTitle)),
    });
    this.payment = new PaymentPanelManager({
      api,
      training: () => this.training,
      networkPrinter: () => this.#info?.networkPrinter ?? false,
      paper: () => this.preferences.paper,
      autoPrint: () => this.#info?.autoPrint ?? false,
      printDocument: options.printDocument ?? ((html) => printHtml(html, i18n.t.receipt.frameTitle)),
    });
    this.charge = new ChargeManager({
      api,
      methods: () => this.#methods,
      blocked: () =>
        this.payment.order !== null ||
        this.payment.sale !== null ||
        this.payment.busy !== null ||
        this.till.needsSignIn,
      onStart: () => this.payment.clearNotice(),
      onPayment: (order, sale) => this.payment.show(order, sale ? { sale } : {}),
      onSaleDone: (sale) => this.payment.showSale(sale),
    });
    this.today = new TodayOrdersManager({ api, timeZone: () => this.timeZone, now: options.now ?? systemNow });
    this.late = new LatePaymentsManager({ api });
    this.refund = new RefundManager({
      api,
      paper: () => this.preferences.paper,
      networkPrinter: () => this.#info?.networkPrinter ?? false,
      printDocument: options.printDocument ?? ((html) => printHtml(html, i18n.t.refund.receipt)),
    });
  }

  get info(): AppInfo | null {
    return this.#info;
  }

  get methods(): readonly PaymentMethod[] {
    return this.#methods;
  }

  get items(): readonly CatalogueItem[] {
    return this.#items;
  }

  get loadError(): CallError | null {
    return this.#loadError;
  }

  get connection(): ConnectionStatus {
    return this.#connection;
  }

  get tab(): Tab {
    return this.#tab;
  }

  get training(): boolean {
    return this.#info?.mode === 'sandbox';
  }

  get timeZone(): string {
    return this.#info?.timeZone ?? DEFAULT_TIME_ZONE;
  }

  /**
   * Cash was refused (or would be) because no shift is open at this till, and the cashier asked to open one. The
   * shift screen (its own component) opens when this turns true and calls `shiftRequestHandled()`; once a shift is
   * open, `shiftOpened()` lets the tender screen take cash again.
   */
  get shiftRequested(): boolean {
    return this.#shiftRequested;
  }

  requestOpenShift(): void {
    this.#shiftRequested = true;
  }

  shiftRequestHandled(): void {
    this.#shiftRequested = false;
  }

  shiftOpened(): void {
    this.#shiftRequested = false;
    this.charge.tenders.shiftOpened();
  }

  /** A new sale may start: nothing is waiting for payment. */
  get canStartNew(): boolean {
    return this.payment.canStartNew;
  }

  /** Something on either tab is in flight that the other actions wait for. */
  get busy(): boolean {
    return this.payment.busy !== null || this.charge.checking;
  }

  async load(): Promise<void> {
    this.#cleanups.push(this.#client.live.subscribe((event) => this.#onEvent(event)));
    let wasDown = false;
    this.#cleanups.push(
      this.#client.live.onStatus((status) => {
        this.#connection = status;
        if (status === 'down') wasDown = true;
        if (status === 'open' && wasDown) {
          wasDown = false;
          void this.#resync();
        }
      }),
    );
    try {
      const [info, methods, items, till] = await Promise.all([
        this.#client.api.appInfo(),
        this.#client.api.listMethods(),
        this.#client.api.listItems(),
        this.#client.api.tillStatus(),
      ]);
      this.preferences.applyLanguage(info.lang);
      this.till.observe(till);
      this.#info = info;
      this.#methods = methods;
      this.#items = items;
      this.charge.form.offerMethods(methods);
    } catch (err) {
      this.#loadError = toCallError(err);
      return;
    }
    await this.#restoreSale(true);
    // The cart in progress before a reload or a restart (none stored, or not reachable: an empty cart).
    await this.charge.cart.load().catch(() => undefined);
    await this.late.load();
  }

  /**
   * The sale on the customer display, as the server keeps it across reloads and restarts, comes back to this
   * screen exactly as it was: waiting (the payment panel), paid (printed or not), ended, or with an open
   * outcome (the message that says not to charge again). The two screens never show two different sales.
   */
  async #restoreSale(firstLoad: boolean): Promise<void> {
    let current: Awaited<ReturnType<CashierClient['api']['currentSale']>>;
    try {
      current = await this.#client.api.currentSale();
    } catch {
      // Nothing to restore could be learned; the next reconnect asks again.
      return;
    }
    if (this.charge.charging) return;
    if (!current) {
      // The sale was taken off the display elsewhere (parked, or a new sale): a waiting order leaves the panel.
      if (!firstLoad && this.payment.order?.state === 'awaiting_payment') this.payment.clear();
      return;
    }
    const { order, receiptPrinted } = current;
    if (PAYMENT_STATES_SHOWN.includes(order.state)) {
      if (this.payment.order?.id === order.id) {
        this.payment.observe(order);
        return;
      }
      this.charge.clearProblem();
      this.payment.show(order, { receiptPrinted, restored: firstLoad });
    } else {
      const problem = this.charge.problem;
      if (problem && problem.kind !== 'error' && problem.kind !== 'waiting' && problem.order?.id === order.id) {
        this.charge.observe(order);
        return;
      }
      this.payment.clear();
      this.charge.restore(order);
    }
  }

  /** Another sale holds the display (a charge was refused for it): that sale comes onto the panel. */
  async showWaitingSale(): Promise<void> {
    this.charge.clearProblem();
    await this.#restoreSale(false);
  }

  /**
   * Parks the waiting sale: off the display and the panel, still waiting for payment and watched; it is
   * resumed from today's list. What the form holds (a sale typed before) stays.
   */
  async park(): Promise<boolean> {
    return this.payment.park();
  }

  /** After an expired, failed or cancelled sale: the form again, with the same amount, item and method. */
  async chargeAgain(): Promise<void> {
    const order = this.payment.order;
    if (!order || !['expired', 'failed', 'cancelled'].includes(order.state)) return;
    this.selectTab('sale');
    this.payment.clear();
    this.charge.chargeAgain(order);
    try {
      await this.#client.api.showOnDisplay(null);
    } catch {
      // The display keeps the last order until the next one; nothing is lost.
    }
  }

  dispose(): void {
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
    this.charge.cart.dispose();
    this.#client.live.close();
  }

  selectTab(tab: Tab): void {
    const was = this.#tab;
    this.#tab = tab;
    if (tab === 'today') void this.today.open();
    // Back in the manager's area: what it shows may have changed meanwhile (and the session may have ended).
    if (tab === 'manager' && was !== 'manager') {
      this.manager.checkIdle();
      if (this.manager.phase === 'open') void this.manager.refresh();
    }
  }

  /** Clears the sale and sends the customer display back to its welcome screen. */
  async newSale(): Promise<void> {
    if (!this.canStartNew) return;
    this.selectTab('sale');
    // An open outcome is dismissed on purpose, never swept away by F2.
    if (this.charge.outcomeOpen || this.charge.charging) return;
    this.payment.clear();
    this.charge.startOver();
    try {
      await this.#client.api.showOnDisplay(null);
    } catch {
      // The display keeps the last order until the next one; nothing is lost.
    }
  }

  /** Back to the payment panel of an order still waiting for payment (from today's list). */
  async resume(order: Order): Promise<void> {
    if (!this.canStartNew || this.charge.outcomeOpen || this.charge.charging || order.state !== 'awaiting_payment')
      return;
    this.charge.clearProblem();
    this.selectTab('sale');
    await this.payment.resume(order);
  }

  #onEvent(event: LiveEvent): void {
    if (event.type === 'order') this.#route(event.order);
    else if (event.type === 'info') this.#onInfo(event.info, event.till);
  }

  /** The mode, the store or the till changed: the header follows, and the methods on offer may have too. */
  #onInfo(info: AppInfo, till: TillStatus): void {
    this.#info = info;
    this.till.observe(till);
    void this.#reloadMethods();
  }

  async #reloadMethods(): Promise<void> {
    try {
      const methods = await this.#client.api.listMethods();
      this.#methods = methods;
      this.charge.form.offerMethods(methods);
    } catch {
      // The next info event or reconnect brings them.
    }
  }

  #route(order: Order): void {
    markOrderEvent();
    this.charge.observe(order);
    this.payment.observe(order);
    this.today.observe(order);
    this.late.observe(order);
  }

  /** After the live channel comes back: events may have been missed. */
  async #resync(): Promise<void> {
    try {
      const [info, till] = await Promise.all([this.#client.api.appInfo(), this.#client.api.tillStatus()]);
      this.#onInfo(info, till);
    } catch {
      // The next event or reconnect brings them.
    }
    const problem = this.charge.problem;
    const ids = [
      this.payment.order?.id,
      problem && problem.kind !== 'error' && problem.kind !== 'waiting' ? problem.order?.id : undefined,
    ];
    for (const id of ids) {
      if (!id) continue;
      try {
        const order = await this.#client.api.getOrder(id);
        if (order) this.#route(order);
      } catch {
        // The next event or reconnect brings it.
      }
    }
    // The server's current sale wins: the two screens never show two different sales.
    await this.#restoreSale(false);
    await this.today.reload();
    await this.late.load();
  }
}
