// A shift's change and its audit entry are one transaction (docs/tenders.md, "Shifts"): a child process changing
// shifts on a training log (open, pay-in, pay-out, no sale, close; its member of staff a stand-in there) is killed
// with SIGKILL at seeded moments, and after each kill every shift event has its audit entry, and every shift audit
// entry its event. The kill times come from LOKET_CRASH_SEED (printed on failure) to repeat a failing run.
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { tempDir } from './helpers/loket';
import { seededRandom } from './helpers/property';
import { runAndKill } from './helpers/kill-child';

/** Starts the child, lets it change shifts for `killAfterMs` once it is ready, then SIGKILLs it: its rounds. */
async function runRounds(killAfterMs: number): Promise<number> {
  const out = await runAndKill(
    'test/node/fixtures/shift-crash-child.ts',
    { SHIFT_CRASH_DB: path },
    killAfterMs,
    20_000,
  );
  return [...out.matchAll(/^ROUND /gm)].length;
}

const RUNS = Number(process.env.CRASH_RUNS ?? 12);
const dir = tempDir('loket-shift-crash-');
const path = join(dir.path, 'training-loket.db');
afterAll(() => dir.remove());

const ACTION: Record<string, string> = {
  float: 'shift.opened',
  pay_in: 'shift.paid_in',
  pay_out: 'shift.paid_out',
  no_sale: 'shift.no_sale',
  close: 'shift.closed',
};

/** The shift events and the shift audit entries, matched: what each has that the other lacks. */
function unmatched(): { events: number; audited: number; eventsWithout: string[]; entriesWithout: string[] } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const events = db.prepare('SELECT seq, shift_id AS shiftId, type FROM shift_events ORDER BY seq').all() as {
      seq: number;
      shiftId: string;
      type: string;
    }[];
    const entries = (
      db.prepare("SELECT seq, action, detail FROM audit_events WHERE action LIKE 'shift.%' ORDER BY seq").all() as {
        seq: number;
        action: string;
        detail: string;
      }[]
    ).map((e) => ({ ...e, detail: JSON.parse(e.detail) as { shiftId: string; eventSeq?: number } }));
    // By shift and kind first (what any version of the audit says), then by the event each entry names.
    const key = (shiftId: string, action: string) => `${shiftId} ${action}`;
    const count = (keys: string[]) => keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());
    const fromEvents = count(events.map((e) => key(e.shiftId, ACTION[e.type]!)));
    const fromEntries = count(entries.map((e) => key(e.detail.shiftId, e.action)));
    const eventsWithout = [...fromEvents].filter(([k, n]) => (fromEntries.get(k) ?? 0) < n).map(([k]) => k);
    const entriesWithout = [...fromEntries].filter(([k, n]) => (fromEvents.get(k) ?? 0) < n).map(([k]) => k);
    const bySeq = new Map(events.map((e) => [e.seq, e]));
    for (const e of entries) {
      const event = e.detail.eventSeq === undefined ? undefined : bySeq.get(e.detail.eventSeq);
      if (!event || ACTION[event.type] !== e.action || event.shiftId !== e.detail.shiftId)
        entriesWithout.push(`audit ${e.seq} (${e.action}) names no such event`);
    }
    return { events: events.length, audited: entries.length, eventsWithout, entriesWithout };
  } finally {
    db.close();
  }
}

describe('crash safety: SIGKILL while shifts change', () => {
  it(`over ${RUNS} kills: every shift event has its audit entry and every audit entry its event`, async () => {
    const random = seededRandom('LOKET_CRASH_SEED');
    onTestFailed(() => console.error(`shift crash: ${random.describeSeed()}`));
    let rounds = 0;
    for (let run = 0; run < RUNS; run++) {
      rounds += await runRounds(30 + Math.floor(random.next() * 400));
      const after = unmatched();
      expect(after.eventsWithout, `run ${run}: events without their audit entry`).toEqual([]);
      expect(after.entriesWithout, `run ${run}: audit entries without their event`).toEqual([]);
      expect(after.audited).toBe(after.events);
    }
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      // The store's member of staff stands in here, as for a training order.
      expect(db.prepare('SELECT name, active FROM staff WHERE id = 7').get()).toEqual({ name: '#7', active: 0 });
    } finally {
      db.close();
    }
    // Not an assertion of luck: the child got through changes before the kills.
    expect(rounds).toBeGreaterThan(0);
  }, 120_000);
});
