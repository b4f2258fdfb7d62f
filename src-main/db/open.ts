import BetterSqlite3 from 'better-sqlite3';
import {
  accessSync,
  chmodSync,
  closeSync,
  constants as fsConstants,
  existsSync,
  mkdirSync,
  openSync,
  statSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { migrate, pendingMigrations, schemaVersion } from './migrations/runner';

export type Database = BetterSqlite3.Database;

const BUSY_TIMEOUT_MS = 5000;

/** The database and its companions are the store's books: readable by the machine's account only. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

function isInMemory(path: string): boolean {
  return path === ':memory:' || path === '';
}

export type DatabaseProblemKind = 'damaged' | 'empty' | 'unreadable' | 'read_only' | 'missing';

/**
 * The order log cannot be used as it is. The message names the file, says what is wrong and what to do; a
 * host refuses to take payments with it rather than start from an empty or damaged log (docs/when-things-break.md).
 */
export class DatabaseProblem extends Error {
  constructor(
    readonly kind: DatabaseProblemKind,
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DatabaseProblem';
  }
}

/** SQLite's and the file system's words for "this file is damaged". */
export function isCorruption(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT_INDEX';
}

/**
 * A write the disk refused (full, an I/O error, a read-only file): the order log could not record it, but
 * the database file itself is not damaged, and the write can be retried once the cause is fixed.
 */
export function isStorageError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string') return false;
  return (
    code === 'SQLITE_FULL' ||
    code.startsWith('SQLITE_IOERR') ||
    code.startsWith('SQLITE_READONLY') ||
    code === 'SQLITE_CANTOPEN' ||
    code === 'ENOSPC' ||
    code === 'EROFS' ||
    code === 'EACCES' ||
    code === 'EPERM' ||
    code === 'EIO'
  );
}

export interface OpenDatabaseOptions {
  /**
   * `quick`: PRAGMA quick_check before the log is used (the default for the order log): a damaged file is
   * refused instead of half-read. `none`: for tests and benchmarks that build files.
   */
  check?: 'quick' | 'none';
}

/**
 * Opens (creating if needed) Loket's database and brings its schema up to date. `':memory:'` gives a
 * private database for unit tests; there WAL does not apply and the journal mode stays `memory`.
 * A file of zero bytes is refused (a cut-off file, not a new one: a new database is never empty), as is
 * one that fails SQLite's quick check; the folder is made private (0700) and the files 0600.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Database {
  const inMemory = isInMemory(path);
  if (!inMemory) {
    makePrivateDir(dirname(path));
    refuseEmpty(path);
  }

  let db: Database;
  try {
    // A new database is created private from its first byte, not made private after SQLite wrote it.
    if (!inMemory && !existsSync(path)) closeSync(openSync(path, 'wx', PRIVATE_FILE_MODE));
    db = new BetterSqlite3(path, { timeout: BUSY_TIMEOUT_MS });
  } catch (err) {
    throw explainOpenError(path, err);
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
    if (!inMemory && (options.check ?? 'quick') === 'quick') {
      const problems = checkDatabase(db, 'quick');
      if (problems.length > 0) throw damaged(path, problems);
    }
    migrate(db);
    if (!inMemory) makePrivateFiles(path);
    return db;
  } catch (err) {
    db.close();
    // What the file or the disk says gets plain words; Loket's own errors (a newer schema, a blocked
    // migration) already have them.
    if (err instanceof DatabaseProblem || !(err as { code?: unknown })?.code) throw err;
    throw explainOpenError(path, err);
  }
}

/** A file of zero bytes is a cut-off log, never a new one. */
function refuseEmpty(path: string): void {
  if (existsSync(path) && statSync(path).size === 0) {
    throw new DatabaseProblem(
      'empty',
      path,
      `the order log ${path} is empty (0 bytes): it was cut off, and Loket will not start it again from nothing. ` +
        'Restore the newest backup (npm run cli -- restore FILE); if this till has never sold anything, delete ' +
        'the empty file and start again.',
    );
  }
}

/**
 * Opens Loket's database to read it, and only that: SQLite's read-only mode, so nothing — not a migration, not
 * the start-up work on interrupted orders — can change the books another process is writing (docs/cli.md, "Who
 * writes the data folder"). It checks as openDatabase does (empty, damaged, a newer schema). A log that does not
 * exist yet reads as empty books (an in-memory database with the schema): nothing is created for a read.
 */
export function openDatabaseReadOnly(path: string): Database {
  if (isInMemory(path) || !existsSync(path)) {
    const empty = new BetterSqlite3(':memory:');
    migrate(empty);
    return empty;
  }
  refuseEmpty(path);
  let db: Database;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  } catch (err) {
    throw explainOpenError(path, err);
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const problems = checkDatabase(db, 'quick');
    if (problems.length > 0) throw damaged(path, problems);
    // A file of a newer Loket throws SchemaTooNewError; one that lacks a migration (even one numbered below its
    // version: migrations are numbered with gaps) is of an older one.
    if (pendingMigrations(db).length > 0)
      throw new Error(
        `the order log ${path} is of an older Loket (schema ${schemaVersion(db)}): it is brought up to date when ` +
          'Loket, or a command that changes the books, next opens it. Start Loket once, then read it again.',
      );
    // SQLite made the WAL's companions for this reader if they were missing: private like the rest.
    makePrivateFiles(path);
    return db;
  } catch (err) {
    db.close();
    if (err instanceof DatabaseProblem || !(err as { code?: unknown })?.code) throw err;
    throw explainOpenError(path, err);
  }
}

/** SQLite's own check: `quick` (at every open) or `full` (integrity_check, at a quiet moment each day). */
export function checkDatabase(db: Database, depth: 'quick' | 'full'): string[] {
  const rows = db.pragma(depth === 'quick' ? 'quick_check(20)' : 'integrity_check(20)', { simple: false }) as {
    quick_check?: string;
    integrity_check?: string;
  }[];
  const lines = rows.map((r) => r.quick_check ?? r.integrity_check ?? JSON.stringify(r));
  return lines.length === 1 && lines[0] === 'ok' ? [] : lines;
}

export function damaged(path: string, problems: string[], cause?: unknown): DatabaseProblem {
  return new DatabaseProblem(
    'damaged',
    path,
    `the order log ${path} is damaged (${problems.slice(0, 3).join('; ')}). Loket takes no payments until it is ` +
      'restored: stop Loket and run npm run cli -- restore FILE with the newest backup (the damaged file is kept ' +
      'aside; npm run cli -- backup list shows the backups).',
    cause === undefined ? undefined : { cause },
  );
}

function explainOpenError(path: string, err: unknown): Error {
  if (err instanceof DatabaseProblem) return err;
  if (isCorruption(err)) return damaged(path, [(err as Error).message], err);
  let code = (err as { code?: string }).code;
  // SQLite says only "cannot open"; the folder itself tells whether it is a read-only disk or a permission.
  if (code === 'SQLITE_CANTOPEN' || code === 'EACCES' || code === 'EPERM')
    code = folderWriteError(dirname(path)) ?? code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'SQLITE_CANTOPEN')
    return new DatabaseProblem(
      'unreadable',
      path,
      `cannot open the order log ${path}: ${(err as Error).message}. Check that the folder exists and that this ` +
        'account may read and write it (or set LOKET_DATA_DIR to a folder it owns).',
      { cause: err },
    );
  if (code === 'EROFS' || code?.startsWith('SQLITE_READONLY'))
    return new DatabaseProblem(
      'read_only',
      path,
      `cannot write the order log ${path}: the file or its disk is read-only (${(err as Error).message}). Loket ` +
        'needs to write every order before it is sent: give it a writable folder.',
      { cause: err },
    );
  return new Error(`cannot open the database at ${path}: ${(err as Error).message}`, { cause: err });
}

function folderWriteError(dir: string): string | undefined {
  try {
    accessSync(dir, fsConstants.W_OK);
    return undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code;
  }
}

/**
 * The data folder, created 0700 (and tightened if it exists and is ours); on Windows the profile protects it. A shared
 * folder with the sticky bit (/tmp) is never changed: a database file put straight into /tmp by root once made /tmp
 * 0700 and locked every other account out of it.
 */
export function makePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new DatabaseProblem(
      code === 'EROFS' ? 'read_only' : 'unreadable',
      dir,
      `cannot create Loket's data folder ${dir}: ${code ?? (err as Error).message}. Choose a folder this account ` +
        'may write (LOKET_DATA_DIR), or fix its permissions.',
      { cause: err },
    );
  }
  if (process.platform === 'win32') return;
  try {
    const stats = statSync(dir);
    const sticky = (stats.mode & 0o1000) !== 0;
    if (!sticky && (stats.mode & 0o777) !== PRIVATE_DIR_MODE && stats.uid === process.getuid?.())
      chmodSync(dir, PRIVATE_DIR_MODE);
  } catch {
    // Not ours to change (a folder the administrator set up): leave it as they chose.
  }
}

/** The database, its WAL and shared-memory files: 0600 (SQLite creates the companions like the database). */
export function makePrivateFiles(path: string): void {
  if (process.platform === 'win32') return;
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      if (existsSync(file) && (statSync(file).mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(file, PRIVATE_FILE_MODE);
    } catch {
      // A file we cannot chmod is not ours; SQLite would have refused to open it for writing.
    }
  }
}
