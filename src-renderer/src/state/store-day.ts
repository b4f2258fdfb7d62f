import { dayIn } from '../../../src-main/common/gateway-time';

/** The store's calendar day (YYYY-MM-DD) of an instant: "today" is the store's day, whatever zone this screen is in. */
export function storeDay(at: Date | string | number, timeZone: string): string {
  return dayIn(at instanceof Date ? at : new Date(at), timeZone);
}

/** The machine's clock; tests pass their own. */
export function systemNow(): Date {
  return new Date();
}

/** A real calendar day written YYYY-MM-DD (a date field gives '' while what is typed is not one). */
export function isDay(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return at.toISOString().slice(0, 10) === text;
}

/** What is wrong with a range of store days before it is sent: a day missing, or a range running backwards. */
export type RangeProblem = 'missing' | 'backwards';

export function rangeProblem(from: string, to: string): RangeProblem | undefined {
  if (!isDay(from) || !isDay(to)) return 'missing';
  // YYYY-MM-DD sorts as the days do.
  return from > to ? 'backwards' : undefined;
}
