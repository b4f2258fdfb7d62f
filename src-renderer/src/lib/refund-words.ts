import type { RefundFieldIssue } from '../../../src-main/common/refund-doc';
import type { Messages } from '../i18n/i18n.svelte';

/**
 * A refund's issue in the screen's language, from its rule and params (never the server's English message): a line's
 * quantity over what is left names the line, what is left and what was asked.
 */
export function refundIssueText(issue: RefundFieldIssue, t: Messages): string {
  const rules = t.refund.rules;
  if (issue.rule === 'qty') return rules.qty(issue.params ?? {});
  const text = (rules as Record<string, unknown>)[issue.rule];
  return typeof text === 'string' ? text : rules.other;
}
