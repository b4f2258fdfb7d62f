import type { AppInfo } from './app-info';
import type { Order } from './order';
import { OrderRuleError, REASON_MAX, REASON_MIN, REASON_RULE, type ApiErrorCode } from './order-policy';
import { reason, type Reason } from './reasons';
import type { DisplayState } from './display';
import type { TillStatus } from './manager';
import type { SaveResult } from './reports';
import {
  API_TABLE,
  apiMethodNames,
  apiMethodsFor,
  apiMethodsOf,
  isApiMethodName,
  type ApiArgs,
  type ApiMethodFor,
  type ApiMethodName,
  type ApiMethodOf,
  type ApiResult,
} from './api-table';

/**
 * The API contract: the table of methods (common/api-table/), the types every transport shares, the envelope every
 * call answers, and the one gate every call passes (parseApiCall, dispatchApiCall). Every transport (IPC through the
 * preload, HTTP + server-sent events in browser mode) rejects unknown names and parses arguments with the table's
 * schemas before a handler runs.
 */
export * from './api-table';
// The types the table's results are made of, kept in their own modules so that the table need not import this one.
export type { ChargeFailure, ChargeResult, CurrentSale } from './charge-result';
export type { DisplayCart, DisplayOrder, DisplaySale, DisplayState } from './display';
export type { PrintResult, ReceiptView } from './print-result';
export type { CatalogueItem } from './product';

/** Pushed over the live channel (server-sent events in browser mode, IPC events in the desktop app). */
export type LiveEvent =
  | { type: 'order'; order: Order }
  | { type: 'display'; state: DisplayState }
  /** The mode, the store or the till changed (a manager's setting, a switch to live, a sign-in). */
  | { type: 'info'; info: AppInfo; till: TillStatus };

// The method lists per service, derived from the table (common/api-table/): kept for the code that imports them.
export const ORDER_API_METHODS = apiMethodsOf('order');
export type OrderApiMethod = ApiMethodOf<'order'>;
/** The manager's books (core/books-service.ts): they read and change the order log in use, like the order methods. */
export const BOOKS_API_METHODS = apiMethodsOf('books');
export type BooksApiMethod = ApiMethodOf<'books'>;
/** This till's shift (core/shifts/shift-api.ts): on the order log in use, like the order methods. */
export const SHIFT_API_METHODS = apiMethodsOf('shift');
export type ShiftApiMethod = ApiMethodOf<'shift'>;
/** The sale at the counter (core/sales/sale-service.ts): the cashier's, beside the order methods. */
export const SALE_API_METHODS = apiMethodsOf('sale');
export type SaleApiMethod = ApiMethodOf<'sale'>;
/** Refunds (core/sales/refund-api.ts): the cashier's with a manager's PIN, served beside the sale's. */
export const REFUND_API_METHODS = apiMethodsOf('refund');
export type RefundApiMethod = ApiMethodOf<'refund'>;
/** The store book's methods (store-book/store-view.ts): the link, and the whole store's books. */
export const STORE_BOOK_API_METHODS = apiMethodsOf('storeBook');
export type StoreBookApiMethod = ApiMethodOf<'storeBook'>;
/** The manager's catalogue (core/products/catalogue-service.ts): products, their import and export. */
export const CATALOGUE_API_METHODS = apiMethodsOf('catalogue');
export type CatalogueApiMethod = ApiMethodOf<'catalogue'>;
/** The manager service's (core/manager-service.ts): the till's people and the manager's screens. */
export const MANAGER_API_METHODS = apiMethodsOf('manager');
export type ManagerApiMethod = ApiMethodOf<'manager'>;

/** What the renderer calls: every method is asynchronous because every transport crosses a process boundary. */
export type LoketApi = {
  [M in ApiMethodName]: (...args: ApiArgs<M>) => Promise<ApiResult<M>>;
};

/** What a host implements: the same methods, free to answer synchronously. */
export type ApiHandlers = {
  [M in ApiMethodName]: (...args: ApiArgs<M>) => ApiResult<M> | Promise<ApiResult<M>>;
};

export type { ApiErrorCode } from './order-policy';

/**
 * Error a transport carries back to the renderer: a code it can branch on, words for people (English: the CLI and
 * the log), and, where Loket knows what it means, a reason a screen words in its own language (reasons.ts).
 */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly reason?: Reason,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * A call's error as it travels: the code, the English words, the reason when there is one, and for an `internal`
 * error the log file that has its details (`logFile`), where the host keeps one.
 */
export interface ApiErrorBody {
  code: ApiErrorCode;
  message: string;
  reason?: Reason;
  logFile?: string;
}

/** What every call answers, over IPC and over HTTP alike: a result, or an error code with words for people. */
export type ApiEnvelope<T> = { ok: true; result: T } | { ok: false; error: ApiErrorBody };

/** What a caller may be told about an unexpected failure: nothing of its insides. */
export const INTERNAL_ERROR_MESSAGE = 'Internal error in Loket; the log has the details.';

/** The same, naming the log file (the data folder's loket.log) when the host keeps one. */
export function internalErrorMessage(logFile?: string): string {
  return logFile ? `Internal error in Loket; the log has the details: ${logFile}` : INTERNAL_ERROR_MESSAGE;
}

/**
 * The one mapping from what a handler threw to what the caller sees. Broken order rules carry their own
 * code; anything else is `internal` with no detail (the host logs the original).
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof OrderRuleError) return new ApiError(err.code, err.message, err.why);
  return new ApiError('internal', INTERNAL_ERROR_MESSAGE);
}

/** The { min, max } a custom zod issue carries (an amount's range), or nothing. */
function rangeOf(issue: { code: string; params?: Record<string, unknown> }): { min?: number; max?: number } {
  const p = issue.code === 'custom' ? issue.params : undefined;
  return typeof p?.min === 'number' && typeof p.max === 'number' ? { min: p.min, max: p.max } : {};
}

/** The one gate every call passes: known method, arguments that parse. */
export function parseApiCall(method: unknown, args: unknown): { method: ApiMethodName; args: unknown[] } {
  if (!isApiMethodName(method)) throw new ApiError('unknown_method', `unknown API method ${JSON.stringify(method)}`);
  const parsed = API_TABLE[method].args.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || '(list)';
    // A person's reason breaks a rule people are told about (order-policy.ts); any other argument is the caller's.
    // An amount's rule carries its range (whole-rupiah.ts's rupiahSchema), for the screen to say the maximum.
    const range = rangeOf(issue);
    const why =
      issue.message === REASON_RULE
        ? reason('order.reason_rule', { min: REASON_MIN, max: REASON_MAX })
        : reason('arguments.invalid', { field, ...range });
    throw new ApiError('invalid_arguments', `${method}: argument ${field}: ${issue.message}`, why);
  }
  return { method, args: parsed.data as unknown[] };
}

/**
 * Runs one call through the gate and the handler and wraps the outcome in the envelope; both transports
 * use it, so they answer alike. `onInternal` sees the original of an unexpected error, for the log only;
 * `logFile` is where that log is kept, named to the caller.
 */
export async function dispatchApiCall(
  handlers: ApiHandlers,
  method: unknown,
  args: unknown,
  onInternal: (method: string, err: unknown) => void,
  options: { logFile?: string } = {},
): Promise<ApiEnvelope<unknown>> {
  try {
    const parsed = parseApiCall(method, args);
    const handler = handlers[parsed.method] as (...a: unknown[]) => unknown;
    const result = await handler.apply(handlers, parsed.args);
    return { ok: true, result: result ?? null };
  } catch (err) {
    const error = toApiError(err);
    if (error.code === 'internal' && !(err instanceof ApiError)) {
      onInternal(String(method), err);
      return { ok: false, error: internalError(options.logFile) };
    }
    return {
      ok: false,
      error: { code: error.code, message: error.message, ...(error.reason ? { reason: error.reason } : {}) },
    };
  }
}

/** The envelope's error for an unexpected failure, naming the log file where the host keeps one. */
export function internalError(logFile?: string): { code: 'internal'; message: string; logFile?: string } {
  return { code: 'internal', message: internalErrorMessage(logFile), ...(logFile ? { logFile } : {}) };
}

/**
 * What the preload puts on `window.loket`: every method answers the envelope (errors thrown across
 * Electron's IPC keep only their message, so they are answered, not thrown), and a subscription to live events.
 */
export type LoketBridge = {
  [M in ApiMethodName]: (...args: ApiArgs<M>) => Promise<ApiEnvelope<ApiResult<M>>>;
} & {
  onEvent(listener: (event: LiveEvent) => void): () => void;
  /**
   * The desktop app only: save an export prepared with prepareExport to a file the manager picks in the OS's
   * save dialog (browser mode downloads GET /api/download/{downloadId} instead).
   */
  saveDownload(downloadId: string): Promise<SaveResult>;
};

/** What the cashier's bridge holds besides the API's methods (LoketBridge): the live events and the desktop's save. */
export const BRIDGE_EXTRAS = ['onEvent', 'saveDownload'] as const satisfies readonly Exclude<
  keyof LoketBridge,
  ApiMethodName
>[];
/** Every name on the cashier's `window.loket`: the API's methods and the extras. */
export const bridgeNames: readonly (keyof LoketBridge)[] = [...apiMethodNames, ...BRIDGE_EXTRAS];
/** The methods the customer display may call (access `display` in the table): it reads what it shows, no more. */
export const DISPLAY_METHODS = apiMethodsFor('display');
/** Every name on the customer display's `window.loket` (src-preload/display.ts): its methods and the live events. */
export const DISPLAY_BRIDGE_NAMES: readonly (keyof DisplayBridge)[] = [...DISPLAY_METHODS, 'onEvent'];
/** What the display window's `window.loket` holds: the same names as the cashier's bridge, so the renderer's
 * display client (ipcDisplayClient) works on either. */
export type DisplayBridge = Pick<LoketBridge, ApiMethodFor<'display'> | 'onEvent'>;

/** A bridge's methods: each answers the envelope. */
export type BridgeMethods = { [M in ApiMethodName]: (...args: ApiArgs<M>) => Promise<ApiEnvelope<ApiResult<M>>> };

/**
 * The one place an object of API methods is made from the table's names and one function that takes a method's
 * name: the preload bridges and the renderer's clients are built with it, so none of them lists a method. TypeScript
 * cannot follow a name to its own signature through a loop, so the object is typed here, once.
 */
function methodObject<T>(names: readonly ApiMethodName[], make: (method: ApiMethodName) => unknown): T {
  return Object.fromEntries(names.map((method) => [method, make(method)])) as T;
}

/** A bridge over `names` (src-preload/): `invoke` sends one call and answers its envelope. */
export function bridgeMethods<K extends ApiMethodName>(
  names: readonly K[],
  invoke: (method: K, args: unknown[]) => Promise<unknown>,
): Pick<BridgeMethods, K> {
  return methodObject(
    names,
    (method) =>
      (...args: unknown[]) =>
        invoke(method as K, args),
  );
}

/** A handler of every method from one that takes a method's name (host/api-routing.ts routes by the table with it). */
export function handlersOf(make: (method: ApiMethodName) => (...args: unknown[]) => unknown): ApiHandlers {
  return methodObject(apiMethodNames, make);
}

/** A client of every method (src-renderer/src/api/): `call` sends one call and answers its result, or throws. */
export function clientMethods(call: (method: ApiMethodName, args: unknown[]) => Promise<unknown>): LoketApi {
  return methodObject(
    apiMethodNames,
    (method) =>
      (...args: unknown[]) =>
        call(method, args),
  );
}
