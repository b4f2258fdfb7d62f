/**
 * Indonesia's notes and coins as the blind count takes them (common/cash.ts's DENOMINATIONS, whose module carries
 * zod): copied here so the renderer's bundle stays without it; a test keeps the two equal.
 */
export const DENOMINATIONS = [
  { id: 'note100000', value: 100_000, kind: 'note' },
  { id: 'note50000', value: 50_000, kind: 'note' },
  { id: 'note20000', value: 20_000, kind: 'note' },
  { id: 'note10000', value: 10_000, kind: 'note' },
  { id: 'note5000', value: 5_000, kind: 'note' },
  { id: 'note2000', value: 2_000, kind: 'note' },
  { id: 'note1000', value: 1_000, kind: 'note' },
  { id: 'coin1000', value: 1_000, kind: 'coin' },
  { id: 'coin500', value: 500, kind: 'coin' },
  { id: 'coin200', value: 200, kind: 'coin' },
  { id: 'coin100', value: 100, kind: 'coin' },
] as const;

export type DenominationId = (typeof DENOMINATIONS)[number]['id'];

/** How many of one note or coin a count may say (common/cash.ts, MAX_COUNT). */
export const MAX_COUNT = 100_000;
