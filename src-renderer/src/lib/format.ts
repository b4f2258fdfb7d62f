import type { Lang } from '../../../src-main/common/app-info';

export { formatRupiah } from '../../../src-main/common/money';

/** "25000" → "25.000": the Indonesian thousands separator, as formatRupiah groups. */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

const LOCALE: Record<Lang, string> = { id: 'id-ID', en: 'en-GB' };

function formatter(lang: Lang, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(LOCALE[lang], { ...options, timeZone });
  } catch {
    // An unknown zone in the settings must not break the screen: fall back to the machine's.
    return new Intl.DateTimeFormat(LOCALE[lang], options);
  }
}

/** Indonesia's own zone names (as on the receipt); any other zone shows its UTC offset, e.g. "GMT+1". */
const ZONE_NAMES: Readonly<Record<string, string>> = {
  'Asia/Jakarta': 'WIB',
  'Asia/Pontianak': 'WIB',
  'Asia/Makassar': 'WITA',
  'Asia/Ujung_Pandang': 'WITA',
  'Asia/Jayapura': 'WIT',
};

/** The zone's short name at `at`: WIB, WITA, WIT, else its offset ("GMT+1"); '' for a zone Intl does not know. */
export function zoneName(timeZone: string, at: Date = new Date()): string {
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

/** A time with its zone's name: "14.05 WIB". */
export function formatZonedTime(iso: string, timeZone: string, lang: Lang): string {
  const zone = zoneName(timeZone, new Date(iso));
  const time = formatTime(iso, timeZone, lang);
  return zone ? `${time} ${zone}` : time;
}

/** A date and time with its zone's name: "23 Nov 2026 13.30 WIB". */
export function formatZonedDateTime(iso: string, timeZone: string, lang: Lang): string {
  const zone = zoneName(timeZone, new Date(iso));
  const time = formatDateTime(iso, timeZone, lang);
  return zone ? `${time} ${zone}` : time;
}

/** A time of day in the store's zone, e.g. "14.05" (id) or "14:05" (en). */
export function formatTime(iso: string, timeZone: string, lang: Lang): string {
  return formatter(lang, timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
}

/** A date and time in the store's zone, e.g. "23 Nov 2026 13.30". */
export function formatDateTime(iso: string, timeZone: string, lang: Lang): string {
  return formatter(lang, timeZone, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
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
  return formatDateTime(at.toISOString(), 'UTC', lang);
}

/**
 * A store day (YYYY-MM-DD) as people say it: "Selasa, 10 Maret 2026". The day is a calendar date already, so it
 * is read at noon UTC and shown in UTC: no zone can move it to another date.
 */
export function formatDay(day: string, lang: Lang): string {
  const at = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(at.getTime())) return day;
  return formatter(lang, 'UTC', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(at);
}
