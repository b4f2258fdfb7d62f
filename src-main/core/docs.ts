import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocsSection, DocsTopic } from '../common/docs';

/** The docs shipped with Loket: docs/ beside src-main in the sources, beside out/ in a build and in the app. */
export const DOCS_DIR = fileURLToPath(new URL('../../docs', import.meta.url));

/** Where each topic is: a file of docs/ and the heading of its section. */
export const DOCS_PLACES: Readonly<Record<DocsTopic, { file: string; heading: string }>> = {
  keychain: { file: 'settings.md', heading: 'The OS keychain, per system' },
  'method-import': { file: 'settings.md', heading: 'Importing payment methods' },
};

/**
 * One section of the docs: from its heading to the next heading of the same level or above. Throws when the file
 * or the heading is gone (a test keeps every topic's section there).
 */
export function readDocsSection(topic: DocsTopic, dir: string = DOCS_DIR): DocsSection {
  const place = DOCS_PLACES[topic];
  const lines = readFileSync(join(dir, place.file), 'utf8').split(/\r?\n/);
  const start = lines.findIndex((l) => /^#{1,6} /.test(l) && l.replace(/^#+ /, '').trim() === place.heading);
  if (start < 0) throw new Error(`docs/${place.file} has no section "${place.heading}"`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  let end = start + 1;
  let fenced = false;
  for (; end < lines.length; end++) {
    const line = lines[end]!;
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^(#{1,6}) /.exec(line);
    if (heading && heading[1]!.length <= level) break;
  }
  return {
    file: `docs/${place.file}`,
    heading: place.heading,
    text: lines
      .slice(start + 1, end)
      .join('\n')
      .trim(),
  };
}
