import BetterSqlite3 from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { hostname } from 'node:os';
import { PRIVATE_FILE_MODE, type Database } from './open';

/**
 * One process writes a data folder: the desktop app, `serve`, or a command line that changes the books. It holds
 * this lock while it runs; a second writer is refused, naming the first (docs/when-things-break.md, "One Loket per
 * data folder").
 *
 * The lock is SQLite's own write lock on a small file of its own (`loket.lock`, always empty): a transaction begun
 * with BEGIN IMMEDIATE and never ended holds it. It is the operating system's lock underneath (fcntl on POSIX,
 * LockFileEx on Windows), so it ends with its process however that ends — a crash, SIGKILL, a power cut — with no
 * stale file to clean up and no process id that another program may have been given since. A pid file alone has
 * both problems: after a kill its pid may belong to another program, and two starters that both find it stale can
 * both take it. Who holds the lock is written beside it (`loket.lock.json`), for the refusal's words only.
 */
export const LOCK_FILE = 'loket.lock';
export const LOCK_OWNER_FILE = 'loket.lock.json';

export interface LockOwner {
  pid: number;
  host: string;
  /** What the process is, in words a person recognises: `npm run cli -- serve`, `the Loket desktop app`. */
  command: string;
  /** When it took the folder (UTC, ISO 8601). */
  since: string;
}

/** Another process holds the data folder; `owner` is who, when it said so. */
export class FolderBusyError extends Error {
  constructor(
    readonly dir: string,
    readonly owner: LockOwner | undefined,
  ) {
    super(
      `the data folder ${dir} is in use by ${describeOwner(owner)}. Only one Loket process writes a data folder at a ` +
        'time: stop that one first (or use a command that only reads: orders list, order show, report, export, ' +
        'attention, audit, backup).',
    );
    this.name = 'FolderBusyError';
  }
}

export interface FolderLock {
  readonly dir: string;
  /** Lets the folder go (idempotent). The operating system does the same when the process ends. */
  release(): void;
}

/**
 * Takes the data folder `dir` (which must exist) for this process, or throws FolderBusyError at once (no waiting:
 * the holder may run for days). A process takes a folder once: a second take, even in the same process, is
 * refused like another process's.
 */
export function lockDataFolder(dir: string, me: { command: string; since: string }): FolderLock {
  const path = join(dir, LOCK_FILE);
  // Created private and empty; 'a' never truncates a file another process has just made.
  if (!existsSync(path)) closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  let db: Database;
  try {
    db = new BetterSqlite3(path, { timeout: 0 });
  } catch (err) {
    throw new Error(`cannot open the lock file ${path}: ${(err as Error).message}`, { cause: err });
  }
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new FolderBusyError(dir, readOwner(dir));
    throw new Error(
      `cannot take the lock file ${path}: ${(err as Error).message}. If no Loket runs on this folder, delete the file ` +
        'and start again.',
      { cause: err },
    );
  }
  const owner: LockOwner = { pid: process.pid, host: hostname(), command: me.command, since: me.since };
  const ownerPath = join(dir, LOCK_OWNER_FILE);
  try {
    const part = `${ownerPath}.${process.pid}.part`;
    writeFileSync(part, JSON.stringify(owner) + '\n', { mode: PRIVATE_FILE_MODE });
    chmodSync(part, PRIVATE_FILE_MODE);
    renameSync(part, ownerPath);
  } catch {
    // Only the refusal's words depend on it: the lock itself stands.
  }
  let held = true;
  return {
    dir,
    release: () => {
      if (!held) return;
      held = false;
      // The owner's words go first, while the lock still keeps a next holder from writing its own.
      try {
        if (readOwner(dir)?.pid === process.pid) rmSync(ownerPath, { force: true });
      } catch {
        // A stale owner file is overwritten by the next holder.
      }
      db.close();
    },
  };
}

/** Who holds `dir` now, as the holder wrote it; undefined when nobody said (or the file cannot be read). */
export function readOwner(dir: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, LOCK_OWNER_FILE), 'utf8')) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.command !== 'string') return undefined;
    return {
      pid: parsed.pid,
      host: String(parsed.host ?? ''),
      command: parsed.command,
      since: String(parsed.since ?? ''),
    };
  } catch {
    return undefined;
  }
}

function describeOwner(owner: LockOwner | undefined): string {
  // The file may still name the holder before, killed: the lock is the truth, these are its words.
  if (!owner || (owner.host === hostname() && !alive(owner.pid)))
    return 'another Loket process (it is starting, or did not say which it is)';
  const where = owner.host && owner.host !== hostname() ? ` on ${owner.host}` : '';
  return `another Loket process: ${owner.command} (process ${owner.pid}${where}, since ${owner.since})`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * This process in a holder's words: the command line's command (its first words, never its values), the desktop
 * app, or else the script's name.
 */
export function describeThisProcess(argv: readonly string[] = process.argv): string {
  if (process.versions.electron) return 'the Loket desktop app';
  const script = basename(argv[1] ?? '');
  if (/^cli\.[cm]?[jt]s$/.test(script)) {
    const words: string[] = [];
    for (const arg of argv.slice(2)) {
      if (!/^[a-z][a-z-]*$/.test(arg) || words.length === 2) break;
      words.push(arg);
    }
    return `npm run cli -- ${words.join(' ')}`.trim();
  }
  return `a Loket process (${script || basename(argv[0] ?? 'node')})`;
}
