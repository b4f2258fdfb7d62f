import type { DocsSection, DocsTopic } from '../../../src-main/common/docs';

/** Reads a section of Loket's docs (the API's docsSection): set once the screen has its client. */
export type DocsSource = (topic: DocsTopic) => Promise<DocsSection>;

let source: DocsSource | null = null;

/** The client's docsSection, for every link to the docs on this screen (browser mode and the desktop app alike). */
export function setDocsSource(next: DocsSource | null): void {
  source = next;
}

export function readDocs(topic: DocsTopic): Promise<DocsSection> {
  return source ? source(topic) : Promise.reject(new Error('no docs source on this screen'));
}
