/** Temporary folders for the benchmark's databases, removed at the end (and on Ctrl-C). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

export function makeTempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `loket-bench-${label}-`));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  while (made.length > 0) {
    const dir = made.pop()!;
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      console.error(`bench: could not remove ${dir}: ${(err as Error).message}`);
    }
  }
}
