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
  type ApiService,
} from '../../src-main/common/api';

// The table of API methods (common/api-table.ts) is the one list: these check what the rest derives from it.

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
