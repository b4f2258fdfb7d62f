// A keyboard-wedge scanner's burst of digits ending in Enter is a scan; the same digits typed by a person are typing.
import { describe, expect, it } from 'vitest';
import { ScanDetector, type ScanStep } from '../../../src-renderer/src/lib/scan-detector';

/** Feeds `keys` with the given gaps (ms) between them (one gap fewer than keys, or one gap for all); the last step. */
function type(detector: ScanDetector, keys: string[], gaps: number | number[], start = 1000): ScanStep[] {
  let at = start;
  return keys.map((key, i) => {
    if (i > 0) at += typeof gaps === 'number' ? gaps : gaps[i - 1]!;
    return detector.feed(key, at);
  });
}

const keysOf = (code: string) => [...code.split(''), 'Enter'];

describe('ScanDetector', () => {
  it('takes 13 digits 5 ms apart and Enter as a scan of the code', () => {
    const steps = type(new ScanDetector(), keysOf('8991234567891'), 5);
    expect(steps[0]).toEqual({ kind: 'burst_start' });
    expect(steps[1]).toEqual({ kind: 'burst_digit' });
    expect(steps.at(-1)).toEqual({ kind: 'scan', code: '8991234567891' });
  });

  it('takes the same digits 120 ms apart as typing', () => {
    expect(type(new ScanDetector(), keysOf('8991234567891'), 120).at(-1)).toEqual({ kind: 'key' });
    expect(type(new ScanDetector(), keysOf('8991234567891'), 250)).not.toContainEqual({ kind: 'burst_digit' });
  });

  it('takes digits 50 or 70 ms apart (each gap under the longest, the mean above 45 ms) as typing', () => {
    expect(type(new ScanDetector(), keysOf('8991234567891'), 50).at(-1)).toEqual({ kind: 'key' });
    expect(type(new ScanDetector(), keysOf('12345678'), 70).at(-1)).toEqual({ kind: 'key' });
  });

  it('takes a fast burst that ends in Enter long after the last digit as typing', () => {
    expect(type(new ScanDetector(), keysOf('12345678'), [5, 5, 5, 5, 5, 5, 5, 250]).at(-1)).toEqual({ kind: 'key' });
  });

  it('keeps a scan whole when one key in it comes late', () => {
    const gaps = [5, 5, 5, 150, 5, 5, 5, 5, 5, 5, 5, 5, 5];
    expect(type(new ScanDetector(), keysOf('8991234567891'), gaps).at(-1)).toEqual({
      kind: 'scan',
      code: '8991234567891',
    });
  });

  it('needs at least 6 digits', () => {
    expect(type(new ScanDetector(), keysOf('12345'), 5).at(-1)).toEqual({ kind: 'key' });
    expect(type(new ScanDetector(), keysOf('123456'), 5).at(-1)).toEqual({ kind: 'scan', code: '123456' });
  });

  it('needs Enter soon after the last digit', () => {
    expect(type(new ScanDetector(), keysOf('12345678'), [5, 5, 5, 5, 5, 5, 5, 300]).at(-1)).toEqual({ kind: 'key' });
  });

  it('does not count digits typed slowly before a burst', () => {
    const detector = new ScanDetector();
    type(detector, ['7', '7'], 300, 1000);
    // 200 ms later, a scan: only its own digits are the code.
    expect(type(detector, keysOf('4006381333931'), 4, 1600).at(-1)).toEqual({ kind: 'scan', code: '4006381333931' });
  });

  it('is broken by any other key in between', () => {
    const keys = ['1', '2', '3', 'a', '4', '5', '6', 'Enter'];
    expect(type(new ScanDetector(), keys, 5).at(-1)).toEqual({ kind: 'key' });
  });

  it('starts over after a scan and after reset', () => {
    const detector = new ScanDetector();
    type(detector, keysOf('12345678'), 5);
    expect(type(detector, keysOf('87654321'), 5, 5000).at(-1)).toEqual({ kind: 'scan', code: '87654321' });
    type(detector, ['1', '2', '3', '4', '5', '6'], 5, 9000);
    detector.reset();
    expect(detector.feed('Enter', 9040)).toEqual({ kind: 'key' });
  });
});
