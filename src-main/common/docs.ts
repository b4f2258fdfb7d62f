/**
 * Sections of Loket's own documentation (docs/*.md) that a screen links to: the screen shows the section itself,
 * read from the docs shipped with Loket, in browser mode and in the desktop app alike — no network, no browser
 * window of its own (docs/settings.md, "The OS keychain, per system").
 */
export const DOCS_TOPICS = ['keychain', 'method-import'] as const;
export type DocsTopic = (typeof DOCS_TOPICS)[number];

export interface DocsSection {
  /** Where it is, for people: "docs/settings.md". */
  file: string;
  heading: string;
  /** The section as written (Markdown), under its heading. */
  text: string;
}
