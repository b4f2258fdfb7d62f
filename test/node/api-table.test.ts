import { describe, expect, it } from 'vitest';
import {
  API_TABLE,
  apiMethodNames,
  apiMethodSpec,
  apiMethodsFor,
  apiMethodsOf,
  bridgeMethods,
  bridgeNames,
  clientMethods,
  DISPLAY_BRIDGE_NAMES,
  DISPLAY_METHODS,
  parseApiCall,
  SALE_API_METHODS,
  type ApiMethodName,
  type ApiService,
} from '../../src-main/common/api';
import { BOOKS_METHODS } from '../../src-main/common/api-table/books-methods';
import { CATALOGUE_METHODS } from '../../src-main/common/api-table/catalogue-methods';
import { MANAGER_METHODS } from '../../src-main/common/api-table/manager-methods';
import { ORDER_METHODS } from '../../src-main/common/api-table/order-methods';
import { REFUND_METHODS } from '../../src-main/common/api-table/refund-methods';
import { SALE_METHODS } from '../../src-main/common/api-table/sale-methods';
import { SHIFT_METHODS } from '../../src-main/common/api-table/shift-methods';
import { STORE_BOOK_METHODS } from '../../src-main/common/api-table/store-book-methods';

// The table of API methods (common/api-table/, one file per service) is the one list: these check what the rest derives from it.

const SESSION = 'a'.repeat(32);

describe('the table of API methods', () => {
  it('names every method once, and every list derives from it', () => {
    expect(apiMethodNames).toEqual(Object.keys(API_TABLE));
    expect(new Set(apiMethodNames).size).toBe(apiMethodNames.length);
    const services: ApiService[] = ['order', 'books', 'shift', 'sale', 'refund', 'storeBook', 'catalogue', 'manager'];
    const byService = services.flatMap((s) => apiMethodsOf(s));
    expect([...byService].sort()).toEqual([...apiMethodNames].sort());
    expect(SALE_API_METHODS).toContain('chargeSale');
    expect(bridgeNames).toEqual([...apiMethodNames, 'onEvent', 'saveDownload']);
  });

  it('the customer display may call displayState only; its bridge adds the live events', () => {
    expect(DISPLAY_METHODS).toEqual(['displayState']);
    expect(DISPLAY_BRIDGE_NAMES).toEqual(['displayState', 'onEvent']);
  });

  it("a manager's method takes the session token first (or null, when the till may call it too); no other does", () => {
    const managers = apiMethodsFor('manager');
    const cashiers = apiMethodsFor('cashier');
    expect(managers).toContain('closeDay');
    const session = apiMethodSpec('managerView').args.def.items[0];
    expect(parseApiCall('managerView', [SESSION]).args).toEqual([SESSION]);
    for (const method of apiMethodNames) {
      const first = apiMethodSpec(method).args.def.items[0] as unknown as { def?: { innerType?: unknown } } | undefined;
      const manager = (managers as readonly string[]).includes(method);
      const both = manager && (cashiers as readonly string[]).includes(method);
      // A method of both takes the token or null: the service decides what needs the session.
      expect(first === session, method).toBe(manager && !both);
      expect(first?.def?.innerType === session, method).toBe(both);
    }
    // The shift's reports: the X report needs a manager's session (the service checks it), the Z report none.
    expect(managers.filter((m) => (cashiers as readonly string[]).includes(m))).toEqual([
      'shiftReport',
      'shiftReportHtml',
      'printShiftReport',
    ]);
    expect(parseApiCall('shiftReport', [null, {}]).args).toEqual([null, {}]);
    expect(() => parseApiCall('shiftReport', [{}])).toThrow();
  });

  it('only a charge is counted in flight', () => {
    expect(apiMethodNames.filter((m) => apiMethodSpec(m).charge)).toEqual(['createOrder', 'retryOrder', 'chargeSale']);
  });

  it("each service's file holds its rows, and the table is their union, each row carrying its file's service", () => {
    const files = {
      order: ORDER_METHODS,
      books: BOOKS_METHODS,
      shift: SHIFT_METHODS,
      sale: SALE_METHODS,
      refund: REFUND_METHODS,
      catalogue: CATALOGUE_METHODS,
      storeBook: STORE_BOOK_METHODS,
      manager: MANAGER_METHODS,
    } satisfies Record<ApiService, object>;
    const named = Object.values(files).flatMap((rows) => Object.keys(rows));
    expect([...named].sort()).toEqual([...apiMethodNames].sort());
    expect(new Set(named).size).toBe(named.length);
    for (const [service, rows] of Object.entries(files))
      for (const [method, row] of Object.entries(rows)) {
        expect(apiMethodSpec(method as ApiMethodName), method).toEqual({ ...row, service });
        expect(apiMethodsOf(service as ApiService), method).toContain(method);
      }
  });

  it('a row holds only the fields the router reads: a flag spelt otherwise would be ignored', () => {
    const known = ['service', 'access', 'args', 'result', 'charge', 'showsPaidSale', 'pushesDisplay'];
    for (const method of apiMethodNames) {
      const spec = apiMethodSpec(method);
      expect(
        Object.keys(spec).filter((k) => !known.includes(k)),
        method,
      ).toEqual([]);
      for (const flag of ['charge', 'showsPaidSale', 'pushesDisplay'] as const)
        expect([undefined, true], `${method}.${flag}`).toContain(spec[flag]);
    }
  });

  it('showsPaidSale: only a charge of the sale shows the sale it paid with no order (chargeSale)', () => {
    const showing = apiMethodNames.filter((m) => apiMethodSpec(m).showsPaidSale);
    expect(showing).toEqual(['chargeSale']);
    for (const method of showing) {
      expect(apiMethodSpec(method).charge, method).toBe(true);
      expect(apiMethodSpec(method).access, method).toEqual(['cashier']);
    }
  });

  it("pushesDisplay: only a cashier's method that charges nothing pushes the display's state (saveCart)", () => {
    const pushing = apiMethodNames.filter((m) => apiMethodSpec(m).pushesDisplay);
    expect(pushing).toEqual(['saveCart']);
    for (const method of pushing) {
      const spec = apiMethodSpec(method);
      expect(spec.access, method).toContain('cashier');
      // A charge's display follows its order's events, or its paid sale (showsPaidSale): never both ways.
      expect(spec.charge, method).toBeUndefined();
      expect(spec.showsPaidSale, method).toBeUndefined();
    }
  });

  it('a bridge and a client hold exactly the methods they are built over, each calling with its own name', async () => {
    const sent: [string, unknown[]][] = [];
    const bridge = bridgeMethods(DISPLAY_METHODS, async (method, args) => sent.push([method, args]));
    expect(Object.keys(bridge)).toEqual(['displayState']);
    await bridge.displayState();
    const client = clientMethods(async (method, args) => sent.push([method, args]));
    expect(Object.keys(client)).toEqual(apiMethodNames);
    await client.cancelOrder('T01-X', 'wrong amount');
    expect(sent).toEqual([
      ['displayState', []],
      ['cancelOrder', ['T01-X', 'wrong amount']],
    ]);
  });
});
