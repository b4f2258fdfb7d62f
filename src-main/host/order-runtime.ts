import { ApiError, type LiveEvent } from '../common/api';
import type { Order } from '../common/order';
import { reason } from '../common/reasons';
import type { LoketSettings } from '../common/settings';
import { AppService, type AppServiceDeps, type ReceiptPort } from '../core/app-service';
import { CallGate } from '../core/call-gate';
import { startCallbackListener, type CallbackListener } from '../core/confirmation/callback-listener';
import type { Clock } from '../core/ports';
import { buildReceipt } from '../core/receipts/receipt-model';
import { renderReceiptHtml } from '../core/receipts/receipt-html';
import { buildPaymentSlip } from '../core/receipts/slip-model';
import { openLoket, type Loket, type OpenOptions, type StoreBooks } from '../runtime';
import { AuditLog, staffActor, type AuditActor } from '../core/audit/audit-log';
import { renderReportHtml } from '../core/reports/report-html';
import { printerDrawer, type DrawerPort } from '../core/shifts/drawer';
import { Counter } from '../core/counter/counter';
import { UNPAID_END } from '../core/counter/sale-follows-order';
import { ShiftApi } from '../core/shifts/shift-api';
import { ShiftBook } from '../core/shifts/shift-book';
import { buildShiftReportDoc } from '../core/shifts/shift-report-doc';
import { cashSettingsOf, ShiftService } from '../core/shifts/shift-service';
import type { ProductStore } from '../core/products/product-store';
import type { CashLedger } from '../core/shifts/cash-ledger';
import { displayCartOf, displaySaleOf } from '../core/display-cart';
import { saleReceiptHtml } from '../core/receipts/sale-receipt-render';
import type { SaleReceiptPort } from '../core/sales/sale-service';
import { SaleService } from '../core/sales/sale-service';
import { SaleStore } from '../core/sales/sale-store';
import { RefundApi } from '../core/sales/refund-api';
import { RefundService } from '../core/sales/refund-service';
import { RefundStore } from '../core/sales/refund-store';
import { SaleShiftTenders } from '../core/sales/shift-tenders';
import { SalesBeingPaid } from '../core/sales/sales-being-paid';
import { loadSaleSettings } from '../core/settings/sale-settings';
import { OrderWatch } from './order-watch';
import { startPendingWrites } from './pending-writes';
import { receiptContext, type HostPrinting } from './printing';

/** One order runtime with everything that runs around it. */
export interface Running {
  readonly loket: Loket;
  readonly app: AppService;
  /** This till's shifts, on the order log in use (its service's `ledger` is the CashLedger a sale's cash goes through). */
  readonly shifts: ShiftApi;
  /** The sale at the counter (cart, tenders), over the same order log; its cash goes through the shift's ledger. */
  readonly sales: SaleService;
  /** Refunds of the sales of the same order log; a cash refund goes through the shift's ledger. */
  readonly refunds: RefundApi;
  close(): Promise<void>;
}

/** What the order runtime needs of the host around it. */
export interface OrderRuntimeDeps {
  /** How the host was asked to open Loket (data folder, environment, secrets, the sandbox's options). */
  open: OpenOptions;
  store: StoreBooks;
  clock: Clock;
  log: (line: string) => void;
  printing: HostPrinting;
  /** The AppService's parts that are the host's, not the runtime's: read at each call. */
  service: Pick<AppServiceDeps, 'info' | 'display' | 'items' | 'till'> & {
    /** Why no payment may be taken now (the order log failed its integrity check): every charge is refused with it. */
    refusal?: () => string | undefined;
  };
  /** The store's settings now. */
  settings: () => LoketSettings;
  /** The live events of the runtime in use, to the host's listeners. */
  emit: (event: LiveEvent) => void;
  /** The store's catalogue (in the store's books, shared by training and live). */
  products: ProductStore;
  /** Another drawer ledger for a sale's cash than this runtime's shifts (tests); absent: the shifts' own. */
  cashLedger?: ((loket: Loket) => CashLedger | undefined) | undefined;
}

/**
 * The order runtime in use — the order log and gateway, a callback listener, polling for orders waiting for payment,
 * receipts and the order API — and its rebuilding when the manager switches between training and live (or changes
 * the live gateway): calls in flight finish first, and calls arriving meanwhile wait (the gate), so no charge is cut
 * off half-way. When live cannot start (e.g. the listener's port is taken) it runs in training mode, saying why.
 */
export class OrderRuntime {
  /** The order and books methods pass through it: they wait while the runtime is rebuilt. */
  readonly gate = new CallGate();
  private running!: Running;

  private constructor(private readonly deps: OrderRuntimeDeps) {}

  static async start(deps: OrderRuntimeDeps): Promise<OrderRuntime> {
    const runtime = new OrderRuntime(deps);
    runtime.running = await runtime.runOrTrain();
    return runtime;
  }

  get current(): Running {
    return this.running;
  }

  /** A new order runtime once every call in flight has finished; calls arriving meanwhile wait for it. */
  async rebuild(): Promise<void> {
    await this.gate.exclusive(async () => {
      await this.running.close();
      this.running = await this.runOrTrain();
      const loket = this.running.loket;
      this.deps.log(`now ${loket.training ? 'in training mode' : 'live'}: ${loket.gatewayDescription}`);
    });
  }

  /** Closes the runtime once the calls in flight have finished: `before` and `after` it run in the same exclusive turn. */
  async close(before: () => void, after: () => void): Promise<void> {
    await this.gate.exclusive(async () => {
      before();
      await this.running.close();
      after();
    });
  }

  /** The settings' runtime; when live cannot start, training, saying why. */
  private async runOrTrain(): Promise<Running> {
    try {
      return await this.run();
    } catch (err) {
      if (this.deps.settings().mode !== 'live') throw err;
      const why = `Live mode could not start (${(err as Error).message}); Loket runs in training mode until then.`;
      this.deps.log(why);
      return this.run(why);
    }
  }

  /** Opens the order runtime the settings ask for, and starts what runs around it. */
  private async run(trainingBecause?: string): Promise<Running> {
    const { store, clock, log } = this.deps;
    const loket = await openLoket({
      ...this.deps.open,
      store,
      clock,
      whenLiveUnavailable: 'training',
      ...(trainingBecause ? { forceTraining: trainingBecause } : {}),
    });
    let watch: OrderWatch | undefined;
    let listener: CallbackListener | undefined;
    try {
      const configured = loket.training ? null : loket.settings.callbackListener;
      // Training mode: the embedded sandbox calls back on loopback. A live gateway needs a listener it can reach.
      if (loket.sandbox || configured) {
        const client = loket.client.config;
        listener = await startCallbackListener({
          host: configured?.host ?? '127.0.0.1',
          port: configured?.port ?? 0,
          path: configured?.path ?? '/loket/callback',
          appId: client.appId,
          key: await loket.signingKey(),
          encoding: client.signing.encoding,
          orders: loket.orders,
          log: loket.log,
          receipts: loket.receipts,
          report: (line) => log(`callback: ${line}`),
        });
        loket.orders.setNotificationUrl(configured?.publicUrl ?? listener.url);
      }
      watch = new OrderWatch(loket, clock, log);
      const memory = (key: 'sale') => {
        const name = `counter.${key}.${loket.training ? 'training' : 'live'}`;
        return {
          load: () => store.settings.get<string | null>(name) ?? null,
          save: (id: string | null) => store.settings.set(name, id),
        };
      };
      const sandbox = loket.sandbox;
      // One drawer for the shift's own movements and the counter's cash (opened once a charge has committed).
      const drawer = printerDrawer(() => this.deps.printing.drawer(this.deps.settings()));
      // The audit log of the order log's own database: live, the store's; in training, the training log's (its members
      // of staff stand in): an entry commits with the change it records.
      const audit = loket.training ? new AuditLog(loket.db, clock, { standInStaff: true }) : store.audit;
      const shifts = this.shifts(loket, drawer, audit);
      // What the counter, the sale and its refunds share: one store of sales, one cash ledger (a test's, or the
      // shift's), the settings, the till, the manager's PIN, and the audit log of the order log's own database (its
      // entries commit with the change they record: in training, the training log's).
      const saleStore = new SaleStore(loket.db, clock);
      const saleReceipts = this.saleReceipts(loket);
      const settings = () => loadSaleSettings(store.settings);
      const cashLedger = this.deps.cashLedger?.(loket) ?? shifts.service.ledger;
      const counter = new Counter({
        log: loket.log,
        orders: loket.orders,
        sales: saleStore,
        products: this.deps.products,
        settings,
        terminalId: () => loket.terminalId,
        training: loket.training,
        clock,
        cashLedger,
        audit,
        approveAsManager: (staffId: number, pin: string) => store.access.approveAsManager(staffId, pin),
        drawer,
        refusal: this.deps.service.refusal,
      });
      // The cart being rung up, for the display: the sale service is built after the app service it charges through.
      let cartOnDisplay: () => ReturnType<typeof displayCartOf> = () => null;
      let saleOnDisplay: AppServiceDeps['saleOnDisplay'] = () => null;
      const app = new AppService({
        ...this.deps.service,
        cart: () => cartOnDisplay(),
        saleOnDisplay: (ref) => saleOnDisplay!(ref),
        log: loket.log,
        orders: loket.orders,
        methods: loket.methods,
        clock,
        receipts: this.receipts(loket),
        // The sale in progress survives a restart: remembered in the store's books, per mode (each mode has its own
        // order log). What holds the till is read from the log itself (core/counter/charge-guard.ts).
        saleMemory: memory('sale'),
        ...(sandbox ? { simulatePayment: (id: string) => simulatePayment(loket, id) } : {}),
        watch: watch.watch,
        counter,
        terminalId: () => loket.terminalId,
        typedCategory: () => settings().tax.defaultCategory,
      });
      const atTheCounter = {
        sales: saleStore,
        settings,
        terminalId: () => loket.terminalId,
        training: loket.training,
        clock,
        till: () => ({ staff: this.deps.service.till?.().staff ?? null }),
        approveAsManager: (staffId: number, pin: string) => store.access.approveAsManager(staffId, pin),
        audit,
        cashLedger,
        drawer,
      };
      const sales = new SaleService({
        ...atTheCounter,
        products: this.deps.products,
        log: loket.log,
        counter: app,
        receipts: saleReceipts,
      });
      const refunds = new RefundApi(
        new RefundService({ ...atTheCounter, refunds: new RefundStore(loket.db) }),
        (saleId) => saleStore.get(saleId),
        {
          context: () => {
            const s = this.deps.settings();
            return { store: saleReceipts.store(), lang: s.lang, timeZone: s.timeZone, methods: loket.methods };
          },
          printedAt: () => clock.now(),
          print: (receipt) => this.deps.printing.printReceiptDoc(this.deps.settings(), receipt),
        },
      );
      saleOnDisplay = (ref) => {
        const sale = 'orderId' in ref ? sales.saleOf(ref) : sales.sale(ref);
        return sale ? displaySaleOf(sale) : null;
      };
      cartOnDisplay = () => {
        const cart = sales.currentCart();
        return cart.lines.length === 0 ? null : displayCartOf(cart, sales.quoteSale({ cart }));
      };
      const unsubscribe = app.subscribe(this.deps.emit);
      // A void's cash went back in the void's transaction (core/counter/sale-follows-order.ts); once it has committed,
      // the drawer opens for the cashier to hand it over, whoever voided it (the cashier, the gateway's callback).
      const unwatchVoids = watchVoidedCash(loket, saleStore, drawer, log);
      const pending = startPendingWrites(loket.orders, log);
      watch.watchLeftOver();
      const watching = watch;
      return {
        loket,
        app,
        shifts,
        sales,
        refunds,
        close: async () => {
          pending.stop();
          watching.stop();
          unsubscribe();
          unwatchVoids();
          app.close();
          await listener?.close();
          await loket.close();
        },
      };
    } catch (err) {
      watch?.stop();
      await listener?.close();
      await loket.close();
      throw err;
    }
  }

  /** The shifts of this runtime's order log, the drawer on the receipt printer, X/Z printed as the day's report is. */
  private shifts(loket: Loket, drawer: DrawerPort, audit: AuditLog): ShiftApi {
    const { store, clock, log, settings, printing } = this.deps;
    const service = new ShiftService({
      book: new ShiftBook(loket.db),
      clock,
      terminalId: () => loket.terminalId,
      timeZone: () => settings().timeZone,
      cash: () => cashSettingsOf(settings()),
      drawer,
      approver: store.access,
      // On the order log's own connection, so each change and its entry commit together: the store's books when
      // live (the same file and connection), the training log in training (with stand-ins for the store's staff).
      audit,
      staffName: (id) => store.access.staff.get(id)?.name,
      // The sale is done and its cash written: a drawer that did not open is for the log (and the cashier's hand).
      drawerProblem: (result, cause) => log(`drawer (${cause}): ${result.message}`),
      // The X/Z report's gateway and other tenders, from the sales of the shift.
      tenders: new SaleShiftTenders(loket.db),
      // The close waits for the till's sales still being paid.
      salesBeingPaid: new SalesBeingPaid(loket.db),
    });
    /** Who acts at the till: the member of staff signed in, else the till itself. */
    const actor = (): AuditActor => {
      const staff = this.deps.service.till?.().staff ?? null;
      return staff ? staffActor(staff) : { name: 'till (nobody signed in)', source: 'app' };
    };
    return new ShiftApi(service, {
      actor,
      requireManager: (token) => store.access.requireManager(token),
      doc: (report) => {
        const s = settings();
        return buildShiftReportDoc(report, {
          storeName: s.storeName,
          ...(s.storeAddress ? { storeAddress: s.storeAddress } : {}),
          lang: s.lang,
          printedAt: clock.now(),
          training: loket.training,
          methods: loket.methods,
        });
      },
      html: (doc) => renderReportHtml(doc),
      print: (doc) => printing.printReport(settings(), doc),
    });
  }

  /** A sale's struk: the store's header from the settings, printed where receipts print (the host's printing). */
  private saleReceipts(loket: Loket): SaleReceiptPort {
    const { settings, printing, clock } = this.deps;
    const context = (copy: boolean) => {
      const s = settings();
      return { lang: s.lang, timeZone: s.timeZone, copy, printedAt: clock.now(), methods: loket.methods };
    };
    return {
      store: () => {
        const s = settings();
        return {
          name: s.storeName,
          ...(s.storeAddress ? { address: s.storeAddress } : {}),
          ...(s.receiptHeader ? { headerText: s.receiptHeader } : {}),
          ...(s.receiptFooter ? { footerText: s.receiptFooter } : {}),
        };
      },
      html: (input, { paper, copy }) => saleReceiptHtml(input, { ...context(copy), paper }),
      print: async (input, { copy }) => {
        const printer = printing.saleReceipt(settings());
        if (!printer) return false;
        await printer.send({ input, context: context(copy) });
        return true;
      },
    };
  }

  private receipts(loket: Loket): ReceiptPort {
    const { settings, printing, clock } = this.deps;
    const context = (order: Order) => ({
      ...receiptContext(settings()),
      method: loket.methods.find((m) => m.id === order.methodId),
      training: loket.training,
      printedAt: clock.now(),
    });
    const receiptOf = (order: Order, copy: boolean) => buildReceipt(order, { ...context(order), copy });
    const slipOf = (order: Order) => buildPaymentSlip(order, context(order));
    const printer = () => {
      const chosen = printing.receipt(settings());
      if (!chosen) throw new Error('No printer is set up: print from this screen instead.');
      return chosen;
    };
    return {
      html: (order, { paper, copy }) => renderReceiptHtml(receiptOf(order, copy), { paper }),
      print: async (order, { copy }) => printer().send(receiptOf(order, copy)),
      slipHtml: (order, { paper }) => renderReceiptHtml(slipOf(order), { paper }),
      printSlip: async (order) => {
        const slip = slipOf(order);
        await printer().send(slip);
      },
    };
  }
}

/** Training mode: the customer "pays" at the embedded sandbox, and Loket asks once so the cashier sees it at once. */
async function simulatePayment(loket: Loket, id: string): Promise<void> {
  const sandbox = loket.sandbox!;
  if (!sandbox.orders.get(id)) {
    // The embedded sandbox lives in memory: after a restart it no longer knows earlier orders.
    throw new ApiError(
      'conflict',
      'The training gateway was restarted and no longer knows this order: cancel it and charge again.',
      reason('sale.sandbox_restarted'),
    );
  }
  sandbox.settle(id, 'PAID');
  // Do not wait for the callback: ask once, so the cashier sees "paid" at once. Both paths are idempotent.
  const answer = await loket.client.inquire(id);
  if (answer.ok)
    loket.orders.applyInquiryAnswer(id, answer, { source: 'inquiry', reason: 'training: simulated payment' });
}

/**
 * Opens the drawer once for each sale voided with cash given back, after the change has committed: a screen's matter
 * (the books are written already), so a drawer that does not open is for the log only.
 */
function watchVoidedCash(loket: Loket, sales: SaleStore, drawer: DrawerPort, log: (line: string) => void): () => void {
  const opened = new Set<string>();
  const cashBack = loket.db.prepare<[string], number>(
    "SELECT COUNT(*) FROM shift_events WHERE document_id = ? AND type = 'cash_void'",
  );
  return loket.log.onChange((order) => {
    if (!UNPAID_END.includes(order.state)) return;
    const saleId = sales.saleIdOfOrder(order.id);
    if (saleId === undefined || opened.has(saleId) || cashBack.pluck().get(saleId) === 0) return;
    opened.add(saleId);
    void drawer.open('cash_void').then((result) => {
      if (!result.ok) log(`drawer (cash given back on a void): ${result.message}`);
    });
  });
}
