import { refundFigures } from './refund-figures';
import { dayShifts } from './day-shifts';
import { salesTaken } from './takings';
import type { Database } from 'better-sqlite3';
import type { Lang } from '../../common/app-info';
import { dayIn } from '../../common/gateway-time';
import { ORDER_STATES, type OrderState } from '../../common/order';
import type { PaymentMethod } from '../../common/payment-methods';
import {
  NOTHING_TAKEN,
  takenOf,
  WAITING_SHOWN,
  WAITING_STATES,
  type AfterClosingChange,
  type ClosingRecord,
  type CountAmount,
  type DayReport,
  type ReportFigures,
  type SalesFigures,
  type WaitingOrder,
} from '../../common/reports';
import { rowToEvent, type EventRow } from '../orders/order-rows';
import { formatDateTime } from '../../common/dates';
import type { ClosedDay } from '../export/row-cells';
import { attention } from './attention';
import { reason } from '../../common/reasons';
import { invalidQuery, refused } from './errors';
import { dbOf, stmt, storeDays, type Books } from './sql';
import { ShiftBook } from '../shifts/shift-book';
import { byStaffName, staffNamer, type StaffNames } from './staff-names';

export type { StaffNames } from './staff-names';

export interface FiguresOptions {
  /**
   * Which orders count: false (the default) for the store's books, where a training order never counts; true
   * for the training log (training/loket.db), whose orders all are.
   */
  training?: boolean;
  /** The language of the method names and of "nobody signed in": the store's. Default 'id'. */
  lang?: Lang;
}

/** Orders of one method, state and staff member: how many, and their amount. */
export interface GroupRow {
  methodId: string;
  state: OrderState;
  staffId: number | null;
  /** 1 for the orders paid after Loket gave up on them (orders.late_payment). */
  latePayment: number;
  count: number;
  amount: number;
}

const zero = (): CountAmount => ({ count: 0, amount: 0 });
const addTo = (to: CountAmount, row: CountAmount) => {
  to.count += row.count;
  to.amount += row.amount;
};

/**
 * The figures of the store days `fromDay`..`toDay` in `timeZone` (docs/end-of-day.md, "The figures"): every
 * order created in them by method (with its paid part), by state and by the staff member who sold, the paid
 * total, the late payments (money that reached the gateway after the order was given up on or refused: not in
 * the paid total, counted apart) and the total of all orders. Amounts are whole rupiah. One pass over the days' orders, read from an
 * index (migration 6's orders_day_report) without touching the table.
 *
 * byMethod follows the order of `methods` (the catalogue), then any other method id alphabetically; byState
 * the order of the state machine; byStaff the names, with orders nobody signed in for last. Only what occurs.
 */
export function figures(
  books: Books,
  fromDay: string,
  toDay: string,
  timeZone: string,
  methods: readonly PaymentMethod[],
  staffNames: StaffNames,
  options: FiguresOptions = {},
): ReportFigures {
  const db = dbOf(books);
  const range = storeDays(fromDay, toDay, timeZone);
  const rows = stmt<[string, string, number], GroupRow>(
    db,
    `SELECT method_id AS methodId, state, staff_id AS staffId, late_payment AS latePayment, COUNT(*) AS count,
       SUM(amount) AS amount
     FROM orders WHERE created_at >= ? AND created_at < ? AND training = ?
     GROUP BY method_id, state, staff_id, late_payment`,
  ).all(range.from.toISOString(), range.to.toISOString(), options.training ? 1 : 0);
  return figuresOfGroups(rows, { from: fromDay, to: toDay, timeZone }, methods, staffNames, options.lang ?? 'id');
}

/**
 * The figures from the day's orders counted by method, state, staff member and late payment (what `figures` reads
 * from the log): also the store book's, from its projection (src-main/store-book/store-report.ts), so that a
 * terminal's report and its part of the store's are made the same way.
 */
export function figuresOfGroups(
  rows: readonly GroupRow[],
  span: Pick<ReportFigures, 'from' | 'to' | 'timeZone'>,
  methods: readonly PaymentMethod[],
  staffNames: StaffNames,
  lang: Lang,
): ReportFigures {
  const m: Marginals = {
    paid: zero(),
    latePaid: zero(),
    orders: zero(),
    byMethod: new Map(),
    byState: new Map(),
    byStaff: new Map(),
  };
  for (const row of rows) {
    const isPaid = row.state === 'paid';
    // Late payments: money at the gateway for an order given up on; counted apart, never in paid.
    if (row.latePayment) addTo(m.latePaid, row);
    addTo(m.orders, row);
    if (isPaid) addTo(m.paid, row);
    const method = m.byMethod.get(row.methodId) ?? { ...zero(), paid: zero() };
    addTo(method, row);
    if (isPaid) addTo(method.paid, row);
    m.byMethod.set(row.methodId, method);
    const state = m.byState.get(row.state) ?? zero();
    addTo(state, row);
    m.byState.set(row.state, state);
    const staff = m.byStaff.get(row.staffId) ?? { ...zero(), paid: zero() };
    addTo(staff, row);
    if (isPaid) addTo(staff.paid, row);
    m.byStaff.set(row.staffId, staff);
  }
  return assemble(m, span, methods, staffNames, lang);
}

interface Marginals {
  paid: CountAmount;
  latePaid: CountAmount;
  orders: CountAmount;
  byMethod: Map<string, CountAmount & { paid: CountAmount }>;
  byState: Map<OrderState, CountAmount>;
  byStaff: Map<number | null, CountAmount & { paid: CountAmount }>;
}

/** The figures with their names and order (see `figures`), from the counts. */
function assemble(
  m: Marginals,
  span: Pick<ReportFigures, 'from' | 'to' | 'timeZone'>,
  methods: readonly PaymentMethod[],
  staffNames: StaffNames,
  lang: Lang,
): ReportFigures {
  const catalogueOrder = new Map(methods.map((method, i) => [method.id, i]));
  const methodIds = [...m.byMethod.keys()].sort((a, b) => {
    const ia = catalogueOrder.get(a) ?? Infinity;
    const ib = catalogueOrder.get(b) ?? Infinity;
    return ia !== ib ? ia - ib : a < b ? -1 : a > b ? 1 : 0;
  });
  const named = staffNamer(staffNames, lang);
  const staffName = (id: number | null) => named(id);
  const staffIds = [...m.byStaff.keys()].sort(byStaffName(staffName));
  const copy = (c: CountAmount): CountAmount => ({ count: c.count, amount: c.amount });
  return {
    ...span,
    paid: copy(m.paid),
    latePaid: copy(m.latePaid),
    orders: copy(m.orders),
    byMethod: methodIds.map((methodId) => {
      const x = m.byMethod.get(methodId)!;
      return {
        methodId,
        label: methods.find((method) => method.id === methodId)?.label[lang] ?? methodId,
        ...copy(x),
        paid: copy(x.paid),
      };
    }),
    byState: ORDER_STATES.filter((state) => m.byState.has(state)).map((state) => ({
      state,
      ...copy(m.byState.get(state)!),
    })),
    byStaff: staffIds.map((staffId) => {
      const x = m.byStaff.get(staffId)!;
      return { staffId, name: staffName(staffId), ...copy(x), paid: copy(x.paid) };
    }),
  };
}

/** Stored figures as counts to work on (copies: the stored ones stay as they are). */
function marginalsOf(f: ReportFigures): Marginals {
  const copy = (c: CountAmount): CountAmount => ({ count: c.count, amount: c.amount });
  return {
    paid: copy(f.paid),
    // A closing stored before the figure existed: none counted then.
    latePaid: copy((f as Partial<ReportFigures>).latePaid ?? zero()),
    orders: copy(f.orders),
    byMethod: new Map(f.byMethod.map((x) => [x.methodId, { ...copy(x), paid: copy(x.paid) }])),
    byState: new Map(f.byState.map((x) => [x.state, copy(x)])),
    byStaff: new Map(f.byStaff.map((x) => [x.staffId, { ...copy(x), paid: copy(x.paid) }])),
  };
}

/** Stored figures with today's names: the same counts, named and ordered as `figures` would now. */
function relabel(
  f: ReportFigures,
  methods: readonly PaymentMethod[],
  staffNames: StaffNames,
  lang: Lang,
): ReportFigures {
  return assemble(marginalsOf(f), { from: f.from, to: f.to, timeZone: f.timeZone }, methods, staffNames, lang);
}

/**
 * The figures now of a closed day, from the closing's and the changes since, without reading the day again.
 * Orders change only through their events, and only their state: an order's method, staff member and amount
 * never change. So each order with a state change (or a creation) since the closing moves from the state it
 * had then — the `from` of its first change since, or nowhere for an order created since — to the state it
 * has now; every other order counts as it did. (test/node/day-report.test.ts checks this against `figures`.)
 */
function rollForward(
  db: Database,
  closing: ClosingRecord,
  changes: readonly AfterClosingChange[],
  methods: readonly PaymentMethod[],
  staffNames: StaffNames,
  lang: Lang,
): ReportFigures {
  const m = marginalsOf(closing.figures);
  const then = new Map<string, OrderState | null>();
  for (const c of changes) {
    if (then.has(c.orderId)) continue;
    if (c.type === 'created') then.set(c.orderId, null);
    else if (c.type === 'state_changed' && c.from !== undefined) then.set(c.orderId, c.from);
  }
  const read = stmt<[string], { state: OrderState; methodId: string; staffId: number | null; amount: number }>(
    db,
    'SELECT state, method_id AS methodId, staff_id AS staffId, amount FROM orders WHERE id = ?',
  );
  const add = (to: CountAmount, amount: number, sign: 1 | -1) => {
    to.count += sign;
    to.amount += sign * amount;
  };
  for (const [id, before] of then) {
    const now = read.get(id);
    if (!now || now.state === before) continue;
    const method = m.byMethod.get(now.methodId) ?? { ...zero(), paid: zero() };
    const staff = m.byStaff.get(now.staffId) ?? { ...zero(), paid: zero() };
    m.byMethod.set(now.methodId, method);
    m.byStaff.set(now.staffId, staff);
    const move = (state: OrderState, sign: 1 | -1) => {
      const s = m.byState.get(state) ?? zero();
      add(s, now.amount, sign);
      if (s.count === 0) m.byState.delete(state);
      else m.byState.set(state, s);
      if (state !== 'paid') return;
      for (const part of [m.paid, method.paid, staff.paid]) add(part, now.amount, sign);
    };
    if (before === null) for (const part of [m.orders, method, staff]) add(part, now.amount, 1);
    else move(before, -1);
    move(now.state, 1);
  }
  // A late payment since the closing counts once its order had none before it (a second one adds no money figure).
  const lateSince = new Map<string, number>();
  for (const c of changes) if (c.type === 'late_payment') lateSince.set(c.orderId, (lateSince.get(c.orderId) ?? 0) + 1);
  const lateInAll = stmt<[string], { n: number; amount: number }>(
    db,
    "SELECT COUNT(*) AS n, MAX(o.amount) AS amount FROM order_events e JOIN orders o ON o.id = e.order_id WHERE e.order_id = ? AND e.type = 'late_payment'",
  );
  for (const [id, since] of lateSince) {
    const all = lateInAll.get(id);
    if (all && all.n === since) add(m.latePaid, all.amount, 1);
  }
  const f = closing.figures;
  return assemble(m, { from: f.from, to: f.to, timeZone: f.timeZone }, methods, staffNames, lang);
}

// ---------------------------------------------------------------- closing the day

interface ClosingRow {
  day: string;
  time_zone: string;
  closed_at: string;
  closed_by_staff_id: number | null;
  closed_by: string;
  figures: string;
  open_attention: number;
  last_event_seq: number;
  /** Migration 13; NULL for a closing made before it (and absent in a log opened read-only at an older version). */
  sales?: string | null;
}

function toRecord(row: ClosingRow): ClosingRecord {
  return {
    day: row.day,
    timeZone: row.time_zone,
    closedAt: row.closed_at,
    closedBy: { ...(row.closed_by_staff_id === null ? {} : { staffId: row.closed_by_staff_id }), name: row.closed_by },
    figures: JSON.parse(row.figures) as ReportFigures,
    openAttention: row.open_attention,
    ...(row.sales ? { sales: JSON.parse(row.sales) as SalesFigures } : {}),
  };
}

function closingRow(db: Database, day: string): ClosingRow | undefined {
  return stmt<[string], ClosingRow>(db, 'SELECT * FROM closings WHERE day = ?').get(day);
}

/** The closing record of `day`, if it was closed. */
export function closingOf(books: Books, day: string): ClosingRecord | undefined {
  const row = closingRow(dbOf(books), day);
  return row && toRecord(row);
}

/**
 * The closed days in [fromDay, toDay], each with its orders' range (in the zone it was closed in) and the last event
 * of its closing: an order of that day whose last event is later changed after closing (the export marks it).
 */
export function closedDays(books: Books, fromDay: string, toDay: string): ClosedDay[] {
  return stmt<[string, string], { day: string; time_zone: string; last_event_seq: number }>(
    dbOf(books),
    'SELECT day, time_zone, last_event_seq FROM closings WHERE day >= ? AND day <= ? ORDER BY day',
  )
    .all(fromDay, toDay)
    .map((row) => {
      const range = storeDays(row.day, row.day, row.time_zone);
      return { from: range.from.toISOString(), to: range.to.toISOString(), lastEventSeq: row.last_event_seq };
    });
}

/** The closed days in [fromDay, toDay] (store days, as text), oldest first. */
export function closings(books: Books, fromDay: string, toDay: string): ClosingRecord[] {
  return stmt<[string, string], ClosingRow>(
    dbOf(books),
    'SELECT * FROM closings WHERE day >= ? AND day <= ? ORDER BY day',
  )
    .all(fromDay, toDay)
    .map(toRecord);
}

export interface CloseDayOptions extends FiguresOptions {
  /** The store's zone now; the record keeps it, and the day's orders stay those of this zone. */
  timeZone: string;
  now: Date;
  /** A member of staff (name and id), or `cli:<user>`. In the training log (no staff there) the id is not kept. */
  by: { name: string; staffId?: number };
  methods: readonly PaymentMethod[];
  staffNames: StaffNames;
}

/**
 * Closes a store day (docs/end-of-day.md, "Closing the day"): stores its figures as they are now, who closed it
 * and how many attention items were still open, in `closings` — a record the database refuses to change or
 * remove. A day can be closed from the moment it begins in the store's zone (a store closes today, in the
 * evening); a day still to come cannot. A day is closed once: a second close is refused (`conflict`), and
 * changes to its orders afterwards are listed on its report as after closing, never folded into these figures.
 * Open attention items do not stop it: their count is recorded (and said).
 */
export function closeDay(books: Books, day: string, options: CloseDayOptions): ClosingRecord {
  const db = dbOf(books);
  storeDays(day, day, options.timeZone);
  const today = dayIn(options.now, options.timeZone);
  if (day > today)
    throw refused(
      `${day} has not begun yet in ${options.timeZone} (today is ${today}): a day can be closed from the day itself on, not before`,
      reason('day.not_begun', { day, today }),
    );
  const name = options.by.name.trim();
  if (name.length < 1 || name.length > 100) throw invalidQuery('closed by', 'a name of 1 to 100 characters');

  const write = db.transaction((): ClosingRecord => {
    // A shift still open on the day (or before) has cash not yet counted: the day waits for its blind count.
    const openShift = new ShiftBook(db).openUpTo(day)[0];
    if (openShift)
      throw refused(
        `${day} cannot be closed while shift ${openShift.id} (opened ${openShift.businessDay} on ` +
          `${openShift.terminalId}) is open: close the shift with its count first ` +
          '(npm run cli -- shift close --counted AMOUNT)',
        reason('day.shift_open', { day, shiftId: openShift.id, businessDay: openShift.businessDay }),
      );
    // Read under the write lock: figures, the open items and the last event are one moment of the books.
    const existing = closingRow(db, day);
    if (existing)
      throw refused(
        `${day} was already closed at ${formatDateTime(existing.closed_at, existing.time_zone, 'en')} by ` +
          `${existing.closed_by}: a closed day stays closed, ` +
          'and changes since are listed on its report as after closing',
        reason('day.already_closed', { day, closedAt: existing.closed_at, by: existing.closed_by }),
      );
    const dayFigures = figures(db, day, day, options.timeZone, options.methods, options.staffNames, options);
    const range = storeDays(day, day, options.timeZone);
    const open = attention(db, options.now, { from: range.from, to: range.to }).length;
    const lastSeq = stmt<[], number>(db, 'SELECT COALESCE(MAX(seq), 0) FROM order_events').pluck().get()!;
    // The sales and the money taken as they stand now, under the same write lock: the closed day's record carries
    // what was sold and what the store took (docs/end-of-day.md, "Money taken").
    const sales = salesTaken(db, range, takingsOptions(options));
    const staffId = options.training ? undefined : options.by.staffId;
    stmt(
      db,
      `INSERT INTO closings (day, time_zone, closed_at, closed_by_staff_id, closed_by, figures, open_attention, last_event_seq, sales)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      day,
      options.timeZone,
      options.now.toISOString(),
      staffId ?? null,
      name,
      JSON.stringify(dayFigures),
      open,
      lastSeq,
      JSON.stringify(sales),
    );
    return toRecord(closingRow(db, day)!);
  });
  return db.inTransaction ? write() : write.immediate();
}

/**
 * Every change to an order of a closed day made after it was closed (an event written after the closing, for
 * an order created that day in the zone of the closing), oldest first. A sale made on that day after it was
 * closed is here too, from its `created` event on.
 */
export function afterClosing(books: Books, day: string, training = false): AfterClosingChange[] {
  const db = dbOf(books);
  const row = closingRow(db, day);
  return row ? changesSince(db, row, training) : [];
}

function changesSince(db: Database, row: ClosingRow, training: boolean): AfterClosingChange[] {
  // The events since the closing are those above its last sequence number. Two ways to find the day's among
  // them, both from indexes: from the events (few since a recent closing), or from the day's orders, each
  // probed for later events (a closing long ago). The cheaper one by count; SQLite keeps no statistics here.
  const lastSeq = stmt<[], number>(db, 'SELECT COALESCE(MAX(seq), 0) FROM order_events').pluck().get()!;
  const since = lastSeq - row.last_event_seq;
  if (since <= 0) return [];
  const range = storeDays(row.day, row.day, row.time_zone);
  const dayOrders = (JSON.parse(row.figures) as ReportFigures).orders.count;
  const eventsFirst = since <= EVENTS_FIRST_RATIO * Math.max(dayOrders, 1);
  // CROSS JOIN fixes the loop order (https://sqlite.org/optoverview.html#crossjoin).
  const sql = eventsFirst
    ? `SELECT e.* FROM order_events e CROSS JOIN orders o ON o.id = e.order_id
       WHERE e.seq > ? AND o.created_at >= ? AND o.created_at < ? AND o.training = ? ORDER BY e.seq`
    : `SELECT e.* FROM orders o CROSS JOIN order_events e ON e.order_id = o.id AND e.seq > ?
       WHERE o.created_at >= ? AND o.created_at < ? AND o.training = ? ORDER BY e.seq`;
  return stmt<[number, string, string, number], EventRow>(db, sql)
    .all(row.last_event_seq, range.from.toISOString(), range.to.toISOString(), training ? 1 : 0)
    .map((r) => {
      const e = rowToEvent(r);
      const change: AfterClosingChange = { orderId: e.orderId, at: e.at, type: e.type, source: e.source };
      if (e.from !== undefined) change.from = e.from;
      if (e.to !== undefined) change.to = e.to;
      if (e.actor !== undefined) change.actor = e.actor;
      if (e.reason !== undefined) change.reason = e.reason;
      return change;
    });
}

/**
 * Walking an event since the closing (and looking up its order) costs about three times probing one of the
 * day's orders for later events (measured on a 1,000,000-order file; docs/end-of-day.md, "Performance").
 */
const EVENTS_FIRST_RATIO = 1 / 3;

export interface DayReportOptions extends FiguresOptions {
  /** The store's zone; a closed day is reported in the zone it was closed in. */
  timeZone: string;
  now: Date;
  methods: readonly PaymentMethod[];
  staffNames: StaffNames;
}

/**
 * A store day's report (docs/end-of-day.md): its figures now, its attention items (those of its orders), and
 * — once it is closed — the closing record with the figures as they were then, and the changes since.
 */
export function dayReport(books: Books, day: string, options: DayReportOptions): DayReport {
  const db = dbOf(books);
  storeDays(day, day, options.timeZone);
  const row = closingRow(db, day);
  const closing = row && toRecord(row);
  const timeZone = closing?.timeZone ?? options.timeZone;
  const range = storeDays(day, day, timeZone);
  const changes = row ? changesSince(db, row, options.training ?? false) : [];
  return {
    date: day,
    timeZone,
    // A closed day's figures now are its closing's, rolled forward by the changes since (none: the same
    // counts); the names (methods, staff, the language) are today's either way.
    figures: closing
      ? changes.length === 0
        ? relabel(closing.figures, options.methods, options.staffNames, options.lang ?? 'id')
        : rollForward(db, closing, changes, options.methods, options.staffNames, options.lang ?? 'id')
      : figures(db, day, day, timeZone, options.methods, options.staffNames, options),
    attention: attention(db, options.now, {
      from: range.from,
      to: range.to,
      lang: options.lang ?? 'id',
      methods: options.methods,
    }),
    ...(closing ? { closing } : {}),
    afterClosing: changes,
    training: options.training ?? false,
    ...waitingOrders(db, range, options.training ?? false),
    sales: salesTaken(db, range, takingsOptions(options)),
    refunds: refundFigures(db, range, options.training ?? false),
    shifts: dayShifts(db, day, day),
  };
}

/** What the money taken is counted with: the books' kind, and the names of the methods and the staff. */
function takingsOptions(options: FiguresOptions & { methods: readonly PaymentMethod[]; staffNames: StaffNames }) {
  return {
    training: options.training ?? false,
    methods: options.methods,
    staffNames: options.staffNames,
    lang: options.lang ?? 'id',
  };
}

/** The day's orders still open, oldest first (the orders_state_created index): the close confirmation names them. */
function waitingOrders(
  db: Database,
  range: { from: Date; to: Date },
  training: boolean,
): Pick<DayReport, 'waiting' | 'waitingCount'> {
  const states = WAITING_STATES.map(() => '?').join(', ');
  const where = `state IN (${states}) AND created_at >= ? AND created_at < ? AND training = ?`;
  const params = [...WAITING_STATES, range.from.toISOString(), range.to.toISOString(), training ? 1 : 0];
  const waiting = stmt<(string | number)[], WaitingOrder>(
    db,
    `SELECT id, amount, method_id AS methodId, state, created_at AS createdAt, item_name AS itemName
     FROM orders WHERE ${where} ORDER BY created_at, id LIMIT ${WAITING_SHOWN}`,
  ).all(...params);
  const waitingCount =
    waiting.length < WAITING_SHOWN
      ? waiting.length
      : stmt<(string | number)[], number>(db, `SELECT COUNT(*) FROM orders WHERE ${where}`)
          .pluck()
          .get(...params)!;
  return { waiting, waitingCount };
}

/**
 * The report as the CLI's `report --json` prints it (docs/cli.md): the day's headline figures at the top level — the
 * money taken (`paid`, `taken`), then the gateway orders' figures (`ordersPaid`, `orders`, `byMethod`, `byState`,
 * `byStaff`); for a closed day those of its closing, the official ones, else the figures now — then every field of
 * the DayReport as it is.
 */
export function dayReportJson(report: DayReport): Record<string, unknown> {
  const official = report.closing?.figures ?? report.figures;
  const taken = takenOf(report);
  return {
    date: report.date,
    timeZone: report.timeZone,
    closed: report.closing !== undefined,
    // What the store took, by every tender (the sales', and old paid orders without a sale): the closing's once
    // closed. Before Loket counted sales by tender, `paid` was the gateway orders' figure: it is `ordersPaid` now.
    paid: { count: taken?.taken.count ?? 0, amount: taken?.taken.amount ?? 0 },
    taken: taken?.taken ?? NOTHING_TAKEN,
    takenAtClosing: taken?.atClosing ?? false,
    ordersPaid: official.paid,
    orders: official.orders,
    byMethod: official.byMethod,
    byState: official.byState,
    byStaff: official.byStaff,
    attention: report.attention,
    figures: report.figures,
    ...(report.closing ? { closing: report.closing } : {}),
    afterClosing: report.afterClosing,
    training: report.training,
    // The sales of the day: figures by category and product, the tax summary, tenders by kind and method, rounding.
    ...(report.sales ? { sales: report.sales, tenders: report.sales.tenders, rounding: report.sales.rounding } : {}),
    // The refunds of the day: count, amounts, by how the money went back, the tax given back.
    ...(report.refunds ? { refunds: report.refunds } : {}),
    shifts: report.shifts ?? [],
  };
}
