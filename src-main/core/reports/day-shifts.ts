import type { Database } from 'better-sqlite3';
import type { DayShift } from '../../common/reports';
import type { ShiftView } from '../../common/shifts';
import { ShiftBook } from '../shifts/shift-book';
import { stmt } from './sql';

/**
 * The shifts that opened on store days (docs/end-of-day.md, "Shifts and the cash variance"): each one's cash, and
 * once closed its blind count and the difference, as the day report and the workbook's summary show them. A shift
 * past midnight is its opening day's.
 */

/** The shifts opened on the store days `fromDay`..`toDay` (YYYY-MM-DD), by day, then as the shift book lists them. */
export function dayShifts(db: Database, fromDay: string, toDay: string): DayShift[] {
  if (!hasShifts(db)) return [];
  const book = new ShiftBook(db);
  const shifts: DayShift[] = [];
  for (let day = fromDay; day <= toDay; day = nextDay(day)) shifts.push(...book.ofDay(day).map(dayShift));
  return shifts;
}

/** The calendar day after `day` (YYYY-MM-DD), on the calendar alone (no zone: a store day is a date). */
function nextDay(day: string): string {
  const next = new Date(`${day}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/** A log opened read-only at a version before the shifts (migration 11) has none to report. */
function hasShifts(db: Database): boolean {
  return (
    stmt<[], number>(db, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'shifts'").pluck().get()! >
    0
  );
}

function dayShift(s: ShiftView): DayShift {
  return {
    id: s.id,
    terminalId: s.terminalId,
    state: s.state,
    openedAt: s.openedAt,
    ...(s.closedAt ? { closedAt: s.closedAt } : {}),
    openedBy: s.openedBy.name,
    // Nobody signed in: the screen words it in its own language (the name is the server's English, for the log).
    ...(s.openedBy.staffId === undefined && !s.openedBy.name.startsWith('cli:')
      ? { openedByNobody: true as const }
      : {}),
    float: s.float,
    expected: s.count?.expected ?? s.cash.expected,
    ...(s.count ? { counted: s.count.counted, difference: s.count.difference } : {}),
  };
}
