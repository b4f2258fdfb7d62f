/**
 * A real, small file system for the full-disk tests: a tmpfs of a given size, mounted on a fresh folder.
 * Mounting needs root (CI runs as root); `smallDiskAvailable()` says whether this process can.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  readonly dir: string;
  /** Bytes free now, as statfs reports them to an unprivileged writer. */
  free(): number;
  /** Fills the disk until the file system refuses, then frees `leaveBytes` again; returns the filler's size. */
  fill(leaveBytes: number): number;
  /** Removes the filler: the space comes back. */
  release(): void;
  remountReadOnly(): void;
  unmount(): void;
}

export function smallDiskAvailable(): boolean {
  return process.platform === 'linux' && process.getuid?.() === 0;
}

export function mountSmallDisk(sizeBytes: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'loket-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes},mode=0755`, 'tmpfs', dir]);
  const filler = join(dir, 'filler.bin');
  let mounted = true;
  return {
    dir,
    free: () => {
      const s = statfsSync(dir);
      return Number(s.bavail) * Number(s.bsize);
    },
    fill: (leaveBytes) => {
      const fd = openSync(filler, 'w');
      const chunk = Buffer.alloc(64 * 1024);
      let size = 0;
      try {
        for (;;) {
          const n = writeSync(fd, chunk, 0, chunk.length);
          size += n;
          if (n < chunk.length) break;
        }
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      } finally {
        closeSync(fd);
      }
      const kept = Math.max(0, size - leaveBytes);
      truncateSync(filler, kept);
      return kept;
    },
    release: () => rmSync(filler, { force: true }),
    remountReadOnly: () => execFileSync('mount', ['-o', 'remount,ro', dir]),
    unmount: () => {
      if (!mounted) return;
      mounted = false;
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
