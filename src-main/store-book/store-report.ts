import type { Lang } from '../common/app-info';
import { formatGatewayDate } from '../common/gateway-time';
import type { PaymentMethod } from '../common/payment-methods';
import type { StoreDayReport, StoreTerminalPart, TerminalBacklog } from '../common/store-book';
import { figuresOfGroups, type GroupRow } from '../core/reports/day-report';
import { storeDays } from '../core/reports/sql';
import type { PgClient } from './pg-connect';

/**
 * The store's figures of a day from the store book (docs/store-book.md, "What the manager sees"): every terminal's
 * orders, from the projection (loket.orders: the latest snapshot of each order), counted exactly as a terminal
 * counts its own (core/reports/day-report.ts, figuresOfGroups) — so a terminal's own report equals its part of the
 * store's — and each terminal's backlog beside its figures: a day with events the store book does not hold yet says
 * so.
 *
 * Staff belong to each terminal (their ids are the terminal's own): the store-wide figures name them with their
 * terminal ("Ani · T01"); each terminal's figures name them as that terminal does.
 */

export type { StoreDayReport, StoreTerminalPart, TerminalBacklog } from '../common/store-book';

interface StoreRow {
  code: string;
  name: string;
  time_zone: string;
  now: Date;
}

interface GroupDbRow {
  terminal_id: string;
  method_id: string;
  state: string;
  staff_id: string | null;
  staff_name: string | null;
  late_payment: boolean;
  count: number;
  amount: string;
}

interface ProgressRow {
  terminal_id: string;
  received_seq: string;
  last_received_at: Date | null;
  head_seq: string | null;
  oldest_unsent_at: Date | null;
  reported_at: Date | null;
  waiting: string;
  skew_flagged: boolean;
  conflicts: string;
}

const NOBODY: Record<Lang, string> = { id: '(tanpa kasir)', en: '(nobody signed in)' };

/** The report of store day `day` (or of the days `day`..`options.to`: the export's summary of a range). */
export async function storeDayReport(
  client: PgClient,
  day: string,
  options: { methods: readonly PaymentMethod[]; lang: Lang; to?: string },
): Promise<StoreDayReport> {
  const store = (
    await client.query<StoreRow>(
      'SELECT code, name, time_zone, now() AS now FROM loket.stores WHERE code = loket.store_code()',
    )
  ).rows[0];
  if (!store) throw new Error('the store book names no store of its own (a head office book?)');
  const timeZone = store.time_zone;
  const lastDay = options.to ?? day;
  const range = storeDays(day, lastDay, timeZone);
  const groups = (
    await client.query<GroupDbRow>(
      `SELECT terminal_id, method_id, state, staff_id, late_payment, max(staff_name) AS staff_name,
         count(*)::int AS count, sum(amount)::text AS amount
       FROM loket.orders
       WHERE store_code = loket.store_code() AND created_at >= $1 AND created_at < $2 AND NOT training
       GROUP BY terminal_id, method_id, state, staff_id, late_payment`,
      [range.from.toISOString(), range.to.toISOString()],
    )
  ).rows;
  const progress = (
    await client.query<ProgressRow>(
      `SELECT terminal_id, received_seq, last_received_at, head_seq, oldest_unsent_at, reported_at, waiting,
         skew_flagged, conflicts
       FROM loket.terminal_progress WHERE store_code = loket.store_code() ORDER BY terminal_id`,
    )
  ).rows;

  const span = { from: day, to: lastDay, timeZone };
  const terminalIds = [...new Set([...progress.map((p) => p.terminal_id), ...groups.map((g) => g.terminal_id)])].sort();
  const asOf = store.now;
  const dayEnd = range.to.getTime();
  const notes: string[] = [];
  const terminals: StoreTerminalPart[] = terminalIds.map((terminalId) => {
    const rows = groups.filter((g) => g.terminal_id === terminalId);
    const staffNames = uniqueStaff(rows).map(([id, name]) => ({ id, name }));
    const figures = figuresOfGroups(rows.map(toGroup), span, options.methods, staffNames, options.lang);
    const p = progress.find((r) => r.terminal_id === terminalId);
    const backlog = backlogOf(p, dayEnd);
    const note = noteOf(terminalId, backlog, timeZone);
    if (note) notes.push(note);
    return { terminalId, figures, backlog };
  });

  // The store's figures: staff told apart by their terminal (each terminal numbers its own staff).
  const keys: string[] = [];
  const keyOf = (g: GroupDbRow) => `${g.terminal_id}\u0000${g.staff_id ?? ''}`;
  const synthetic = new Map<string, { id: number; terminal: string; staffId: number | null; name: string }>();
  for (const g of groups) {
    const key = keyOf(g);
    if (synthetic.has(key)) continue;
    keys.push(key);
    const staffId = g.staff_id === null ? null : Number(g.staff_id);
    const name = g.staff_id === null ? NOBODY[options.lang] : (g.staff_name ?? `#${g.staff_id}`);
    synthetic.set(key, { id: keys.length, terminal: g.terminal_id, staffId, name: `${name} · ${g.terminal_id}` });
  }
  const storeFigures = figuresOfGroups(
    groups.map((g) => ({ ...toGroup(g), staffId: synthetic.get(keyOf(g))!.id })),
    span,
    options.methods,
    [...synthetic.values()].map((s) => ({ id: s.id, name: s.name })),
    options.lang,
  );
  const byId = new Map([...synthetic.values()].map((s) => [s.id, s]));
  storeFigures.byStaff = storeFigures.byStaff.map((s) => ({ ...s, staffId: byId.get(s.staffId!)?.staffId ?? null }));

  return {
    date: day,
    timeZone,
    store: { code: store.code, name: store.name },
    figures: storeFigures,
    terminals,
    complete: notes.length === 0,
    notes,
    asOf: asOf.toISOString(),
  };
}

function toGroup(g: GroupDbRow): GroupRow {
  return {
    methodId: g.method_id,
    state: g.state as GroupRow['state'],
    staffId: g.staff_id === null ? null : Number(g.staff_id),
    latePayment: g.late_payment ? 1 : 0,
    count: g.count,
    amount: Number(g.amount),
  };
}

function uniqueStaff(rows: GroupDbRow[]): [number, string][] {
  const names = new Map<number, string>();
  for (const r of rows) if (r.staff_id !== null && r.staff_name) names.set(Number(r.staff_id), r.staff_name);
  return [...names];
}

function backlogOf(p: ProgressRow | undefined, dayEnd: number): TerminalBacklog {
  const waiting = p?.head_seq === null || p === undefined ? null : Number(p.waiting);
  const oldest = p?.oldest_unsent_at ?? null;
  const conflicts = Number(p?.conflicts ?? 0);
  const mayBeIncomplete =
    waiting === null || conflicts > 0 || (waiting > 0 && (oldest === null || oldest.getTime() < dayEnd));
  return {
    waiting,
    receivedSeq: Number(p?.received_seq ?? 0),
    oldestUnsentAt: oldest?.toISOString() ?? null,
    reportedAt: p?.reported_at?.toISOString() ?? null,
    lastReceivedAt: p?.last_received_at?.toISOString() ?? null,
    conflicts,
    skewFlagged: p?.skew_flagged ?? false,
    mayBeIncomplete,
  };
}

function noteOf(terminalId: string, b: TerminalBacklog, timeZone: string): string | undefined {
  if (!b.mayBeIncomplete) return undefined;
  if (b.conflicts > 0)
    return `${terminalId}: ${b.conflicts} conflict(s) stop its sync: its events since then are not in these figures`;
  if (b.waiting === null) return `${terminalId}: has never reported to the store book: its figures may be missing`;
  const heard = b.reportedAt ? `, as of ${wall(b.reportedAt, timeZone)}` : '';
  const oldest = b.oldestUnsentAt ? ` (the oldest from ${wall(b.oldestUnsentAt, timeZone)})` : '';
  return `${terminalId}: ${b.waiting} event(s) not yet in the store book${oldest}${heard}: this day's figures may be incomplete`;
}

/** `2026-11-23 14:02` in the store's zone. */
function wall(iso: string, timeZone: string): string {
  return formatGatewayDate(new Date(iso), timeZone).slice(0, 16);
}
