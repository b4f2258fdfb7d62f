import type { CatalogueItem, ChargeInput } from '../../../src-main/common/api';
import type { Order } from '../../../src-main/common/order';
import type { FieldIssue, SEED_LIMITS } from '../../../src-main/common/order-request';
import { asksForPhone } from '../../../src-main/common/payment-instruction';
import type { PaymentMethod } from '../../../src-main/common/payment-methods';
import { readAmount, type AmountRule } from '../lib/amount-input';
import { groupThousands } from '../lib/format';
import { isFormField, type FormField } from '../lib/issues';

/**
 * The gateway's item_name limit (docs/gateway-interface.md). Typed as the contract's literal, so a change there fails to
 * compile here; imported as a type only, which keeps the contract's zod schemas out of the renderer bundle.
 */
export const ITEM_NAME_MAX: (typeof SEED_LIMITS)['item_name'] = 25;

/** Characters as people count them (code points), the way the gateway counts item_name. */
export function charLength(value: string): number {
  return Array.from(value).length;
}

export type KeypadKey = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '000' | 'backspace' | 'clear';

/**
 * What the cashier is typing: the sale before it is charged. The method and the hosted-page choice are bound
 * to their inputs; everything else changes through the methods below, which also clear the field's issue.
 */
export class SaleForm {
  methodId = $state('');
  useHostedPage = $state(false);

  /** What the amount field shows: the amount regrouped (25.000), or the text as typed while it is not one. */
  #amountText = $state('');
  /** The amount's digits ('' for none), or '' while the text is not an amount. */
  #amountDigits = $state('');
  /** Why the text typed is not an amount (amount-input.ts), or null. */
  #amountProblem = $state<AmountRule | null>(null);
  /** The problem is shown: at once for a wrong character, else once the cashier leaves the field or charges. */
  #amountProblemShown = $state(false);
  #itemName = $state('');
  /** Set by a quick item; dropped when the name is edited away from it. */
  #itemId = $state<string | undefined>(undefined);
  #itemIdName: string | undefined;
  #customerName = $state('');
  #phone = $state('');
  /** The gateway's field issues from the last charge, shown next to their fields. */
  #issues = $state.raw<FieldIssue[]>([]);

  readonly amount = $derived(Number(this.#amountDigits || '0'));
  readonly itemLength = $derived(charLength(this.#itemName));
  /** Issues for fields the form has no input for (shown at the top of the form). */
  readonly otherIssues = $derived(this.#issues.filter((i) => !isFormField(i.field)));

  get amountDigits(): string {
    return this.#amountDigits;
  }

  get amountText(): string {
    return this.#amountText;
  }

  /** The rule the amount typed breaks, once it is to be shown; null when it is an amount (or not checked yet). */
  get amountError(): AmountRule | null {
    return this.#amountProblemShown ? this.#amountProblem : null;
  }

  /** The text typed is a whole rupiah amount (or empty): the form may charge it. */
  get amountReadable(): boolean {
    return this.#amountProblem === null;
  }

  get itemName(): string {
    return this.#itemName;
  }

  get itemId(): string | undefined {
    return this.#itemId;
  }

  get customerName(): string {
    return this.#customerName;
  }

  get phone(): string {
    return this.#phone;
  }

  get issues(): readonly FieldIssue[] {
    return this.#issues;
  }

  /**
   * The amount field's text, read strictly (readAmount): an amount is kept and shown regrouped; anything else is
   * kept as typed, with its rule — never turned into another amount.
   */
  setAmountText(text: string, options: { digitsTyped?: boolean } = {}): void {
    // The field shows an amount regrouped (25.000): its dots are the field's own, not the cashier's. Digits typed
    // into it (or a character deleted) leave those dots wherever they fall ("2.5000"); they are set again here.
    const ours = options.digitsTyped && this.#amountProblem === null && this.#amountText !== '';
    const reading = readAmount(ours ? text.replace(/\./g, '') : text);
    this.clearIssue('amount');
    if (reading.kind === 'amount' || reading.kind === 'empty') {
      this.#amountDigits = reading.kind === 'amount' ? reading.digits : '';
      this.#amountText = groupThousands(this.#amountDigits);
      this.#amountProblem = null;
      this.#amountProblemShown = false;
      return;
    }
    this.#amountDigits = '';
    this.#amountText = text;
    this.#amountProblem = reading.kind === 'incomplete' ? 'grouping' : reading.rule;
    this.#amountProblemShown = reading.kind === 'invalid';
  }

  /** The cashier is done with the amount (left the field, or charges): true when it can be charged, else its rule shows. */
  commitAmount(): boolean {
    if (this.#amountProblem !== null) this.#amountProblemShown = true;
    return this.#amountProblem === null;
  }

  /** The keypad types into the amount as the keyboard does: onto the digits, or onto the text while it is not an amount. */
  press(key: KeypadKey): void {
    const base = this.#amountProblem === null ? this.#amountDigits : this.#amountText;
    if (key === 'clear') this.setAmountText('');
    else if (key === 'backspace') this.setAmountText(base.slice(0, -1));
    else this.setAmountText(base + key);
  }

  /** Sets the item name, cut at the gateway's limit; returns the value kept. */
  setItemName(value: string): string {
    const kept = charLength(value) > ITEM_NAME_MAX ? Array.from(value).slice(0, ITEM_NAME_MAX).join('') : value;
    this.#itemName = kept;
    if (this.#itemId !== undefined && kept !== this.#itemIdName) this.#itemId = undefined;
    this.clearIssue('item_name');
    return kept;
  }

  setCustomerName(value: string): void {
    this.#customerName = value;
    this.clearIssue('customer_name');
  }

  setPhone(value: string): void {
    this.#phone = value;
    this.clearIssue('user_mdn');
  }

  pickItem(item: CatalogueItem): void {
    this.setItemName(item.name);
    this.#itemId = item.itemId;
    this.#itemIdName = this.#itemName;
    this.setAmountText(String(item.price));
  }

  /** Keeps the chosen method when it is still offered, else takes the first one. */
  offerMethods(methods: readonly PaymentMethod[]): void {
    if (!methods.some((m) => m.id === this.methodId)) this.methodId = methods[0]?.id ?? '';
  }

  issueFor(field: FormField): FieldIssue | undefined {
    return this.#issues.find((i) => i.field === field);
  }

  showIssues(issues: readonly FieldIssue[]): void {
    this.#issues = [...issues];
  }

  clearIssue(field: string): void {
    if (this.#issues.some((i) => i.field === field)) this.#issues = this.#issues.filter((i) => i.field !== field);
  }

  clearIssues(): void {
    if (this.#issues.length > 0) this.#issues = [];
  }

  /** The order to send; extra fields go along only when the chosen method takes them. */
  toChargeInput(method: PaymentMethod | undefined): ChargeInput {
    const input: ChargeInput = { methodId: this.methodId, amount: this.amount, itemName: this.#itemName.trim() };
    if (this.#itemId) input.itemId = this.#itemId;
    if (method?.requiresCustomerName && this.#customerName.trim()) input.customerName = this.#customerName.trim();
    if (method && asksForPhone(method) && this.#phone.trim()) input.phone = this.#phone.replace(/[\s-]/g, '');
    if (this.useHostedPage) input.api = 'v1';
    return input;
  }

  /**
   * The same sale again (after it expired, failed or was cancelled): its amount, item, customer name and phone,
   * and its method when it is still offered. The V1 choice is made again on purpose, like every sale's.
   */
  fillFrom(order: Order, methods: readonly PaymentMethod[]): void {
    this.reset();
    this.setAmountText(String(order.amount));
    this.#itemName = order.itemName;
    if (order.itemId) {
      this.#itemId = order.itemId;
      this.#itemIdName = order.itemName;
    }
    this.#customerName = order.customerName ?? '';
    this.#phone = order.phone ?? '';
    if (methods.some((m) => m.id === order.methodId)) this.methodId = order.methodId;
  }

  /**
   * A fresh sale; the method stays chosen, as the next customer usually pays the same way. The hosted page
   * (V1) does not: it is chosen for one sale at a time.
   */
  reset(): void {
    this.useHostedPage = false;
    this.setAmountText('');
    this.#itemName = '';
    this.#itemId = undefined;
    this.#itemIdName = undefined;
    this.#customerName = '';
    this.#phone = '';
    this.#issues = [];
  }
}
