import { describe, expect, it } from 'vitest';
import { formatGatewayDate, parseGatewayDate } from '../../src-main/common/gateway-time';
import { formatRupiah } from '../../src-main/common/money';

describe('gateway dates (seed: YYYY-MM-DD HH:MM:SS in the aggregator time zone)', () => {
  it('formats a UTC instant as Jakarta wall-clock time (UTC+7), across midnight', () => {
    expect(formatGatewayDate(new Date('2026-11-22T18:30:05Z'))).toBe('2026-11-23 01:30:05');
    expect(formatGatewayDate(new Date('2026-11-22T18:30:05Z'), 'Asia/Makassar')).toBe('2026-11-23 02:30:05');
  });

  it('parses back to the same instant and rejects other formats and impossible dates', () => {
    expect(parseGatewayDate('2026-11-23 01:30:05')?.toISOString()).toBe('2026-11-22T18:30:05.000Z');
    expect(parseGatewayDate('2026-11-23 01:30:05', 'Asia/Jayapura')?.toISOString()).toBe('2026-11-22T16:30:05.000Z');
    for (const bad of ['2026-11-23T01:30:05', '2026-02-30 10:00:00', '2026-11-23 24:00:00', '23/11/2026 01:30']) {
      expect(parseGatewayDate(bad), bad).toBeUndefined();
    }
  });

  it('round-trips a zone with daylight saving', () => {
    const instant = new Date('2026-03-29T01:30:00Z');
    const text = formatGatewayDate(instant, 'Europe/Amsterdam');
    expect(text).toBe('2026-03-29 03:30:00');
    expect(parseGatewayDate(text, 'Europe/Amsterdam')?.toISOString()).toBe(instant.toISOString());
  });
});

describe('formatRupiah', () => {
  it('groups thousands with dots, no decimals', () => {
    expect(formatRupiah(25000)).toBe('Rp25.000');
    expect(formatRupiah(1234567)).toBe('Rp1.234.567');
    expect(formatRupiah(999)).toBe('Rp999');
    expect(formatRupiah(0)).toBe('Rp0');
    expect(formatRupiah(-1500)).toBe('-Rp1.500');
  });
});

describe('dayRange / dayIn (a store day as UTC instants)', () => {
  it('gives [from, to) of a Jakarta day and of a 23-hour DST day; refuses non-dates', async () => {
    const { dayIn, dayRange } = await import('../../src-main/common/gateway-time');
    expect(dayRange('2026-11-22', 'Asia/Jakarta')).toEqual({
      from: new Date('2026-11-21T17:00:00Z'),
      to: new Date('2026-11-22T17:00:00Z'),
    });
    const dst = dayRange('2026-03-29', 'Europe/Amsterdam')!;
    expect((dst.to.getTime() - dst.from.getTime()) / 3_600_000).toBe(23);
    expect(dayRange('2026-02-30', 'Asia/Jakarta')).toBeUndefined();
    expect(dayRange('22/11/2026', 'Asia/Jakarta')).toBeUndefined();
    expect(dayIn(new Date('2026-11-22T18:00:00Z'), 'Asia/Jakarta')).toBe('2026-11-23');
  });
});
