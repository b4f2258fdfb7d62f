// A person's bad input at the command line (docs/cli.md): every amount typed is judged as digits against its field's
// range (common/whole-rupiah.ts), so the refusal names the flag, the rule and both its numbers and echoes exactly what
// was typed — 9007199254740993 (2^53 + 1) stays …993, never the …992 a JavaScript number makes of it; a quantity
// beyond 9999 is the quantity's rule, not "no active product"; a free line's name with a right-to-left override or a
// zero-width character is refused as an item name is. The real CLI in a child process, on a real data folder.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { parseDiscount, parseFreeLine, parseLine, parsePay } from '../../src-main/cli/sale-commands';
import { UsageError } from '../../src-main/cli/exit-codes';
import { readWholeRupiah, shownAmount } from '../../src-main/common/whole-rupiah';
import { runCli } from './helpers/cli-child';
import { tempDir } from './helpers/loket';

const dir = tempDir('loket-cli-input-');
afterAll(() => dir.remove());

function env(): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('LOKET_')) base[name] = value;
  return { ...base, LOKET_DATA_DIR: join(dir.path, 'data') };
}

const TWO_53_PLUS_1 = '9007199254740993';

describe('one rule for a typed amount: digits, from MIN to MAX, compared as digits', () => {
  const range = { min: 1, max: 100_000_000_000_000 };

  it('takes the ends, leading zeros and all; refuses one past either end and anything not digits', () => {
    expect(readWholeRupiah('1', range)).toEqual({ ok: true, value: 1 });
    expect(readWholeRupiah('100000000000000', range)).toEqual({ ok: true, value: 100_000_000_000_000 });
    expect(readWholeRupiah('000025000', range)).toEqual({ ok: true, value: 25_000 });
    const refused = {
      ok: false,
      rule: 'a whole number of rupiah from 1 to 100000000000000',
      params: { min: 1, max: 100_000_000_000_000 },
    };
    for (const text of ['0', '00', '100000000000001', TWO_53_PLUS_1, '1'.repeat(400), '', '12.5', '-1', '1e3', ' 5'])
      expect(readWholeRupiah(text, range), text).toEqual(refused);
  });

  it('echoes text as typed, and a number beyond 2^53 as too large to be exact (it is no longer what was sent)', () => {
    expect(shownAmount(TWO_53_PLUS_1)).toBe(`"${TWO_53_PLUS_1}"`);
    expect(shownAmount(Number(TWO_53_PLUS_1))).toBe('a number too large to be exact');
    expect(shownAmount(Number.MAX_SAFE_INTEGER)).toBe('9007199254740991');
    expect(shownAmount(12.5)).toBe('12.5');
  });
});

describe("sale's flags: --line, --pay, --discount", () => {
  const usage = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      return (err as Error).message;
    }
    throw new Error('not refused');
  };

  it('CODE*10000 is the quantity rule with its numbers, not a code to look up; CODE*9999 and CODE*0009 are quantities', () => {
    expect(usage(() => parseLine('KOPI-SUSU*10000', 0))).toBe(
      '--line #1: QTY: a whole number from 1 to 9999 (got 10000)',
    );
    expect(usage(() => parseLine('KOPI-SUSU*0', 2))).toBe('--line #3: QTY: a whole number from 1 to 9999 (got 0)');
    expect(usage(() => parseLine(`KOPI-SUSU*${TWO_53_PLUS_1}`, 0))).toContain(`(got ${TWO_53_PLUS_1})`);
    expect(parseLine('KOPI-SUSU*9999', 0)).toEqual({ code: 'KOPI-SUSU', qty: 9999 });
    expect(parseLine('KOPI-SUSU*0009', 0)).toEqual({ code: 'KOPI-SUSU', qty: 9 });
    expect(parseLine('8991234567895', 0)).toEqual({ code: '8991234567895', qty: 1 });
  });

  it('free:NAME=PRICE: the price from 0 to 10000000000 as typed; the name as a cart line’s, hidden characters named', () => {
    expect(usage(() => parseLine('free:Es batu=10000000001', 0))).toBe(
      '--line #1: PRICE: a whole number of rupiah from 0 to 10000000000 (got "10000000001")',
    );
    expect(usage(() => parseLine(`free:Es batu=${TWO_53_PLUS_1}*2`, 1))).toBe(
      `--line #2: PRICE: a whole number of rupiah from 0 to 10000000000 (got "${TWO_53_PLUS_1}")`,
    );
    expect(usage(() => parseFreeLine('free:Es batu=12.5', 0))).toContain('(got "12.5")');
    for (const [char, code] of [
      ['\u202e', 'U+202E'],
      ['\u200b', 'U+200B'],
      ['\u2067', 'U+2067'],
    ])
      expect(usage(() => parseLine(`free:Kopi${char}gnp.exe=1000`, 0))).toBe(
        '--line #1: NAME: 1 to 80 characters, without control, invisible or text-direction characters: ' +
          `it contains invisible or text-direction characters (found ${code})`,
      );
    expect(parseLine('free: Es batu =00002000*3', 0)).toEqual({
      code: 'free:Es batu=2000',
      qty: 3,
      free: { name: 'Es batu', unitPrice: 2000 },
    });
  });

  it('--pay: cash from 0, other and a method from 1, both to 100000000000000, echoed as typed', () => {
    expect(usage(() => parsePay(`cash:${TWO_53_PLUS_1}`, 0))).toBe(
      `--pay #1: AMOUNT: a whole number of rupiah from 0 to 100000000000000 (got "${TWO_53_PLUS_1}")`,
    );
    expect(usage(() => parsePay('other:100000000000001:SLIP-1', 1))).toBe(
      '--pay #2: AMOUNT: a whole number of rupiah from 1 to 100000000000000 (got "100000000000001")',
    );
    expect(usage(() => parsePay('qris_dynamic:0', 0))).toBe(
      '--pay #1: AMOUNT: a whole number of rupiah from 1 to 100000000000000 (got "0")',
    );
    expect(parsePay('cash:100000000000000', 0)).toEqual({ kind: 'cash', handed: 100_000_000_000_000 });
    expect(parsePay('other:5000:SLIP:7', 0)).toEqual({ kind: 'other', amount: 5000, reference: 'SLIP:7' });
  });

  it('--discount: an amount from 0 to 100000000000000 as typed, or a percentage', () => {
    expect(usage(() => parseDiscount(TWO_53_PLUS_1))).toBe(
      `--discount: a whole number of rupiah from 0 to 100000000000000 (got "${TWO_53_PLUS_1}")`,
    );
    expect(usage(() => parseDiscount('5.000'))).toMatch(
      /^--discount: a whole number of rupiah from 0 to 100000000000000 \(5000\) or a percentage/,
    );
    expect(parseDiscount('5000')).toEqual({ kind: 'amount', value: 5000 });
    expect(parseDiscount('12.5%')).toEqual({ kind: 'percent', valueBp: 1250 });
  });
});

describe('the real CLI: exit 2, the flag, the rule and its numbers, the text as typed; nothing written', () => {
  it.each([
    [
      ['order', 'create', '--method', 'qris_dynamic', '--amount', TWO_53_PLUS_1, '--item', 'Kopi'],
      `--amount: a whole number of rupiah from 1 to 100000000000000 (got "${TWO_53_PLUS_1}")`,
    ],
    [
      ['order', 'create', '--method', 'qris_dynamic', '--amount', '10000001', '--item', 'Kopi'],
      'amount: must be between 1 and 10000000 rupiah for qris_dynamic (got 10000001) (check --amount)',
    ],
    [
      ['sale', '--line', 'KOPI-SUSU*10000', '--pay', 'cash:50000'],
      '--line #1: QTY: a whole number from 1 to 9999 (got 10000)',
    ],
    [
      ['sale', '--line', 'KOPI-SUSU', '--pay', `cash:${TWO_53_PLUS_1}`],
      `--pay #1: AMOUNT: a whole number of rupiah from 0 to 100000000000000 (got "${TWO_53_PLUS_1}")`,
    ],
    [
      ['sale', '--line', 'free:Kopi\u202egnp.exe=1000', '--pay', 'cash:1000'],
      '--line #1: NAME: 1 to 80 characters, without control, invisible or text-direction characters: ' +
        'it contains invisible or text-direction characters (found U+202E)',
    ],
    [
      ['shift', 'open', '--float', TWO_53_PLUS_1],
      `--float: a whole number of rupiah from 0 to 100000000000000 (got "${TWO_53_PLUS_1}")`,
    ],
    [
      ['shift', 'pay-out', '--amount', '100000000000001', '--reason', 'setor bank'],
      '--amount: a whole number of rupiah from 1 to 100000000000000 (got "100000000000001")',
    ],
    [
      ['shift', 'close', '--counted', TWO_53_PLUS_1],
      `--counted: a whole number of rupiah from 0 to 100000000000000 (got "${TWO_53_PLUS_1}")`,
    ],
  ])('%j', { timeout: 60_000 }, async (args, words) => {
    const r = await runCli(args, { env: env() });
    expect(r.stderr).toContain(words);
    expect(r.stderr).not.toContain('9007199254740992');
    expect(r.stderr).not.toMatch(/no active product/);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});
