import type { SaleFieldIssue } from '../../../src-main/common/sale';
import type { Messages } from '../i18n/i18n.svelte';

/** A cart issue in the screen's language, from its rule (never the server's English). */
export function cartIssueText(issue: SaleFieldIssue, t: Messages): string {
  const rules = t.cart.rules as Record<string, string>;
  return rules[issue.rule] ?? t.cart.rules.other;
}

/** The cart line a field path names (`lines[3].qty` → 3), or undefined for the sale's own fields. */
export function lineIndexOf(field: string): number | undefined {
  const match = /^lines\[(\d+)\]/.exec(field);
  return match ? Number(match[1]) : undefined;
}
