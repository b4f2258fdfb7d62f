import type { Database, Statement } from 'better-sqlite3';
import { shiftCash, type ShiftCashEvent } from '../../common/cash';
import type { ShiftEventType, ShiftEventView, ShiftPerson, ShiftView } from '../../common/shifts';
import { appendToOutbox } from '../outbox/outbox';
import { shiftAlreadyOpen } from './errors';

/**
 * The shifts and their append-only events in the order log's database (migration 11; docs/tenders.md, "Shifts"):
 * training/loket.db in training mode, the store's loket.db live, beside the orders. Every event is written with its
 * outbox row (stream 'shift', core/outbox/outbox.ts) in one transaction, and its snapshot is the whole shift as the
 * event left it. A shift's figures are never stored while it is open: they are rebuilt from its events (shiftCash),
 * so a restart reads the same figures; the close writes its count, expected and difference once.
 */

interface ShiftRow {
  id: string;
  terminal_id: string;
  business_day: string;
  time_zone: string;
  state: 'open' | 'closed';
  opened_at: string;
  opened_by_staff_id: number | null;
  opened_by: string;
  float: number;
  closed_at: string | null;
  closed_by_staff_id: number | null;
  closed_by: string | null;
  counted: number | null;
  counted_by_denomination: string | null;
  expected: number | null;
  difference: number | null;
}

interface EventRow {
  seq: number;
  shift_id: string;
  at: string;
  type: ShiftEventType;
  amount: number;
  change: number;
  document_id: string | null;
  reason: string | null;
  staff_id: number | null;
  actor: string | null;
  approved_by_staff_id: number | null;
  approved_by: string | null;
  payload: string | null;
}

/** An event to append; the time is the caller's (from its clock). */
export interface NewShiftEvent {
  type: ShiftEventType;
  at: string;
  amount?: number;
  change?: number;
  documentId?: string;
  reason?: string;
  by?: ShiftPerson | null;
  approvedBy?: ShiftPerson | null;
  payload?: Record<string, unknown>;
}

export interface NewShift {
  id: string;
  terminalId: string;
  businessDay: string;
  timeZone: string;
  at: string;
  by: ShiftPerson;
  float: number;
}

export interface ShiftClosing {
  at: string;
  by: ShiftPerson;
  counted: number;
  byDenomination?: Record<string, number>;
  expected: number;
}

/** The drawer's cash events of a shift, as common/cash.ts counts them (no sale and close move no cash). */
export function cashEvents(events: readonly ShiftEventView[]): ShiftCashEvent[] {
  const out: ShiftCashEvent[] = [];
  for (const e of events) {
    if (e.type === 'cash_tender') out.push({ type: 'cash_tender', handed: e.amount, change: e.change });
    else if (
      e.type === 'float' ||
      e.type === 'cash_refund' ||
      e.type === 'cash_void' ||
      e.type === 'pay_in' ||
      e.type === 'pay_out'
    )
      out.push({ type: e.type, amount: e.amount });
  }
  return out;
}

const person = (staffId: number | null, name: string | null): ShiftPerson | undefined =>
  name === null ? undefined : { ...(staffId === null ? {} : { staffId }), name };

function toEvent(r: EventRow): ShiftEventView {
  const by = person(r.staff_id, r.actor);
  const approvedBy = person(r.approved_by_staff_id, r.approved_by);
  return {
    seq: r.seq,
    at: r.at,
    type: r.type,
    amount: r.amount,
    change: r.change,
    ...(r.document_id === null ? {} : { documentId: r.document_id }),
    ...(r.reason === null ? {} : { reason: r.reason }),
    ...(by ? { by } : {}),
    ...(approvedBy ? { approvedBy } : {}),
  };
}

function toView(r: ShiftRow, events: readonly ShiftEventView[]): ShiftView {
  const closedBy = person(r.closed_by_staff_id, r.closed_by);
  const view: ShiftView = {
    id: r.id,
    terminalId: r.terminal_id,
    businessDay: r.business_day,
    timeZone: r.time_zone,
    state: r.state,
    openedAt: r.opened_at,
    openedBy: person(r.opened_by_staff_id, r.opened_by)!,
    float: r.float,
    ...(r.closed_at === null ? {} : { closedAt: r.closed_at }),
    ...(closedBy ? { closedBy } : {}),
    cash: shiftCash(cashEvents(events)),
  };
  if (r.state === 'closed' && r.counted !== null && r.expected !== null && r.difference !== null)
    view.count = {
      expected: r.expected,
      counted: r.counted,
      difference: r.difference,
      status: r.difference === 0 ? 'even' : r.difference > 0 ? 'over' : 'short',
      ...(r.counted_by_denomination === null
        ? {}
        : { byDenomination: JSON.parse(r.counted_by_denomination) as Record<string, number> }),
    };
  return view;
}

export class ShiftBook {
  private readonly statements = new Map<string, Statement>();

  constructor(readonly db: Database) {}

  /** The open shift of `terminalId`, with its figures from its events. */
  current(terminalId: string): ShiftView | undefined {
    const row = this.stmt<[string], ShiftRow>("SELECT * FROM shifts WHERE terminal_id = ? AND state = 'open'").get(
      terminalId,
    );
    return row && toView(row, this.events(row.id));
  }

  get(id: string): ShiftView | undefined {
    const row = this.stmt<[string], ShiftRow>('SELECT * FROM shifts WHERE id = ?').get(id);
    return row && toView(row, this.events(row.id));
  }

  /** The last shift of `terminalId` (open or closed), if any. */
  latest(terminalId: string): ShiftView | undefined {
    const row = this.stmt<[string], ShiftRow>(
      'SELECT * FROM shifts WHERE terminal_id = ? ORDER BY opened_at DESC, rowid DESC LIMIT 1',
    ).get(terminalId);
    return row && toView(row, this.events(row.id));
  }

  events(shiftId: string): ShiftEventView[] {
    return this.stmt<[string], EventRow>('SELECT * FROM shift_events WHERE shift_id = ? ORDER BY seq')
      .all(shiftId)
      .map(toEvent);
  }

  /** The shifts that opened on the store day `day` (any terminal of this log), oldest first. */
  ofDay(day: string): ShiftView[] {
    return this.stmt<[string], ShiftRow>('SELECT * FROM shifts WHERE business_day = ? ORDER BY opened_at, rowid')
      .all(day)
      .map((r) => toView(r, this.events(r.id)));
  }

  /** Shifts still open whose business day is `day` or before (closing that day waits for them). */
  openUpTo(day: string): ShiftView[] {
    return this.stmt<[string], ShiftRow>(
      "SELECT * FROM shifts WHERE state = 'open' AND business_day <= ? ORDER BY opened_at",
    )
      .all(day)
      .map((r) => toView(r, this.events(r.id)));
  }

  /** How many shifts `terminalId` has had (the next id's number). */
  countOf(terminalId: string): number {
    return this.stmt<[string], number>('SELECT COUNT(*) FROM shifts WHERE terminal_id = ?').pluck().get(terminalId)!;
  }

  /** Opens a shift with its float event, in one transaction; ShiftRuleError when one is open on the terminal. */
  open(input: NewShift): ShiftView {
    return this.write(() => {
      const open = this.current(input.terminalId);
      if (open) throw shiftAlreadyOpen(open.id);
      this.stmt(
        `INSERT INTO shifts (id, terminal_id, business_day, time_zone, state, opened_at, opened_by_staff_id, opened_by, float)
         VALUES (?, ?, ?, ?, 'open', ?, ?, ?, ?)`,
      ).run(
        input.id,
        input.terminalId,
        input.businessDay,
        input.timeZone,
        input.at,
        input.by.staffId ?? null,
        input.by.name,
        input.float,
      );
      this.append(input.id, { type: 'float', at: input.at, amount: input.float, by: input.by });
      return this.get(input.id)!;
    });
  }

  /**
   * Appends one event and its outbox row, inside the caller's transaction (the sale's, for a cash tender) or one of
   * its own. Returns the event as stored.
   */
  append(shiftId: string, e: NewShiftEvent): ShiftEventView {
    return this.write(() => {
      const result = this.stmt(
        `INSERT INTO shift_events (shift_id, at, type, amount, change, document_id, reason, staff_id, actor,
           approved_by_staff_id, approved_by, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        shiftId,
        e.at,
        e.type,
        e.amount ?? 0,
        e.change ?? 0,
        e.documentId ?? null,
        e.reason ?? null,
        e.by?.staffId ?? null,
        e.by?.name ?? null,
        e.approvedBy?.staffId ?? null,
        e.approvedBy?.name ?? null,
        e.payload === undefined ? null : JSON.stringify(e.payload),
      );
      const row = this.stmt<[number | bigint], EventRow>('SELECT * FROM shift_events WHERE seq = ?').get(
        result.lastInsertRowid,
      )!;
      this.publish(row);
      return toEvent(row);
    });
  }

  /** Closes the shift: the count, expected and difference, and its close event, in one transaction. */
  close(shiftId: string, c: ShiftClosing): ShiftView {
    return this.write(() => {
      this.stmt(
        `UPDATE shifts SET state = 'closed', closed_at = ?, closed_by_staff_id = ?, closed_by = ?, counted = ?,
           counted_by_denomination = ?, expected = ?, difference = ? WHERE id = ? AND state = 'open'`,
      ).run(
        c.at,
        c.by.staffId ?? null,
        c.by.name,
        c.counted,
        c.byDenomination === undefined ? null : JSON.stringify(c.byDenomination),
        c.expected,
        c.counted - c.expected,
        shiftId,
      );
      this.append(shiftId, {
        type: 'close',
        at: c.at,
        amount: c.counted,
        by: c.by,
        payload: { expected: c.expected, difference: c.counted - c.expected },
      });
      return this.get(shiftId)!;
    });
  }

  /**
   * The shift a sale's cash tenders went into, and the net cash they put in its drawer (handed − change, less what a
   * cash_void of the sale gave back there); undefined when no cash tender of the sale is in any shift. The open
   * shifts' events are read first, through their index (a sale being voided is still being paid, so its shift is
   * open); only a sale found in none of them costs a look through every shift's events.
   */
  cashTakenFor(saleId: string): { shiftId: string; amount: number } | undefined {
    const sql = (where: string) =>
      `SELECT e.shift_id AS shiftId,
              SUM(CASE e.type WHEN 'cash_tender' THEN e.amount - e.change ELSE -e.amount END) AS amount
       FROM shift_events e WHERE ${where} e.document_id = ? AND e.type IN ('cash_tender', 'cash_void')
       GROUP BY e.shift_id HAVING SUM(e.type = 'cash_tender') > 0 ORDER BY MIN(e.seq) LIMIT 1`;
    const row =
      this.stmt<[string], { shiftId: string; amount: number }>(
        sql(`e.shift_id IN (SELECT id FROM shifts WHERE state = 'open') AND`),
      ).get(saleId) ?? this.stmt<[string], { shiftId: string; amount: number }>(sql('')).get(saleId);
    return row && { shiftId: row.shiftId, amount: row.amount };
  }

  /** Whether event `seq` is in the log (committed, for a reader after the writer's transaction ended). */
  hasEvent(seq: number): boolean {
    return this.stmt<[number], number>('SELECT 1 FROM shift_events WHERE seq = ?').pluck().get(seq) !== undefined;
  }

  /** The outbox row of an event: the event as stored, and the whole shift as it left it. */
  private publish(row: EventRow): void {
    const shift = this.stmt<[string], ShiftRow>('SELECT * FROM shifts WHERE id = ?').get(row.shift_id)!;
    const events = this.events(row.shift_id);
    appendToOutbox(this.db, {
      terminalId: shift.terminal_id,
      stream: 'shift',
      streamId: shift.id,
      type: row.type,
      at: row.at,
      event: { ...row, payload: row.payload === null ? null : (JSON.parse(row.payload) as unknown) },
      snapshot: {
        ...shift,
        counted_by_denomination:
          shift.counted_by_denomination === null ? null : (JSON.parse(shift.counted_by_denomination) as unknown),
        cash: shiftCash(cashEvents(events)),
        events: events.length,
      },
    });
  }

  private write<T>(fn: () => T): T {
    const tx = this.db.transaction(fn);
    return this.db.inTransaction ? tx() : tx.immediate();
  }

  private stmt<P extends unknown[], R = unknown>(sql: string): Statement<P, R> {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s as unknown as Statement<P, R>;
  }
}
