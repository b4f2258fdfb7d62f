import type { FieldIssue } from '../../../src-main/common/order-request';
import type { PaymentMethod } from '../../../src-main/common/payment-methods';
import type { Lang } from '../../../src-main/common/app-info';
import { formatRupiah } from '../../../src-main/common/money';
import type { Messages } from '../i18n/i18n.svelte';
import type { Shown } from '../state/describe-error';

/** The gateway's field names that have an input on the sale form, in the form's order. */
export const FORM_FIELDS = ['amount', 'item_name', 'payment_method', 'customer_name', 'user_mdn'] as const;
export type FormField = (typeof FORM_FIELDS)[number];

/** The element each field's message belongs to (the method picker's is its radiogroup). */
export const FIELD_ELEMENT_IDS: Readonly<Record<FormField, string>> = {
  amount: 'sale-amount',
  item_name: 'sale-item',
  customer_name: 'sale-customer',
  user_mdn: 'sale-phone',
  payment_method: 'sale-methods',
};

export function isFormField(field: string): field is FormField {
  return (FORM_FIELDS as readonly string[]).includes(field);
}

/**
 * The issue in the screen's language. The common rules are translated; for anything else the field is named
 * in our words, and the server's own message (which names the field and the rule) follows as a detail.
 */
export function translateIssue(issue: FieldIssue, t: Messages, lang: Lang, method?: PaymentMethod): Shown {
  const text = issueText(issue, t, lang, method);
  if (text !== undefined) return { text };
  if (lang === 'en') return { text: issue.message };
  const label = isFormField(issue.field) ? t.fields[issue.field] : issue.field;
  return { text: t.issues.notAccepted(label), detail: issue.message };
}

function issueText(issue: FieldIssue, t: Messages, lang: Lang, method?: PaymentMethod): string | undefined {
  const label = isFormField(issue.field) ? t.fields[issue.field] : issue.field;
  switch (issue.rule) {
    case 'required':
      if (issue.field === 'amount') return t.issues.amountPositive;
      if (issue.field === 'payment_method') return t.issues.chooseMethod;
      return t.issues.required(label);
    case 'max_length': {
      const max = /at most (\d+)/.exec(issue.message)?.[1];
      return max ? t.issues.tooLong(Number(max)) : undefined;
    }
    case 'amount_range': {
      const range = /between (\d+) and (\d+)/.exec(issue.message);
      if (range) return t.issues.amountRange(formatRupiah(Number(range[1])), formatRupiah(Number(range[2])));
      return t.issues.amountPositive;
    }
    case 'format':
      return issue.field === 'user_mdn' ? t.issues.phoneFormat : undefined;
    case 'customer_name_required':
      return t.issues.customerNameRequired(method ? method.label[lang] : label);
    case 'unsupported_method':
      return t.issues.unsupportedMethod;
    default:
      return undefined;
  }
}
