import type { Database } from 'better-sqlite3';
import type { SalesFigures } from '../../common/reports';

/**
 * The sales of a range of store days (docs/end-of-day.md, "Sales"): the completed sales' figures, by category and by
 * product (top sellers), the tax summary a PKP store files (DPP, PPN, PBJT, service), and the tenders by kind and
 * method with the cash rounding. Read from the sale tables (migration 10) of the same log as the orders; a sale
 * belongs to the store day it was created in, as an order does. Only completed sales count in the figures; voided
 * ones and those still being paid are counted apart. Every figure is a sum of stored figures, so the export's sale
 * lines (export --lines, the Sale lines sheet) add up to them to the rupiah.
 */

/** How many products the top sellers list names. */
export const TOP_SELLERS = 20;

const EMPTY: SalesFigures = {
  completed: { count: 0, amount: 0 },
  voided: { count: 0, amount: 0 },
  open: { count: 0, amount: 0 },
  subtotal: 0,
  discounts: 0,
  net: 0,
  tax: { dpp: 0, ppn: 0, pbjt: 0, service: 0 },
  total: 0,
  rounding: 0,
  byCategory: [],
  byProduct: [],
  tenders: { byKind: [], byMethod: [], cashHanded: 0, change: 0 },
};

function hasSales(db: Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sales'").get() !== undefined;
}

export function salesFigures(db: Database, range: { from: Date; to: Date }, training: boolean): SalesFigures {
  if (!hasSales(db)) return EMPTY;
  const p = [range.from.toISOString(), range.to.toISOString(), training ? 1 : 0];
  const inRange = 's.created_at >= ? AND s.created_at < ? AND s.training = ?';
  const byState = db
    .prepare<unknown[], { state: string; count: number; amount: number }>(
      `SELECT s.state, COUNT(*) AS count, SUM(s.total) AS amount FROM sales s WHERE ${inRange} GROUP BY s.state`,
    )
    .all(...p);
  const state = (name: string) => {
    const r = byState.find((x) => x.state === name);
    return { count: r?.count ?? 0, amount: r?.amount ?? 0 };
  };
  const open = [state('open'), state('tendering')];
  const sums = db
    .prepare<unknown[], Record<string, number | null>>(
      `SELECT SUM(subtotal) AS subtotal, SUM(line_discounts + sale_discount_amount) AS discounts, SUM(net) AS net,
         SUM(dpp) AS dpp, SUM(ppn) AS ppn, SUM(pbjt) AS pbjt, SUM(service) AS service, SUM(total) AS total,
         SUM(rounding) AS rounding
       FROM sales s WHERE ${inRange} AND s.state = 'completed'`,
    )
    .get(...p)!;
  const n = (k: string) => sums[k] ?? 0;
  const byCategory = db
    .prepare<unknown[], SalesFigures['byCategory'][number]>(
      `SELECT l.category AS category, SUM(l.qty) AS qty, SUM(l.gross) AS gross,
         SUM(l.line_discount + l.sale_discount) AS discounts, SUM(l.net) AS net, SUM(l.total) AS total
       FROM sale_lines l JOIN sales s ON s.id = l.sale_id WHERE ${inRange} AND s.state = 'completed'
       GROUP BY l.category ORDER BY total DESC, category`,
    )
    .all(...p);
  const byProduct = db
    .prepare<unknown[], SalesFigures['byProduct'][number] & { sku: string | null }>(
      `SELECT COALESCE(l.sku, '') AS sku, l.name AS name, SUM(l.qty) AS qty, SUM(l.net) AS net, SUM(l.total) AS total
       FROM sale_lines l JOIN sales s ON s.id = l.sale_id WHERE ${inRange} AND s.state = 'completed'
       GROUP BY COALESCE(l.product_id, 'free:' || l.name), l.name ORDER BY total DESC, qty DESC, name LIMIT ${TOP_SELLERS}`,
    )
    .all(...p);
  const tenderRows = db
    .prepare<
      unknown[],
      { kind: string; methodId: string | null; count: number; amount: number; handed: number; change: number }
    >(
      `SELECT t.kind AS kind, t.method_id AS methodId, COUNT(*) AS count, SUM(t.amount) AS amount,
         SUM(t.handed) AS handed, SUM(t.change) AS change
       FROM sale_tenders t JOIN sales s ON s.id = t.sale_id WHERE ${inRange} AND s.state = 'completed'
       GROUP BY t.kind, t.method_id ORDER BY t.kind, t.method_id`,
    )
    .all(...p);
  const byKind = new Map<string, { count: number; amount: number }>();
  for (const r of tenderRows) {
    const k = byKind.get(r.kind) ?? { count: 0, amount: 0 };
    byKind.set(r.kind, { count: k.count + r.count, amount: k.amount + r.amount });
  }
  return {
    completed: state('completed'),
    voided: state('voided'),
    open: { count: open[0]!.count + open[1]!.count, amount: open[0]!.amount + open[1]!.amount },
    subtotal: n('subtotal'),
    discounts: n('discounts'),
    net: n('net'),
    tax: { dpp: n('dpp'), ppn: n('ppn'), pbjt: n('pbjt'), service: n('service') },
    total: n('total'),
    rounding: n('rounding'),
    byCategory,
    byProduct,
    tenders: {
      byKind: [...byKind].map(([kind, v]) => ({ kind: kind as 'cash' | 'gateway' | 'other', ...v })),
      byMethod: tenderRows
        .filter((r) => r.kind === 'gateway')
        .map((r) => ({ methodId: r.methodId!, count: r.count, amount: r.amount })),
      cashHanded: tenderRows.filter((r) => r.kind === 'cash').reduce((a, r) => a + r.handed, 0),
      change: tenderRows.filter((r) => r.kind === 'cash').reduce((a, r) => a + r.change, 0),
    },
  };
}
