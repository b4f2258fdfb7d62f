// The screens link to sections of the docs (common/docs.ts): each topic's section is there, and is read whole —
// from its heading to the next heading of its level, a code block's "#" lines included.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCS_TOPICS } from '../../src-main/common/docs';
import { DOCS_PLACES, readDocsSection } from '../../src-main/core/docs';
import { tempDir } from './helpers/loket';

describe('sections of the docs a screen links to', () => {
  it('every topic is a section of the docs shipped with Loket', () => {
    for (const topic of DOCS_TOPICS) {
      const section = readDocsSection(topic);
      expect(section.file).toBe(`docs/${DOCS_PLACES[topic].file}`);
      expect(section.text.length, topic).toBeGreaterThan(200);
    }
    const keychain = readDocsSection('keychain');
    expect(keychain.heading).toBe('The OS keychain, per system');
    expect(keychain.text).toMatch(/Windows/);
    expect(keychain.text).toMatch(/dbus-run-session/);
    // Ends before the next section.
    expect(keychain.text).not.toMatch(/^## /m);
  });

  it('stops at the next heading of its level, not at a "#" inside a code block; a missing one is an error', () => {
    const dir = tempDir('loket-docs-');
    try {
      writeFileSync(
        join(dir.path, 'settings.md'),
        [
          '# Settings',
          '## The OS keychain, per system',
          'Line one.',
          '```',
          '# not a heading',
          '```',
          '### A subsection',
          'Still in it.',
          '## Next',
          'Not in it.',
        ].join('\n'),
      );
      const section = readDocsSection('keychain', dir.path);
      expect(section.text).toBe('Line one.\n```\n# not a heading\n```\n### A subsection\nStill in it.');
      expect(() => readDocsSection('method-import', dir.path)).toThrow(/no section "Importing payment methods"/);
    } finally {
      dir.remove();
    }
  });
});
