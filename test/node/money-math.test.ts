import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allocateLargestRemainder, mulDivFloor, mulDivHalfUp, sumExact } from '../../src-main/common/money-math';
import { propertyParams } from './helpers/property';

// A reference written only with BigInt, to check both paths of the helpers (the number fast path and BigInt).
function refHalfUp(a: number, b: number, c: number): bigint {
  const p = BigInt(a) * BigInt(b);
  return (2n * p + BigInt(c)) / (2n * BigInt(c));
}
const safe = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
const small = fc.integer({ min: 0, max: 1_000_000_000 });

describe('mulDivHalfUp and mulDivFloor', () => {
  it('round half up, and floor', () => {
    expect(mulDivHalfUp(111_000, 13_200, 133_200)).toBe(11_000);
    expect(mulDivHalfUp(100_000, 11, 12)).toBe(91_667); // 91 666.67
    expect(mulDivHalfUp(15, 1, 2)).toBe(8); // 7.5 goes up
    expect(mulDivHalfUp(5, 1, 2)).toBe(3); // 2.5 goes up, not to even
    expect(mulDivHalfUp(7, 1, 3)).toBe(2); // 2.33
    expect(mulDivHalfUp(0, 5, 7)).toBe(0);
    expect(mulDivFloor(15, 1, 2)).toBe(7);
    expect(mulDivFloor(100_000, 11, 12)).toBe(91_666);
  });

  it('stay exact where a*b passes 2^53', () => {
    // 9,007,199,254,740,991 × 3 / 7: a float would lose the last digits.
    expect(mulDivFloor(Number.MAX_SAFE_INTEGER, 3, 7)).toBe(Number(((2n ** 53n - 1n) * 3n) / 7n));
    expect(mulDivHalfUp(Number.MAX_SAFE_INTEGER, 10_000, 10_001)).toBe(
      Number(refHalfUp(Number.MAX_SAFE_INTEGER, 10_000, 10_001)),
    );
    // 10^13 × 13200 is 1.32e17: the BigInt path.
    expect(mulDivHalfUp(10_000_000_000_000, 13_200, 133_200)).toBe(990_990_990_991);
  });

  it('refuse a result past 2^53 rather than lose units', () => {
    expect(() => mulDivHalfUp(Number.MAX_SAFE_INTEGER, 2, 1)).toThrow(/mulDivHalfUp: the result .* past 2\^53/);
    expect(() => mulDivFloor(Number.MAX_SAFE_INTEGER, 3, 2)).toThrow(RangeError);
  });

  it.each([
    ['a', [1.5, 1, 1], /mulDivHalfUp: a must be a safe integer ≥ 0 \(got 1\.5\)/],
    ['a', [-1, 1, 1], /a must be a safe integer ≥ 0 \(got -1\)/],
    ['b', [1, Number.NaN, 1], /b must be a safe integer ≥ 0 \(got NaN\)/],
    ['b', [1, 2 ** 53, 1], /b must be a safe integer/],
    ['c', [1, 1, 0], /c must be a safe integer ≥ 1 \(got 0\)/],
    ['c', [1, 1, Infinity], /c must be a safe integer ≥ 1 \(got Infinity\)/],
  ] as const)('name the bad argument (%s)', (_name, [a, b, c], message) => {
    expect(() => mulDivHalfUp(a, b, c)).toThrow(RangeError);
    expect(() => mulDivHalfUp(a, b, c)).toThrow(message);
  });

  it('names a string passed where a number belongs', () => {
    expect(() => mulDivFloor('3' as unknown as number, 1, 1)).toThrow(
      /mulDivFloor: a must be a safe integer ≥ 0 \(got string 3\)/,
    );
  });

  it('agree with a BigInt reference on any safe integers (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(safe, small),
        fc.oneof(safe, small),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        (a, b, c) => {
          const ref = refHalfUp(a, b, c);
          const floor = (BigInt(a) * BigInt(b)) / BigInt(c);
          if (ref > BigInt(Number.MAX_SAFE_INTEGER)) expect(() => mulDivHalfUp(a, b, c)).toThrow(RangeError);
          else expect(BigInt(mulDivHalfUp(a, b, c))).toBe(ref);
          if (floor > BigInt(Number.MAX_SAFE_INTEGER)) expect(() => mulDivFloor(a, b, c)).toThrow(RangeError);
          else expect(BigInt(mulDivFloor(a, b, c))).toBe(floor);
        },
      ),
      propertyParams(2000),
    );
  });
});

describe('allocateLargestRemainder', () => {
  it('gives the leftover units to the largest remainders, ties to the earlier part', () => {
    expect(allocateLargestRemainder(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateLargestRemainder(10, [3, 3, 4])).toEqual([3, 3, 4]);
    expect(allocateLargestRemainder(5_000, [18_000, 8_000, 35_000])).toEqual([1475, 656, 2869]);
    // 1000 over 1, 2: 333.33 and 666.67 → the second has the larger remainder.
    expect(allocateLargestRemainder(1000, [1, 2])).toEqual([333, 667]);
  });

  it('handles zero weights and a zero total', () => {
    expect(allocateLargestRemainder(0, [0, 0])).toEqual([0, 0]);
    expect(allocateLargestRemainder(7, [0, 5, 0])).toEqual([0, 7, 0]);
    expect(allocateLargestRemainder(0, [])).toEqual([]);
    expect(() => allocateLargestRemainder(5, [0, 0])).toThrow(/weights sum to 0, so a total of 5 cannot be shared/);
  });

  it('names a bad argument', () => {
    expect(() => allocateLargestRemainder(-1, [1])).toThrow(/total must be a safe integer ≥ 0/);
    expect(() => allocateLargestRemainder(1, [1, 0.5])).toThrow(/weights\[1\] must be a safe integer ≥ 0 \(got 0\.5\)/);
    expect(() => allocateLargestRemainder(1, [Number.MAX_SAFE_INTEGER, 1])).toThrow(/the sum of weights is past 2\^53/);
  });

  it('sums exactly, never gives a part more than its weight when total ≤ Σ weights, and is proportional to within a unit (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000_000_000 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 10_000 }),
        (weights, per10k) => {
          const sum = weights.reduce((a, b) => a + b, 0);
          fc.pre(sum > 0);
          const total = mulDivFloor(sum, per10k, 10_000);
          const parts = allocateLargestRemainder(total, weights);
          expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
          parts.forEach((p, i) => {
            expect(Number.isSafeInteger(p)).toBe(true);
            expect(p).toBeGreaterThanOrEqual(0);
            expect(p).toBeLessThanOrEqual(weights[i]!);
            // |p − total·w/W| < 1, exactly: |p·W − total·w| < W
            const diff = BigInt(p) * BigInt(sum) - BigInt(total) * BigInt(weights[i]!);
            expect(diff < BigInt(sum) && diff > -BigInt(sum)).toBe(true);
          });
        },
      ),
      propertyParams(1000),
    );
  });

  it('is deterministic: the same input gives the same parts', () => {
    const weights = [5, 5, 5, 5, 5, 5, 5];
    expect(allocateLargestRemainder(3, weights)).toEqual([1, 1, 1, 0, 0, 0, 0]);
    expect(allocateLargestRemainder(3, weights)).toEqual(allocateLargestRemainder(3, [...weights]));
  });
});

describe('sumExact', () => {
  it('sums, and refuses to pass 2^53', () => {
    expect(sumExact('t', 'xs', [1, 2, 3])).toBe(6);
    expect(() => sumExact('t', 'xs', [Number.MAX_SAFE_INTEGER, 1])).toThrow(/t: the sum of xs is past 2\^53/);
  });
});
