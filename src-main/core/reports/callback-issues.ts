import { reason } from '../../common/reasons';
import type { Database } from 'better-sqlite3';
import type { GatewayStatus } from '../../common/order-policy';
import { systemClock, type Clock } from '../ports';
import { refused, ReportRuleError } from './errors';
import { stmt } from './sql';

/** Why an authentic callback could not be applied. */
export type CallbackIssueReason =
  /** It names an order this log does not have (404 to the gateway, which retries). */
  | 'unknown_order'
  /** Its amount is not the order's (409 to the gateway, which retries). */
  | 'amount_mismatch'
  /** Its status would move the order backwards (EXPIRED after PAID…): kept as a note, answered 200. */
  | 'not_forward';

export interface CallbackIssue {
  id: number;
  receivedAt: string;
  orderId: string;
  status: Exclude<GatewayStatus, 'PENDING'>;
  reason: CallbackIssueReason;
  /** The amount the callback reported. */
  amount?: number;
  bodySha256: string;
  acknowledgedAt?: string;
  acknowledgedBy?: string;
  /** The reason given when it was acknowledged. */
  note?: string;
}

export interface NewCallbackIssue {
  orderId: string;
  status: CallbackIssue['status'];
  reason: CallbackIssueReason;
  amount?: number;
  bodySha256: string;
}

interface IssueRow {
  id: number;
  received_at: string;
  order_id: string;
  status: string;
  reason: string;
  amount: number | null;
  body_sha256: string;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  note: string | null;
}

// The casts are safe: the schema CHECKs status and reason against these lists (migration 6).
function toIssue(r: IssueRow): CallbackIssue {
  const issue: CallbackIssue = {
    id: r.id,
    receivedAt: r.received_at,
    orderId: r.order_id,
    status: r.status as CallbackIssue['status'],
    reason: r.reason as CallbackIssueReason,
    bodySha256: r.body_sha256,
  };
  if (r.amount !== null) issue.amount = r.amount;
  if (r.acknowledged_at !== null) issue.acknowledgedAt = r.acknowledged_at;
  if (r.acknowledged_by !== null) issue.acknowledgedBy = r.acknowledged_by;
  if (r.note !== null) issue.note = r.note;
  return issue;
}

/**
 * Authentic callbacks Loket could not apply, for the manager's attention queue (docs/end-of-day.md), in the
 * `callback_issues` table (migration 6): one row per distinct body, so the gateway's retries of one callback
 * are one issue. Kept apart from the callback receipts, which decide what a replay is: recording an issue
 * never makes a retry look like a replay. A row is never changed except to acknowledge it, once, and never
 * removed (the schema's triggers hold to that whoever writes the file).
 *
 * Writes go on the order log's connection: inside a transaction already open there (OrderLog.atomically) they
 * join it, else each is one IMMEDIATE transaction.
 */
export class CallbackIssues {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Records the issue; false when a callback with the same body was recorded before (a retry). */
  record(issue: NewCallbackIssue): boolean {
    if (!/^[0-9a-f]{64}$/.test(issue.bodySha256))
      throw new Error('bodySha256 must be a SHA-256 digest in lowercase hex');
    const write = this.db.transaction(() => {
      // Checked first, in the transaction: the schema refuses a second row for one body outright.
      if (stmt(this.db, 'SELECT 1 FROM callback_issues WHERE body_sha256 = ?').get(issue.bodySha256)) return false;
      stmt(
        this.db,
        `INSERT INTO callback_issues (received_at, order_id, status, reason, amount, body_sha256)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(
        this.clock.now().toISOString(),
        issue.orderId,
        issue.status,
        issue.reason,
        issue.amount ?? null,
        issue.bodySha256,
      );
      return true;
    });
    return this.db.inTransaction ? write() : write.immediate();
  }

  get(id: number): CallbackIssue | undefined {
    if (!Number.isSafeInteger(id)) return undefined;
    const row = stmt<[number], IssueRow>(this.db, 'SELECT * FROM callback_issues WHERE id = ?').get(id);
    return row && toIssue(row);
  }

  /** Not yet acknowledged, oldest first. */
  open(): CallbackIssue[] {
    return stmt<[], IssueRow>(
      this.db,
      'SELECT * FROM callback_issues WHERE acknowledged_at IS NULL ORDER BY received_at, id',
    )
      .all()
      .map(toIssue);
  }

  /** Every issue about one order id, oldest first. */
  forOrder(orderId: string): CallbackIssue[] {
    return stmt<[string], IssueRow>(this.db, 'SELECT * FROM callback_issues WHERE order_id = ? ORDER BY id')
      .all(orderId)
      .map(toIssue);
  }

  /**
   * Sets the acknowledgement: who, and the reason they gave (already checked by the caller against the reason
   * rule). Refused when there is no such issue (`not_found`) or it was acknowledged before (`conflict`).
   */
  acknowledge(id: number, by: string, note: string): CallbackIssue {
    const write = this.db.transaction(() => {
      const before = this.get(id);
      if (!before)
        throw new ReportRuleError('not_found', `no callback issue ${id}`, reason('attention.issue_not_found'));
      if (before.acknowledgedAt !== undefined)
        throw refused(
          `callback issue ${id} was already acknowledged at ${before.acknowledgedAt} by ${before.acknowledgedBy ?? '?'}`,
          reason('attention.already_acknowledged', { orderId: before.orderId }),
        );
      stmt(this.db, 'UPDATE callback_issues SET acknowledged_at = ?, acknowledged_by = ?, note = ? WHERE id = ?').run(
        this.clock.now().toISOString(),
        by,
        note,
        id,
      );
      return this.get(id)!;
    });
    return this.db.inTransaction ? write() : write.immediate();
  }
}
