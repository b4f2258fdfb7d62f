import type { Lang } from '../../../src-main/common/app-info';

import * as dates from '../../../src-main/common/dates';

export { formatRupiah } from '../../../src-main/common/money';

/** "25000" → "25.000": the Indonesian thousands separator, as formatRupiah groups. */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/**
 * Dates and times as Loket writes them everywhere — screens, receipts, the day's report — from the one formatter in
 * src-main/common/dates.ts: "23/11/2026 13.30 WIB" (id), "23/11/2026 13:30 WIB" (en), in the store's zone.
 */

/** The zone's short name at `at`: WIB, WITA, WIT, else its offset ("GMT+1"); '' for a zone Intl does not know. */
export function zoneName(timeZone: string, at: Date = new Date()): string {
  return dates.zoneName(timeZone, at);
}

/** A time with its zone's name: "14.05 WIB". */
export function formatZonedTime(iso: string, timeZone: string, lang: Lang): string {
  return dates.formatTime(iso, timeZone, lang);
}

/** A date and time with its zone's name: "23/11/2026 13.30 WIB". */
export function formatZonedDateTime(iso: string, timeZone: string, lang: Lang): string {
  return dates.formatDateTime(iso, timeZone, lang);
}

/** A time of day in the store's zone, e.g. "14.05" (id) or "14:05" (en). */
export function formatTime(iso: string, timeZone: string, lang: Lang): string {
  return dates.formatTime(iso, timeZone, lang, { zone: false });
}

/** A date and time in the store's zone, e.g. "23/11/2026 13.30". */
export function formatDateTime(iso: string, timeZone: string, lang: Lang): string {
  return dates.formatDateTime(iso, timeZone, lang, { zone: false });
}

/** Time left as mm:ss, or hh:mm:ss from an hour up (virtual accounts live a day). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${two(h)}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

export { groupInFours } from '../../../src-main/common/payment-instruction';

/**
 * The gateway's `expired_date` ("YYYY-MM-DD HH:MM:SS", a wall-clock time in the gateway's zone) shown as the
 * gateway wrote it, without converting zones; undefined when it is not in that form.
 */
export function formatGatewayWallClock(value: string, lang: Lang): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!m) return undefined;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5])));
  return dates.formatDateTime(at, 'UTC', lang, { zone: false });
}

/** A store day (YYYY-MM-DD) as written: "23/11/2026". */
export function formatDay(day: string): string {
  return dates.formatDay(day);
}

/**
 * A store day with its weekday, as a heading: "Selasa, 10/03/2026". The day is a calendar date already, so its
 * weekday is read at noon UTC: no zone can move it to another date.
 */
export function formatDayName(day: string, lang: Lang): string {
  const at = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(at.getTime())) return day;
  const weekday = new Intl.DateTimeFormat(lang === 'id' ? 'id-ID' : 'en-GB', {
    weekday: 'long',
    timeZone: 'UTC',
  }).format(at);
  return `${weekday}, ${dates.formatDay(day)}`;
}
