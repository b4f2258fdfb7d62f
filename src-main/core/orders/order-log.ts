import type { Database, Statement } from 'better-sqlite3';
import type { Delivery, EventSource, Order, OrderEvent, OrderState } from '../../common/order';
import {
  DuplicateOrderError,
  IllegalTransitionError,
  LATE_PAYMENT_STATES,
  OrderNotFoundError,
  OrderStateError,
  canTransition,
  UnknownKindError,
} from '../../common/order-policy';
import { isPaymentKind } from '../../common/payment-kinds';
import {
  NEW_ORDER_COLUMNS,
  ORDER_COLUMNS,
  newOrderParams,
  newOrderRow,
  patchColumns,
  rowToEvent,
  rowToOrder,
  type EventRow,
  type NewOrder,
  type OrderPatch,
  type OrderRow,
  type SqlValue,
} from './order-rows';
import { reason } from '../../common/reasons';
import { systemClock, type Clock } from '../ports';
import { standInForStaff } from '../staff/stand-in';
import { appendOrderEvent, type OrderEventRow } from './order-outbox';
import { followSale } from '../counter/sale-follows-order';
import type { OrderChange, OrderFollower } from './order-change';

export type { NewOrder, OrderPatch } from './order-rows';
export type { OrderChange, OrderFollower } from './order-change';
// Re-exported so that users of the log need not know the clock is a core-wide port.
export { systemClock, type Clock } from '../ports';

export interface EventMeta {
  source: EventSource;
  actor?: string;
  reason?: string;
  payload?: unknown;
}

export interface WriteOptions {
  /** false: commit without waiting for the disk (see `transition`). */
  durable?: boolean;
}

export interface OrderFilter {
  /** Inclusive, UTC. */
  from?: Date;
  /** Exclusive, UTC. */
  to?: Date;
  state?: OrderState;
  limit?: number;
}

export interface SummaryRow {
  methodId: string;
  state: OrderState;
  count: number;
  amount: number;
}

type EventType = OrderEvent['type'];

/**
 * The order log (docs/orders.md): orders and their append-only events in SQLite. Every write is one
 * IMMEDIATE transaction, taking the write lock up front so that the state read and the state written
 * cannot interleave with another connection's; a state and the event that explains it commit together.
 */
export class OrderLog {
  // Prepared once per SQL text: preparing costs more than running, and the same few queries repeat.
  private readonly statements = new Map<string, Statement>();
  private readonly listeners = new Set<(order: Order) => void>();
  /**
   * Orders given an event by the write in progress, announced once it commits: with the order as the write
   * left it when the write knows it (no second read), else undefined and read at announcement.
   */
  private readonly touched = new Map<string, Order | undefined>();
  /** Events of the write in progress whose outbox rows are written at its end (after the order's row changed). */
  private readonly unpublished: OrderEventRow[] = [];
  /** Changes of the write in progress for the followers, applied at its end, in its transaction. */
  private readonly unfollowed: OrderChange[] = [];

  constructor(
    /**
     * The log's connection and clock, for a store whose writes must join the log's transactions (the
     * callback receipts, in `atomically`); nothing else should write through them.
     */
    readonly db: Database,
    readonly clock: Clock = systemClock,
    /**
     * What else an order's change writes in its own transaction: by default its sale's consequence (a tender paid,
     * the sale completed or voided with its cash given back, a late payment: core/counter/sale-follows-order.ts). Part
     * of the log, not a listener a host registers, so every process that changes an order (the app, the CLI,
     * reconcile, a callback, polling, start-up) writes the books the same way, or not at all.
     */
    private readonly followers: readonly OrderFollower[] = [followSale],
  ) {}

  /**
   * Logs a new order as `creating` with its `created` event. Inside a transaction already open on the log (the
   * counter's, which writes the sale and its tenders first: core/counter/counter.ts) it is a savepoint of it.
   */
  create(input: NewOrder, meta: Pick<EventMeta, 'source' | 'actor'>): Order {
    // The schema does not list the kinds (migration 14): the registry does, checked before anything is written.
    if (!isPaymentKind(input.kind)) throw new UnknownKindError(input.id, input.kind);
    return this.write(() => {
      const now = this.now();
      if (input.training && input.staffId !== undefined) standInForStaff(this.db, input.staffId, now);
      try {
        this.stmt(INSERT_ORDER).run(newOrderParams(input, now));
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new DuplicateOrderError(input.id);
        throw err;
      }
      this.appendEvent(input.id, now, 'created', { source: meta.source, actor: meta.actor }, undefined, 'creating');
      const order = rowToOrder(newOrderRow(input, now));
      this.touched.set(input.id, order);
      return order;
    });
  }

  /**
   * One state change and its event. `durable: false` commits without waiting for the disk (SQLite's
   * synchronous=NORMAL for this transaction, in WAL mode): for a gateway's answer to an order whose
   * `creating` row is already durable. Should the power fail before a later commit syncs the WAL, the answer
   * is lost and the order found `creating` at the next start, which makes it `unknown` and reconciliation
   * recovers it from the gateway — so a second wait on the disk per charge buys nothing (docs/orders.md).
   */
  transition(id: string, to: OrderState, meta: EventMeta, patch: OrderPatch = {}, options: WriteOptions = {}): Order {
    return this.write(() => this.transitionInTx(id, to, meta, patch), options);
  }

  /** Records whether the request left Loket (see Delivery); the state does not change. */
  setDelivery(id: string, delivery: Delivery, meta: Omit<EventMeta, 'payload'>): Order {
    return this.write(() => {
      const before = this.require(id);
      const now = this.now();
      this.update(id, { delivery, updated_at: now });
      this.appendEvent(id, now, 'delivery', { ...meta, payload: { from: before.delivery, to: delivery } });
      return this.require(id);
    });
  }

  /**
   * A payment reported for an order already cancelled or expired: the order keeps its state (the
   * customer may have been sent away, or paid again), and the manager sees the flag.
   */
  flagLatePayment(id: string, meta: EventMeta): Order {
    return this.write(() => {
      const { state } = this.require(id);
      if (!LATE_PAYMENT_STATES.includes(state)) {
        throw new OrderStateError(
          id,
          state,
          'a late payment is flagged only on a cancelled, expired, failed or rejected order',
          reason('order.late_payment_state', { orderId: id, state }),
        );
      }
      const now = this.now();
      this.update(id, { late_payment: 1, updated_at: now });
      this.appendEvent(id, now, 'late_payment', meta);
      const order = this.require(id);
      this.unfollowed.push({ type: 'late_payment', order, meta });
      return order;
    });
  }

  note(id: string, meta: EventMeta): OrderEvent {
    return this.write(() => {
      this.require(id);
      const seq = this.appendEvent(id, this.now(), 'note', meta);
      return rowToEvent(this.stmt<[number], EventRow>('SELECT * FROM order_events WHERE seq = ?').get(seq)!);
    });
  }

  /**
   * Whether the gateway has given its final word on an order Loket cancelled: a payment (a late payment), or an
   * expiry or failure it reported (a note with `gatewayFinal`). Until then it may still be paid at the gateway.
   */
  hasGatewayWord(id: string): boolean {
    return (
      this.stmt<[string], { n: number }>(
        `SELECT COUNT(*) AS n FROM order_events WHERE order_id = ?
           AND (type = 'late_payment' OR (type = 'note' AND json_extract(payload, '$.gatewayFinal') IS NOT NULL))`,
      ).get(id)!.n > 0
    );
  }

  /**
   * Orders with a late payment that neither the till ({ tillSeen: 'late_payment' }) nor a manager
   * ({ acknowledged: 'late_payment' }) has acknowledged since its last late payment, oldest first (read through
   * the partial index orders_late_payment).
   */
  latePaymentsUnseen(): Order[] {
    return this.stmt<[], OrderRow>(
      `SELECT ${ORDER_COLUMNS} FROM orders WHERE late_payment = 1
         AND NOT EXISTS (
           SELECT 1 FROM order_events a
           WHERE a.order_id = orders.id AND a.type = 'note'
             AND (json_extract(a.payload, '$.tillSeen') = 'late_payment'
                  OR json_extract(a.payload, '$.acknowledged') = 'late_payment')
             AND a.seq > (SELECT MAX(l.seq) FROM order_events l WHERE l.order_id = orders.id AND l.type = 'late_payment'))
       ORDER BY created_at, id`,
    )
      .all()
      .map(rowToOrder);
  }

  /** The last gateway statement noted as not matching the order (OrderService.noteMismatch), if any. */
  lastMismatch(id: string): unknown {
    const row = this.stmt<[string], { m: string }>(
      `SELECT json_extract(payload, '$.mismatch') AS m FROM order_events
       WHERE order_id = ? AND type = 'note' AND json_extract(payload, '$.mismatch') IS NOT NULL ORDER BY seq DESC LIMIT 1`,
    ).get(id);
    return row ? (JSON.parse(row.m) as unknown) : undefined;
  }

  get(id: string): Order | undefined {
    const row = this.stmt<[string], OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = ?`).get(id);
    return row && rowToOrder(row);
  }

  events(id: string): OrderEvent[] {
    return this.stmt<[string], EventRow>('SELECT * FROM order_events WHERE order_id = ? ORDER BY seq')
      .all(id)
      .map(rowToEvent);
  }

  requestBody(id: string): string | undefined {
    return this.stmt<[string], { b: string }>('SELECT request_body AS b FROM orders WHERE id = ?').get(id)?.b;
  }

  responseBody(id: string): string | undefined {
    return (
      this.stmt<[string], { b: string | null }>('SELECT response_body AS b FROM orders WHERE id = ?').get(id)?.b ??
      undefined
    );
  }

  /** Orders created in [from, to) (either end optional), oldest first. */
  list(filter: OrderFilter = {}): Order[] {
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (filter.from !== undefined) {
      where.push('created_at >= ?');
      params.push(filter.from.toISOString());
    }
    if (filter.to !== undefined) {
      where.push('created_at < ?');
      params.push(filter.to.toISOString());
    }
    if (filter.state !== undefined) {
      where.push('state = ?');
      params.push(filter.state);
    }
    let sql = `SELECT ${ORDER_COLUMNS} FROM orders`;
    if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`;
    sql += ' ORDER BY created_at, id';
    if (filter.limit !== undefined) {
      if (!Number.isSafeInteger(filter.limit) || filter.limit < 0)
        throw new RangeError(`list limit must be a whole number ≥ 0, got ${filter.limit}`);
      sql += ' LIMIT ?';
      params.push(filter.limit);
    }
    return this.stmt<SqlValue[], OrderRow>(sql)
      .all(...params)
      .map(rowToOrder);
  }

  /** Count and total amount of the orders created in [from, to), per method and state. */
  summary(from: Date, to: Date): SummaryRow[] {
    return this.stmt<[string, string], SummaryRow>(
      `SELECT method_id AS methodId, state, COUNT(*) AS count, SUM(amount) AS amount
       FROM orders WHERE created_at >= ? AND created_at < ?
       GROUP BY method_id, state ORDER BY method_id, state`,
    ).all(from.toISOString(), to.toISOString());
  }

  /**
   * At start-up, before anything else writes: an order still `creating` belonged to a request the app
   * died during, which may or may not have reached the gateway, so it becomes `unknown` and is reconciled.
   */
  markInterrupted(meta: { source?: EventSource; actor?: string; reason?: string } = {}): string[] {
    return this.write(() => {
      const ids = this.stmt<[], { id: string }>(
        "SELECT id FROM orders WHERE state = 'creating' ORDER BY created_at, id",
      )
        .all()
        .map((r) => r.id);
      const reason = meta.reason ?? 'the app stopped while this order was being created';
      for (const id of ids)
        this.transitionInTx(id, 'unknown', { source: meta.source ?? 'startup', actor: meta.actor, reason }, {});
      return ids;
    });
  }

  /** Orders creating, awaiting payment or with an unknown outcome: a switch of gateway or mode waits for them. */
  countOpen(): number {
    return this.stmt<[], { n: number }>(
      "SELECT COUNT(*) AS n FROM orders WHERE state IN ('creating', 'awaiting_payment', 'unknown')",
    ).get()!.n;
  }

  unresolved(): Order[] {
    return this.list({ state: 'unknown' });
  }

  /**
   * Calls `listener` with each order changed by a committed write (state, delivery, flag or note),
   * after the commit, so a live screen never shows what a rollback undid. Returns the unsubscribe.
   */
  onChange(listener: (order: Order) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs several writes as one transaction: all commit or none does (e.g. a callback's receipt, written
   * by CallbackReceipts on this connection, and the state change it causes). Changes are announced once,
   * after the outer commit.
   */
  atomically<T>(fn: () => T): T {
    return this.write(fn);
  }

  private write<T>(fn: () => T, options: WriteOptions = {}): T {
    // Inside an outer write this is a savepoint; the outer write commits and announces.
    if (this.db.inTransaction) return this.db.transaction(() => this.publishing(fn))();
    this.touched.clear();
    let result: T;
    const relaxed = options.durable === false;
    try {
      // Prepared once, like every statement here (db.pragma prepares at each call); SQLite applies the setting
      // when the statement is prepared and again at each run, so it is prepared only where it is to be run.
      if (relaxed) this.stmt('PRAGMA synchronous = NORMAL').run();
      result = this.db.transaction(() => this.publishing(fn)).immediate();
    } catch (err) {
      this.touched.clear();
      throw err;
    } finally {
      if (relaxed) this.stmt('PRAGMA synchronous = FULL').run();
    }
    if (this.listeners.size > 0 && this.touched.size > 0) {
      const known = [...this.touched];
      this.touched.clear();
      for (const [id, written] of known) {
        const order = written ?? this.get(id);
        if (!order) continue;
        for (const listener of this.listeners) {
          try {
            listener(order);
          } catch (err) {
            // A broken screen must not break the order log; the write is already committed.
            console.error(`[order-log] change listener failed: ${(err as Error).message}`);
          }
        }
      }
    }
    this.touched.clear();
    return result;
  }

  /**
   * Runs one write, then gives each event it appended its outbox row (core/outbox/outbox.ts), in the same
   * transaction and after the order's row has its new values: the row's snapshot is the order as the write left it.
   * A write that fails leaves no outbox row behind (its transaction or savepoint rolls them back with the events).
   */
  private publishing<T>(fn: () => T): T {
    const mark = this.unpublished.length;
    const followMark = this.unfollowed.length;
    try {
      const result = fn();
      for (const event of this.unpublished.splice(mark)) appendOrderEvent(this.db, event);
      // The order's consequences, after its own outbox rows, in the same transaction: a follower that fails rolls the
      // order's change back with it (nothing half-written).
      for (const change of this.unfollowed.splice(followMark))
        for (const follow of this.followers) follow(this.db, this.clock, change);
      return result;
    } finally {
      this.unpublished.length = Math.min(this.unpublished.length, mark);
      this.unfollowed.length = Math.min(this.unfollowed.length, followMark);
    }
  }

  private now(): string {
    return this.clock.now().toISOString();
  }

  private stmt<P extends unknown[] | object = unknown[], R = unknown>(sql: string): Statement<P, R> {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s as unknown as Statement<P, R>;
  }

  private transitionInTx(id: string, to: OrderState, meta: EventMeta, patch: OrderPatch): Order {
    // Read once, inside the transaction: the state checked is the state changed, and the order returned is
    // this row with the change applied (no second read).
    const row = this.stmt<[string], OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = ?`).get(id);
    if (!row) throw new OrderNotFoundError(id);
    const from = row.state as OrderState;
    if (!canTransition(from, to)) throw new IllegalTransitionError(id, from, to);
    const now = this.now();
    // The event goes first so that a patch breaking a constraint has an event to roll back with it; the
    // tests rely on that to show a state and its event are never written apart.
    this.appendEvent(id, now, 'state_changed', meta, from, to);
    const cols = { ...patchColumns(patch), state: to, updated_at: now };
    this.update(id, cols);
    const order = rowToOrder({ ...row, ...cols } as OrderRow);
    this.touched.set(id, order);
    this.unfollowed.push({ type: 'state_changed', order, from, meta });
    return order;
  }

  private update(id: string, cols: Record<string, SqlValue>): void {
    // Column names come from patchColumns and this class, never from callers, so building SQL is safe.
    const names = Object.keys(cols).sort();
    this.stmt(`UPDATE orders SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE id = @id`).run({ ...cols, id });
  }

  private appendEvent(
    id: string,
    at: string,
    type: EventType,
    meta: EventMeta,
    from?: OrderState,
    to?: OrderState,
  ): number {
    if (!this.touched.has(id)) this.touched.set(id, undefined);
    // JSON.stringify gives undefined for a payload of undefined (or a bare function): no payload then.
    const payload: string | undefined = meta.payload === undefined ? undefined : JSON.stringify(meta.payload);
    const row = {
      order_id: id,
      at,
      type,
      from_state: from ?? null,
      to_state: to ?? null,
      source: meta.source,
      actor: meta.actor ?? null,
      reason: meta.reason ?? null,
      payload: payload ?? null,
    };
    const seq = Number(this.stmt(INSERT_EVENT).run(row).lastInsertRowid);
    this.unpublished.push({ seq, ...row });
    return seq;
  }

  /** The order, or OrderNotFoundError: the one "find it or fail" every caller uses. */
  require(id: string): Order {
    const order = this.get(id);
    if (!order) throw new OrderNotFoundError(id);
    return order;
  }
}

const INSERT_ORDER = `INSERT INTO orders (${NEW_ORDER_COLUMNS.join(', ')}) VALUES (${NEW_ORDER_COLUMNS.map((c) => '@' + c).join(', ')})`;

const INSERT_EVENT = `INSERT INTO order_events (order_id, at, type, from_state, to_state, source, actor, reason, payload)
  VALUES (@order_id, @at, @type, @from_state, @to_state, @source, @actor, @reason, @payload)`;
