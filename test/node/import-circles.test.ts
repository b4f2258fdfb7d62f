// No import circles (the house rules: type-only imports count). Every import of every .ts and .svelte file under
// src-main and src-renderer/src — `import`, `import type`, `export … from`, a side-effect import, a dynamic
// `import()` — is resolved to its file (test/node/helpers/import-graph.ts), and each circle found is named with the
// way it closes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCircles, importGraph } from './helpers/import-graph';
import { tempDir } from './helpers/loket';

const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * Circles other branches are removing now, tolerated until they land. Each is its files exactly: one that grows, or
 * any other circle, fails; so does one listed here that no longer exists (take it off: the list shrinks to empty).
 */
const KNOWN_CYCLES_BEING_REMOVED: readonly (readonly string[])[] = [
  [
    'src-main/core/export/order-export.ts',
    'src-main/core/export/summary-sheet.ts',
    'src-main/core/export/xlsx-export.ts',
  ],
  ['src-main/core/reports/report-model.ts', 'src-main/core/reports/sales-section.ts'],
  ['src-main/db/migration-13-closing-sales.ts', 'src-main/db/migrations.ts'],
];

const key = (files: readonly string[]) => [...files].sort().join(' ');

/** A circle as a failure names it: the way it closes, and the other files tangled in it. */
function named(circle: { files: string[]; path: string[] }): string {
  const others = circle.files.filter((f) => !circle.path.includes(f));
  return circle.path.join(' → ') + (others.length > 0 ? ` (tangled with ${others.join(', ')})` : '');
}

describe('no import circles', () => {
  it.each(['src-main', 'src-renderer/src'])('%s: every import resolves to a file', (dir) => {
    const graph = importGraph(ROOT, dir);
    expect(graph.edges.size).toBeGreaterThan(50);
    expect(graph.unresolved).toEqual([]);
  });

  it('src-main has none but those being removed, and each of those is still there', () => {
    const known = new Set(KNOWN_CYCLES_BEING_REMOVED.map(key));
    const circles = importCircles(importGraph(ROOT, 'src-main').edges);
    const unexpected = circles.filter((c) => !known.has(key(c.files))).map(named);
    expect(unexpected, 'import circles in src-main').toEqual([]);
    const found = new Set(circles.map((c) => key(c.files)));
    const gone = KNOWN_CYCLES_BEING_REMOVED.filter((files) => !found.has(key(files)));
    expect(gone, 'no longer circles: take them off KNOWN_CYCLES_BEING_REMOVED').toEqual([]);
  });

  it('src-renderer/src has none', () => {
    const circles = importCircles(importGraph(ROOT, 'src-renderer/src').edges);
    expect(circles.map(named), 'import circles in src-renderer/src').toEqual([]);
  });
});

describe('the circle finder', () => {
  it('finds a type-only circle, a circle through a re-export and a dynamic import, and a file importing itself', () => {
    const edges = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
      ['f.ts', ['d.ts']],
    ]);
    expect(importCircles(edges)).toEqual([
      { files: ['a.ts', 'b.ts', 'c.ts'], path: ['a.ts', 'b.ts', 'c.ts', 'a.ts'] },
      { files: ['e.ts'], path: ['e.ts', 'e.ts'] },
    ]);
  });

  it("reads every kind of import of a real file, and a .svelte file's script, but not a comment or a string", () => {
    const dir = tempDir('loket-imports-');
    try {
      const write = (name: string, text: string) => writeFileSync(join(dir.path, 'src', name), text);
      mkdirSync(join(dir.path, 'src', 'sub'), { recursive: true });
      write(
        'a.ts',
        [
          "import type { B } from './b';",
          "export { c } from './c.js';",
          "import './d';",
          "export const later = () => import('./sub');",
          "import View from './view.svelte';",
          "import { z } from 'zod';",
          "// import { no } from './not-a-file';",
          'export const text = "import x from \'./nor-this\'";',
        ].join('\n'),
      );
      for (const name of ['b.ts', 'c.ts', 'd.ts', 'sub/index.ts']) write(name, 'export const x = 1;');
      write('view.svelte', '<script lang="ts">\n  import { text } from \'./a\';\n</script>\n<p>{text}</p>');
      const graph = importGraph(dir.path, 'src');
      expect(graph.unresolved).toEqual([]);
      expect(graph.edges.get('src/a.ts')).toEqual([
        'src/b.ts',
        'src/c.ts',
        'src/d.ts',
        'src/sub/index.ts',
        'src/view.svelte',
      ]);
      expect(importCircles(graph.edges)).toEqual([
        { files: ['src/a.ts', 'src/view.svelte'], path: ['src/a.ts', 'src/view.svelte', 'src/a.ts'] },
      ]);
    } finally {
      dir.remove();
    }
  });

  it('names an import of a file of ours that does not exist, rather than missing its edge', () => {
    const dir = tempDir('loket-imports-');
    try {
      mkdirSync(join(dir.path, 'src'));
      writeFileSync(join(dir.path, 'src', 'a.ts'), "import { gone } from './gone';\nexport const a = gone;");
      expect(importGraph(dir.path, 'src').unresolved).toEqual([{ from: 'src/a.ts', specifier: './gone' }]);
    } finally {
      dir.remove();
    }
  });
});
