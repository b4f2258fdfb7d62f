/**
 * Tills for the store-book tests: a data folder with a real loket.db whose orders are written by the real order log
 * (so every event has its outbox row), and helpers to read what the store book holds.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { OrderLog, type NewOrder } from '../../../src-main/core/orders/order-log';
import { openDatabase, type Database } from '../../../src-main/db/open';
import { LocalBook } from '../../../src-main/store-book/local-book';

export interface Till {
  dir: string;
  db: Database;
  log: OrderLog;
  terminalId: string;
  /** n orders: created, answered, and every other one paid; returns their ids. */
  sell(n: number, options?: { amount?: number }): string[];
  local(): LocalBook;
  close(): void;
  remove(): void;
}

let serial = 0;

export function openTill(terminalId: string, options: { dir?: string; now?: () => Date } = {}): Till {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), `loket-till-${terminalId}-`));
  const db = openDatabase(join(dir, 'loket.db'));
  let t = Date.parse('2026-11-23T02:00:00.000Z');
  const now = options.now ?? (() => new Date((t += 7)));
  const log = new OrderLog(db, { now });
  const locals: LocalBook[] = [];
  return {
    dir,
    db,
    log,
    terminalId,
    sell(n, { amount = 25_000 } = {}) {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const id = `${terminalId}-${(++serial).toString(36).toUpperCase().padStart(6, '0')}-${process.pid}`.slice(
          0,
          36,
        );
        log.create(newOrder(id, terminalId, amount + i), { source: 'cashier' });
        log.transition(id, 'awaiting_payment', { source: 'gateway' }, { gatewayTransactionId: `G-${id}` });
        if (i % 2 === 0) log.transition(id, 'paid', { source: 'callback' }, { paidAt: now().toISOString() });
        ids.push(id);
      }
      return ids;
    },
    local() {
      const book = LocalBook.open(dir);
      locals.push(book);
      return book;
    },
    close() {
      for (const l of locals.splice(0)) if (l.db.open) l.close();
      if (db.open) db.close();
    },
    remove() {
      this.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A copy of a till's data folder (a cloned disk): the same instance id, the same events so far. */
export function cloneTill(till: Till, terminalId = till.terminalId): Till {
  till.db.pragma('wal_checkpoint(TRUNCATE)');
  const dir = mkdtempSync(join(tmpdir(), `loket-clone-${terminalId}-`));
  cpSync(till.dir, dir, { recursive: true });
  return openTill(terminalId, { dir });
}

export function newOrder(id: string, terminalId: string, amount: number): NewOrder {
  return {
    id,
    terminalId,
    api: 'v2',
    methodId: 'qris_dynamic',
    kind: 'qris',
    amount,
    currency: 'IDR',
    itemName: 'Kopi susu',
    userId: `walkin-${terminalId.toLowerCase()}`,
    training: false,
    requestBody: JSON.stringify({ amount }),
  };
}

/** One query as `url`'s role. */
export async function query<R extends pg.QueryResultRow = Record<string, unknown>>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The store book's events of a terminal, in order, as (seq, sha256). */
export async function storedEvents(adminUrl: string, terminalId: string): Promise<{ seq: number; sha256: string }[]> {
  const rows = await query<{ seq: string; sha256: string }>(
    adminUrl,
    'SELECT seq, sha256 FROM loket.events WHERE terminal_id = $1 ORDER BY seq',
    [terminalId],
  );
  return rows.map((r) => ({ seq: Number(r.seq), sha256: r.sha256 }));
}

/** The till's outbox rows of its terminal, as (seq, sha256). */
export function outboxOf(till: Till): { seq: number; sha256: string }[] {
  return till.db.prepare('SELECT seq, sha256 FROM outbox WHERE terminal_id = ? ORDER BY seq').all(till.terminalId) as {
    seq: number;
    sha256: string;
  }[];
}
