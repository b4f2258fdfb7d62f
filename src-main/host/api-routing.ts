import {
  apiMethodNames,
  BOOKS_API_METHODS,
  ORDER_API_METHODS,
  SHIFT_API_METHODS,
  SALE_API_METHODS,
  STORE_BOOK_API_METHODS,
  type ApiHandlers,
  type DisplayState,
  type LiveEvent,
} from '../common/api';
import type { AppService } from '../core/app-service';
import type { ChargeSaleResult } from '../common/sale';
import type { BooksService } from '../core/books-service';
import type { ChargesInFlight } from '../core/backup/charges-in-flight';
import type { ManagerService } from '../core/manager-service';
import type { Download, Downloads } from './downloads';
import type { ShiftApi } from '../core/shifts/shift-api';
import type { SaleService } from '../core/sales/sale-service';
import type { StoreBookService } from '../store-book/store-view';
import type { OrderRuntime } from './order-runtime';
import type { QuietWindow } from './upkeep';

/** What a host serves: every API method, the live events, and what the customer display shows now. */
export type HostedApi = ApiHandlers & {
  subscribe(listener: (event: LiveEvent) => void): () => void;
  displayState(): DisplayState;
  /** An export prepared by prepareExport, taken once (browser mode: GET /api/download/{id}). */
  takeDownload(id: string): Download | undefined;
  /** The file name of an export prepared and not yet taken (the desktop app's save dialog starts with it). */
  downloadName(id: string): string | undefined;
};

/**
 * Every API method to the service that serves it: the order methods to the runtime in use (through its gate, a charge
 * counted as in flight, each call noted for the quiet window), the books' methods through the same gate (they read
 * and change the order log in use), the manager's straight to the manager service.
 */
export function routeApi(deps: {
  runtime: OrderRuntime;
  books: BooksService;
  manager: ManagerService;
  downloads: Downloads;
  charges: ChargesInFlight;
  quiet: QuietWindow;
  listeners: Set<(event: LiveEvent) => void>;
  /** The store book's methods and its downloads (store-book/store-view.ts). */
  storeBook: StoreBookService;
}): HostedApi {
  const { runtime, books, manager, charges, quiet } = deps;
  const app = {} as Record<string, (...args: unknown[]) => unknown>;
  for (const method of apiMethodNames) {
    if ((ORDER_API_METHODS as readonly string[]).includes(method)) {
      const call = (...args: unknown[]) =>
        runtime.gate.run(() =>
          (runtime.current.app[method as keyof AppService] as (...a: unknown[]) => unknown)(...args),
        );
      const charging = method === 'createOrder' || method === 'retryOrder';
      app[method] = (...args) => {
        quiet.touch();
        return charging ? charges.track(() => call(...args)) : call(...args);
      };
    } else if ((STORE_BOOK_API_METHODS as readonly string[]).includes(method)) {
      const service = deps.storeBook;
      app[method] = (...args) =>
        (service[method as keyof StoreBookService] as (...a: unknown[]) => unknown).apply(service, args);
    } else if ((SALE_API_METHODS as readonly string[]).includes(method)) {
      // The sale's methods use the order runtime in use (its log, its gateway): they wait for a switch too, and a
      // charge counts as in flight like createOrder's.
      const call = (...args: unknown[]) =>
        runtime.gate.run(() => {
          const sales = runtime.current.sales;
          return (sales[method as keyof SaleService] as (...a: unknown[]) => unknown).apply(sales, args);
        });
      app[method] = (...args) => {
        quiet.touch();
        if (method === 'saveCart') {
          // The customer display follows the cart as it is rung up.
          return Promise.resolve(call(...args)).then((saved) => {
            for (const listener of deps.listeners)
              listener({ type: 'display', state: runtime.current.app.displayState() });
            return saved;
          });
        }
        if (method === 'chargeSale')
          return charges
            .track(() => call(...args))
            .then((result) => {
              // A sale paid in cash or other only has no order to take the display: its change goes there instead.
              const charged = result as ChargeSaleResult;
              if (charged.ok && !charged.order) runtime.current.app.showSale(charged.saleId);
              return result;
            });
        return call(...args);
      };
    } else if ((SHIFT_API_METHODS as readonly string[]).includes(method)) {
      // The shift lives in the order log in use: it waits for a runtime switch like the order methods.
      app[method] = (...args) =>
        runtime.gate.run(() =>
          (runtime.current.shifts[method as keyof ShiftApi] as (...a: unknown[]) => unknown)(...args),
        );
    } else if ((BOOKS_API_METHODS as readonly string[]).includes(method)) {
      app[method] = (...args) =>
        runtime.gate.run(() =>
          (books[method as keyof BooksService] as (...a: unknown[]) => unknown).apply(books, args),
        );
    } else {
      app[method] = (...args) =>
        (manager[method as keyof ManagerService] as (...a: unknown[]) => unknown).apply(manager, args);
    }
  }
  return Object.assign(app, {
    subscribe: (listener: (event: LiveEvent) => void) => {
      deps.listeners.add(listener);
      return () => deps.listeners.delete(listener);
    },
    displayState: () => runtime.current.app.displayState(),
    takeDownload: (id: string) => deps.downloads.take(id) ?? deps.storeBook.takeDownload(id),
    downloadName: (id: string) => deps.downloads.name(id) ?? deps.storeBook.downloadName(id),
  }) as unknown as HostedApi;
}
