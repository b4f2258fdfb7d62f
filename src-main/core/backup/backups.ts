import BetterSqlite3 from 'better-sqlite3';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { chmod, mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { checkDatabase, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, type Database } from '../../db/open';
import { LATEST_SCHEMA_VERSION } from '../../db/migrations/registry';
import { schemaVersion } from '../../db/migrations/runner';
import { systemClock, type Clock } from '../ports';

/**
 * Online backups of the store's books (`loket.db`): SQLite's backup API copies a consistent snapshot while
 * Loket keeps running. Kept in `<data folder>/backups` (0600), rotated, and optionally copied to a second
 * folder the manager chooses (a USB disk, a network share). See docs/when-things-break.md.
 */
export const BACKUP_FOLDER = 'backups';
/** Rotation: the newest backup of each of the last 7 days, and of each of the last 4 weeks, and the newest. */
export const KEEP_DAILY = 7;
export const KEEP_WEEKLY = 4;

export type BackupReason = 'start' | 'periodic' | 'close-day' | 'manual' | 'before-restore';

export interface BackupInfo {
  path: string;
  /** When it was taken (from its name: UTC). */
  at: string;
  bytes: number;
  reason: string;
}

export interface TakenBackup extends BackupInfo {
  /** Backups removed by the rotation. */
  removed: string[];
}

export interface BackupResult extends TakenBackup {
  /** Where the second copy went, when a folder is set and the copy worked. */
  copiedTo?: string;
  /** Why the second copy did not work (the backup itself is fine). */
  copyError?: string;
}

/** How a copy to the second folder ended: never a rejection. */
export type CopyResult = { copiedTo: string } | { copyError: string };

export interface CopyOptions {
  /**
   * Awaited before the copy starts and before each chunk is written (the app waits there while a charge is in
   * flight: a slow USB stick must not compete with recording a payment).
   */
  beforeWrite?: () => Promise<void>;
  /** Stops the copy at its next chunk (Loket is closing); what was copied so far is removed. */
  signal?: AbortSignal;
}

/** How much of a backup is read, then written to the second folder, at a time. */
export const COPY_CHUNK_BYTES = 256 * 1024;
/** What a file system says when a file cannot be synced at all (a pipe, some network shares): not a failure. */
const UNSYNCABLE = new Set(['EINVAL', 'ENOTSUP', 'EOPNOTSUPP']);

const NAME = /^loket-(\d{8})-(\d{6})(\d{3})-([a-z-]+)\.db$/;

function stamp(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}${iso.slice(20, 23)}`;
}

export class Backups {
  readonly dir: string;

  constructor(
    readonly dataDir: string,
    private readonly clock: Clock = systemClock,
  ) {
    this.dir = join(dataDir, BACKUP_FOLDER);
  }

  /** Newest first. */
  list(): BackupInfo[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .map((name) => ({ name, m: NAME.exec(name) }))
      .filter((e): e is { name: string; m: RegExpExecArray } => e.m !== null)
      .map(({ name, m }) => {
        const [, d, t, ms, reason] = m;
        const at = `${d!.slice(0, 4)}-${d!.slice(4, 6)}-${d!.slice(6)}T${t!.slice(0, 2)}:${t!.slice(2, 4)}:${t!.slice(4)}.${ms}Z`;
        const path = join(this.dir, name);
        return { path, at, bytes: statSync(path).size, reason: reason! };
      })
      .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  }

  newest(): BackupInfo | undefined {
    return this.list()[0];
  }

  /** Takes a backup of `db` now (online: orders keep flowing), rotates, and copies it to `copyTo` if given. */
  async create(
    db: Database,
    reason: BackupReason,
    copyTo?: string | null,
    copyOptions: CopyOptions = {},
  ): Promise<BackupResult> {
    const taken = await this.take(db, reason);
    return copyTo ? { ...taken, ...(await this.copy(taken.path, copyTo, copyOptions)) } : taken;
  }

  /** Takes a backup of `db` now (online: orders keep flowing) into the backups folder, and rotates. */
  async take(db: Database, reason: BackupReason): Promise<TakenBackup> {
    mkdirSync(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const at = this.clock.now();
    const path = join(this.dir, `loket-${stamp(at)}-${reason}.db`);
    const part = `${path}.part`;
    try {
      await db.backup(part);
      chmodSync(part, PRIVATE_FILE_MODE);
      renameSync(part, path);
    } catch (err) {
      rmSync(part, { force: true });
      throw new Error(`the backup to ${path} failed: ${(err as Error).message}`, { cause: err });
    }
    return { path, at: at.toISOString(), bytes: statSync(path).size, reason, removed: this.rotate() };
  }

  /**
   * Copies the backup at `path` into `folder` (a USB disk, a network share) off the main thread: asynchronous
   * reads and writes, a chunk at a time, so a slow or stuck stick never freezes the till. Written as `<name>.part`,
   * synced, then renamed: a stick pulled out half-way leaves no file that looks like a whole backup.
   */
  async copy(path: string, folder: string, options: CopyOptions = {}): Promise<CopyResult> {
    const target = join(folder, basename(path));
    const part = `${target}.part`;
    let source: FileHandle | undefined;
    let out: FileHandle | undefined;
    try {
      await options.beforeWrite?.();
      options.signal?.throwIfAborted();
      await mkdir(folder, { recursive: true });
      source = await open(path, 'r');
      out = await open(part, 'w', PRIVATE_FILE_MODE);
      const buffer = Buffer.allocUnsafe(COPY_CHUNK_BYTES);
      for (;;) {
        const { bytesRead } = await source.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        await options.beforeWrite?.();
        options.signal?.throwIfAborted();
        for (let written = 0; written < bytesRead;)
          written += (await out.write(buffer, written, bytesRead - written)).bytesWritten;
      }
      await out.datasync().catch((err: NodeJS.ErrnoException) => {
        if (!UNSYNCABLE.has(err.code ?? '')) throw err;
      });
      await out.close();
      out = undefined;
      await rename(part, target);
      await chmod(target, PRIVATE_FILE_MODE);
      return { copiedTo: target };
    } catch (err) {
      await out?.close().catch(() => undefined);
      await rm(part, { force: true }).catch(() => undefined);
      const why = options.signal?.aborted
        ? 'Loket closed before it was done'
        : ((err as NodeJS.ErrnoException).code ?? (err as Error).message);
      return { copyError: `the copy to ${folder} failed: ${why}` };
    } finally {
      await source?.close().catch(() => undefined);
    }
  }

  /** Keeps the newest backup, the newest of each of the last 7 days and of each of the last 4 weeks. */
  rotate(): string[] {
    const all = this.list();
    const keep = new Set<string>();
    if (all[0]) keep.add(all[0].path);
    const now = this.clock.now().getTime();
    const newestPer = (key: (at: Date) => string, within: number) => {
      const seen = new Set<string>();
      for (const b of all) {
        const at = new Date(b.at);
        if (now - at.getTime() > within) continue;
        const k = key(at);
        if (seen.has(k)) continue;
        seen.add(k);
        keep.add(b.path);
      }
    };
    const DAY = 24 * 3600 * 1000;
    newestPer((at) => at.toISOString().slice(0, 10), KEEP_DAILY * DAY);
    newestPer((at) => String(Math.floor((at.getTime() + 3 * DAY) / (7 * DAY))), KEEP_WEEKLY * 7 * DAY);
    const removed: string[] = [];
    for (const b of all) {
      if (keep.has(b.path)) continue;
      rmSync(b.path, { force: true });
      removed.push(b.path);
    }
    return removed;
  }
}

export interface RestoreResult {
  restored: string;
  /** Where the file it replaced was put (kept, never deleted). */
  keptAside?: string;
  orders: number;
}

/**
 * Puts a backup in place of the store's order log. The backup must pass SQLite's full integrity check and
 * be of a schema this Loket knows; the current file (damaged or not) is moved aside, never deleted. Refused
 * while the current log is readable and has orders still open (creating, awaiting payment, unknown): their
 * outcome would be lost — settle them first (or `force` when the log is known to be wrong).
 * Loket must not be running on this data folder meanwhile.
 */
export function restoreBackup(
  dataDir: string,
  file: string,
  options: { force?: boolean; clock?: Clock } = {},
): RestoreResult {
  const clock = options.clock ?? systemClock;
  if (!existsSync(file)) throw new Error(`no backup at ${file}`);
  let source: Database;
  try {
    source = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new Error(`${file} is not a Loket backup that can be read: ${(err as Error).message}`, { cause: err });
  }
  let orders: number;
  try {
    const problems = (() => {
      try {
        return checkDatabase(source, 'full');
      } catch (err) {
        return [(err as Error).message];
      }
    })();
    if (problems.length > 0)
      throw new Error(`${file} is damaged too (${problems.slice(0, 3).join('; ')}): pick another backup`);
    const version = schemaVersion(source);
    if (version > LATEST_SCHEMA_VERSION)
      throw new Error(`${file} was written by a newer Loket (schema ${version}); restore it with that version`);
    orders = (source.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n;
  } finally {
    source.close();
  }

  const target = join(dataDir, 'loket.db');
  const open = openOrdersIn(target);
  if (open !== undefined && open > 0 && !options.force) {
    throw new Error(
      `the order log ${target} still has ${open} open order(s) (creating, awaiting payment or unknown): restoring ` +
        'a backup would lose what happens to them. Settle or cancel them first, or add --force if the log is wrong.',
    );
  }

  let keptAside: string | undefined;
  if (existsSync(target)) {
    keptAside = `${target}.aside-${stamp(clock.now())}`;
    renameSync(target, keptAside);
    for (const suffix of ['-wal', '-shm']) {
      if (existsSync(target + suffix)) renameSync(target + suffix, keptAside + suffix);
    }
  }
  copyFileSync(file, target);
  chmodSync(target, PRIVATE_FILE_MODE);
  return { restored: target, ...(keptAside ? { keptAside } : {}), orders };
}

/** Open orders in the log at `path`; undefined when it cannot be read (missing, empty, damaged). */
function openOrdersIn(path: string): number | undefined {
  if (!existsSync(path) || statSync(path).size === 0) return undefined;
  let db: Database | undefined;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
    if (checkDatabase(db, 'quick').length > 0) return undefined;
    return (
      db.prepare("SELECT COUNT(*) AS n FROM orders WHERE state IN ('creating','awaiting_payment','unknown')").get() as {
        n: number;
      }
    ).n;
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}
