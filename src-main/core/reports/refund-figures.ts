import type { Database } from 'better-sqlite3';
import type { RefundFigures } from '../../common/reports';

/**
 * The refunds of a range of store days (docs/end-of-day.md, "Refunds"), read from the refunds table (migration 12) of
 * the same log as the orders and sales: a refund belongs to the store day it was made in. Every figure is a sum of
 * stored figures, so the export's refunds (export --refunds, the Refunds sheet) add up to them to the rupiah.
 */

export const NO_REFUNDS: RefundFigures = {
  count: 0,
  amount: 0,
  rounding: 0,
  money: 0,
  cashRounding: 0,
  paidBack: 0,
  byHow: [],
  outsideByMethod: [],
  tax: { net: 0, dpp: 0, ppn: 0, pbjt: 0, service: 0 },
};

function hasRefunds(db: Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'refunds'").get() !== undefined;
}

export function refundFigures(db: Database, range: { from: Date; to: Date }, training: boolean): RefundFigures {
  if (!hasRefunds(db)) return NO_REFUNDS;
  const p = [range.from.toISOString(), range.to.toISOString(), training ? 1 : 0];
  const where = 'created_at >= ? AND created_at < ? AND training = ?';
  const sums = db
    .prepare<unknown[], Record<string, number | null>>(
      `SELECT COUNT(*) AS count, SUM(amount) AS amount, SUM(rounding) AS rounding, SUM(money) AS money,
         SUM(cash_rounding) AS cashRounding, SUM(paid_back) AS paidBack, SUM(net) AS net, SUM(dpp) AS dpp,
         SUM(ppn) AS ppn, SUM(pbjt) AS pbjt, SUM(service) AS service
       FROM refunds WHERE ${where}`,
    )
    .get(...p)!;
  const n = (k: string) => sums[k] ?? 0;
  const byHow = db
    .prepare<unknown[], RefundFigures['byHow'][number]>(
      `SELECT how, COUNT(*) AS count, SUM(paid_back) AS paidBack FROM refunds WHERE ${where} GROUP BY how ORDER BY how`,
    )
    .all(...p);
  const outsideByMethod = db
    .prepare<unknown[], RefundFigures['outsideByMethod'][number]>(
      `SELECT COALESCE(method_id, '') AS methodId, COUNT(*) AS count, SUM(paid_back) AS paidBack
       FROM refunds WHERE ${where} AND how = 'outside' GROUP BY COALESCE(method_id, '') ORDER BY methodId`,
    )
    .all(...p);
  return {
    count: n('count'),
    amount: n('amount'),
    rounding: n('rounding'),
    money: n('money'),
    cashRounding: n('cashRounding'),
    paidBack: n('paidBack'),
    byHow,
    outsideByMethod,
    tax: { net: n('net'), dpp: n('dpp'), ppn: n('ppn'), pbjt: n('pbjt'), service: n('service') },
  };
}
