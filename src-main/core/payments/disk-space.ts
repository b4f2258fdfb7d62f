import { statfsSync } from 'node:fs';

/** Below this much free space on the data folder's disk, Loket refuses to start a charge (LOKET_MIN_FREE_MB). */
export const DEFAULT_MIN_FREE_BYTES = 32 * 1024 * 1024;

export type DiskCheck = () => { ok: true } | { ok: false; message: string };

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${Math.max(0, Math.round(bytes / 1024))} KB`;
}

/**
 * Whether the disk holding `dir` has room to record an order and its answer. Checked before anything is
 * logged or sent, so a charge on a nearly full disk is refused up front instead of reaching the gateway and
 * then failing to be written. The threshold is generous (SQLite's WAL, the backups and the system need room
 * too); a disk that cannot say (statfs unsupported) is not refused on that ground — a failed write still is.
 */
export function diskSpaceCheck(dir: string, minFreeBytes: number = DEFAULT_MIN_FREE_BYTES): DiskCheck {
  return () => {
    let free: number;
    try {
      const stats = statfsSync(dir);
      free = Number(stats.bavail) * Number(stats.bsize);
    } catch {
      return { ok: true };
    }
    if (free >= minFreeBytes) return { ok: true };
    return {
      ok: false,
      message:
        `the disk holding Loket's data (${dir}) is nearly full: ${formatBytes(free)} free, and Loket needs at least ` +
        `${formatBytes(minFreeBytes)} to record orders safely. Nothing was sent. Free some space on that disk ` +
        '(old files, downloads), then charge again.',
    };
  };
}
