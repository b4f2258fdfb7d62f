import type { Database, Statement } from 'better-sqlite3';
import { codeKindsSql } from '../../common/payment-kinds';

/**
 * The one query of an export: the orders created in [from, to) (UTC, as `dayRange` gives them), oldest first,
 * each with its last event (who changed it last, and why, and its sequence number) and the name of the staff member
 * who sold it.
 *
 * The last event is found through `order_events_order (order_id, seq)`: MAX(seq) for one order_id is a single
 * step down that index, then `seq` is the table's rowid. The orders come from `orders_created`, so the cost
 * follows the rows exported, not the size of the log. `EXPLAIN QUERY PLAN` of this text (tested in
 * test/node/export.test.ts, shown by the benchmark):
 *
 *   SEARCH o USING INDEX orders_created (created_at>? AND created_at<?)
 *   SEARCH s USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN
 *   SEARCH e USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN
 *   CORRELATED SCALAR SUBQUERY 1
 *   SEARCH order_events USING COVERING INDEX order_events_order (order_id=?)
 *   USE TEMP B-TREE FOR LAST TERM OF ORDER BY
 *
 * The last line sorts only orders created in the same millisecond (by id): SQLite emits each such group as it
 * completes, so the query still streams (older SQLite words it "RIGHT PART OF ORDER BY").
 */
export const EXPORT_SQL = `SELECT o.id, o.created_at, o.paid_at, e.at, o.item_name, o.item_id, o.amount, o.method_id,
  o.state, o.late_payment, o.gateway_transaction_id,
  CASE WHEN o.kind IN (${codeKindsSql()}) THEN json_extract(o.instruction, '$.va') END,
  o.rejection_retcode, o.rejection_message, o.staff_id, s.name, e.source, e.actor, e.reason, o.training, e.seq
FROM orders o
LEFT JOIN staff s ON s.id = o.staff_id
LEFT JOIN order_events e ON e.seq = (SELECT MAX(seq) FROM order_events WHERE order_id = o.id)
WHERE o.created_at >= ? AND o.created_at < ?
ORDER BY o.created_at, o.id`;

/** One row of EXPORT_SQL, as better-sqlite3 gives it in raw mode (an array, in the SELECT's order). */
export type ExportRow = [
  id: string,
  createdAt: string,
  paidAt: string | null,
  lastChangeAt: string | null,
  itemName: string,
  itemId: string | null,
  amount: number,
  methodId: string,
  state: string,
  latePayment: number,
  gatewayTransactionId: string | null,
  va: string | number | null,
  retcode: string | null,
  message: string | null,
  staffId: number | null,
  staffName: string | null,
  lastChangeSource: string | null,
  lastChangeBy: string | null,
  lastChangeReason: string | null,
  training: number,
  /** The last event's sequence number: above its day's closing's, the order changed after closing. */
  lastSeq: number | null,
];

export function prepareExportQuery(db: Database): Statement<[string, string], ExportRow> {
  return db.prepare<[string, string], ExportRow>(EXPORT_SQL).raw(true);
}

/** SQLite's plan for EXPORT_SQL on `db`, one line per step. */
export function explainExportQuery(db: Database): string[] {
  return db
    .prepare<[string, string], { detail: string }>(`EXPLAIN QUERY PLAN ${EXPORT_SQL}`)
    .all('', '')
    .map((r) => r.detail);
}
