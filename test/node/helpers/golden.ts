/**
 * Golden files of ESC/POS bytes: test/node/golden/<name>.bin (the exact bytes) and <name>.txt (a readable dump
 * for review). `UPDATE_GOLDEN=1 npx vitest run --config test/vitest.config.ts <test>` writes them; any other run
 * only compares, and fails when a file differs or is missing. (The receipt's own test keeps its copy of these.)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const GOLDEN_DIR = join(import.meta.dirname, '..', 'golden');
export const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === '1';

const ESC = 0x1b;
const GS = 0x1d;

/** A readable dump of ESC/POS bytes: the commands the renderers use as <tags>, text as text. */
export function describeEscPos(bytes: Buffer): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    const n = bytes[i + 2] ?? 0;
    const cmd = (name: string) => {
      out += `<${name}>`;
      i += 2;
    };
    if (b === ESC && bytes[i + 1] === 0x40) {
      out += '<init>';
      i += 1;
    } else if (b === ESC && bytes[i + 1] === 0x74) cmd(`codepage ${n}`);
    else if (b === ESC && bytes[i + 1] === 0x61) cmd(`align ${['left', 'center', 'right'][n] ?? n}`);
    else if (b === ESC && bytes[i + 1] === 0x21)
      cmd(`size ${{ 0: 'normal', 16: 'tall', 32: 'wide', 48: 'big' }[n] ?? n}`);
    else if (b === ESC && bytes[i + 1] === 0x45) cmd(`bold ${n ? 'on' : 'off'}`);
    else if (b === GS && bytes[i + 1] === 0x42) cmd(`invert ${n ? 'on' : 'off'}`);
    else if (b === ESC && bytes[i + 1] === 0x64) cmd(`feed ${n}`);
    else if (b === GS && bytes[i + 1] === 0x56) cmd(`cut ${n}`);
    else if (b === 0x0a) out += '\n';
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `<${b.toString(16).padStart(2, '0')}>`;
  }
  return out.endsWith('\n') ? out : `${out}\n`;
}

/** The printed lines, each with the columns it takes (double-width text takes two per character). */
export function printedLines(bytes: Buffer): { text: string; columns: number }[] {
  const lines: { text: string; columns: number }[] = [];
  let text = '';
  let columns = 0;
  let wide = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    if (b === ESC && bytes[i + 1] === 0x40) {
      wide = false;
      i += 1;
    } else if (b === ESC || b === GS) {
      if (b === ESC && bytes[i + 1] === 0x21) wide = ((bytes[i + 2] ?? 0) & 0x20) !== 0;
      i += 2;
    } else if (b === 0x0a) {
      lines.push({ text, columns });
      text = '';
      columns = 0;
    } else {
      text += String.fromCharCode(b);
      columns += wide ? 2 : 1;
    }
  }
  return lines;
}

function firstDifference(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

/** Compares with (or, when `update`, writes) `<dir>/<name>.bin` and its readable `.txt`. Never creates a file otherwise. */
export function checkGolden(dir: string, name: string, actual: Buffer, update = UPDATE_GOLDEN): void {
  const bin = join(dir, `${name}.bin`);
  const txt = join(dir, `${name}.txt`);
  const shown = relative(process.cwd(), bin);
  if (update) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(bin, actual);
    writeFileSync(txt, describeEscPos(actual));
    return;
  }
  if (!existsSync(bin)) {
    throw new Error(`golden file ${shown} is missing: write it with UPDATE_GOLDEN=1 and review it before committing`);
  }
  const expected = readFileSync(bin);
  if (!expected.equals(actual)) {
    const at = firstDifference(expected, actual);
    throw new Error(
      `${shown} differs from the rendered bytes at byte ${at} (golden ${expected.length} bytes, rendered ${actual.length}).\n` +
        `golden:\n${describeEscPos(expected)}\nrendered:\n${describeEscPos(actual)}\n` +
        'If the change is intended, run with UPDATE_GOLDEN=1 and review the diff of the .txt.',
    );
  }
  if (!existsSync(txt) || readFileSync(txt, 'utf8') !== describeEscPos(actual)) {
    throw new Error(`${relative(process.cwd(), txt)} is missing or stale: run with UPDATE_GOLDEN=1`);
  }
}

/**
 * Compares a text rendering (an HTML document) with (or, when `update`, writes) `<dir>/<name>`, the file name with
 * its extension. Never creates a file otherwise.
 */
export function checkGoldenText(dir: string, name: string, actual: string, update = UPDATE_GOLDEN): void {
  const file = join(dir, name);
  const shown = relative(process.cwd(), file);
  if (update) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) {
    throw new Error(`golden file ${shown} is missing: write it with UPDATE_GOLDEN=1 and review it before committing`);
  }
  const expected = readFileSync(file, 'utf8');
  if (expected !== actual) {
    const lines = expected.split('\n');
    const at = actual.split('\n').findIndex((line, i) => line !== lines[i]);
    throw new Error(
      `${shown} differs from the rendering at line ${at + 1}:\n` +
        `golden:   ${lines[at] ?? '(end of file)'}\nrendered: ${actual.split('\n')[at] ?? '(end of file)'}\n` +
        'If the change is intended, run with UPDATE_GOLDEN=1 and review the diff.',
    );
  }
}
