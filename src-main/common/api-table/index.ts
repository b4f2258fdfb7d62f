/**
 * The table of API methods: each method once, with the schema of its argument tuple, its result type, the service
 * that serves it, who may call it and what the host does around it (row.ts). Each service's rows are in its own file
 * here; this one joins them. Everything else derives from it: the gate every transport passes (common/api.ts,
 * parseApiCall), the preload bridges (src-preload/), the renderer's clients (src-renderer/src/api/), the host's
 * routing (host/api-routing.ts) and the IPC gate's display rule (electron/ipc-api.ts). A new method is one row in
 * its service's file and the method in its service (docs/architecture.md). Arguments and results are plain data
 * (structured-clone and JSON safe).
 */

import type { z } from 'zod';
import { BOOKS_METHODS } from './books-methods';
import { CATALOGUE_METHODS } from './catalogue-methods';
import { MANAGER_METHODS } from './manager-methods';
import { ORDER_METHODS } from './order-methods';
import { REFUND_METHODS } from './refund-methods';
import type { ApiAccess, ApiMethodSpec, ApiRow, ApiService, Returns } from './row';
import { SALE_METHODS } from './sale-methods';
import { SHIFT_METHODS } from './shift-methods';
import { STORE_BOOK_METHODS } from './store-book-methods';

export type { ApiAccess, ApiMethodSpec, ApiService, Returns, SaleCharged } from './row';
export { chargeInputSchema, type ChargeInput } from './order-methods';

/** A service's rows, each with its service added. */
type Served<S extends ApiService, R> = { readonly [M in keyof R]: R[M] & { readonly service: S } };
function served<S extends ApiService, R extends Record<string, ApiRow>>(service: S, rows: R): Served<S, R> {
  const joined: Record<string, unknown> = {};
  for (const [method, row] of Object.entries(rows)) joined[method] = { ...row, service };
  return joined as Served<S, R>;
}

const SERVICES = {
  order: ORDER_METHODS,
  books: BOOKS_METHODS,
  shift: SHIFT_METHODS,
  sale: SALE_METHODS,
  refund: REFUND_METHODS,
  catalogue: CATALOGUE_METHODS,
  storeBook: STORE_BOOK_METHODS,
  manager: MANAGER_METHODS,
} as const satisfies Record<ApiService, Record<string, ApiRow>>;

export const API_TABLE = {
  ...served('order', SERVICES.order),
  ...served('books', SERVICES.books),
  ...served('shift', SERVICES.shift),
  ...served('sale', SERVICES.sale),
  ...served('refund', SERVICES.refund),
  ...served('catalogue', SERVICES.catalogue),
  ...served('storeBook', SERVICES.storeBook),
  ...served('manager', SERVICES.manager),
} as const satisfies Record<string, ApiMethodSpec>;

// Two services' files naming one method would leave one row silently over the other: refused as the table loads.
const named = Object.values(SERVICES).flatMap((rows) => Object.keys(rows));
if (named.length !== Object.keys(API_TABLE).length)
  throw new Error(`the table of API methods names a method twice: ${named.filter((m, i) => named.indexOf(m) !== i)}`);

type Table = typeof API_TABLE;
export type ApiMethodName = keyof Table;
export type ApiArgs<M extends ApiMethodName> = z.infer<Table[M]['args']>;
type ResultsOfTable = { [M in ApiMethodName]: Table[M]['result'] extends Returns<infer R> ? R : never };
/**
 * Each method's result type, read off the table once. An interface, so that `ApiResult<M>` of a generic M stays an
 * indexed type: a caller's literal answer (`{ ok: true }`) is then typed by it, as with a hand-written map.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface on purpose: see above
interface Results extends ResultsOfTable {}
export type ApiResult<M extends ApiMethodName> = Results[M];
/** The methods a service serves: what it implements (`implements Pick<ApiHandlers, ApiMethodOf<'books'>>`). */
export type ApiMethodOf<S extends ApiService> = {
  [M in ApiMethodName]: Table[M]['service'] extends S ? M : never;
}[ApiMethodName];
/** The methods a caller of that kind may call. */
export type ApiMethodFor<A extends ApiAccess> = {
  [M in ApiMethodName]: A extends Table[M]['access'][number] ? M : never;
}[ApiMethodName];

export function isApiMethodName(name: unknown): name is ApiMethodName {
  return typeof name === 'string' && Object.hasOwn(API_TABLE, name);
}

/** Every method's name, in the table's order. */
export const apiMethodNames: readonly ApiMethodName[] = Object.freeze(Object.keys(API_TABLE).filter(isApiMethodName));

/** A method's row, as the plain shape every row has. */
export function apiMethodSpec(method: ApiMethodName): ApiMethodSpec {
  return API_TABLE[method];
}

/** The methods `service` serves. */
export function apiMethodsOf<S extends ApiService>(service: S): readonly ApiMethodOf<S>[] {
  return Object.freeze(apiMethodNames.filter((m): m is ApiMethodOf<S> => API_TABLE[m].service === service));
}

/** The methods a caller of kind `access` may call. */
export function apiMethodsFor<A extends ApiAccess>(access: A): readonly ApiMethodFor<A>[] {
  return Object.freeze(apiMethodNames.filter((m): m is ApiMethodFor<A> => apiMethodSpec(m).access.includes(access)));
}
