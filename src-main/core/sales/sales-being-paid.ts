import type { Database, Statement } from 'better-sqlite3';
import type { OrderState } from '../../common/order';
import type { SaleBeingPaid } from '../../common/shifts';

interface Row {
  saleId: string;
  terminal: string;
  n: number;
  total: number;
  createdAt: string;
  orderId: string | null;
  methodId: string | null;
  orderState: OrderState | null;
}

/**
 * A till's sales still being paid (`tendering`: a gateway part, QRIS say, not settled yet), read-only over the sales,
 * their tenders and the orders of the same log. The shift's close asks it inside its write transaction
 * (core/shifts/shift-service.ts): a shift does not close under a sale whose cash it took, or would have to give back.
 * Each is named as its struk is (`T01-000042`, as SaleStore.serialOf numbers it), with its gateway order still waiting
 * (its method and state) when it has one. The sales' partial index on their open states finds them at once.
 */
export class SalesBeingPaid {
  private statement: Statement<[string], Row> | undefined;

  constructor(private readonly db: Database) {}

  ofTerminal(terminalId: string): SaleBeingPaid[] {
    this.statement ??= this.db.prepare<[string], Row>(
      `SELECT s.id AS saleId, s.terminal_id AS terminal, s.total AS total, s.created_at AS createdAt,
              (SELECT COUNT(*) FROM sales x WHERE x.terminal_id = s.terminal_id AND x.rowid <= s.rowid) AS n,
              t.order_id AS orderId, t.method_id AS methodId, o.state AS orderState
       FROM sales s
       LEFT JOIN sale_tenders t ON t.sale_id = s.id AND t.kind = 'gateway' AND t.state = 'pending'
       LEFT JOIN orders o ON o.id = t.order_id
       WHERE s.state = 'tendering' AND s.terminal_id = ?
       ORDER BY s.rowid, t.tender_no`,
    );
    return this.statement.all(terminalId).map((r) => ({
      saleId: r.saleId,
      serial: `${r.terminal}-${String(r.n).padStart(6, '0')}`,
      total: r.total,
      since: r.createdAt,
      ...(r.orderId === null ? {} : { orderId: r.orderId }),
      ...(r.methodId === null ? {} : { methodId: r.methodId }),
      ...(r.orderState === null ? {} : { orderState: r.orderState }),
    }));
  }
}
