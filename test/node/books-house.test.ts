// The books' folders keep the house rules (docs/architecture.md): no import circle through core/reports or core/export
// (type-only imports count: a circle of types still ties the modules together), and no source file there over 650
// lines. The imports are read from the files themselves (import, export … from, import(), require()), every file of
// src-main, so a circle that leaves the folders and comes back is found too. And one CSV writer (csv-writer.ts): the
// orders', the tables' and the catalogue's files were written by three (two through csv-stringify).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src-main');
const FOLDERS = ['src-main/core/reports/', 'src-main/core/export/'];
const MAX_LINES = 650;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const SPECIFIER =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]/g;

/** The files of src-main `file` imports (relative specifiers, resolved as TypeScript resolves them). */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (!spec.startsWith('.')) continue;
    const base = resolve(dirname(file), spec);
    const target = [base, `${base}.ts`, join(base, 'index.ts')].find((p) => known.has(p));
    if (target) found.push(target);
  }
  return found;
}

/** The strongly connected components of more than one file (or a file importing itself): Tarjan's algorithm. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(part);
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return found;
}

const files = sources(SRC);
const known = new Set(files);
const graph = new Map(files.map((f) => [f, importsOf(f, known)]));
const rel = (f: string) => relative(ROOT, f);

describe("the books' folders keep the house rules", () => {
  it('the import reader sees the imports it must (type-only ones too)', () => {
    // A check of the checker: report-model imports its sections, and sales-figures its type (an import type).
    const model = graph.get(join(SRC, 'core/reports/report-model.ts'))!.map(rel);
    expect(model).toContain('src-main/core/reports/sales-section.ts');
    expect(graph.get(join(SRC, 'core/reports/sales-figures.ts'))!.map(rel)).toContain('src-main/common/reports.ts');
    // And it finds a circle when there is one.
    const made = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(circles(made).map((c) => c.sort())).toEqual([['a', 'b', 'c']]);
  });

  it('no import circle passes through core/reports or core/export', () => {
    const ours = circles(graph)
      .map((c) => c.map(rel).sort())
      .filter((c) => c.some((f) => FOLDERS.some((folder) => f.startsWith(folder))));
    expect(ours).toEqual([]);
  });

  it(`no source file of theirs is over ${MAX_LINES} lines`, () => {
    const long = files
      .filter((f) => FOLDERS.some((folder) => rel(f).startsWith(folder)))
      .map((f) => [rel(f), readFileSync(f, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it('one CSV writer: no file of src-main but csv-writer.ts formats CSV, none imports csv-stringify', () => {
    const writers = files.filter((f) => /csv-stringify|RECORD_END\s*=/.test(readFileSync(f, 'utf8'))).map(rel);
    expect(writers).toEqual(['src-main/core/export/csv-writer.ts']);
  });
});
