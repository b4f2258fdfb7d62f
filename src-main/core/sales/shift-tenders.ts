import type { Database } from 'better-sqlite3';
import type { ShiftTenderLine, ShiftView } from '../../common/shifts';
import type { ShiftTenderSource } from '../shifts/shift-report';

/**
 * What the sales add to a shift's X/Z report (core/shifts/shift-report.ts): the gateway tenders by payment method and
 * the "other" tenders (card slips, transfers) of the till's completed sales made while the shift was open, and the
 * cash rounding lines of those sales. A sale belongs to the shift open when it was rung up (its created time, as the
 * day report counts it), on the shift's terminal; the drawer's own events give the cash.
 */
export class SaleShiftTenders implements ShiftTenderSource {
  constructor(private readonly db: Database) {}

  ofShift(shift: ShiftView): { tenders: ShiftTenderLine[]; rounding: number } {
    const p = [shift.terminalId, shift.openedAt, shift.closedAt ?? '9999-12-31T23:59:59.999Z'];
    const inShift = `s.terminal_id = ? AND s.created_at >= ? AND s.created_at < ? AND s.state = 'completed'`;
    const rows = this.db
      .prepare<unknown[], { kind: 'gateway' | 'other'; methodId: string | null; count: number; amount: number }>(
        `SELECT t.kind AS kind, t.method_id AS methodId, COUNT(*) AS count, SUM(t.amount) AS amount
         FROM sale_tenders t JOIN sales s ON s.id = t.sale_id
         WHERE ${inShift} AND t.kind <> 'cash' AND t.state = 'paid'
         GROUP BY t.kind, t.method_id ORDER BY t.kind, t.method_id`,
      )
      .all(...p);
    const rounding = this.db
      .prepare<unknown[], number | null>(`SELECT SUM(s.rounding) FROM sales s WHERE ${inShift}`)
      .pluck()
      .get(...p);
    return {
      tenders: rows.map((r) => ({
        tender: r.kind,
        ...(r.methodId !== null ? { methodId: r.methodId } : {}),
        count: r.count,
        amount: r.amount,
      })),
      rounding: rounding ?? 0,
    };
  }
}
