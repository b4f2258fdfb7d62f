// @vitest-environment jsdom
// The sale being typed: amounts, the item name limit, quick items, and field issues cleared as fields change.
import { expect, test } from 'vitest';
import type { FieldIssue } from '../../../src-main/common/order-request';
import { SaleForm } from '../../../src-renderer/src/state/sale-form.svelte';
import { METHODS } from './fake-client';

const issue = (field: string): FieldIssue => ({ field, rule: 'required', message: `${field} is required` });

test('the amount takes digits only, from typing and from the keypad', () => {
  const form = new SaleForm();
  form.setAmountText('Rp 25.000');
  expect(form.amount).toBe(25000);
  form.press('backspace');
  form.press('000');
  expect(form.amountDigits).toBe('2500000');
  form.press('clear');
  expect(form.amount).toBe(0);
});

test('the item name stops at 25 characters, counted as people count them', () => {
  const form = new SaleForm();
  expect(form.setItemName('Nasi goreng spesial pakai telur dadar')).toBe('Nasi goreng spesial pakai');
  form.setItemName('☕'.repeat(30));
  expect(form.itemLength).toBe(25);
});

test('a quick item sets name, price and item id; editing the name away from it drops the id', () => {
  const form = new SaleForm();
  form.pickItem({ itemId: 'KOPI', name: 'Kopi susu', price: 18000 });
  expect(form.toChargeInput(METHODS[0])).toEqual({
    methodId: '',
    amount: 18000,
    itemName: 'Kopi susu',
    itemId: 'KOPI',
  });
  form.setItemName('Kopi susu besar');
  expect(form.itemId).toBeUndefined();
});

test('changing a field clears its issue and only its issue', () => {
  const form = new SaleForm();
  form.showIssues([issue('amount'), issue('customer_name'), issue('user_mdn'), issue('signature')]);
  form.setAmountText('5');
  form.setCustomerName('Budi');
  expect(form.issues.map((i) => i.field)).toEqual(['user_mdn', 'signature']);
  form.setPhone('0812');
  expect(form.issueFor('user_mdn')).toBeUndefined();
  expect(form.otherIssues).toEqual([issue('signature')]);
});

test('the method stays chosen while offered, else the first one offered is taken', () => {
  const form = new SaleForm();
  form.offerMethods(METHODS);
  expect(form.methodId).toBe('qris_dynamic');
  form.methodId = 'va_bca';
  form.offerMethods(METHODS);
  expect(form.methodId).toBe('va_bca');
  form.offerMethods([METHODS[0]!]);
  expect(form.methodId).toBe('qris_dynamic');
});
