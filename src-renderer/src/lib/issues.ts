import type { FieldIssue } from '../../../src-main/common/order-request';
import type { PaymentMethod } from '../../../src-main/common/payment-methods';
import type { Lang } from '../../../src-main/common/app-info';
import { formatRupiah } from '../../../src-main/common/money';
import type { Messages } from '../i18n/i18n.svelte';

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
 * The issue in the screen's language. The common rules are translated; anything else keeps the server's
 * own message, which always names the field and the rule.
 */
export function translateIssue(issue: FieldIssue, t: Messages, lang: Lang, method?: PaymentMethod): string {
  const label = isFormField(issue.field) ? t.fields[issue.field] : issue.field;
  switch (issue.rule) {
    case 'required':
      if (issue.field === 'amount') return t.issues.amountPositive;
      if (issue.field === 'payment_method') return t.issues.chooseMethod;
      return t.issues.required(label);
    case 'max_length': {
      const max = /at most (\d+)/.exec(issue.message)?.[1];
      return max ? t.issues.tooLong(Number(max)) : issue.message;
    }
    case 'amount_range': {
      const range = /between (\d+) and (\d+)/.exec(issue.message);
      if (range) return t.issues.amountRange(formatRupiah(Number(range[1])), formatRupiah(Number(range[2])));
      return t.issues.amountPositive;
    }
    case 'format':
      return issue.field === 'user_mdn' ? t.issues.phoneFormat : issue.message;
    case 'customer_name_required':
      return t.issues.customerNameRequired(method ? method.label[lang] : label);
    case 'unsupported_method':
      return t.issues.unsupportedMethod;
    default:
      return issue.message;
  }
}
