import BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate } from './migrations';

export type Database = BetterSqlite3.Database;

const BUSY_TIMEOUT_MS = 5000;

function isInMemory(path: string): boolean {
  return path === ':memory:' || path === '';
}

/**
 * Opens (creating if needed) Loket's database and brings its schema up to date. `':memory:'` gives a
 * private database for unit tests; there WAL does not apply and the journal mode stays `memory`.
 */
export function openDatabase(path: string): Database {
  const inMemory = isInMemory(path);
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });

  let db: Database;
  try {
    db = new BetterSqlite3(path, { timeout: BUSY_TIMEOUT_MS });
  } catch (err) {
    throw new Error(`cannot open the database at ${path}: ${(err as Error).message}`, { cause: err });
  }
  try {
    // First, so that switching to WAL waits for another process's lock instead of failing at once.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    // SQLite silently keeps the old mode where WAL is impossible (e.g. some network file systems);
    // the durability and reader/writer guarantees of docs/orders.md ("The order log") assume WAL, so say so.
    if (!inMemory && mode !== 'wal')
      throw new Error(
        `cannot use write-ahead logging for ${path} (journal mode stays ${String(mode)}); put the database on a local disk`,
      );
    // FULL: a payment acknowledged to the cashier must survive a power cut, not just a crash.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
