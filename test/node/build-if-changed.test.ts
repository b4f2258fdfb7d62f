// `npm start` and `npm run serve` build only when an input changed (scripts/build-if-changed.mjs): contents count,
// times do not; a missing output or a failed build means building next time too.
import { describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildIfChanged, isUpToDate, OUTPUTS } from '../../scripts/build-if-changed.mjs';
import { tempDir } from './helpers/loket';

function tree() {
  const dir = tempDir('loket-build-');
  const write = (path: string, text: string) => {
    mkdirSync(join(dir.path, path, '..'), { recursive: true });
    writeFileSync(join(dir.path, path), text);
  };
  write('src-main/index.ts', 'export {};\n');
  write('src-renderer/src/App.svelte', '<p>hi</p>\n');
  write('package-lock.json', '{}\n');
  let builds = 0;
  let exitCode = 0;
  const build = () => {
    builds++;
    if (exitCode === 0) for (const f of OUTPUTS) write(f, 'built');
    return exitCode;
  };
  const run = () => buildIfChanged({ quiet: true, root: dir.path, build });
  const upToDate = () => isUpToDate(dir.path);
  return {
    dir,
    write,
    run,
    upToDate,
    builds: () => builds,
    failNext: (code: number) => (exitCode = code),
  };
}

describe('build only when the inputs changed', () => {
  it('builds the first time, then skips while nothing changed, even when files are touched', () => {
    const t = tree();
    expect(t.run()).toBe(0);
    expect(t.builds()).toBe(1);
    expect(t.run()).toBe(0);
    const future = new Date(Date.now() + 3_600_000);
    utimesSync(join(t.dir.path, 'src-main/index.ts'), future, future);
    expect(t.run()).toBe(0);
    expect(t.builds()).toBe(1);
    t.dir.remove();
  });

  it('builds again when a source, a new file or the lock file changes', () => {
    const t = tree();
    t.run();
    t.write('src-renderer/src/App.svelte', '<p>hello</p>\n');
    t.run();
    expect(t.builds()).toBe(2);
    t.write('src-preload/index.ts', 'export {};\n');
    t.run();
    expect(t.builds()).toBe(3);
    t.write('package-lock.json', '{"lockfileVersion":3}\n');
    t.run();
    expect(t.builds()).toBe(4);
    t.run();
    expect(t.builds()).toBe(4);
    t.dir.remove();
  });

  it('builds again when an output is missing, and after a failed build', () => {
    const t = tree();
    t.run();
    rmSync(join(t.dir.path, 'out/renderer/index.html'));
    t.run();
    expect(t.builds()).toBe(2);
    t.write('src-main/index.ts', 'export const x = 1;\n');
    t.failNext(2);
    expect(t.run()).toBe(2);
    t.failNext(0);
    expect(t.run()).toBe(0);
    expect(t.builds()).toBe(4);
    t.dir.remove();
  });

  it('says the build is up to date (npm run cli runs it) only when built from the sources as they are', () => {
    const t = tree();
    expect(t.upToDate()).toBe(false);
    t.run();
    expect(t.upToDate()).toBe(true);
    t.write('src-main/cli.ts', 'export {};\n');
    expect(t.upToDate()).toBe(false);
    t.run();
    expect(t.upToDate()).toBe(true);
    // The command line's entry is an output of its own: without it, the sources run instead.
    rmSync(join(t.dir.path, 'out/main/cli.js'));
    expect(t.upToDate()).toBe(false);
    t.dir.remove();
  });
});
