/**
 * The interface's `expired_date` is `YYYY-MM-DD HH:MM:SS` with no zone; Loket reads it in the aggregator's
 * time zone (default Asia/Jakarta; docs/gateway-interface.md). Stored times stay UTC; this converts at the edge.
 */
export const DEFAULT_GATEWAY_TIME_ZONE = 'Asia/Jakarta';

const GATEWAY_DATE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

function wallClockParts(date: Date, timeZone: string): Record<string, number> {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(date);
  const out: Record<string, number> = {};
  for (const p of parts) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

export function formatGatewayDate(date: Date, timeZone = DEFAULT_GATEWAY_TIME_ZONE): string {
  const p = wallClockParts(date, timeZone);
  const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
  return `${p.year}-${two(p.month)}-${two(p.day)} ${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
}

/** Returns undefined for text that is not in the interface's format or names an impossible date. */
export function parseGatewayDate(text: string, timeZone = DEFAULT_GATEWAY_TIME_ZONE): Date | undefined {
  const m = GATEWAY_DATE.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined;
  // The zone's offset at that instant; a second pass settles the rare case of a DST change in between.
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const p = wallClockParts(new Date(guess), timeZone);
    const shown = Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
    guess += asUtc - shown;
  }
  return new Date(guess);
}

/** Today's date (YYYY-MM-DD) on the wall clock of `timeZone`. */
export function dayIn(date: Date, timeZone: string): string {
  return formatGatewayDate(date, timeZone).slice(0, 10);
}

/**
 * The UTC instants [from, to) of one calendar day in `timeZone`, for "the day's orders" in the store's
 * zone while times are stored in UTC. Undefined for text that is not a real YYYY-MM-DD date.
 */
export function dayRange(day: string, timeZone: string): { from: Date; to: Date } | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const from = parseGatewayDate(`${day} 00:00:00`, timeZone);
  if (!from) return undefined;
  const next = new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)) + 1));
  const to = parseGatewayDate(`${next.toISOString().slice(0, 10)} 00:00:00`, timeZone);
  return to ? { from, to } : undefined;
}
