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
 * The issue in the screen's language, from its rule and the rule's numbers (`params`), never from the server's
 * English; a rule we have no words for names the field in ours ("Item name was not accepted").
 */
export function translateIssue(issue: FieldIssue, t: Messages, lang: Lang, method?: PaymentMethod): Shown {
  const label = isFormField(issue.field) ? t.fields[issue.field] : issue.field;
  return { text: issueText(issue, t, lang, method) ?? t.issues.notAccepted(label) };
}

function issueText(issue: FieldIssue, t: Messages, lang: Lang, method?: PaymentMethod): string | undefined {
  const label = isFormField(issue.field) ? t.fields[issue.field] : issue.field;
  const params = issue.params ?? {};
  switch (issue.rule) {
    case 'required':
      if (issue.field === 'amount') return t.issues.amountPositive;
      if (issue.field === 'payment_method') return t.issues.chooseMethod;
      return t.issues.required(label);
    case 'max_length':
      return params.max === undefined ? undefined : t.issues.tooLong(params.max);
    case 'amount_range':
      if (params.min !== undefined && params.max !== undefined)
        return t.issues.amountRange(formatRupiah(params.min), formatRupiah(params.max));
      return t.issues.amountPositive;
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
