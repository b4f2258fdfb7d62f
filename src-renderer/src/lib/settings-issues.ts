import type { Lang } from '../../../src-main/common/app-info';
import type { RuleParams } from '../../../src-main/common/reasons';
import type { Messages } from '../i18n/i18n.svelte';
import type { EditorIssue } from '../state/manager-context';
import { sayReason } from './say';

/** A problem as the screen shows it: words in the screen's language. */
export interface ShownIssue {
  text: string;
  /** A second, smaller line: a third party's own words (never Loket's English). */
  detail?: string;
}

/** A field's rule in words: a sentence, or one made from the rule's numbers (RuleParams) when the server gave them. */
export type RuleWords = string | ((params: RuleParams) => string);

/**
 * A settings problem in the screen's language, from what the server said as data: the field's rule (t.rules, made
 * with the rule's numbers where it has some), else the refusal's reason; a field and a rule we have no words for
 * are "not accepted" — never the server's English.
 */
export function showIssue(issue: EditorIssue, t: Messages, lang: Lang): ShownIssue {
  const rule = (t.rules as Record<string, RuleWords | undefined>)[issue.field];
  if (rule !== undefined) return { text: typeof rule === 'function' ? rule(issue.params ?? {}) : rule };
  return showRefusal(issue, t, lang);
}

/** A refusal that is not one field's rule (open orders, the switch to live), from its reason. */
export function showRefusal(issue: EditorIssue, t: Messages, lang: Lang): ShownIssue {
  if (issue.reason) return { text: sayReason(issue.reason, t, { lang }) };
  if (issue.local) return { text: issue.message };
  return { text: t.manager.notAccepted };
}
