import type { Database, Statement } from 'better-sqlite3';
import type { RefundHow, RefundLineView, RefundView } from '../../common/refund-doc';
import type { RefundedQty } from '../../common/refund';
import type { RefundTax } from '../../common/refund-tax';
import type { TaxCategory } from '../../common/tax';
import { appendToOutbox } from '../outbox/outbox';

/**
 * Refunds in the order log's database (migration 12), beside the sales they give back (docs/tenders.md, "Refunds").
 * A refund is written whole, once: its row, its lines, its events (`created`, then `paid_back` or
 * `recorded_outside`), each event with its outbox row (stream 'refund', the payload the event and the whole refund),
 * all inside the caller's transaction — the one that also writes a cash refund's movement in the shift — so a crash
 * leaves either the whole refund or none of it. Nothing changes a refund afterwards (the schema's triggers refuse it),
 * and nothing here changes the sale.
 */

export interface NewRefund {
  id: string;
  saleId: string;
  terminalId: string;
  training: boolean;
  how: RefundHow;
  methodId?: string | undefined;
  shiftId?: string | undefined;
  reason: string;
  lines: Omit<RefundLineView, 'lineNo'>[];
  amount: number;
  rounding: number;
  money: number;
  cashRounding: number;
  paidBack: number;
  tax: RefundTax;
  complete: boolean;
  staffId?: number | undefined;
  staffName?: string | undefined;
  approvedBy: { staffId?: number | undefined; name: string };
  at: string;
}

interface RefundRow {
  id: string;
  sale_id: string;
  terminal_id: string;
  training: number;
  how: RefundHow;
  method_id: string | null;
  shift_id: string | null;
  reason: string;
  amount: number;
  rounding: number;
  money: number;
  cash_rounding: number;
  paid_back: number;
  net: number;
  dpp: number;
  ppn: number;
  pbjt: number;
  service: number;
  complete: number;
  staff_id: number | null;
  staff_name: string | null;
  approved_by_staff_id: number | null;
  approved_by: string;
  created_at: string;
}

interface LineRow {
  line_no: number;
  sale_line_no: number;
  line_id: string;
  name: string;
  qty: number;
  amount: number;
}

/** What the earlier refunds of a sale add up to: what refund.ts and the tax split read. */
export interface RefundedSoFar {
  qty: RefundedQty[];
  /** Line amounts refunded so far, per tax category (refund-tax.ts). */
  amountByCategory: Map<TaxCategory, number>;
  /** The money of the sale's cash refunds so far (refund.ts, cashRefund's `before`). */
  cashMoney: number;
}

export class RefundStore {
  private readonly statements = new Map<string, Statement>();

  constructor(readonly db: Database) {}

  /** Writes the refund, its lines and events; inside the caller's transaction (the refund is one). */
  create(r: NewRefund, meta: { actor: string; staffId?: number | undefined }): RefundView {
    if (!this.db.inTransaction) throw new Error('RefundStore.create is called inside the refund’s transaction');
    this.stmt(
      `INSERT INTO refunds (id, sale_id, terminal_id, training, how, method_id, shift_id, reason, amount, rounding, money,
         cash_rounding, paid_back, net, dpp, ppn, pbjt, service, complete, staff_id, staff_name, approved_by_staff_id,
         approved_by, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      r.id,
      r.saleId,
      r.terminalId,
      r.training ? 1 : 0,
      r.how,
      r.methodId ?? null,
      r.shiftId ?? null,
      r.reason,
      r.amount,
      r.rounding,
      r.money,
      r.cashRounding,
      r.paidBack,
      r.tax.net,
      r.tax.dpp,
      r.tax.ppn,
      r.tax.pbjt,
      r.tax.service,
      r.complete ? 1 : 0,
      r.staffId ?? null,
      r.staffName ?? null,
      r.approvedBy.staffId ?? null,
      r.approvedBy.name,
      r.at,
    );
    const line = this.stmt(
      `INSERT INTO refund_lines (refund_id, line_no, sale_id, sale_line_no, line_id, qty, amount)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    r.lines.forEach((l, i) => line.run(r.id, i + 1, r.saleId, l.saleLineNo, l.lineId, l.qty, l.amount));
    this.event(r.id, r.at, 'created', meta, {
      saleId: r.saleId,
      lines: r.lines.map((l) => ({ saleLineNo: l.saleLineNo, qty: l.qty, amount: l.amount })),
      amount: r.amount,
      money: r.money,
      reason: r.reason,
      approvedBy: r.approvedBy,
    });
    this.event(
      r.id,
      r.at,
      r.how === 'cash' ? 'paid_back' : 'recorded_outside',
      meta,
      r.how === 'cash'
        ? { how: 'cash', shiftId: r.shiftId, paidBack: r.paidBack, cashRounding: r.cashRounding }
        : { how: 'outside', methodId: r.methodId ?? null, paidBack: r.paidBack },
    );
    return this.require(r.id);
  }

  /** The refund's receipt was printed (or shown for printing): an event, the refund unchanged; its own transaction. */
  noteReceipt(refundId: string, at: string, copy: boolean): void {
    const tx = this.db.transaction(() => this.event(refundId, at, 'receipt_printed', { actor: 'system' }, { copy }));
    if (this.db.inTransaction) tx();
    else tx.immediate();
  }

  /** Whether the refund's original receipt has been issued: every later one is a copy. */
  receiptIssued(refundId: string): boolean {
    return (
      this.stmt<[string], number>(
        "SELECT 1 FROM refund_events WHERE refund_id = ? AND type = 'receipt_printed' LIMIT 1",
      )
        .pluck()
        .get(refundId) !== undefined
    );
  }

  get(id: string): RefundView | undefined {
    const row = this.stmt<[string], RefundRow>('SELECT * FROM refunds WHERE id = ?').get(id);
    if (!row) return undefined;
    const lines = this.stmt<[string], LineRow>(
      `SELECT r.line_no, r.sale_line_no, r.line_id, s.name, r.qty, r.amount
       FROM refund_lines r JOIN sale_lines s ON s.sale_id = r.sale_id AND s.line_no = r.sale_line_no
       WHERE r.refund_id = ? ORDER BY r.line_no`,
    ).all(id);
    return toView(row, lines);
  }

  require(id: string): RefundView {
    const refund = this.get(id);
    if (!refund) throw new Error(`refund ${id} is not in the log`);
    return refund;
  }

  /** A sale's refunds, oldest first. */
  ofSale(saleId: string): RefundView[] {
    return this.stmt<[string], string>('SELECT id FROM refunds WHERE sale_id = ? ORDER BY created_at, rowid')
      .pluck()
      .all(saleId)
      .map((id) => this.require(id));
  }

  /** Refunds made in [from, to), oldest first (the books). */
  list(from: Date, to: Date): RefundView[] {
    return this.stmt<[string, string], string>(
      'SELECT id FROM refunds WHERE created_at >= ? AND created_at < ? ORDER BY created_at, rowid',
    )
      .pluck()
      .all(from.toISOString(), to.toISOString())
      .map((id) => this.require(id));
  }

  soFar(saleId: string): RefundedSoFar {
    const qty = this.stmt<[string], RefundedQty>(
      'SELECT line_id AS lineId, SUM(qty) AS qty FROM refund_lines WHERE sale_id = ? GROUP BY line_id',
    ).all(saleId);
    const byCategory = this.stmt<[string], { category: TaxCategory; amount: number }>(
      `SELECT s.tax_category AS category, SUM(r.amount) AS amount
       FROM refund_lines r JOIN sale_lines s ON s.sale_id = r.sale_id AND s.line_no = r.sale_line_no
       WHERE r.sale_id = ? GROUP BY s.tax_category`,
    ).all(saleId);
    const cashMoney =
      this.stmt<[string], number | null>("SELECT SUM(money) FROM refunds WHERE sale_id = ? AND how = 'cash'")
        .pluck()
        .get(saleId) ?? 0;
    return { qty, amountByCategory: new Map(byCategory.map((c) => [c.category, c.amount])), cashMoney };
  }

  events(refundId: string): { seq: number; at: string; type: string; actor: string | null; payload: unknown }[] {
    return this.stmt<[string], { seq: number; at: string; type: string; actor: string | null; payload: string | null }>(
      'SELECT seq, at, type, actor, payload FROM refund_events WHERE refund_id = ? ORDER BY seq',
    )
      .all(refundId)
      .map((e) => ({ ...e, payload: e.payload === null ? null : (JSON.parse(e.payload) as unknown) }));
  }

  /** An event and its outbox row, with the refund as it is now in this transaction. */
  private event(
    refundId: string,
    at: string,
    type: string,
    meta: { actor: string; staffId?: number | undefined },
    payload: unknown,
  ): void {
    const seq = Number(
      this.stmt(
        'INSERT INTO refund_events (refund_id, at, type, actor, staff_id, payload) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(refundId, at, type, meta.actor, meta.staffId ?? null, JSON.stringify(payload)).lastInsertRowid,
    );
    const refund = this.require(refundId);
    appendToOutbox(this.db, {
      terminalId: refund.terminalId,
      stream: 'refund',
      streamId: refundId,
      type,
      at,
      event: { seq, refund_id: refundId, at, type, actor: meta.actor, staff_id: meta.staffId ?? null, payload },
      snapshot: refund,
    });
  }

  private stmt<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R> {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s as unknown as Statement<P, R>;
  }
}

function toView(r: RefundRow, lines: LineRow[]): RefundView {
  const view: RefundView = {
    id: r.id,
    saleId: r.sale_id,
    terminalId: r.terminal_id,
    training: r.training === 1,
    how: r.how,
    reason: r.reason,
    lines: lines.map((l) => ({
      lineNo: l.line_no,
      saleLineNo: l.sale_line_no,
      lineId: l.line_id,
      name: l.name,
      qty: l.qty,
      amount: l.amount,
    })),
    amount: r.amount,
    rounding: r.rounding,
    money: r.money,
    cashRounding: r.cash_rounding,
    paidBack: r.paid_back,
    tax: { net: r.net, dpp: r.dpp, ppn: r.ppn, pbjt: r.pbjt, service: r.service },
    complete: r.complete === 1,
    approvedBy: {
      ...(r.approved_by_staff_id !== null ? { staffId: r.approved_by_staff_id } : {}),
      name: r.approved_by,
    },
    createdAt: r.created_at,
  };
  if (r.method_id !== null) view.methodId = r.method_id;
  if (r.shift_id !== null) view.shiftId = r.shift_id;
  if (r.staff_id !== null) view.staffId = r.staff_id;
  if (r.staff_name !== null) view.staffName = r.staff_name;
  return view;
}
