import { dayIn } from '../../../src-main/common/gateway-time';

/** The store's calendar day (YYYY-MM-DD) of an instant: "today" is the store's day, whatever zone this screen is in. */
export function storeDay(at: Date | string, timeZone: string): string {
  return dayIn(typeof at === 'string' ? new Date(at) : at, timeZone);
}

/** The machine's clock; tests pass their own. */
export function systemNow(): Date {
  return new Date();
}
