import type { Database, Statement } from 'better-sqlite3';
import { systemClock, type Clock } from '../ports';

export interface CallbackReceipt {
  /** SHA-256 of the raw body, lowercase hex: the same body twice is a replay. */
  bodySha256: string;
  orderId?: string;
  status?: string;
  outcome: string;
}

/**
 * The callbacks Loket has taken in (docs/orders.md, "How Loket learns "paid""), remembered by the SHA-256
 * of their body so that a replay is recognised.
 *
 * A receipt must commit together with the change its callback causes, or a failure in between would
 * leave a receipt that makes the gateway's retry look like a replay. So the store writes on the order
 * log's connection, and `record` inside a transaction already open there (OrderLog.atomically) joins it
 * as a savepoint: it commits or rolls back with the outer transaction. On its own it is one IMMEDIATE
 * transaction, like every write of the log.
 */
export class CallbackReceipts {
  private insert: Statement<[string, string | null, string | null, string, string]> | undefined;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Records the receipt; false when a callback with the same body was recorded before: a replay. */
  record(receipt: CallbackReceipt): boolean {
    if (!/^[0-9a-f]{64}$/.test(receipt.bodySha256))
      throw new Error('bodySha256 must be a SHA-256 digest in lowercase hex');
    this.insert ??= this.db.prepare(
      `INSERT INTO callback_receipts (received_at, order_id, status, body_sha256, outcome) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (body_sha256) DO NOTHING`,
    );
    const insert = this.insert;
    const write = this.db.transaction(
      () =>
        insert.run(
          this.clock.now().toISOString(),
          receipt.orderId ?? null,
          receipt.status ?? null,
          receipt.bodySha256,
          receipt.outcome,
        ).changes === 1,
    );
    return this.db.inTransaction ? write() : write.immediate();
  }

  /**
   * Whether a transaction is open on this store's connection. False inside OrderLog.atomically means the
   * store is on another connection than the log, and a receipt would commit apart from its change.
   */
  get inTransaction(): boolean {
    return this.db.inTransaction;
  }
}
