import {
  ApiError,
  apiMethodNames,
  ORDER_API_METHODS,
  BOOKS_API_METHODS,
  STORE_BOOK_API_METHODS,
  type ApiHandlers,
  type DisplayState,
  type LiveEvent,
  type PrintResult,
} from './common/api';
import type { AppInfo, Lang } from './common/app-info';
import type { KeychainStatus, ModeStatus, SecretName, SecretStatus } from './common/manager';
import type { Order } from './common/order';
import type { LoketSettings } from './common/settings';
import { AppService, type ReceiptPort } from './core/app-service';
import { loadItemCatalogue, loadPaymentCatalogue } from './core/catalogue';
import { startCallbackListener, type CallbackListener } from './core/confirmation/callback-listener';
import { pollUntilSettled } from './core/confirmation/status-poller';
import { testConnection } from './core/gateway/probe';
import { ManagerService, type SettingsEffect } from './core/manager-service';
import { systemClock } from './core/ports';
import { buildReceipt, buildTestReceipt, type Receipt } from './core/receipts/receipt-model';
import { renderReceiptHtml } from './core/receipts/receipt-html';
import { buildPaymentSlip } from './core/receipts/slip-model';
import { renderEscPos } from './core/receipts/receipt-escpos';
import { KeychainSecretStore, KeychainUnavailableError, secretStatus } from './adapters/keychain-secret-store';
import { OverrideSecretStore } from './adapters/override-secret-store';
import { sendToNetworkPrinter } from './adapters/tcp-printer';
import { CallGate } from './core/call-gate';
import { BooksService } from './core/books-service';
import { exportBooks, type BooksExport } from './core/export/export-file';
import type { ReportDoc } from './core/reports/report-model';
import { renderReportEscPos } from './core/reports/report-escpos';
import { renderReportHtml } from './core/reports/report-html';
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import { Backups } from './core/backup/backups';
import { ChargesInFlight } from './core/backup/charges-in-flight';
import { QUIET_MS, Upkeep } from './core/backup/upkeep';
import { join } from 'node:path';
import {
  liveCredentialsProblem,
  openLoket,
  openStoreBooks,
  type Loket,
  type OpenOptions,
  type StoreBooks,
} from './runtime';
import { KEYCHAIN_PROBLEMS, reason, type KeychainProblem } from './common/reasons';
import { printProblemOf } from './core/print-problem';
import { readDocsSection } from './core/docs';
import { KeychainStoreSecrets } from './adapters/store-book-keychain';
import { startAppStoreBook } from './store-book/store-view';

export interface AppHostOptions extends OpenOptions {
  version: string;
  /** The screens' language when given (browser mode's --lang); else the store's setting. */
  lang?: Lang;
  /** An ESC/POS network printer given on the command line; else the printer in the settings. */
  printer?: { host: string; port: number; paper: 58 | 80 };
  /** The operating system's printers (the desktop app): used when the settings choose kind 'system'. */
  systemPrinter?: {
    print(html: string, options: { deviceName?: string; silent: boolean }): Promise<void>;
    pdf(html: string): Promise<Buffer>;
  };
  log?: (line: string) => void;
}

/** An export waiting to be fetched: written straight to the caller's stream, once. */
export interface Download {
  filename: string;
  contentType: string;
  write(out: Writable): Promise<void>;
}

/** What a host serves: every API method, the live events, and what the customer display shows now. */
export type HostedApi = ApiHandlers & {
  subscribe(listener: (event: LiveEvent) => void): () => void;
  displayState(): DisplayState;
  /** An export prepared by prepareExport, taken once (browser mode: GET /api/download/{id}). */
  takeDownload(id: string): Download | undefined;
  /** The file name of an export prepared and not yet taken (the desktop app's save dialog starts with it). */
  downloadName(id: string): string | undefined;
};

export interface AppHost {
  readonly app: HostedApi;
  /** The order runtime in use now (it is rebuilt when the manager switches between training and live). */
  readonly loket: Loket;
  readonly store: StoreBooks;
  /** Backups and the daily integrity check (a test steps them). */
  readonly upkeep: Upkeep;
  close(): Promise<void>;
}

/** How long the poller keeps asking after an order's own expiry, for a late answer. */
const POLL_GRACE_MS = 60_000;
/** A prepared export must be fetched within this long. */
const DOWNLOAD_TTL_MS = 10 * 60_000;
/** How often answers the disk refused are tried again. */
const PENDING_FLUSH_MS = 5000;
/** The keychain probe writes on Linux; its answer is kept this long. */
const KEYCHAIN_STATUS_MS = 60_000;

/** One order runtime with everything that runs around it. */
interface Running {
  readonly loket: Loket;
  readonly app: AppService;
  close(): Promise<void>;
}

/**
 * Everything a host (browser mode, the desktop shell) runs around the core: the store's books (settings,
 * staff, audit), the order runtime — the order log and gateway, a callback listener, polling for orders
 * waiting for payment, receipts and the order API — and the manager's side. Switching between training and
 * live (or changing the live gateway) rebuilds the order runtime; calls in flight finish first, and calls
 * arriving meanwhile wait (CallGate), so no charge is cut off half-way.
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
  const bundled = loadPaymentCatalogue(options.env?.LOKET_CATALOGUE ?? process.env.LOKET_CATALOGUE);
  const listeners = new Set<(event: LiveEvent) => void>();
  const emit = (event: LiveEvent) => {
    for (const listener of listeners) listener(event);
  };
  const gate = new CallGate();
  /** Set when a database fails its integrity check while Loket runs: payments stop, with this message. */
  let damagedMessage: string | undefined;
  let lastCallAt = Date.now();
  const backups = new Backups(store.dataDir, clock);
  let keychainChecked: { at: number; status: KeychainStatus } | undefined;

  const settings = (): LoketSettings => store.settings.load();
  /**
   * Where a document prints without the screen's print dialog: the network printer (the command line's, else the
   * settings'), as ESC/POS; or the OS printer chosen in settings (the desktop app), as HTML; undefined: from the
   * screen. One choice for receipts and the day's report, each with its two renderings.
   */
  const printerFor =
    <D>(escPos: (doc: D, paper: 58 | 80) => Buffer, html: (doc: D, paper: 58 | 80) => string) =>
    (s: LoketSettings): { name: string; label?: string; system: boolean; send(doc: D): Promise<void> } | undefined => {
      const network =
        options.printer ??
        (s.printer.kind === 'network' && s.printer.host && s.printer.port
          ? { host: s.printer.host, port: s.printer.port, paper: s.printer.paper }
          : undefined);
      if (network)
        return {
          name: `${network.host}:${network.port}`,
          label: `${network.host}:${network.port}`,
          system: false,
          send: (doc) => sendToNetworkPrinter(escPos(doc, network.paper), network),
        };
      const system = options.systemPrinter;
      if (s.printer.kind !== 'system' || !system) return undefined;
      const deviceName = s.printer.systemName;
      return {
        name: deviceName ?? 'the default printer',
        // A screen names the printer only by its own name (the default printer goes unnamed, not in English).
        ...(deviceName ? { label: deviceName } : {}),
        system: true,
        send: (doc) =>
          system.print(html(doc, s.printer.paper), { ...(deviceName ? { deviceName } : {}), silent: true }),
      };
    };
  const printerOf = printerFor<Receipt>(
    (receipt, paper) => renderEscPos(receipt, { paper }),
    (receipt, paper) => renderReceiptHtml(receipt, { paper }),
  );
  /** The day's report: ESC/POS on the receipt printer, or its A4 page on the OS printer. */
  const reportPrinterOf = printerFor<ReportDoc>(
    (doc, paper) => renderReportEscPos(doc, { paper }),
    (doc) => renderReportHtml(doc),
  );

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
      networkPrinter: printerOf(s) !== undefined,
      autoPrint: s.printer.autoPrint,
      ...(loket.notice ? { notice: loket.notice } : {}),
      ...(loket.noticeReason ? { noticeReason: loket.noticeReason } : {}),
    };
  };

  /** Exports prepared and not yet fetched: fetched once, within a few minutes. */
  /**
   * Exports prepared and not yet fetched: fetched once, within a few minutes. Each holds the books it was prepared
   * from (the log, its kind and the store's settings then): a switch between training and live in between must
   * not put live orders into a file named for training, or the reverse.
   */
  const downloads = new Map<string, { filename: string; expires: number; export: BooksExport; dbPath: string }>();
  const books = new BooksService(store.access, store.audit, clock, {
    log: () => current.loket.log,
    orders: () => current.loket.orders,
    client: () => current.loket.client,
    methods: () => current.loket.methods,
    training: () => current.loket.training,
    settings,
    staff: () => store.access.staff.list({ includeInactive: true }),
    printReport: async (doc) => {
      const s = settings();
      const printer = reportPrinterOf(s);
      if (!printer)
        return {
          ok: false,
          message: 'No printer is set up: print the A4 page from the screen instead.',
          reason: reason('print.no_printer', { what: 'report' }),
        };
      try {
        await printer.send(doc);
        return {
          ok: true,
          message: `The day's report printed on ${printer.name}.`,
          reason: reason('print.done', { ...(printer.label ? { printer: printer.label } : {}), what: 'report' }),
        };
      } catch (err) {
        return {
          ok: false,
          message: (err as Error).message,
          reason: reason('print.failed', {
            ...(printer.label ? { printer: printer.label } : {}),
            problem: printProblemOf(err, printer),
          }),
        };
      }
    },
    afterClose: async () => void (await upkeep.backup('close-day')),
    prepareDownload: (request) => {
      for (const [id, d] of downloads) if (d.expires < Date.now()) downloads.delete(id);
      const downloadId = randomBytes(18).toString('base64url');
      const loket = current.loket;
      const s = settings();
      const span = request.from === request.to ? request.from : `${request.from}_${request.to}`;
      const filename = `loket-orders-${span}${loket.training ? '-training' : ''}.${request.format}`;
      downloads.set(downloadId, {
        filename,
        expires: Date.now() + DOWNLOAD_TTL_MS,
        dbPath: loket.db.name,
        export: {
          ...request,
          timeZone: s.timeZone,
          methods: loket.methods,
          lang: s.lang,
          staffNames: store.access.staff.list({ includeInactive: true }),
          training: loket.training,
        },
      });
      return { downloadId, filename };
    },
  });

  const takeDownload = (id: string): Download | undefined => {
    const entry = downloads.get(id);
    downloads.delete(id);
    if (!entry || entry.expires < Date.now()) return undefined;
    return {
      filename: entry.filename,
      contentType:
        entry.export.format === 'csv'
          ? 'text/csv; charset=utf-8'
          : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      // A connection of its own, read-only: the export reads one snapshot while the till goes on selling.
      write: async (out) => void (await exportBooks(entry.dbPath, entry.export, out)),
    };
  };

  const manager: ManagerService = new ManagerService(store, {
    mode: (): ModeStatus => ({
      setting: settings().mode,
      running: current.loket.training ? 'sandbox' : 'live',
      gateway: current.loket.gatewayDescription,
      gatewayUrl: current.loket.client.config.baseUrl,
      gatewayFrom: current.loket.training ? 'sandbox' : options.env?.LOKET_GATEWAY_URL ? 'environment' : 'settings',
      ...(current.loket.notice ? { notice: current.loket.notice } : {}),
      ...(current.loket.noticeReason ? { noticeReason: current.loket.noticeReason } : {}),
    }),
    openOrders: () => current.loket.log.countOpen(),
    bundledMethods: () => bundled,
    keychainStatus: async () => {
      if (keychainChecked && Date.now() - keychainChecked.at < KEYCHAIN_STATUS_MS) return keychainChecked.status;
      const status = await probeKeychain(store);
      keychainChecked = { at: Date.now(), status };
      return status;
    },
    secretStatus: (name) => readSecretStatus(store, name),
    settingsChanged: async (effect: SettingsEffect, next: LoketSettings) => {
      if (effect === 'runtime') {
        await rebuild();
      } else if (effect === 'methods') {
        current.loket.setMethods(next.paymentMethods ?? bundled);
      } else {
        current.loket.setTerminalId(next.terminalId);
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
    testPrint: async (s): Promise<PrintResult> => {
      const printer = printerOf(s);
      if (!printer) {
        return {
          ok: false,
          message: 'No printer is set up: receipts print from the screen instead.',
          reason: reason('print.no_printer', { what: 'test' }),
        };
      }
      const receipt = buildTestReceipt({ ...receiptContext(s), printedAt: new Date() });
      try {
        await printer.send(receipt);
        return {
          ok: true,
          message: `Test page printed on ${printer.name}.`,
          reason: reason('print.done', { ...(printer.label ? { printer: printer.label } : {}), what: 'test' }),
        };
      } catch (err) {
        return {
          ok: false,
          message: (err as Error).message,
          reason: reason('print.failed', {
            ...(printer.label ? { printer: printer.label } : {}),
            problem: printProblemOf(err, printer),
          }),
        };
      }
    },
    tillChanged: () => announce(),
    docsSection: (topic) => readDocsSection(topic),
  });

  const receiptContext = (s: LoketSettings) => ({
    storeName: s.storeName,
    ...(s.storeAddress ? { storeAddress: s.storeAddress } : {}),
    ...(s.receiptHeader ? { headerText: s.receiptHeader } : {}),
    ...(s.receiptFooter ? { footerText: s.receiptFooter } : {}),
    timeZone: s.timeZone,
    lang: s.lang,
  });

  /** Opens the order runtime the settings ask for, and starts what runs around it. */
  async function run(trainingBecause?: string): Promise<Running> {
    const loket = await openLoket({
      ...options,
      store,
      clock,
      whenLiveUnavailable: 'training',
      ...(trainingBecause ? { forceTraining: trainingBecause } : {}),
    });
    const polls = new Set<AbortController>();
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

      const receiptOf = (order: Order, copy: boolean) =>
        buildReceipt(order, {
          ...receiptContext(settings()),
          method: loket.methods.find((m) => m.id === order.methodId),
          copy,
          training: loket.training,
          printedAt: new Date(),
        });
      const slipOf = (order: Order) =>
        buildPaymentSlip(order, {
          ...receiptContext(settings()),
          method: loket.methods.find((m) => m.id === order.methodId),
          training: loket.training,
          printedAt: clock.now(),
        });
      const receipts: ReceiptPort = {
        html: (order, { paper, copy }) => renderReceiptHtml(receiptOf(order, copy), { paper }),
        print: async (order: Order, { copy }: { copy: boolean }) => {
          const printer = printerOf(settings());
          if (!printer) throw new Error('No printer is set up: print from this screen instead.');
          await printer.send(receiptOf(order, copy));
        },
        slipHtml: (order, { paper }) => renderReceiptHtml(slipOf(order), { paper }),
        printSlip: async (order: Order) => {
          const slip = slipOf(order);
          const printer = printerOf(settings());
          if (!printer) throw new Error('No printer is set up: print from this screen instead.');
          await printer.send(slip);
        },
      };

      /**
       * Polls an order until the gateway settles it, as a fallback to the gateway's callback (and the only way where
       * there is no listener): an order waiting for payment, and one cancelled in Loket, which the gateway keeps
       * payable until its own deadline (a payment then is a late payment). Each order is watched once, whichever
       * path brought it here; the poll ends at the order's deadline at the gateway and a grace.
       */
      const watched = new Set<string>();
      const watch = (order: Order): void => {
        if (!loket.client.config.inquiryPath || watched.has(order.id)) return;
        if (order.state === 'cancelled' && loket.log.hasGatewayWord(order.id)) return;
        const deadline = new Date(loket.orders.gatewayDeadline(order).getTime() + POLL_GRACE_MS);
        if (deadline.getTime() <= clock.now().getTime()) return;
        watched.add(order.id);
        const controller = new AbortController();
        polls.add(controller);
        void pollUntilSettled(order.id, {
          orders: loket.orders,
          log: loket.log,
          client: loket.client,
          initialDelayMs: 2000,
          maxDelayMs: 30_000,
          deadline,
          clock,
          signal: controller.signal,
        })
          .catch((err: unknown) => log(`poll ${order.id}: ${(err as Error).message}`))
          .finally(() => {
            polls.delete(controller);
            watched.delete(order.id);
          });
      };
      // An answer written late (the disk refused it at first) or a check that found the order waiting brings an order
      // to awaiting_payment outside a charge: it is watched too.
      const unwatchLog = loket.log.onChange((order) => {
        if (order.state === 'awaiting_payment' || order.state === 'cancelled') watch(order);
      });

      const sandbox = loket.sandbox;
      const app = new AppService({
        info: () => info(loket),
        display: () => settings().display,
        log: loket.log,
        orders: loket.orders,
        methods: loket.methods,
        items,
        clock,
        receipts,
        till: () => ({ staff: manager.tillStaff(), required: settings().access.requireCashierPin }),
        refusal: () => damagedMessage,
        // The sale in progress survives a restart: remembered in the store's books, per mode (each mode has
        // its own order log).
        saleMemory: {
          load: () => store.settings.get<string | null>(`counter.sale.${loket.training ? 'training' : 'live'}`) ?? null,
          save: (id) => store.settings.set(`counter.sale.${loket.training ? 'training' : 'live'}`, id),
        },
        holdMemory: {
          load: () => store.settings.get<string | null>(`counter.held.${loket.training ? 'training' : 'live'}`) ?? null,
          save: (id) => store.settings.set(`counter.held.${loket.training ? 'training' : 'live'}`, id),
        },
        ...(sandbox
          ? {
              simulatePayment: async (id: string) => {
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
                  loket.orders.applyInquiryAnswer(id, answer, {
                    source: 'inquiry',
                    reason: 'training: simulated payment',
                  });
              },
            }
          : {}),
        watch,
      });
      const unsubscribe = app.subscribe(emit);
      // Answers the disk could not take are written as soon as it does (and before the next charge).
      const flushTimer = setInterval(() => {
        try {
          if (loket.orders.pendingWrites() > 0) loket.orders.flushPendingWrites();
        } catch (err) {
          log(`pending write: ${(err as Error).message}`);
        }
      }, PENDING_FLUSH_MS);
      flushTimer.unref();

      // Orders still waiting from before a restart are watched too, not only the ones charged from now on, and so
      // are orders cancelled before it that the gateway may still take a payment for (within their deadline).
      for (const order of loket.log.list({ state: 'awaiting_payment' })) watch(order);
      for (const order of loket.orders.awaitingGatewayWord()) watch(order);

      return {
        loket,
        app,
        close: async () => {
          clearInterval(flushTimer);
          unwatchLog();
          // A last try at answers the disk refused: what stays unwritten is `creating` at the next start, and
          // turns `unknown` there (the attention queue), never lost.
          try {
            if (loket.orders.flushPendingWrites() > 0)
              log(
                `closing with ${loket.orders.pendingWrites()} answer(s) unwritten: they are checked at the next start`,
              );
          } catch (err) {
            log(`pending write: ${(err as Error).message}`);
          }
          for (const c of polls) c.abort();
          unsubscribe();
          app.close();
          await listener?.close();
          await loket.close();
        },
      };
    } catch (err) {
      for (const c of polls) c.abort();
      await listener?.close();
      await loket.close();
      throw err;
    }
  }

  /** The screens learn of a new mode, store name or till at once (the display, too). */
  function announce(): void {
    emit({ type: 'info', info: info(current.loket), till: manager.tillStatus() });
    emit({ type: 'display', state: current.app.displayState() });
  }

  /** A new order runtime once every call in flight has finished; calls arriving meanwhile wait for it. */
  async function rebuild(): Promise<void> {
    await gate.exclusive(async () => {
      await current.close();
      current = await runOrTrain();
      log(`now ${current.loket.training ? 'in training mode' : 'live'}: ${current.loket.gatewayDescription}`);
    });
  }

  /** The settings' runtime; when live cannot start (e.g. the listener's port is taken), training, saying why. */
  async function runOrTrain(): Promise<Running> {
    try {
      return await run();
    } catch (err) {
      if (settings().mode !== 'live') throw err;
      const why = `Live mode could not start (${(err as Error).message}); Loket runs in training mode until then.`;
      log(why);
      return run(why);
    }
  }

  let current: Running;
  try {
    current = await runOrTrain();
  } catch (err) {
    if (!options.store) store.close();
    throw err;
  }
  if (current.loket.notice) log(current.loket.notice);

  /** Charges being sent: backups and their copies to a USB stick wait for them (docs/when-things-break.md). */
  const charges = new ChargesInFlight();
  const upkeep = new Upkeep({
    backups,
    storeDb: store.db,
    checked: () => [
      { path: join(store.dataDir, 'loket.db'), db: store.db },
      ...(current.loket.db !== store.db
        ? [{ path: join(store.dataDir, 'training', 'loket.db'), db: current.loket.db }]
        : []),
    ],
    copyTo: () => settings().backup.copyTo,
    busy: () => current.loket.log.countOpen() > 0 || Date.now() - lastCallAt < QUIET_MS,
    charges,
    onDamaged: (message) => {
      damagedMessage = message;
      announce();
    },
    log,
    clock,
  });
  upkeep.start();

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
    methods: () => current.loket.methods,
  });
  if (storeBook.sync.enrolled) listeners.add((event) => void (event.type === 'order' && storeBook.sync.kick()));

  const app = {} as Record<string, (...args: unknown[]) => unknown>;
  for (const method of apiMethodNames) {
    if ((ORDER_API_METHODS as readonly string[]).includes(method)) {
      const call = (...args: unknown[]) =>
        gate.run(() => (current.app[method as keyof AppService] as (...a: unknown[]) => unknown)(...args));
      const charging = method === 'createOrder' || method === 'retryOrder';
      app[method] = (...args) => {
        lastCallAt = Date.now();
        return charging ? charges.track(() => call(...args)) : call(...args);
      };
    } else if ((BOOKS_API_METHODS as readonly string[]).includes(method)) {
      // The books read and change the order log in use: they wait for a runtime switch like the order methods.
      app[method] = (...args) =>
        gate.run(() => (books[method as keyof BooksService] as (...a: unknown[]) => unknown).apply(books, args));
    } else if ((STORE_BOOK_API_METHODS as readonly string[]).includes(method)) {
      app[method] = (...args) =>
        (storeBook.service[method as keyof typeof storeBook.service] as (...a: unknown[]) => unknown).apply(
          storeBook.service,
          args,
        );
    } else {
      app[method] = (...args) =>
        (manager[method as keyof ManagerService] as (...a: unknown[]) => unknown).apply(manager, args);
    }
  }
  const hosted = Object.assign(app, {
    subscribe: (listener: (event: LiveEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    displayState: () => current.app.displayState(),
    takeDownload: (id: string) => takeDownload(id) ?? storeBook.service.takeDownload(id),
    downloadName: (id: string) => {
      const entry = downloads.get(id);
      return entry && entry.expires >= Date.now() ? entry.filename : storeBook.service.downloadName(id);
    },
  }) as unknown as HostedApi;

  return {
    app: hosted,
    get loket() {
      return current.loket;
    },
    store,
    upkeep,
    close: async () => {
      await upkeep.stop();
      await storeBook.stop();
      await gate.exclusive(async () => {
        store.access.lockAll();
        await current.close();
        listeners.clear();
        if (!options.store) store.close();
      });
    },
  };
}

async function probeKeychain(store: StoreBooks): Promise<KeychainStatus> {
  const secrets = store.secrets;
  const keychain = secrets instanceof OverrideSecretStore ? secrets.keychainStore : secrets;
  if (!(keychain instanceof KeychainSecretStore)) return { available: true };
  const probe = await keychain.probe();
  return probe.available
    ? { available: true }
    : { available: false, message: probe.message, problem: keychainProblem(probe.reason) };
}

async function readSecretStatus(store: StoreBooks, name: SecretName): Promise<SecretStatus> {
  const secrets = store.secrets;
  const fromEnv = secrets instanceof OverrideSecretStore && secrets.overridden(name);
  try {
    const status = secretStatus(await secrets.get(name));
    return { ...status, from: status.set ? (fromEnv ? 'environment' : 'keychain') : 'none' };
  } catch (err) {
    if (err instanceof KeychainUnavailableError) return { set: false, from: 'none' };
    throw err;
  }
}

/** The keychain adapter's classification, as screens know it ('other' for one they do not). */
function keychainProblem(problem: string): KeychainProblem {
  return (KEYCHAIN_PROBLEMS as readonly string[]).includes(problem) ? (problem as KeychainProblem) : 'other';
}
