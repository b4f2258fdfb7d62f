import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ITEM_NAME_MAX,
  cleanItemName,
  cutToGraphemes,
  gatewayItemId,
  gatewayItemName,
} from '../../src-main/common/item-name';
import { validateOrderRequest } from '../../src-main/common/order-request';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { propertyParams } from './helpers/property';

const codePoints = (s: string) => [...s].length;
const names = (...n: string[]) => n.map((name) => ({ name }));
function itemName(...n: string[]): string {
  const r = gatewayItemName(names(...n));
  if (!r.ok) throw new Error(r.issue.message);
  return r.itemName;
}
const graphemes = (s: string) =>
  [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].map((g) => g.segment);

describe('gatewayItemName', () => {
  it('is the first name plus " +N" for the other lines', () => {
    expect(itemName('Kopi susu')).toBe('Kopi susu');
    expect(itemName('Kopi susu', 'Es teh')).toBe('Kopi susu +1');
    expect(itemName('Kopi susu', 'Es teh', 'Roti', 'Gula')).toBe('Kopi susu +3');
  });

  it('keeps a name of exactly 25 characters, and cuts one of 26', () => {
    const a25 = 'Beras premium 5 kg isi 25';
    expect(codePoints(a25)).toBe(25);
    expect(itemName(a25)).toBe(a25);
    expect(itemName(`${a25}X`)).toBe(a25);
    // with " +1" the room is 22
    expect(itemName(a25, 'x')).toBe('Beras premium 5 kg isi +1');
    expect(codePoints(itemName(a25, 'x'))).toBe(25);
    const a22 = 'Nasi goreng spesial 22';
    expect(itemName(a22, 'x')).toBe(`${a22} +1`);
    expect(itemName(`${a22}!`, 'x')).toBe(`${a22} +1`);
  });

  it('does not leave a space before " +N" where the cut falls after one', () => {
    expect(itemName('Nasi goreng spesial pakai telur', 'x', 'y')).toBe('Nasi goreng spesial pa +2');
    expect(itemName('Nasi goreng spesial     x', 'y')).toBe('Nasi goreng spesial x +1');
    expect(itemName('Aaaaaaaaaaaaaaaaaaaaaa Bbbbbb', 'x')).toBe('Aaaaaaaaaaaaaaaaaaaaaa +1');
  });

  it('never cuts an emoji with a skin tone, a ZWJ sequence or a flag', () => {
    const coder = '👩🏽‍💻'; // woman technologist, medium skin tone: 4 code points
    const family = '👨‍👩‍👧‍👦'; // 7 code points
    const flag = '🇮🇩';
    expect(codePoints(coder)).toBe(4);
    // 20 letters + coder = 24: fits with no other line; with " +1" (room 22) the emoji goes whole.
    const name = `${'a'.repeat(20)}${coder}`;
    expect(itemName(name)).toBe(name);
    expect(itemName(name, 'x')).toBe(`${'a'.repeat(20)} +1`);
    expect(itemName(`${'a'.repeat(19)}${family}`)).toBe('a'.repeat(19)); // 19 + 7 = 26: the family does not fit
    expect(itemName(`${'a'.repeat(18)}${family}`)).toBe(`${'a'.repeat(18)}${family}`); // exactly 25
    expect(itemName(`${'a'.repeat(22)}${flag}`, 'x', 'y')).toBe(`${'a'.repeat(22)} +2`); // the flag's 2 code points do not fit
    expect(itemName(`Kopi ${flag}${flag}${flag}${flag}${flag}${flag}${flag}${flag}${flag}${flag}`, 'x')).toBe(
      `Kopi ${flag.repeat(8)} +1`,
    );
  });

  it('never cuts a letter from its combining accent', () => {
    const e = 'e\u0301'; // é written as e + combining acute: 2 code points, one character
    const name = `Cafe${e} ${'x'.repeat(18)}`; // 4 + 2 + 1 + 18 = 25
    expect(codePoints(name)).toBe(25);
    expect(itemName(name)).toBe(name);
    // room 22: "Cafe" + é would end at 6; cut later, but a name whose 22nd code point is the accent keeps both or neither
    const tight = `${'x'.repeat(21)}${e}yz`; // the é takes code points 22 and 23
    expect(itemName(tight, 'x')).toBe(`${'x'.repeat(21)} +1`);
    expect(itemName(`${'x'.repeat(20)}${e}yz`, 'x')).toBe(`${'x'.repeat(20)}${e} +1`);
  });

  it('counts CJK and precomposed letters as one each', () => {
    const cjk = '珍珠奶茶大杯少冰半糖加椰果和布丁还有仙草冻以及红豆沙';
    expect(codePoints(cjk)).toBe(26);
    expect(itemName(cjk)).toBe(cjk.slice(0, 25));
    expect(itemName(cjk, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j')).toBe(`${cjk.slice(0, 21)} +10`);
    expect(itemName('Crème brûlée', 'x')).toBe('Crème brûlée +1');
  });

  it('turns tabs, new lines and runs of spaces into one space, and drops a broken half', () => {
    expect(cleanItemName('  Kopi\tsusu\n\n dingin ')).toBe('Kopi susu dingin');
    expect(cleanItemName('Kopi \ud83d susu')).toBe('Kopi susu');
    expect(itemName('Kopi\u0007susu')).toBe('Kopi susu');
  });

  it('gives an issue for no lines, an empty name, and a first character too long to send', () => {
    expect(gatewayItemName([])).toEqual({
      ok: false,
      issue: { field: 'lines', rule: 'no_lines', message: 'lines: a sale needs a line' },
    });
    expect(gatewayItemName(names(' \t '))).toEqual({
      ok: false,
      issue: { field: 'lines[0].name', rule: 'empty_name', message: 'line 1, name: must not be empty' },
    });
    const zalgo = `Z${'\u0301'.repeat(30)}ebra`;
    expect(gatewayItemName(names(zalgo))).toMatchObject({
      ok: false,
      issue: { field: 'lines[0].name', rule: 'unsendable_name' },
    });
  });

  it('always fits the gateway, never splits a grapheme, and is accepted by the order validator (property)', () => {
    const methods = loadPaymentCatalogue();
    const pieces = fc.constantFrom(
      'Kopi',
      ' ',
      'é',
      'e\u0301',
      '👩🏽‍💻',
      '👨‍👩‍👧‍👦',
      '🇮🇩',
      '珍珠',
      'ñ',
      '\t',
      'a',
      '1',
      '👍🏿',
      'ก้',
      '\u200d',
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 120 }),
        (parts, others) => {
          const first = parts.join('');
          const r = gatewayItemName(names(first, ...Array.from({ length: others }, () => 'x')));
          const suffix = others > 0 ? ` +${others}` : '';
          if (!r.ok) {
            // Only an empty name, or a first grapheme (ZWJ can join the pieces into one) longer than the room.
            const firstGrapheme = graphemes(cleanItemName(first))[0];
            if (firstGrapheme === undefined) expect(r.issue.rule).toBe('empty_name');
            else {
              expect(r.issue.rule).toBe('unsendable_name');
              expect(codePoints(firstGrapheme)).toBeGreaterThan(ITEM_NAME_MAX - codePoints(suffix));
            }
            return;
          }
          expect(codePoints(r.itemName)).toBeLessThanOrEqual(ITEM_NAME_MAX);
          expect(r.itemName.endsWith(suffix)).toBe(true);
          const namePart = r.itemName.slice(0, r.itemName.length - suffix.length);
          // The name part is a run of whole graphemes from the start of the cleaned name.
          const g = graphemes(cleanItemName(first));
          const mine = graphemes(namePart);
          expect(mine).toEqual(g.slice(0, mine.length));
          expect(namePart).toBe(namePart.trim());
          const v = validateOrderRequest(
            {
              item_name: r.itemName,
              amount: 1000,
              user_id: 'u',
              merchant_transaction_id: 'T1',
              payment_method: 'qris_dynamic',
            },
            methods,
          );
          expect(v.ok ? [] : v.issues.filter((i) => i.field === 'item_name')).toEqual([]);
        },
      ),
      propertyParams(1000),
    );
  });
});

describe('cutToGraphemes', () => {
  it('takes whole graphemes up to the room in code points', () => {
    expect(cutToGraphemes('ab👩🏽‍💻c', 5)).toBe('ab');
    expect(cutToGraphemes('ab👩🏽‍💻c', 6)).toBe('ab👩🏽‍💻');
    expect(cutToGraphemes('', 3)).toBe('');
  });
});

describe('gatewayItemId', () => {
  const pulsa = { qty: 1, fixedDenomination: { itemId: 'PULSA-50' } };
  it('is the itemId of one fixed-denomination line of quantity 1, paid whole by the tender', () => {
    expect(gatewayItemId([pulsa], 51_500, 51_500)).toBe('PULSA-50');
  });
  it('is absent for two lines, a quantity of 2, a part payment, or an ordinary product', () => {
    expect(gatewayItemId([pulsa, pulsa], 103_000, 103_000)).toBeUndefined();
    expect(gatewayItemId([{ ...pulsa, qty: 2 }], 103_000, 103_000)).toBeUndefined();
    expect(gatewayItemId([pulsa], 50_000, 51_500)).toBeUndefined();
    expect(gatewayItemId([{ qty: 1 }], 18_000, 18_000)).toBeUndefined();
    expect(gatewayItemId([], 0, 0)).toBeUndefined();
  });
});
