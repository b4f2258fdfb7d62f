import type { z } from 'zod';

/*
 * What a row of the table of API methods is (index.ts joins the rows, one file per service): the schema of the
 * method's argument tuple, its result type, who may call it, and what the host does around it, as flags. The host's
 * router (host/api-routing.ts) reads the flags; it names no method.
 */

/** Which service serves a method (host/api-routing.ts routes to it; the service implements Pick<ApiHandlers, ...>). */
export type ApiService = 'order' | 'books' | 'shift' | 'sale' | 'refund' | 'storeBook' | 'catalogue' | 'manager';

/**
 * Who may call a method: `cashier`, anyone at the till; `manager`, a manager's session (its token is the method's
 * first argument, and the service checks it); both, a method whose first argument is a manager's token or null,
 * where the service decides which answers need the session (the shift's reports: the X report does); `display`, the
 * customer display's window too (the IPC gate refuses it every method without it).
 */
export type ApiAccess = 'cashier' | 'manager' | 'display';

/** A method's result type, carried by the table as a type only (nothing of it exists at run time). */
export interface Returns<T> {
  readonly __result?: T;
}
export function returns<T>(): Returns<T> {
  return {};
}

/**
 * What a method flagged `showsPaidSale` answers: whether it charged, the sale it wrote, and the gateway order that
 * takes the display, if any (chargeSale's ChargeSaleResult fits).
 */
export type SaleCharged = { ok: true; saleId: string; order: object | null } | { ok: false };

/** One row of the table, joined to its service: the plain shape every row has (apiMethodSpec answers it). */
export interface ApiMethodSpec {
  service: ApiService;
  access: readonly ApiAccess[];
  args: z.ZodTuple;
  result: Returns<unknown>;
  /** A charge: the host counts it as in flight, so a backup or a switch of mode waits for it to end. */
  charge?: true;
  /**
   * Once it has answered, a sale it paid with no order to take the customer display (cash or other tenders only)
   * is shown there instead, with its change.
   */
  showsPaidSale?: true;
  /** Once it has answered, the customer display's new state is pushed to whoever listens (it follows the cart). */
  pushesDisplay?: true;
}

/** A row as a service's file writes it: its service is its file's (index.ts adds it). */
interface PlainRow extends Omit<ApiMethodSpec, 'service' | 'showsPaidSale'> {
  showsPaidSale?: never;
}
/** A row that shows the sale it paid is a charge, and answers which sale that is and its order (SaleCharged). */
interface PaidSaleRow extends Omit<ApiMethodSpec, 'service' | 'showsPaidSale' | 'charge' | 'result'> {
  showsPaidSale: true;
  charge: true;
  result: Returns<SaleCharged>;
}
/** A row of a service's file; its type holds the flags' rules the compiler can check. */
export type ApiRow = PlainRow | PaidSaleRow;

export const CASHIER = ['cashier'] as const;
export const MANAGER = ['manager'] as const;
