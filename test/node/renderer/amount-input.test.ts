// The amount as typed: a whole number of rupiah written as people write one, or refused with its rule — never
// reinterpreted ("1e12" was Rp112 and "12,5" Rp125 when every non-digit was dropped).
import { describe, expect, it } from 'vitest';
import { readAmount } from '../../../src-renderer/src/lib/amount-input';

const amount = (value: number) => ({ kind: 'amount', value, digits: value === 0 ? '' : String(value) });
const invalid = (rule: string) => ({ kind: 'invalid', rule });

describe('readAmount', () => {
  it.each([
    ['25000', 25000],
    ['25.000', 25000],
    ['1.250.000', 1_250_000],
    ['Rp25.000', 25000],
    ['Rp 25.000', 25000],
    ['rp. 25000', 25000],
    ['IDR 25000', 25000],
    ['Rp25.000,-', 25000],
    ['  25000  ', 25000],
    ['025000', 25000],
    ['0', 0],
    ['999999999999', 999_999_999_999],
    ['100.000.000.000.000', 100_000_000_000_000],
  ])('accepts %j as Rp%d', (text, value) => {
    expect(readAmount(text)).toEqual(amount(value));
  });

  it.each([
    ['1e12', 'characters'],
    ['12,5', 'cents'],
    ['25,000', 'cents'],
    ['25.000,00', 'cents'],
    ['12.3456', 'grouping'],
    ['1234.567', 'grouping'],
    ['0.500', 'grouping'],
    ['1..000', 'grouping'],
    ['-5000', 'characters'],
    ['+5000', 'characters'],
    ['25 000', 'characters'],
    ['25rb', 'characters'],
    ['Rp-5.000', 'characters'],
    // Over the most Loket takes (Rp100.000.000.000.000), compared as digits: 2^53 + 1 is not read as …992.
    ['100000000000001', 'too_long'],
    ['9007199254740993', 'too_long'],
    ['9'.repeat(400), 'too_long'],
  ])('refuses %j by the %s rule', (text, rule) => {
    expect(readAmount(text)).toEqual(invalid(rule));
  });

  it('a dot-grouped amount half typed is incomplete (refused only when the cashier is done), not an amount', () => {
    for (const text of ['25.', '25.0', '25.00', '1.250.0', '12.5'])
      expect(readAmount(text), text).toEqual({ kind: 'incomplete' });
  });

  it('nothing, or the currency alone, is empty', () => {
    expect(readAmount('')).toEqual({ kind: 'empty' });
    expect(readAmount('  ')).toEqual({ kind: 'empty' });
    expect(readAmount('Rp')).toEqual({ kind: 'empty' });
  });
});
