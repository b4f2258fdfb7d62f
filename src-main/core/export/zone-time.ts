/**
 * Stored instants (UTC ISO-8601) shown in the store's time zone, fast enough for a year of orders: the zone's
 * offset is looked up with Intl once per hour of UTC time and cached, instead of once per cell. An hour whose
 * two ends have the same offset has it throughout (no zone changes its offset twice within an hour); an hour
 * whose ends disagree holds a change, and each instant in it is worked out on its own.
 */

const BUCKET_MS = 3_600_000;
/** The caches are cleared when they grow past this (a year is 8,760 hours): memory stays bounded. */
const CACHE_LIMIT = 4096;

export class ZoneClock {
  private readonly parts: Intl.DateTimeFormat;
  private readonly offsets = new Map<number, number>();
  /** A UTC minute (minuteNumber) → the store's wall minute (`2026-11-23T08:15`) and the offset's text. */
  private readonly minutes = new Map<number, [wallMinute: string, offset: string]>();
  private lastMinute = -1;
  private last: [wallMinute: string, offset: string] = ['', ''];

  constructor(readonly timeZone: string) {
    // Throws a RangeError for a zone Intl does not know, before any row is written.
    this.parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  }

  /** The zone's offset from UTC at `ms`, in whole minutes (east positive: Asia/Jakarta is 420). */
  offsetMinutes(ms: number): number {
    const bucket = Math.floor(ms / BUCKET_MS);
    const cached = this.offsets.get(bucket);
    if (cached !== undefined) return cached;
    const start = this.exactOffset(bucket * BUCKET_MS);
    const end = this.exactOffset((bucket + 1) * BUCKET_MS - 1000);
    if (start !== end) return this.exactOffset(ms);
    if (this.offsets.size >= CACHE_LIMIT) this.offsets.clear();
    this.offsets.set(bucket, start);
    return start;
  }

  /**
   * `2026-11-23T08:15:02.123+07:00`: the store's wall time with its offset, the same instant as `iso` (Loket's
   * stored form, `2026-11-23T01:15:02.123Z`). Text in any other form is converted through Date.parse, and
   * text that is no time at all is returned as it is.
   */
  withOffset(iso: string): string {
    // Offsets are whole minutes and change only on a minute's edge, so the seconds and milliseconds are those of
    // the stored text, and one conversion serves every instant of the same UTC minute: the minute is numbered
    // from the digits (no string is made for the lookup) and the last one is kept apart, as orders come in time order.
    if (iso.length !== 24 || iso.charCodeAt(10) !== 84 || iso.charCodeAt(23) !== 90) return this.anyForm(iso);
    const key = minuteNumber(iso);
    if (key !== this.lastMinute) {
      let minute = this.minutes.get(key);
      if (minute === undefined) {
        const ms = Date.parse(iso);
        if (Number.isNaN(ms)) return iso;
        const offset = this.offsetMinutes(ms);
        minute = [new Date(ms + offset * 60_000).toISOString().slice(0, 16), formatOffset(offset)];
        if (this.minutes.size >= CACHE_LIMIT) this.minutes.clear();
        this.minutes.set(key, minute);
      }
      this.lastMinute = key;
      this.last = minute;
    }
    return this.last[0] + iso.slice(16, 23) + this.last[1];
  }

  private anyForm(text: string): string {
    const ms = Date.parse(text);
    if (Number.isNaN(ms)) return text;
    const offset = this.offsetMinutes(ms);
    return new Date(ms + offset * 60_000).toISOString().slice(0, 23) + formatOffset(offset);
  }

  /**
   * A Date whose UTC fields are the store's wall time at `iso`: what a spreadsheet, which has no time zones,
   * should show. Not the same instant (unless the zone is UTC): for display cells only.
   */
  wallDate(iso: string): Date | string {
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? iso : new Date(ms + this.offsetMinutes(ms) * 60_000);
  }

  private exactOffset(ms: number): number {
    const seconds = Math.floor(ms / 1000) * 1000;
    const p: Record<string, number> = {};
    for (const part of this.parts.formatToParts(new Date(seconds)))
      if (part.type !== 'literal') p[part.type] = Number(part.value);
    const wall = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
    // Whole minutes: every zone's offset since 1972 is; an old local-mean-time offset is rounded, and the
    // wall time is computed from the rounded offset, so the text still names the same instant.
    return Math.round((wall - seconds) / 60_000);
  }
}

/** `YYYY-MM-DDTHH:MM…` → a whole number unique to that minute (a small integer for years 1970–2100). */
function minuteNumber(iso: string): number {
  // '0' is 48: every digit's code less 48, weighted (the 48s are taken off once, at the end).
  const year = iso.charCodeAt(0) * 1000 + iso.charCodeAt(1) * 100 + iso.charCodeAt(2) * 10 + iso.charCodeAt(3) - 53328;
  const month = iso.charCodeAt(5) * 10 + iso.charCodeAt(6) - 528;
  const day = iso.charCodeAt(8) * 10 + iso.charCodeAt(9) - 528;
  const hour = iso.charCodeAt(11) * 10 + iso.charCodeAt(12) - 528;
  const minute = iso.charCodeAt(14) * 10 + iso.charCodeAt(15) - 528;
  return (((year - 1970) * 13 + month) * 32 + day) * 1440 + hour * 60 + minute;
}

export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
