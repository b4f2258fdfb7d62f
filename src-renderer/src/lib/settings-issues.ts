import type { Lang } from '../../../src-main/common/app-info';
import type { Messages } from '../i18n/i18n.svelte';
import type { EditorIssue } from '../state/manager-context';

/** A problem as the screen shows it: words in the screen's language, and the server's own words as a detail. */
export interface ShownIssue {
  text: string;
  /** The server's message (English), which names the field and the rule. */
  detail?: string;
}

/**
 * A settings problem in the screen's language. Each field has one rule, so the field names the rule in our
 * words (the server's words, which name it too, follow as a detail on a screen not in English); a field we
 * have no words for shows the server's message.
 */
export function showIssue(issue: EditorIssue, t: Messages, lang: Lang): ShownIssue {
  const rule = (t.rules as Record<string, string | undefined>)[issue.field];
  if (rule) return issue.local || lang === 'en' ? { text: rule } : { text: rule, detail: issue.message };
  if (issue.local || lang === 'en') return { text: issue.message };
  return { text: t.manager.notAccepted, detail: issue.message };
}

/** The server's words of a refusal (open orders, a mismatch), with our heading in the screen's language. */
export function showRefusal(issue: EditorIssue, t: Messages, lang: Lang): ShownIssue {
  return lang === 'en' ? { text: issue.message } : { text: t.manager.notAccepted, detail: issue.message };
}
