import {
  apiMethodSpec,
  handlersOf,
  type ApiHandlers,
  type ApiMethodName,
  type ApiMethodOf,
  type ApiService,
  type DisplayState,
  type LiveEvent,
} from '../common/api';
import type { ChargeSaleResult } from '../common/sale';
import type { BooksService } from '../core/books-service';
import type { ChargesInFlight } from '../core/backup/charges-in-flight';
import type { ManagerService } from '../core/manager-service';
import type { Download, Downloads } from './downloads';
import type { StoreBookService } from '../store-book/store-view';
import type { CatalogueService } from '../core/products/catalogue-service';
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
 * How a host serves one service's methods: the instance that serves them now (asked at each call: the order runtime
 * may have been switched), and what goes around each call (a gate, a note for the quiet window). The type makes the
 * instance implement every method the table gives its service.
 */
export interface ServiceRoute<S extends ApiService> {
  serve(): Pick<ApiHandlers, ApiMethodOf<S>>;
  around?(method: ApiMethodOf<S>, call: () => unknown): unknown;
}

/** A route for every service of the table. */
export type ApiRoutes = { [S in ApiService]: ServiceRoute<S> };

/** A route as the loop below sees it, whatever its service: any method's name, any function. */
interface AnyRoute {
  serve(): Partial<Record<ApiMethodName, (...args: never) => unknown>>;
  around?(method: ApiMethodName, call: () => unknown): unknown;
}

/** Every method of the table to the route of its service (common/api-table.ts): no list, no name kept here. */
export function serveByTable(routes: ApiRoutes): ApiHandlers {
  return handlersOf((method) => {
    const route: AnyRoute = routes[apiMethodSpec(method).service];
    return (...args: unknown[]) => {
      const call = () => {
        const target = route.serve();
        const handler = target[method];
        if (!handler) throw new Error(`${method}: its service does not serve it`);
        return Reflect.apply(handler, target, args) as unknown;
      };
      return route.around ? route.around(method, call) : call();
    };
  });
}

/**
 * The host's routes: the order runtime's services (orders, the sale, the shift, the books) through the runtime's gate
 * (they wait for a switch of mode; a charge (`charge` in the table) counted as in flight; a cashier's order or sale
 * call noted for the quiet window), the manager's and the store book's straight to their services.
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
  /** The manager's catalogue (core/products/catalogue-service.ts). */
  catalogue: CatalogueService;
}): HostedApi {
  const { runtime, books, manager, charges, quiet } = deps;
  const inRuntime = (method: ApiMethodName, call: () => unknown) => {
    const gated = () => runtime.gate.run(call);
    return apiMethodSpec(method).charge ? charges.track(gated) : gated();
  };
  const atTheCounter = (method: ApiMethodName, call: () => unknown) => {
    quiet.touch();
    return inRuntime(method, call);
  };
  const app = serveByTable({
    order: { serve: () => runtime.current.app, around: atTheCounter },
    sale: {
      serve: () => runtime.current.sales,
      around: (method, call) => {
        const answer = atTheCounter(method, call);
        if (method === 'chargeSale')
          return Promise.resolve(answer).then((result) => {
            // A sale paid in cash or other only has no order to take the display: its change goes there instead.
            const charged = result as ChargeSaleResult;
            if (charged.ok && !charged.order) runtime.current.app.showSale(charged.saleId);
            return result;
          });
        if (method !== 'saveCart') return answer;
        // The customer display follows the cart as it is rung up.
        return Promise.resolve(answer).then((saved) => {
          for (const listener of deps.listeners)
            listener({ type: 'display', state: runtime.current.app.displayState() });
          return saved;
        });
      },
    },
    // Refunds at the till (core/sales/refund-api.ts), beside the sale's methods and like them.
    refund: { serve: () => runtime.current.refunds, around: atTheCounter },
    shift: { serve: () => runtime.current.shifts, around: inRuntime },
    books: { serve: () => books, around: inRuntime },
    storeBook: { serve: () => deps.storeBook },
    // The catalogue is in the store's books, not the order log: it does not wait for a runtime switch.
    catalogue: { serve: () => deps.catalogue },
    manager: { serve: () => manager },
  });
  return {
    ...app,
    subscribe: (listener: (event: LiveEvent) => void) => {
      deps.listeners.add(listener);
      return () => deps.listeners.delete(listener);
    },
    // What the display shows now, read straight from the runtime in use (the display's own routes call it too).
    displayState: () => runtime.current.app.displayState(),
    takeDownload: (id: string) => deps.downloads.take(id) ?? deps.storeBook.takeDownload(id),
    downloadName: (id: string) => deps.downloads.name(id) ?? deps.storeBook.downloadName(id),
  };
}
