import { join } from 'node:path';
import type { Database, Statement } from 'better-sqlite3';
import { openDatabase } from '../db/open';

/**
 * The store book's side of a till's own database (`loket.db` in the data folder — never the training log, whose
 * events stay on the till): the outbox rows to send, the acknowledged cursor, a conflict, the link to the store
 * book, the instance id. On a connection of its own, so the sync never holds the order log's connection.
 *
 * Reading the outbox takes no lock a sale waits for (WAL: readers do not block the writer). The cursor's writes are
 * short transactions committed without waiting for the disk (synchronous=NORMAL on this connection only): a cursor
 * lost to a power cut only means the events after it are sent again, and the store book recognises them (same
 * number, same hash) — whereas a cursor that ran ahead would lose events, so it is written only after PostgreSQL
 * committed.
 */

export interface OutboxSendRow {
  seq: number;
  uuid: string;
  stream: string;
  stream_id: string;
  type: string;
  at: string;
  payload: string;
  sha256: string;
}

export interface StoreLink {
  storeId: string;
  storeCode: string;
  terminalId: string;
  /** The terminal's connection URL without its password. */
  url: string;
  /** The keychain account that holds the password. */
  credential: string;
  enrolledAt: string;
}

/** What stopped the sending of a terminal's events (kept until cleared, so it survives restarts). */
export interface SyncConflict {
  kind: 'different_event' | 'other_instance' | 'other_terminal';
  /** The first event number the store book holds with another payload (different_event). */
  seq?: number;
  sentSha256?: string;
  storedSha256?: string;
  detail: string;
  /** When it was found (the terminal's clock). */
  at: string;
}

export interface Cursor {
  ackedSeq: number;
  ackedAt?: string;
  conflict?: SyncConflict;
}

/**
 * The store's code of the store book this data folder is enrolled in, read from `db` (the store's books, loket.db),
 * or undefined before enrolment: the first part of the order ids (core/payments/order-id.ts).
 */
export function enrolledStoreCode(db: Database): string | undefined {
  return db.prepare<[], string>('SELECT store_code FROM store_link WHERE id = 1').pluck().get();
}

export class LocalBook {
  private readonly statements = new Map<string, Statement>();

  private constructor(readonly db: Database) {}

  /** The store's own books of `dataDir` (loket.db). */
  static open(dataDir: string): LocalBook {
    const db = openDatabase(join(dataDir, 'loket.db'), { check: 'none' });
    db.pragma('synchronous = NORMAL');
    return new LocalBook(db);
  }

  close(): void {
    this.db.close();
  }

  instanceId(): string {
    return this.stmt<[], string>('SELECT instance_id FROM book_identity').pluck().get()!;
  }

  link(): StoreLink | undefined {
    const row = this.stmt<[], Record<string, string>>('SELECT * FROM store_link WHERE id = 1').get();
    return (
      row && {
        storeId: row.store_id!,
        storeCode: row.store_code!,
        terminalId: row.terminal_id!,
        url: row.url!,
        credential: row.credential!,
        enrolledAt: row.enrolled_at!,
      }
    );
  }

  saveLink(link: StoreLink): void {
    this.stmt(
      `INSERT INTO store_link (id, store_id, store_code, terminal_id, url, credential, enrolled_at)
       VALUES (1, @storeId, @storeCode, @terminalId, @url, @credential, @enrolledAt)
       ON CONFLICT (id) DO UPDATE SET store_id = excluded.store_id, store_code = excluded.store_code,
         terminal_id = excluded.terminal_id, url = excluded.url, credential = excluded.credential,
         enrolled_at = excluded.enrolled_at`,
    ).run(link);
  }

  /** The last event number of `terminalId` (0: none yet). */
  head(terminalId: string): number {
    return this.stmt<[string], number>('SELECT COALESCE(MAX(seq), 0) FROM outbox WHERE terminal_id = ?')
      .pluck()
      .get(terminalId)!;
  }

  /** Every terminal id that has events here, with its last number (a till whose terminal id was changed has two). */
  terminals(): { terminalId: string; head: number }[] {
    return this.stmt<[], { terminalId: string; head: number }>(
      'SELECT terminal_id AS terminalId, MAX(seq) AS head FROM outbox GROUP BY terminal_id ORDER BY terminal_id',
    ).all();
  }

  cursor(terminalId: string): Cursor {
    const row = this.stmt<[string], { acked_seq: number; acked_at: string | null; conflict: string | null }>(
      'SELECT acked_seq, acked_at, conflict FROM outbox_sync WHERE terminal_id = ?',
    ).get(terminalId);
    if (!row) return { ackedSeq: 0 };
    return {
      ackedSeq: row.acked_seq,
      ...(row.acked_at ? { ackedAt: row.acked_at } : {}),
      ...(row.conflict ? { conflict: JSON.parse(row.conflict) as SyncConflict } : {}),
    };
  }

  /** Up to `limit` events of `terminalId` after `afterSeq`, in order. */
  batch(terminalId: string, afterSeq: number, limit: number): OutboxSendRow[] {
    return this.stmt<[string, number, number], OutboxSendRow>(
      `SELECT seq, uuid, stream, stream_id, type, at, payload, sha256 FROM outbox
       WHERE terminal_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
    ).all(terminalId, afterSeq, limit);
  }

  /** The time of the first event after `afterSeq` (the oldest one not yet acknowledged), if any. */
  eventAt(terminalId: string, seq: number): string | undefined {
    return this.stmt<[string, number], string>('SELECT at FROM outbox WHERE terminal_id = ? AND seq = ?')
      .pluck()
      .get(terminalId, seq);
  }

  /** PostgreSQL committed `terminalId`'s events up to `seq`: the cursor moves there (never back). */
  ack(terminalId: string, seq: number, at: string): void {
    this.stmt(
      `INSERT INTO outbox_sync (terminal_id, acked_seq, acked_at) VALUES (?, ?, ?)
       ON CONFLICT (terminal_id) DO UPDATE SET acked_seq = MAX(acked_seq, excluded.acked_seq), acked_at = excluded.acked_at`,
    ).run(terminalId, seq, at);
  }

  setConflict(terminalId: string, conflict: SyncConflict): void {
    this.stmt(
      `INSERT INTO outbox_sync (terminal_id, acked_seq, conflict) VALUES (?, 0, ?)
       ON CONFLICT (terminal_id) DO UPDATE SET conflict = excluded.conflict`,
    ).run(terminalId, JSON.stringify(conflict));
  }

  clearConflict(terminalId: string): boolean {
    return (
      this.stmt('UPDATE outbox_sync SET conflict = NULL WHERE terminal_id = ? AND conflict IS NOT NULL').run(terminalId)
        .changes > 0
    );
  }

  private stmt<P extends unknown[] | object = unknown[], R = unknown>(sql: string): Statement<P, R> {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s as unknown as Statement<P, R>;
  }
}
