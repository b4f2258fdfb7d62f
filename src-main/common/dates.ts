import type { Lang } from './app-info';
import { formatGatewayDate } from './gateway-time';

/**
 * How Loket writes dates and times, in one place: the screens, the receipts and the day's report all write them
 * so. A date is day/month/year with the year in full — 23/11/2026 — as people in Indonesia write it (in both
 * languages: an English screen in an Indonesian store reads the same dates); a time is the store's wall clock to
 * the minute, with Indonesian's dot (13.30) or English's colon (13:30), and the zone's name (WIB, WITA, WIT, or the
 * UTC offset elsewhere). A date typed by a person is read the same way (parseDay).
 */

/** Indonesia's own zone names (as people say them); any other zone is written as its UTC offset, e.g. "GMT+1". */
const ZONE_NAMES: Readonly<Record<string, string>> = {
  'Asia/Jakarta': 'WIB',
  'Asia/Pontianak': 'WIB',
  'Asia/Makassar': 'WITA',
  'Asia/Ujung_Pandang': 'WITA',
  'Asia/Jayapura': 'WIT',
};

/** The zone's short name at `at`: WIB, WITA, WIT, else its offset ("GMT+1"); '' for a zone Intl does not know. */
export function zoneName(timeZone: string, at: Date = new Date(0)): string {
  const named = ZONE_NAMES[timeZone];
  if (named) return named;
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'shortOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName');
    return part?.value ?? '';
  } catch {
    return '';
  }
}

const TIME_SEPARATOR: Record<Lang, string> = { id: '.', en: ':' };

/** A store day (YYYY-MM-DD) as written: "23/11/2026". Text that is not a day is returned as it is. */
export function formatDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : day;
}

function toDate(at: Date | string): Date | undefined {
  const date = typeof at === 'string' ? new Date(at) : at;
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The wall clock of `timeZone` at `at`, as "YYYY-MM-DD HH:MM:SS"; the machine's zone never counts. */
function wallClock(date: Date, timeZone: string): string {
  try {
    return formatGatewayDate(date, timeZone);
  } catch {
    // An unknown zone in the settings must not break a screen or a receipt: UTC, which is named.
    return formatGatewayDate(date, 'UTC');
  }
}

/** A time of day in the store's zone: "13.30 WIB" (id), "13:30 WIB" (en); `zone: false` leaves the zone out. */
export function formatTime(at: Date | string, timeZone: string, lang: Lang, options: { zone?: boolean } = {}): string {
  const date = toDate(at);
  if (!date) return String(at);
  const clock = wallClock(date, timeZone);
  const time = `${clock.slice(11, 13)}${TIME_SEPARATOR[lang]}${clock.slice(14, 16)}`;
  const zone = options.zone === false ? '' : zoneName(timeZone, date);
  return zone ? `${time} ${zone}` : time;
}

/** A date and time in the store's zone: "23/11/2026 13.30 WIB" (id), "23/11/2026 13:30 WIB" (en). */
export function formatDateTime(
  at: Date | string,
  timeZone: string,
  lang: Lang,
  options: { zone?: boolean } = {},
): string {
  const date = toDate(at);
  if (!date) return String(at);
  return `${formatDay(wallClock(date, timeZone).slice(0, 10))} ${formatTime(date, timeZone, lang, options)}`;
}

/**
 * A date as a person types it, in the written order — day, month, year: "23/11/2026", "23-11-2026", "23.11.2026",
 * "1/2/2026" — or as a store day already ("2026-11-23"). The store day (YYYY-MM-DD), or undefined for anything
 * else, an impossible date (31/02/2026) included.
 */
export function parseDay(text: string): string | undefined {
  const typed = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(typed);
  const written = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(typed);
  const [y, m, d] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : written
      ? [Number(written[3]), Number(written[2]), Number(written[1])]
      : [NaN, NaN, NaN];
  if (!Number.isInteger(y) || y < 1000 || m < 1 || m > 12 || d < 1) return undefined;
  const check = new Date(Date.UTC(y, m - 1, d));
  if (check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return undefined;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
