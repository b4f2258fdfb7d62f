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

test('an amount that is not whole rupiah is kept as typed, shown with its rule, and never charged as another', () => {
  const form = new SaleForm();
  form.setAmountText('1e12');
  expect(form.amountText).toBe('1e12');
  expect(form.amountError).toBe('characters');
  expect(form.amountReadable).toBe(false);
  expect(form.amount).toBe(0);
  form.setAmountText('12,5');
  expect(form.amountError).toBe('cents');
  // Fixed by typing: the message goes, and the amount is regrouped.
  form.press('backspace');
  form.press('backspace');
  expect(form.amountText).toBe('12');
  expect(form.amountError).toBeNull();
  form.press('000');
  expect(form.amountText).toBe('12.000');
  expect(form.amount).toBe(12000);
});

test('digits typed into the regrouped amount go into the amount: the field’s own dots are not the cashier’s', () => {
  const form = new SaleForm();
  for (const key of ['2', '5', '0', '0']) form.setAmountText(form.amountText + key, { digitsTyped: true });
  expect(form.amountText).toBe('2.500');
  // The field shows "2.500"; one more 0 typed at its end reads "2.5000".
  form.setAmountText('2.5000', { digitsTyped: true });
  expect(form.amountText).toBe('25.000');
  expect(form.amountError).toBeNull();
  // A deletion in the middle ("25.00" after deleting a 0) is the same amount less that digit.
  form.setAmountText('25.00', { digitsTyped: true });
  expect(form.amountText).toBe('2.500');
  // A dot the cashier typed is theirs, and read strictly.
  form.setAmountText('2.500.', { digitsTyped: false });
  expect(form.amountReadable).toBe(false);
});

test('a dot-grouped amount half typed shows no message until the cashier leaves the field or charges', () => {
  const form = new SaleForm();
  form.setAmountText('12.5');
  expect(form.amountText).toBe('12.5');
  expect(form.amountError).toBeNull();
  expect(form.amountReadable).toBe(false);
  expect(form.commitAmount()).toBe(false);
  expect(form.amountError).toBe('grouping');
  form.setAmountText('12.500');
  expect(form.amountError).toBeNull();
  expect(form.commitAmount()).toBe(true);
  expect(form.amount).toBe(12500);
});

test('more than Rp100.000.000.000.000 from the keypad is refused, not cut', () => {
  const form = new SaleForm();
  form.setAmountText('100.000.000.000.000');
  form.press('0');
  expect(form.amountError).toBe('too_long');
  expect(form.amountText).toBe('1000000000000000');
  form.press('backspace');
  expect(form.amount).toBe(100_000_000_000_000);
});

test('an SMS reply without a short code sends the phone the SMS goes to; one with a short code sends none', () => {
  const form = new SaleForm();
  form.setPhone('0817-9876-5432');
  const xl = { ...METHODS[0]!, id: 'airtime_xl', kind: 'airtime_sms' as const, hasShortCode: false };
  form.methodId = xl.id;
  expect(form.toChargeInput(xl).phone).toBe('081798765432');
  expect(form.toChargeInput({ ...xl, hasShortCode: true }).phone).toBeUndefined();
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
