// The day's figures and closing the day (docs/end-of-day.md) on a live store: a real SQLite file, orders sent to
// a sandbox over loopback and changed by every path Loket has — callbacks, a status poll, a manager's override,
// a cancel, a late payment, an unknown outcome, a refusal, an expiry — then counted by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { OrderRuleError } from '../../src-main/common/order-policy';
import type { Order } from '../../src-main/common/order';
import type { ReportFigures } from '../../src-main/common/reports';
import { resolveAttention } from '../../src-main/core/reports/attention';
import {
  afterClosing,
  closeDay,
  closingOf,
  dayReport,
  dayReportJson,
  figures,
} from '../../src-main/core/reports/day-report';
import { ReportRuleError } from '../../src-main/core/reports/errors';
import { openLoket } from '../../src-main/runtime';
import { DAY_MS, openBooks, REFUSED_METHOD, STORE_ZONE, type Books } from './helpers/books';

const DAY = '2025-03-14';
const NEXT_DAY = '2025-03-15';

let books: Books;
/** The day's orders, by what happened to them. */
const o: Record<string, Order> = {};
let maxAmount = 0;

function staffNames() {
  return [
    { id: books.staff.ani, name: 'Ani' },
    { id: books.staff.budi, name: 'Budi' },
  ];
}

function figuresOf(day = DAY, options: { training?: boolean; lang?: 'id' | 'en' } = {}): ReportFigures {
  return figures(books.loket.db, day, day, STORE_ZONE, books.loket.methods, staffNames(), options);
}

function reportOf(day = DAY) {
  return dayReport(books.loket.db, day, {
    timeZone: STORE_ZONE,
    now: books.clock.now(),
    methods: books.loket.methods,
    staffNames: staffNames(),
  });
}

beforeAll(async () => {
  books = await openBooks();
  const { ani, budi } = books.staff;
  const { loket, sandbox } = books;
  maxAmount = Math.max(...loket.methods.map((m) => m.maxAmount));
  expect(loket.methods.find((m) => m.id === 'va_bca')!.maxAmount).toBe(maxAmount);

  // 10:00 WIB. An e-wallet order the gateway lets expire: its deadline passes, the sandbox calls back EXPIRED.
  o.expired = await books.sell({ methodId: 'ewallet_dana', amount: 22_000 }, ani);
  await books.advance(16 * 60_000);
  expect(loket.log.require(o.expired.id).state).toBe('expired');

  // The smallest amount there is, paid by the gateway's callback.
  o.min = await books.sell({ methodId: 'qris_dynamic', amount: 1 }, ani);
  expect((await books.settle(o.min.id, 'PAID')).state).toBe('paid');
  // The catalogue's largest, paid without a callback: Loket's status poll learns it.
  o.max = await books.sell({ methodId: 'va_bca', amount: maxAmount, customerName: 'Budi Santoso' }, budi, {
    quiet: true,
  });
  sandbox.settle(o.max.id, 'PAID');
  expect((await books.poll(o.max.id)).state).toBe('paid');
  // A manager's override: seen in the bank app.
  o.override = await books.sell({ methodId: 'ewallet_ovo', amount: 30_000 }, ani);
  loket.orders.confirmPaid(o.override.id, { source: 'manager', actor: 'Budi', reason: 'seen in the OVO app' });
  // The cashier cancels one.
  o.cancelled = await books.sell({ amount: 15_000 }, ani);
  loket.orders.cancel(o.cancelled.id, { source: 'cashier', actor: 'Ani', reason: 'customer left' });
  // Cancelled, then paid anyway: a late payment, flagged on a cancelled order.
  o.late = await books.sell({ amount: 20_000 });
  loket.orders.cancel(o.late.id, { source: 'cashier', reason: 'customer changed their mind' });
  const late = await books.settle(o.late.id, 'PAID');
  expect(late).toMatchObject({ state: 'cancelled', latePayment: true });
  // Sent, no answer: unknown.
  o.unknown = await books.unknownSale({ amount: 12_000 }, budi);
  // Refused by the gateway.
  o.rejected = await books.refusedSale({ amount: 18_000 }, ani);
  // The gateway says FAILED.
  o.failed = await books.sell({ amount: 9_000 });
  expect((await books.settle(o.failed.id, 'FAILED')).state).toBe('failed');
  // Still waiting.
  o.waiting = await books.sell({ amount: 40_000 }, budi);

  // A training order that found its way into the live log (only a hand edit could): never counted here.
  const row = books.loket.db.prepare('SELECT * FROM orders WHERE id = ?').get(o.min.id) as Record<string, unknown>;
  const cols = Object.keys(row);
  books.loket.db
    .prepare(`INSERT INTO orders (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`)
    .run({ ...row, id: 'TRAINING-ROW-1', training: 1, amount: 777_777, gateway_transaction_id: null });
});

afterAll(async () => {
  await books?.close();
});

describe('the figures of a day', () => {
  it('match a hand count: by method (with the paid part), by state, by staff; all orders; the paid total', () => {
    const f = figuresOf();
    const all = 1 + maxAmount + 30_000 + 15_000 + 20_000 + 12_000 + 18_000 + 9_000 + 40_000 + 22_000;
    expect(f).toEqual({
      from: DAY,
      to: DAY,
      timeZone: STORE_ZONE,
      paid: { count: 3, amount: 1 + maxAmount + 30_000 },
      // Cancelled, then paid anyway: not in the paid total, counted apart.
      latePaid: { count: 1, amount: 20_000 },
      orders: { count: 10, amount: all },
      byMethod: [
        {
          methodId: 'qris_dynamic',
          label: 'QRIS (semua aplikasi)',
          count: 6,
          amount: 1 + 15_000 + 20_000 + 12_000 + 9_000 + 40_000,
          paid: { count: 1, amount: 1 },
        },
        { methodId: 'ewallet_ovo', label: 'OVO', count: 1, amount: 30_000, paid: { count: 1, amount: 30_000 } },
        { methodId: 'ewallet_dana', label: 'DANA', count: 1, amount: 22_000, paid: { count: 0, amount: 0 } },
        { methodId: REFUSED_METHOD, label: 'LinkAja', count: 1, amount: 18_000, paid: { count: 0, amount: 0 } },
        {
          methodId: 'va_bca',
          label: books.loket.methods.find((m) => m.id === 'va_bca')!.label.id,
          count: 1,
          amount: maxAmount,
          paid: { count: 1, amount: maxAmount },
        },
      ],
      byState: [
        { state: 'awaiting_payment', count: 1, amount: 40_000 },
        { state: 'rejected', count: 1, amount: 18_000 },
        { state: 'unknown', count: 1, amount: 12_000 },
        { state: 'paid', count: 3, amount: 1 + maxAmount + 30_000 },
        { state: 'expired', count: 1, amount: 22_000 },
        { state: 'cancelled', count: 2, amount: 35_000 },
        { state: 'failed', count: 1, amount: 9_000 },
      ],
      byStaff: [
        {
          staffId: books.staff.ani,
          name: 'Ani',
          count: 5,
          amount: 1 + 30_000 + 15_000 + 18_000 + 22_000,
          paid: { count: 2, amount: 30_001 },
        },
        {
          staffId: books.staff.budi,
          name: 'Budi',
          count: 3,
          amount: maxAmount + 12_000 + 40_000,
          paid: { count: 1, amount: maxAmount },
        },
        { staffId: null, name: '(tanpa kasir)', count: 2, amount: 29_000, paid: { count: 0, amount: 0 } },
      ],
    });
  });

  it('the paid total is the sum of the paid orders in the log, and every part adds up to the whole', () => {
    const f = figuresOf();
    const range = { from: new Date('2025-03-13T17:00:00.000Z'), to: new Date('2025-03-14T17:00:00.000Z') };
    const live = books.loket.log.list(range).filter((order) => !order.training);
    const paid = live.filter((order) => order.state === 'paid');
    expect(f.paid).toEqual({ count: paid.length, amount: paid.reduce((s, x) => s + x.amount, 0) });
    expect(f.orders).toEqual({ count: live.length, amount: live.reduce((s, x) => s + x.amount, 0) });
    const sum = (xs: { count: number; amount: number }[]) =>
      xs.reduce((s, x) => ({ count: s.count + x.count, amount: s.amount + x.amount }), { count: 0, amount: 0 });
    for (const part of [f.byMethod, f.byState, f.byStaff]) expect(sum(part)).toEqual(f.orders);
    expect(sum(f.byMethod.map((m) => m.paid))).toEqual(f.paid);
    expect(sum(f.byStaff.map((s) => s.paid))).toEqual(f.paid);
    for (const x of [f.paid, f.orders, ...f.byMethod, ...f.byState]) expect(Number.isSafeInteger(x.amount)).toBe(true);
  });

  it("names come in the store's language; a range of days adds up; a day without orders is empty", () => {
    const en = figuresOf(DAY, { lang: 'en' });
    expect(en.byMethod[0]!.label).toBe('QRIS (any app)');
    expect(en.byStaff.at(-1)!.name).toBe('(nobody signed in)');
    const range = figures(books.loket.db, '2025-03-10', DAY, STORE_ZONE, books.loket.methods, staffNames());
    expect(range).toMatchObject({ from: '2025-03-10', to: DAY, paid: figuresOf().paid, orders: figuresOf().orders });
    expect(figuresOf('2025-03-13')).toMatchObject({
      paid: { count: 0, amount: 0 },
      orders: { count: 0, amount: 0 },
      byMethod: [],
      byState: [],
      byStaff: [],
    });
  });

  it('refuses a day that is not a date, and a range that runs backwards, in plain words', () => {
    const bad = (from: string, to: string) => () =>
      figures(books.loket.db, from, to, STORE_ZONE, books.loket.methods, []);
    expect(bad('2025-02-30', '2025-02-30')).toThrow(/from: a store day YYYY-MM-DD \(got "2025-02-30"\)/);
    expect(bad('14-03-2025', '14-03-2025')).toThrow(ReportRuleError);
    expect(bad(DAY, '2025-03-13')).toThrow(/to: must not be before from/);
    try {
      bad('yesterday', 'yesterday')();
    } catch (err) {
      expect(err).toBeInstanceOf(OrderRuleError);
      expect((err as ReportRuleError).code).toBe('invalid_arguments');
    }
  });

  it('training orders count in the training log only, and its report says so', async () => {
    // The same data folder in training mode: the embedded sandbox, orders in training/loket.db. In this process,
    // which holds the folder (the live Loket's store), as the app switches modes.
    const training = await openLoket({ store: books.loket.store, env: {}, clock: books.clock });
    try {
      expect(training.training).toBe(true);
      const sold = await training.orders.create(
        { methodId: 'qris_dynamic', amount: 5_000, itemName: 'Latihan' },
        { source: 'cashier', actor: 'Ani' },
      );
      expect(sold.ok).toBe(true);
      const t = figures(training.db, DAY, DAY, STORE_ZONE, training.methods, [], { training: true });
      expect(t.orders).toEqual({ count: 1, amount: 5_000 });
      expect(figures(training.db, DAY, DAY, STORE_ZONE, training.methods, [])).toMatchObject({
        orders: { count: 0, amount: 0 },
      });
      const report = dayReport(training.db, DAY, {
        timeZone: STORE_ZONE,
        now: books.clock.now(),
        methods: training.methods,
        staffNames: [],
        training: true,
      });
      expect(report.training).toBe(true);
      expect(report.figures.orders.count).toBe(1);
    } finally {
      await training.close();
    }
    // The live books are as they were: neither the training log nor the stray training row counts.
    expect(figuresOf().orders.count).toBe(10);
    expect(reportOf().training).toBe(false);
  });
});

describe('closing the day', () => {
  it('a day still to come is refused; today can be closed, with its open attention items counted', () => {
    const base = {
      timeZone: STORE_ZONE,
      now: books.clock.now(),
      by: { name: 'Budi', staffId: books.staff.budi },
      methods: books.loket.methods,
      staffNames: staffNames(),
    };
    expect(() => closeDay(books.loket.db, NEXT_DAY, base)).toThrow(
      /2025-03-15 has not begun yet in Asia\/Jakarta \(today is 2025-03-14\)/,
    );
    expect(() => closeDay(books.loket.db, '2025-13-01', base)).toThrow(/a store day YYYY-MM-DD/);
    expect(closingOf(books.loket.db, DAY)).toBeUndefined();

    const before = reportOf();
    // Open now: the unknown order, the late payment; the waiting order is not past its deadline yet.
    expect(before.attention.map((a) => [a.kind, a.orderId])).toEqual(
      expect.arrayContaining([
        ['unknown', o.unknown!.id],
        ['late_payment', o.late!.id],
      ]),
    );
    const closing = closeDay(books.loket.db, DAY, base);
    expect(closing).toEqual({
      day: DAY,
      timeZone: STORE_ZONE,
      closedAt: books.clock.now().toISOString(),
      closedBy: { staffId: books.staff.budi, name: 'Budi' },
      figures: before.figures,
      openAttention: before.attention.length,
      // The sales as they stood (none on this day: the empty figures, kept as such).
      sales: before.sales,
    });
    expect(closing.openAttention).toBe(2);
    expect(closingOf(books.loket.db, DAY)).toEqual(closing);
    // Nothing since: the figures now are the closing's, named as they are now.
    expect(reportOf().figures).toEqual(figuresOf());
    expect(reportOf().afterClosing).toEqual([]);
  });

  it('a second close is refused, in plain words, and changes nothing', () => {
    const first = closingOf(books.loket.db, DAY)!;
    let error: unknown;
    try {
      closeDay(books.loket.db, DAY, {
        timeZone: STORE_ZONE,
        now: books.clock.now(),
        by: { name: 'Ani' },
        methods: books.loket.methods,
        staffNames: staffNames(),
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ReportRuleError);
    expect((error as ReportRuleError).code).toBe('conflict');
    expect((error as Error).message).toBe(
      '2025-03-14 was already closed at 14/03/2025 10:16 WIB by Budi: a closed day stays closed, and changes ' +
        'since are listed on its report as after closing',
    );
    expect(closingOf(books.loket.db, DAY)).toEqual(first);
  });

  it('changes after closing are listed as such, and never change the closed figures', async () => {
    const closing = closingOf(books.loket.db, DAY)!;
    const { ani } = books.staff;
    await books.advance(60_000);
    // The waiting order is paid; the late payment is acknowledged; a sale is made that same day.
    await books.settle(o.waiting!.id, 'PAID');
    // One event since the closing (found from the events; the later ones, more than a third of the day's
    // orders, from the orders: both ways give the same list).
    expect(afterClosing(books.loket.db, DAY)).toMatchObject([{ orderId: o.waiting!.id, to: 'paid' }]);
    expect(reportOf().figures).toEqual(figuresOf());
    await resolveAttention({ log: books.loket.log, orders: books.loket.orders }, o.late!.id, 'acknowledge', {
      reason: 'refunded in cash',
      actor: { name: 'Budi', staffId: books.staff.budi },
    });
    const evening = await books.sell({ amount: 5_000 }, ani);

    const report = reportOf();
    expect(report.closing).toEqual(closing);
    expect(report.closing!.figures.paid).toEqual({ count: 3, amount: 1 + maxAmount + 30_000 });
    expect(report.figures.paid).toEqual({ count: 4, amount: 1 + maxAmount + 30_000 + 40_000 });
    expect(report.figures.orders.count).toBe(11);
    expect(report.afterClosing).toEqual([
      {
        orderId: o.waiting!.id,
        at: books.clock.now().toISOString(),
        type: 'state_changed',
        from: 'awaiting_payment',
        to: 'paid',
        source: 'callback',
        reason: expect.stringMatching(/^gateway callback: PAID/),
      },
      {
        orderId: o.late!.id,
        at: books.clock.now().toISOString(),
        type: 'note',
        source: 'manager',
        actor: 'Budi',
        reason: 'refunded in cash',
      },
      {
        orderId: evening.id,
        at: books.clock.now().toISOString(),
        type: 'created',
        to: 'creating',
        source: 'cashier',
        actor: 'Ani',
      },
      {
        orderId: evening.id,
        at: books.clock.now().toISOString(),
        type: 'state_changed',
        from: 'creating',
        to: 'awaiting_payment',
        source: 'gateway',
        actor: 'Ani',
        reason: 'the gateway accepted the order',
      },
    ]);
    expect(afterClosing(books.loket.db, DAY)).toEqual(report.afterClosing);
    // The figures now, rolled forward from the closing by these changes, are those of a count from scratch.
    expect(report.figures).toEqual(figuresOf());
    // The record itself is as it was at closing.
    expect(closingOf(books.loket.db, DAY)).toEqual(closing);

    // A payment after closing for the order cancelled that day: a late payment the closed figures lack, in the
    // figures now (rolled forward, as a count from scratch has it).
    expect((await books.settle(o.cancelled!.id, 'PAID')).latePayment).toBe(true);
    const later = reportOf();
    expect(later.closing!.figures.latePaid).toEqual({ count: 1, amount: 20_000 });
    expect(later.figures.latePaid).toEqual({ count: 2, amount: 35_000 });
    expect(later.figures).toEqual(figuresOf());
  });

  it('an order of another day is never a change of this one; the next day is not closed', async () => {
    await books.advance(DAY_MS);
    const tomorrow = await books.sell({ amount: 7_000 });
    await books.settle(tomorrow.id, 'PAID');
    expect(afterClosing(books.loket.db, DAY).map((c) => c.orderId)).not.toContain(tomorrow.id);
    // The day went by: the sandbox let the orders still waiting expire (an unknown one too), and said so.
    const report = reportOf();
    expect(report.afterClosing.filter((c) => c.to === 'expired').map((c) => c.orderId)).toEqual(
      expect.arrayContaining([o.unknown!.id]),
    );
    expect(report.figures).toEqual(figuresOf());
    expect(report.figures.byState.find((x) => x.state === 'unknown')).toBeUndefined();
    const next = reportOf(NEXT_DAY);
    expect(next.closing).toBeUndefined();
    expect(next.afterClosing).toEqual([]);
    expect(next.figures.paid).toEqual({ count: 1, amount: 7_000 });
  });

  it('the closings row cannot be changed or removed, even with raw SQL from another connection', () => {
    const raw = new BetterSqlite3(join(books.dir, 'loket.db'));
    try {
      expect(() => raw.prepare("UPDATE closings SET figures = '{}' WHERE day = ?").run(DAY)).toThrow(
        /closings: a closed day cannot be changed/,
      );
      expect(() => raw.prepare('UPDATE closings SET open_attention = 0').run()).toThrow(/cannot be changed/);
      expect(() => raw.prepare('DELETE FROM closings WHERE day = ?').run(DAY)).toThrow(
        /closings: a closed day cannot be reopened/,
      );
      expect(() => raw.prepare('INSERT OR REPLACE INTO closings SELECT * FROM closings').run()).toThrow(
        /closings: a closed day cannot be closed again/,
      );
      expect(raw.prepare('SELECT COUNT(*) FROM closings').pluck().get()).toBe(1);
    } finally {
      raw.close();
    }
  });

  it('the report of a closed day: its JSON has the official figures at the top, and every field', () => {
    const report = reportOf();
    const json = dayReportJson(report) as Record<string, unknown>;
    expect(json).toMatchObject({
      date: DAY,
      timeZone: STORE_ZONE,
      closed: true,
      paid: report.closing!.figures.paid,
      orders: report.closing!.figures.orders,
      byMethod: report.closing!.figures.byMethod,
      byState: report.closing!.figures.byState,
      attention: report.attention,
      figures: report.figures,
      closing: report.closing,
      afterClosing: report.afterClosing,
      training: false,
    });
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });
});
