import type { Database, Statement } from 'better-sqlite3';
import { canonicalJson, sha256Hex } from '../../db/canonical-json';
import { Uuidv7Generator } from '../../db/uuidv7';

/**
 * The outbox (docs/store-book.md): every event this log writes, numbered without gaps per terminal, with a UUIDv7
 * and the SHA-256 of its canonical payload, written in the same SQLite transaction as the event itself, so the
 * event and its outbox row commit together or not at all. The store book's sync (src-main/store-book/) reads these
 * rows on a connection of its own and sends them to the store's PostgreSQL; nothing here waits for it.
 *
 * One call for every kind of event: the order log calls `appendToOutbox` for each order event
 * (core/orders/order-outbox.ts); the sale, its tenders, shifts and refunds call it the same way for theirs, with
 * their stream's name. The payload is `{ event, snapshot }`: the event as stored, and the entity (the sale, the
 * shift, …) as the event left it — the store book's projection takes the latest snapshot per
 * (terminal, stream, stream_id), so a snapshot must be the whole entity, never a part of it. `snapshot: null`
 * where the entity's state after the event is not known (the events before migration 7, but the last of each order).
 *
 * Every database gets an outbox, the training log too; only the store's own books (loket.db) are ever sent
 * (the sync opens that file and no other), so training never reaches the store book.
 */

export interface OutboxEvent {
  /** The terminal that wrote the event (an order's terminal_id): its own sequence 1, 2, 3, … */
  terminalId: string;
  /** What kind of entity: 'order' today; 'sale', 'tender', 'shift', 'refund' next. Lower case letters and _. */
  stream: string;
  /** The entity's id (an order id, a sale id). */
  streamId: string;
  /** The event's type ('created', 'state_changed', …). */
  type: string;
  /** When the event happened (UTC ISO-8601, as the log writes it). */
  at: string;
  /** The event as it is stored: plain JSON values only. */
  event: unknown;
  /** The entity as the event left it (plain JSON values only), or null when not known. */
  snapshot: unknown;
}

export interface OutboxRow {
  terminalId: string;
  seq: number;
  uuid: string;
  stream: string;
  streamId: string;
  type: string;
  at: string;
  /** Canonical JSON of { event, snapshot }. */
  payload: string;
  sha256: string;
}

/** Called outside a write transaction: an outbox row must commit with its event, never on its own. */
export class OutboxOutsideTransactionError extends Error {
  constructor() {
    super('an outbox row is written in the transaction of its event, and none is open');
    this.name = 'OutboxOutsideTransactionError';
  }
}

/** One per process: the ids it hands out increase (the generator continues across databases). */
const uuids = new Uuidv7Generator();

const statements = new WeakMap<Database, { next: Statement<[string], number>; insert: Statement }>();

function prepared(db: Database): { next: Statement<[string], number>; insert: Statement } {
  let s = statements.get(db);
  if (s === undefined) {
    s = {
      next: db.prepare<[string], number>('SELECT COALESCE(MAX(seq), 0) + 1 FROM outbox WHERE terminal_id = ?').pluck(),
      insert: db.prepare(
        `INSERT INTO outbox (terminal_id, seq, uuid, stream, stream_id, type, at, payload, sha256)
         VALUES (@terminalId, @seq, @uuid, @stream, @streamId, @type, @at, @payload, @sha256)`,
      ),
    };
    statements.set(db, s);
  }
  return s;
}

/**
 * Writes the outbox row of one event, inside the caller's open transaction (the one that writes the event), and
 * returns it. The write lock the transaction holds makes "the last seq + 1" safe against another connection.
 */
export function appendToOutbox(db: Database, event: OutboxEvent): OutboxRow {
  if (!db.inTransaction) throw new OutboxOutsideTransactionError();
  const s = prepared(db);
  const payload = canonicalJson({ event: event.event, snapshot: event.snapshot ?? null });
  const ms = Date.parse(event.at);
  if (Number.isNaN(ms)) throw new RangeError(`outbox: the event's time ${JSON.stringify(event.at)} is not a time`);
  const row: OutboxRow = {
    terminalId: event.terminalId,
    seq: s.next.get(event.terminalId)!,
    uuid: uuids.next(ms),
    stream: event.stream,
    streamId: event.streamId,
    type: event.type,
    at: event.at,
    payload,
    sha256: sha256Hex(payload),
  };
  s.insert.run(row);
  return row;
}
