import type { LiveEvent } from './common/api';
import { ApiError } from './common/api';
import type { AppInfo, Lang } from './common/app-info';
import type { ModeStatus } from './common/manager';
import type { LoketSettings } from './common/settings';
import { loadItemCatalogue, loadPaymentCatalogue } from './core/catalogue';
import { testConnection } from './core/gateway/probe';
import { ManagerService, type SettingsEffect } from './core/manager-service';
import { systemClock } from './core/ports';
import { AuditLog } from './core/audit/audit-log';
import { BooksService } from './core/books-service';
import { ChargesInFlight } from './core/backup/charges-in-flight';
import type { Upkeep } from './core/backup/upkeep';
import { liveCredentialsProblem, openStoreBooks, type Loket, type OpenOptions, type StoreBooks } from './runtime';
import { reason } from './common/reasons';
import { readDocsSection } from './core/docs';
import { routeApi, type HostedApi } from './host/api-routing';
import { Downloads } from './host/downloads';
import { KeychainStatusCache } from './host/keychain-status';
import { secretLayersOf } from './adapters/secret-layers';
import { OrderRuntime } from './host/order-runtime';
import { HostPrinting, type NetworkPrinterOption, type SystemPrinter } from './host/printing';
import { hostUpkeep, QuietWindow } from './host/upkeep';
import { KeychainStoreSecrets } from './adapters/store-book-keychain';
import { startAppStoreBook } from './store-book/store-view';
import type { ShiftService } from './core/shifts/shift-service';
import { ProductStore } from './core/products/product-store';
import { CatalogueService } from './core/products/catalogue-service';
import type { CashLedger } from './core/shifts/cash-ledger';
import { loadTaxSettings } from './core/settings/sale-settings';

export type { Download } from './host/downloads';
export type { HostedApi } from './host/api-routing';

export interface AppHostOptions extends OpenOptions {
  version: string;
  /** The screens' language when given (browser mode's --lang); else the store's setting. */
  lang?: Lang;
  /** An ESC/POS network printer given on the command line; else the printer in the settings. */
  printer?: NetworkPrinterOption;
  /** The operating system's printers (the desktop app): used when the settings choose kind 'system'. */
  systemPrinter?: SystemPrinter;
  log?: (line: string) => void;
  /**
   * The upkeep (the backup at start, then its timers) is started by the host, with `upkeep.start()`, once it is
   * ready to be used (browser mode: after printing its URLs); by default it starts here.
   */
  deferUpkeep?: boolean;
  /** Another drawer ledger for a sale's cash than the till's shifts (tests); absent: the shifts' own. */
  cashLedger?: (loket: Loket) => CashLedger | undefined;
}

export interface AppHost {
  readonly app: HostedApi;
  /** The order runtime in use now (it is rebuilt when the manager switches between training and live). */
  readonly loket: Loket;
  readonly store: StoreBooks;
  /** Backups and the daily integrity check (a test steps them). */
  readonly upkeep: Upkeep;
  /** This till's shifts on the order log in use; its `ledger` is the CashLedger a sale's cash goes through. */
  readonly shifts: ShiftService;
  close(): Promise<void>;
}

/**
 * Everything a host (browser mode, the desktop shell) runs around the core, put together from its parts (src-main/host/,
 * docs/architecture.md "The host in parts"): the store's books (settings, staff, audit); the order runtime and its
 * fallback to training (host/order-runtime.ts: the order log and gateway, the callback listener, polling, the
 * pending-write timer, receipts, the order API); printing; downloads; the keychain's cached state; the manager's
 * and the books' services; the upkeep and its quiet window; and the routing of every API method to its service.
 * Every part takes the one clock given here.
 */
export async function startAppHost(options: AppHostOptions): Promise<AppHost> {
  const log = options.log ?? (() => undefined);
  const clock = options.clock ?? systemClock;
  const store =
    options.store ??
    openStoreBooks({
      ...(options.env ? { env: options.env } : {}),
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      clock,
      ...(options.secrets ? { secrets: options.secrets } : {}),
    });
  const items = loadItemCatalogue();
  // The store's catalogue: today's quick items become its products once (docs/catalogue.md).
  const products = new ProductStore(store.db, clock);
  if (store.writable) products.seedQuickItems(items, loadTaxSettings(store.settings).defaultCategory);
  const bundled = loadPaymentCatalogue(options.env?.LOKET_CATALOGUE ?? process.env.LOKET_CATALOGUE);
  const listeners = new Set<(event: LiveEvent) => void>();
  const emit = (event: LiveEvent) => {
    for (const listener of listeners) listener(event);
  };
  /** Set when a database fails its integrity check while Loket runs: payments stop, with this message. */
  let damagedMessage: string | undefined;
  const quiet = new QuietWindow(clock);
  const settings = (): LoketSettings => store.settings.load();
  const printing = new HostPrinting({
    ...(options.printer ? { printer: options.printer } : {}),
    ...(options.systemPrinter ? { systemPrinter: options.systemPrinter } : {}),
    clock,
  });
  const downloads = new Downloads(clock);
  const secretLayers = secretLayersOf(store.secrets);
  const keychain = new KeychainStatusCache(secretLayers, clock);

  const info = (loket: Loket): AppInfo => {
    const s = settings();
    return {
      name: 'Loket',
      version: options.version,
      mode: loket.training ? 'sandbox' : 'live',
      storeName: s.storeName,
      terminalId: loket.terminalId,
      timeZone: s.timeZone,
      lang: options.lang ?? s.lang,
      networkPrinter: printing.receipt(s) !== undefined,
      autoPrint: s.printer.autoPrint,
      ...(loket.notice ? { notice: loket.notice } : {}),
      ...(loket.noticeReason ? { noticeReason: loket.noticeReason } : {}),
    };
  };
  const current = () => runtime.current;

  const books = new BooksService(store.access, store.audit, clock, {
    log: () => current().loket.log,
    orders: () => current().loket.orders,
    client: () => current().loket.client,
    methods: () => current().loket.methods,
    training: () => current().loket.training,
    settings,
    staff: () => store.access.staff.list({ includeInactive: true }),
    printReport: (doc) => printing.printReport(settings(), doc),
    afterClose: async () => void (await upkeep.backup('close-day')),
    prepareDownload: (request) => {
      const loket = current().loket;
      const s = settings();
      return downloads.prepare(request, {
        dbPath: loket.db.name,
        training: loket.training,
        export: {
          timeZone: s.timeZone,
          methods: loket.methods,
          lang: s.lang,
          staffNames: store.access.staff.list({ includeInactive: true }),
        },
      });
    },
  });

  const manager: ManagerService = new ManagerService(store, {
    mode: (): ModeStatus => {
      const loket = current().loket;
      return {
        setting: settings().mode,
        running: loket.training ? 'sandbox' : 'live',
        gateway: loket.gatewayDescription,
        gatewayUrl: loket.client.config.baseUrl,
        gatewayFrom: loket.training ? 'sandbox' : options.env?.LOKET_GATEWAY_URL ? 'environment' : 'settings',
        ...(loket.notice ? { notice: loket.notice } : {}),
        ...(loket.noticeReason ? { noticeReason: loket.noticeReason } : {}),
      };
    },
    openOrders: () => current().loket.log.countOpen(),
    bundledMethods: () => bundled,
    keychainStatus: () => keychain.status(),
    secretLayers,
    settingsChanged: async (effect: SettingsEffect, next: LoketSettings) => {
      if (effect === 'runtime') {
        await runtime.rebuild();
      } else if (effect === 'methods') {
        current().loket.setMethods(next.paymentMethods ?? bundled);
      } else {
        current().loket.setTerminalId(next.terminalId);
      }
      announce();
    },
    testConnection: async (s) => {
      if (!s.gateway)
        throw new ApiError(
          'invalid_arguments',
          'gateway: set the base URL and appid first',
          reason('gateway.not_configured'),
        );
      return testConnection({ ...s.gateway }, store.secrets);
    },
    liveCredentialsProblem: (signWith) => liveCredentialsProblem(store.secrets, signWith),
    testPrint: (s) => printing.testPrint(s),
    tillChanged: () => announce(),
    docsSection: (topic) => readDocsSection(topic),
    // In training the till's shifts are audited on the training log, in their own transactions: the list shows them.
    trainingAudit: () => {
      const loket = current().loket;
      return loket.training ? new AuditLog(loket.db, clock) : undefined;
    },
  });

  /** The screens learn of a new mode, store name or till at once (the display, too). */
  function announce(): void {
    emit({ type: 'info', info: info(current().loket), till: manager.tillStatus() });
    emit({ type: 'display', state: current().app.displayState() });
  }

  let runtime: OrderRuntime;
  try {
    runtime = await OrderRuntime.start({
      open: options,
      store,
      clock,
      log,
      printing,
      settings,
      emit,
      products,
      cashLedger: options.cashLedger,
      service: {
        info: () => info(current().loket),
        display: () => settings().display,
        items,
        till: () => ({ staff: manager.tillStaff(), required: settings().access.requireCashierPin }),
        refusal: () => damagedMessage,
      },
    });
  } catch (err) {
    if (!options.store) store.close();
    throw err;
  }
  const notice = current().loket.notice;
  if (notice) log(notice);

  /** Charges being sent: backups and their copies to a USB stick wait for them (docs/when-things-break.md). */
  const charges = new ChargesInFlight();
  const upkeep = hostUpkeep({
    store,
    runtime,
    clock,
    quiet,
    charges,
    onDamaged: (message) => {
      damagedMessage = message;
      announce();
    },
    log,
  });
  if (!options.deferUpkeep) upkeep.start();

  // The store book (docs/store-book.md): its sync runs in the background when this folder is enrolled, kicked by
  // every change of the order log; the cashier's header and the manager's whole-store books read it.
  const storeBook = startAppStoreBook({
    dataDir: store.dataDir,
    env: options.env ?? process.env,
    clock,
    secrets: new KeychainStoreSecrets(),
    log,
    requireManager: (token) => store.access.requireManager(token),
    audit: store.audit,
    settings,
    methods: () => current().loket.methods,
  });
  if (storeBook.sync.enrolled) listeners.add((event) => void (event.type === 'order' && storeBook.sync.kick()));

  // The manager's catalogue: its export is fetched as the books' export is (a one-time ticket).
  const catalogue = new CatalogueService({
    products,
    access: store.access,
    audit: store.audit,
    clock,
    defaultTaxCategory: () => loadTaxSettings(store.settings).defaultCategory,
    timeZone: () => settings().timeZone,
    prepareFile: (file) => downloads.prepareFile(file),
  });

  return {
    app: routeApi({
      runtime,
      books,
      manager,
      downloads,
      charges,
      quiet,
      listeners,
      storeBook: storeBook.service,
      catalogue,
    }),
    get loket() {
      return current().loket;
    },
    store,
    upkeep,
    get shifts() {
      return current().shifts.service;
    },
    close: async () => {
      await upkeep.stop();
      await storeBook.stop();
      await runtime.close(
        () => store.access.lockAll(),
        () => {
          listeners.clear();
          if (!options.store) store.close();
        },
      );
    },
  };
}
