import type { Database } from 'better-sqlite3';
import type { SaleSettings } from '../../../src-main/core/settings/sale-settings';
import { Counter, type Charger, type CounterDeps } from '../../../src-main/core/counter/counter';
import type { CounterPort } from '../../../src-main/core/sales/sale-service';
import { OrderLog } from '../../../src-main/core/orders/order-log';
import { ProductStore } from '../../../src-main/core/products/product-store';
import { SaleStore } from '../../../src-main/core/sales/sale-store';
import type { Clock } from '../../../src-main/core/ports';
import type { CashLedger } from '../../../src-main/core/shifts/cash-ledger';
import type { AppServiceDeps } from '../../../src-main/core/app-service';
import { loadSaleSettings } from '../../../src-main/core/settings/sale-settings';
import { cliCounter } from '../../../src-main/cli/sale-commands';
import type { Loket } from '../../../src-main/runtime';

/**
 * The real counter (core/counter/counter.ts) for tests without a gateway: cash and "other" tenders charge as at the
 * till, a gateway tender is refused before anything is written (no order service here). With `orders`, the real one.
 */
export function counterOf(parts: {
  db: Database;
  clock: Clock;
  settings: () => SaleSettings;
  log?: OrderLog;
  sales?: SaleStore;
  products?: ProductStore;
  cashLedger?: CashLedger;
  terminalId?: string;
  orders?: CounterDeps['orders'];
  audit?: CounterDeps['audit'];
  approveAsManager?: CounterDeps['approveAsManager'];
  drawer?: CounterDeps['drawer'];
}): Counter {
  return new Counter({
    log: parts.log ?? new OrderLog(parts.db, parts.clock),
    orders: parts.orders ?? NO_GATEWAY,
    sales: parts.sales ?? new SaleStore(parts.db, parts.clock),
    products: parts.products ?? new ProductStore(parts.db, parts.clock),
    settings: parts.settings,
    terminalId: () => parts.terminalId ?? 'T01',
    training: false,
    clock: parts.clock,
    cashLedger: parts.cashLedger,
    audit: parts.audit,
    approveAsManager: parts.approveAsManager,
    drawer: parts.drawer,
  });
}

/** The sale service's charge through `counter`, as the cashier with nobody signed in (or `who`). */
export function counterPort(counter: Counter, who: Charger = { source: 'cashier', staff: null }): CounterPort {
  return {
    chargeSale: (input) => counter.charge(input, who),
    cancelOrder: () => {
      throw new Error('no gateway in this test');
    },
  };
}

const NO_GATEWAY: CounterDeps['orders'] = {
  prepare: () => ({ ok: false, failure: { class: 'invalid_input', message: 'no gateway in this test', issues: [] } }),
  record: () => {
    throw new Error('no gateway in this test');
  },
  sendCreated: () => Promise.reject(new Error('no gateway in this test')),
  refusalOfWrite: (write) => {
    write();
    return undefined;
  },
};

/** What an AppService built by hand over `loket` needs of the counter (the CLI's counter over the same order log). */
export function appCounterDeps(loket: Loket): Pick<AppServiceDeps, 'counter' | 'terminalId' | 'typedCategory'> {
  return {
    counter: cliCounter(loket, {}),
    terminalId: () => loket.terminalId,
    typedCategory: () => loadSaleSettings(loket.store.settings).tax.defaultCategory,
  };
}
