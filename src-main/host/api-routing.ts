import {
  apiMethodSpec,
  handlersOf,
  type ApiMethodSpec,
  type ApiHandlers,
  type ApiMethodName,
  type ApiMethodOf,
  type ApiService,
  type DisplayState,
  type LiveEvent,
  type SaleCharged,
} from '../common/api';
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

/**
 * What a host does for the flags of a method's row (common/api-table/row.ts), whichever method it is: count a charge
 * as in flight, and once a call has answered, show the sale it paid with no order, or push the display's state.
 */
export interface RowFlagHost {
  /** `charge`: runs the call counted as in flight. */
  trackCharge(call: () => unknown): unknown;
  /** `showsPaidSale`: the customer display shows this sale (its change). */
  showSale(saleId: string): void;
  /** `pushesDisplay`: what the customer display shows now, pushed to whoever listens. */
  pushDisplay(): void;
}

/** A call's answer, then what its row's flags ask once it has answered (none: the answer as it is, not awaited). */
function afterAnswer(spec: ApiMethodSpec, answer: unknown, host: RowFlagHost): unknown {
  if (!spec.showsPaidSale && !spec.pushesDisplay) return answer;
  return Promise.resolve(answer).then((result) => {
    if (spec.showsPaidSale) {
      // The row's type makes its result a SaleCharged (row.ts): a sale paid with no order to take the display.
      const charged = result as SaleCharged;
      if (charged.ok && !charged.order) host.showSale(charged.saleId);
    }
    if (spec.pushesDisplay) host.pushDisplay();
    return result;
  });
}

/**
 * Every method of the table to the route of its service, with what its row's flags ask (common/api-table/): no
 * list, no name kept here.
 */
export function serveByTable(routes: ApiRoutes, flags: RowFlagHost): ApiHandlers {
  return handlersOf((method) => {
    const spec = apiMethodSpec(method);
    const route: AnyRoute = routes[spec.service];
    return (...args: unknown[]) => {
      const call = () => {
        const target = route.serve();
        const handler = target[method];
        if (!handler) throw new Error(`${method}: its service does not serve it`);
        return Reflect.apply(handler, target, args) as unknown;
      };
      const routed = () => (route.around ? route.around(method, call) : call());
      return afterAnswer(spec, spec.charge ? flags.trackCharge(routed) : routed(), flags);
    };
  });
}

/**
 * The host's routes: the order runtime's services (orders, the sale, the shift, the books) through the runtime's gate
 * (they wait for a switch of mode; a cashier's order or sale call noted for the quiet window), the manager's and the
 * store book's straight to their services; for every method, what its row's flags ask (a charge counted as in
 * flight, the display shown a paid sale or pushed its state).
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
  const inRuntime = (_method: ApiMethodName, call: () => unknown) => runtime.gate.run(call);
  const atTheCounter = (method: ApiMethodName, call: () => unknown) => {
    quiet.touch();
    return inRuntime(method, call);
  };
  const flags: RowFlagHost = {
    trackCharge: (call) => charges.track(call),
    showSale: (saleId) => runtime.current.app.showSale(saleId),
    pushDisplay: () => {
      for (const listener of deps.listeners) listener({ type: 'display', state: runtime.current.app.displayState() });
    },
  };
  const app = serveByTable(
    {
      order: { serve: () => runtime.current.app, around: atTheCounter },
      sale: { serve: () => runtime.current.sales, around: atTheCounter },
      // Refunds at the till (core/sales/refund-api.ts), beside the sale's methods and like them.
      refund: { serve: () => runtime.current.refunds, around: atTheCounter },
      shift: { serve: () => runtime.current.shifts, around: inRuntime },
      books: { serve: () => books, around: inRuntime },
      storeBook: { serve: () => deps.storeBook },
      // The catalogue is in the store's books, not the order log: it does not wait for a runtime switch.
      catalogue: { serve: () => deps.catalogue },
      manager: { serve: () => manager },
    },
    flags,
  );
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
