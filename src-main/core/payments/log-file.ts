import { chmodSync, mkdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, type Database } from '../../db/open';
import type { Clock } from '../ports';
import type { DiskCheck } from './disk-space';

/**
 * Whether the order log open in this process is still the data folder's log, checked before each order is logged
 * and sent. A log deleted, replaced (a restore or a copy over it) or cut short while Loket runs is not noticed by
 * SQLite: its writes go on into a file no longer on disk, and a restart finds none of them. So each charge first
 * compares the file at the log's path with the one opened — the same device and inode, and no shorter than it has
 * been (SQLite never shrinks it: Loket runs no VACUUM and no auto-vacuum) — one stat, no read.
 *
 * Once the file is found gone, every later check says so too: this process writes into the lost file and cannot
 * write the real one. What it still holds is saved with VACUUM INTO (the open connection still reads the lost file)
 * into `rescueDir` — the backups folder, where `backup list` and the start-up's "restore the newest backup" find it —
 * so the orders charged before are not lost with it; the message names that copy. The training log has none: no
 * money moved, and a backup there would stand for the store's books.
 */
export function logFileCheck(db: Database, options: { clock: Clock; rescueDir?: string }): DiskCheck {
  const { clock, rescueDir } = options;
  if (db.memory) return () => ({ ok: true });
  const path = db.name;
  const opened = statSync(path);
  let longest = opened.size;
  let lost: string | undefined;
  return () => {
    if (lost) return { ok: false, message: lost };
    let now: Stats;
    try {
      now = statSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return { ok: true };
      lost = refusal(path, 'was deleted', rescueDir === undefined ? 'training' : rescue(db, rescueDir, clock));
      return { ok: false, message: lost };
    }
    if (now.dev !== opened.dev || now.ino !== opened.ino) {
      lost = refusal(
        path,
        'was replaced by another file',
        rescueDir === undefined ? 'training' : rescue(db, rescueDir, clock),
      );
      return { ok: false, message: lost };
    }
    if (now.size < longest) {
      lost = refusal(
        path,
        `was cut short (${now.size} bytes, it had ${longest})`,
        rescueDir === undefined ? 'training' : undefined,
      );
      return { ok: false, message: lost };
    }
    longest = now.size;
    return { ok: true };
  };
}

/** A copy of what the open connection still reads, named as a backup; its path, or why there is none. */
function rescue(db: Database, dir: string, clock: Clock): { path: string } | { error: string } {
  const iso = clock.now().toISOString();
  const stamp = `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 23).replace(/[:.]/g, '')}`;
  const copy = join(dir, `loket-${stamp}-rescued.db`);
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    db.prepare('VACUUM INTO ?').run(copy);
    chmodSync(copy, PRIVATE_FILE_MODE);
    return { path: copy };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

function refusal(
  path: string,
  what: string,
  saved: { path: string } | { error: string } | 'training' | undefined,
): string {
  const words =
    `the order log ${path} ${what} while Loket was running: what is recorded from now on would be lost. Loket ` +
    'takes no payments until it is restarted on a whole log. Nothing was sent.';
  if (saved === undefined)
    return (
      `${words} Stop Loket and restore the newest backup: npm run cli -- restore FILE (npm run cli -- backup list ` +
      'shows the backups).'
    );
  if (saved === 'training')
    return `${words} It is the training log (no money moved): start Loket again to go on training.`;
  if ('path' in saved)
    return (
      `${words} The orders this Loket had recorded were saved as ${saved.path}: stop Loket and restore that file ` +
      `(npm run cli -- restore ${saved.path}).`
    );
  return (
    `${words} Saving the orders this Loket had recorded failed (${saved.error}): stop Loket, restore the newest ` +
    "backup (npm run cli -- backup list), and check the orders since then against the gateway's records."
  );
}
