import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The import graph of a source tree, as the compiler reads it: every `import`, `import type`, `export … from`,
 * side-effect import and dynamic `import()` of every .ts and .svelte file (a .svelte file's <script> blocks), each
 * resolved to a file of the tree. A package's import (no leading dot) is outside the tree and left out.
 */
export interface ImportGraph {
  /** Each file (relative to the repository's root, with forward slashes) to the files of the tree it imports. */
  edges: Map<string, string[]>;
  /** Imports that name a file of the tree that does not exist: the graph would silently miss them. */
  unresolved: { from: string; specifier: string }[];
}

const SOURCE = /\.(ts|svelte)$/;
const SCRIPT = /<script\b[^>]*>([\s\S]*?)<\/script>/g;
/** How a relative specifier may name a file: as written, or without its extension (moduleResolution "bundler"). */
const CANDIDATES = ['', '.ts', '.svelte', '.js', '/index.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return SOURCE.test(name) ? [path] : [];
  });
}

function scriptOf(path: string): string {
  const text = readFileSync(path, 'utf8');
  if (!path.endsWith('.svelte')) return text;
  return [...text.matchAll(SCRIPT)].map((m) => m[1]).join('\n');
}

function specifiersOf(path: string): string[] {
  // preProcessFile reads imports the way the compiler does: not from comments or strings; dynamic imports too.
  return ts.preProcessFile(scriptOf(path), true, true).importedFiles.map((f) => f.fileName);
}

function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  for (const ending of CANDIDATES) {
    const candidate = base + ending;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  // A `.js` written for a `.ts` file (the ES module convention) resolves to the `.ts`.
  const asTs = base.replace(/\.js$/, '.ts');
  return existsSync(asTs) ? asTs : undefined;
}

/** The graph of every source file under `dir`; edges to files outside it (src-main/common from the renderer) stop. */
export function importGraph(root: string, dir: string): ImportGraph {
  const top = resolve(root, dir);
  const name = (path: string) => relative(root, path).split('\\').join('/');
  const edges = new Map<string, string[]>();
  const unresolved: ImportGraph['unresolved'] = [];
  for (const file of sourceFiles(top)) {
    const targets = new Set<string>();
    for (const specifier of specifiersOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveSpecifier(file, specifier);
      if (!target) unresolved.push({ from: name(file), specifier });
      else if (!relative(top, target).startsWith('..')) targets.add(name(target));
    }
    edges.set(name(file), [...targets].sort());
  }
  return { edges, unresolved };
}

/**
 * The graph's circles: each strongly connected set of files (Tarjan's algorithm), as its files sorted, with one
 * path around it to show how the circle closes. A file importing itself is a circle of one.
 */
export function importCircles(edges: Map<string, string[]>): { files: string[]; path: string[] }[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const to of edges.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== file);
    if (members.length > 1 || (edges.get(file) ?? []).includes(file)) circles.push(members.sort());
  };
  for (const file of [...edges.keys()].sort()) if (!index.has(file)) visit(file);
  return circles
    .map((files) => ({ files, path: pathAround(edges, files) }))
    .sort((a, b) => a.files[0]!.localeCompare(b.files[0]!));
}

/** A shortest way from the set's first file back to itself, inside the set (breadth first). */
function pathAround(edges: Map<string, string[]>, files: string[]): string[] {
  const inside = new Set(files);
  const start = files[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const to of edges.get(file) ?? []) {
      if (!inside.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = file; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, file);
        queue.push(to);
      }
    }
  }
  return [start, start];
}
