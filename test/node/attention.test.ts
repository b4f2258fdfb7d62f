// The attention queue (docs/end-of-day.md, "Attention") on a live store: a real SQLite file, a sandbox over
// loopback, Loket's callback listener, one fake clock. Every kind of item is made the way it happens at the
// counter, and every action takes its item off the queue, leaving its trail in the order's events.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import type { Order } from '../../src-main/common/order';
import { InvalidReasonError, OrderNotFoundError } from '../../src-main/common/order-policy';
import type { AttentionItem } from '../../src-main/common/reports';
import { attention, resolveAttention, type AttentionDeps } from '../../src-main/core/reports/attention';
import { CallbackIssues } from '../../src-main/core/reports/callback-issues';
import { ReportRuleError } from '../../src-main/core/reports/errors';
import { openBooks, type Books } from './helpers/books';

let books: Books;

beforeEach(async () => {
  books = await openBooks();
});
afterEach(async () => {
  await books.close();
});

const deps = (): AttentionDeps => ({ log: books.loket.log, orders: books.loket.orders, client: books.loket.client });
const budi = () => ({ name: 'Budi', staffId: books.staff.budi });
const queue = (lang: 'id' | 'en' = 'en'): AttentionItem[] =>
  attention(books.loket.log, books.clock.now(), { lang, methods: books.loket.methods });
const kinds = () => queue().map((i) => [i.kind, i.orderId]);

function callback(order: Pick<Order, 'id' | 'amount'>, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    merchant_transaction_id: order.id,
    transaction_id: 'SBX-HAND-0001',
    status: 'PAID',
    amount: order.amount,
    payment_method: 'qris_dynamic',
    paid_at: '2025-03-14 10:05:00',
    ...overrides,
  });
}

/** Sent, no answer: the order is unknown (a virtual account, so no expiry moves it during a test). */
async function unknownOrder(): Promise<Order> {
  return books.unknownSale({ methodId: 'va_bni', amount: 150_000, itemName: 'Beras 10 kg' }, books.staff.ani);
}

async function latePayment(): Promise<Order> {
  const order = await books.sell({ amount: 20_000 });
  books.loket.orders.cancel(order.id, { source: 'cashier', reason: 'customer left' });
  const after = await books.settle(order.id, 'PAID');
  expect(after).toMatchObject({ state: 'cancelled', latePayment: true });
  return after;
}

/** Awaiting payment past its deadline: the gateway let it expire, and never called back. */
async function overdueOrder(): Promise<Order> {
  const order = await books.sell({ amount: 35_000 }, books.staff.ani, { quiet: true });
  await books.advance(15 * 60_000 + 1);
  expect(books.sandbox.orders.get(order.id)!.status).toBe('EXPIRED');
  expect(books.loket.log.require(order.id).state).toBe('awaiting_payment');
  return books.loket.log.require(order.id);
}

const managerEvents = (id: string) => books.loket.log.events(id).filter((e) => e.source === 'manager');

describe('the queue', () => {
  it('has each kind, oldest first, with the actions that fit it and plain words in either language', async () => {
    // A second between each, so that "oldest first" has one answer.
    const unknown = await unknownOrder();
    await books.advance(1000);
    const late = await latePayment();
    await books.advance(1000);
    const overdue = await overdueOrder();
    // An authentic callback for an order this till never made: 404, and an issue.
    const stranger = { id: 'T09-20250314-031600000-ZZZZ', amount: 75_000 };
    expect((await books.postCallback(callback(stranger))).status).toBe(404);
    await books.advance(1000);
    // Another amount than the order's: 409, and an issue.
    const waiting = await books.sell({ amount: 50_000 }, books.staff.budi);
    expect((await books.postCallback(callback({ id: waiting.id, amount: 5_000 }))).status).toBe(409);
    await books.advance(1000);
    // EXPIRED for a paid order: not a forward change, 200, a note, and an issue.
    const paid = await books.sell({ amount: 10_000 });
    await books.settle(paid.id, 'PAID');
    expect((await books.postCallback(callback(paid, { status: 'EXPIRED' }))).status).toBe(200);

    const items = queue();
    expect(items.map((i) => [i.kind, i.orderId, i.actions, i.issueId !== undefined])).toEqual([
      ['unknown', unknown.id, ['check', 'mark_paid', 'cancel', 'set_aside'], false],
      ['late_payment', late.id, ['acknowledge'], false],
      ['overdue', overdue.id, ['check', 'mark_paid', 'cancel'], false],
      ['callback_problem', stranger.id, ['acknowledge'], true],
      ['callback_problem', waiting.id, ['check', 'acknowledge'], true],
      ['callback_problem', paid.id, ['check', 'acknowledge'], true],
    ]);
    expect(items.map((i) => i.since)).toEqual([...items.map((i) => i.since)].sort());
    expect(items[2]!.since).toBe(overdue.expiresAt);
    expect(items.find((i) => i.orderId === stranger.id)!.order).toBeUndefined();
    expect(items.find((i) => i.orderId === waiting.id)!.order).toMatchObject({ id: waiting.id, amount: 50_000 });
    expect(items.map((i) => i.summary)).toEqual([
      'Sent, but its outcome is not known: it may have been charged (Rp150.000, BNI virtual account).',
      'Paid after it was cancelled: the money is somewhere (Rp20.000, QRIS (any app)).',
      'Still awaiting payment past its deadline: the gateway never said (Rp35.000, QRIS (any app)).',
      'An authentic PAID Rp75.000 callback for an order this till does not have.',
      'A PAID callback reports Rp5.000, but the order is for Rp50.000: not applied.',
      'The gateway reported EXPIRED while the order is paid: ignored.',
    ]);
    expect(queue('id')[0]!.summary).toBe(
      'Terkirim, tetapi hasilnya belum diketahui: mungkin sudah ditagih (Rp150.000, Virtual Account BNI).',
    );
    // Only the items of orders created in a range (a stranger's callback: when it came).
    const later = attention(books.loket.log, books.clock.now(), { from: new Date(overdue.createdAt) });
    expect(later.map((i) => i.kind)).not.toContain('unknown');
    expect(attention(books.loket.log, books.clock.now(), { to: new Date('2025-03-14T02:00:00.000Z') })).toEqual([]);
  });

  it("records a refused callback once per body, whatever the retries, and never changes the gateway's answer", async () => {
    const stranger = { id: 'T09-NOT-HERE', amount: 75_000 };
    const body = callback(stranger);
    for (let i = 0; i < 3; i++) {
      const answer = await books.postCallback(body);
      expect(answer.status).toBe(404);
      expect(answer.json.success).toBe(false);
    }
    await books.postCallback(callback(stranger, { transaction_id: 'SBX-HAND-0002' }));
    const order = await books.sell({ amount: 8_000 });
    for (let i = 0; i < 3; i++)
      expect((await books.postCallback(callback({ id: order.id, amount: 1 }))).status).toBe(409);
    const paid = await books.sell({ amount: 9_000 });
    await books.settle(paid.id, 'PAID');
    const backwards = callback(paid, { status: 'FAILED' });
    expect((await books.postCallback(backwards)).status).toBe(200);
    // A replay of an applied callback is dropped as a replay: no second note, no second issue.
    expect((await books.postCallback(backwards)).json.message).toMatch(/already processed/);

    const issues = new CallbackIssues(books.loket.db).open();
    expect(issues.map((i) => [i.orderId, i.reason, i.status, i.amount])).toEqual([
      [stranger.id, 'unknown_order', 'PAID', 75_000],
      [stranger.id, 'unknown_order', 'PAID', 75_000],
      [order.id, 'amount_mismatch', 'PAID', 1],
      [paid.id, 'not_forward', 'FAILED', 9_000],
    ]);
    expect(books.loket.log.events(paid.id).filter((e) => e.type === 'note')).toHaveLength(1);
    // The refusals of an unknown order and of an amount leave no callback receipt: the gateway's retries go on.
    const receipts = books.loket.db.prepare('SELECT order_id FROM callback_receipts ORDER BY id').pluck().all();
    expect(receipts).not.toContain(stranger.id);
    expect(receipts).not.toContain(order.id);
  });
});

describe('acting on an item', () => {
  it('unknown → check: the status inquiry finds it waiting; the item leaves; the reason and the manager are on record', async () => {
    const order = await unknownOrder();
    const outcome = await resolveAttention(deps(), order.id, 'check', {
      reason: 'customer is still here',
      actor: budi(),
    });
    expect(outcome).toMatchObject({ action: 'check', kind: 'unknown', orderId: order.id, resolved: true });
    expect(outcome.order!.state).toBe('awaiting_payment');
    expect(kinds()).toEqual([]);
    expect(managerEvents(order.id).map((e) => [e.type, e.to, e.actor, e.reason])).toEqual([
      ['note', undefined, 'Budi', 'customer is still here'],
      ['state_changed', 'awaiting_payment', 'Budi', 'the status inquiry found the order waiting for payment'],
    ]);
  });

  it('unknown → mark paid, and unknown → cancel', async () => {
    const a = await unknownOrder();
    await books.advance(1000);
    const b = await unknownOrder();
    expect(kinds()).toEqual([
      ['unknown', a.id],
      ['unknown', b.id],
    ]);
    const paid = await resolveAttention(deps(), a.id, 'mark_paid', {
      reason: 'transfer seen in BNI app',
      actor: budi(),
    });
    expect(paid).toMatchObject({ resolved: true, order: { state: 'paid' } });
    const cancelled = await resolveAttention(deps(), b.id, 'cancel', { reason: 'customer never paid', actor: budi() });
    expect(cancelled).toMatchObject({ resolved: true, order: { state: 'cancelled' } });
    expect(kinds()).toEqual([]);
    expect(managerEvents(a.id).map((e) => [e.from, e.to, e.actor, e.reason])).toEqual([
      ['unknown', 'paid', 'Budi', 'transfer seen in BNI app'],
    ]);
    expect(managerEvents(b.id).map((e) => [e.from, e.to, e.actor, e.reason])).toEqual([
      ['unknown', 'cancelled', 'Budi', 'customer never paid'],
    ]);
  });

  it('overdue → check: the gateway says it expired; overdue → cancel; overdue → mark paid', async () => {
    const a = await overdueOrder();
    const checked = await resolveAttention(deps(), a.id, 'check', { reason: 'end of day check', actor: budi() });
    expect(checked).toMatchObject({ kind: 'overdue', resolved: true, order: { state: 'expired' } });
    expect(managerEvents(a.id).map((e) => [e.type, e.to, e.reason])).toEqual([
      ['note', undefined, 'end of day check'],
      ['state_changed', 'expired', 'check: the status inquiry says EXPIRED'],
    ]);

    const b = await overdueOrder();
    const c = await overdueOrder();
    expect(kinds()).toEqual([
      ['overdue', b.id],
      ['overdue', c.id],
    ]);
    await resolveAttention(deps(), b.id, 'cancel', { reason: 'customer walked away', actor: budi() });
    await resolveAttention(deps(), c.id, 'mark_paid', { reason: 'paid in the OVO app', actor: budi() });
    expect(kinds()).toEqual([]);
    expect(books.loket.log.require(b.id).state).toBe('cancelled');
    expect(books.loket.log.require(c.id)).toMatchObject({ state: 'paid', paidAt: books.clock.now().toISOString() });
  });

  it('late payment → acknowledge: a note says so; a later late payment opens it again', async () => {
    const order = await latePayment();
    expect(kinds()).toEqual([['late_payment', order.id]]);
    const outcome = await resolveAttention(deps(), order.id, 'acknowledge', {
      reason: 'refunded in cash',
      actor: budi(),
    });
    expect(outcome).toMatchObject({ kind: 'late_payment', resolved: true });
    expect(kinds()).toEqual([]);
    expect(managerEvents(order.id)).toMatchObject([
      { type: 'note', actor: 'Budi', reason: 'refunded in cash', payload: { acknowledged: 'late_payment' } },
    ]);
    await expect(resolveAttention(deps(), order.id, 'acknowledge', { reason: 'again', actor: budi() })).rejects.toThrow(
      /has no late payment, callback problem or mismatch to acknowledge/,
    );

    // The customer pays a second time: a new late payment, a new item.
    expect((await books.postCallback(callback(order, { transaction_id: 'SBX-HAND-0002' }))).status).toBe(200);
    expect(kinds()).toEqual([['late_payment', order.id]]);
  });

  it('callback problem of an order this log lacks → acknowledge by its number; checking it is refused', async () => {
    const stranger = { id: 'T09-NOT-HERE', amount: 75_000 };
    await books.postCallback(callback(stranger));
    const [item] = queue();
    expect(item).toMatchObject({ kind: 'callback_problem', orderId: stranger.id, actions: ['acknowledge'] });
    await expect(
      resolveAttention(deps(), item!.issueId!, 'check', { reason: 'look it up', actor: budi() }),
    ).rejects.toThrow(/can only be acknowledged/);
    await books.advance(60_000);
    const outcome = await resolveAttention(deps(), item!.issueId!, 'acknowledge', {
      reason: 'belongs to the other till, told them',
      actor: budi(),
    });
    expect(outcome).toMatchObject({ kind: 'callback_problem', issueId: item!.issueId, resolved: true });
    expect(outcome.order).toBeUndefined();
    expect(kinds()).toEqual([]);
    expect(new CallbackIssues(books.loket.db).get(item!.issueId!)).toMatchObject({
      acknowledgedAt: books.clock.now().toISOString(),
      acknowledgedBy: 'Budi',
      note: 'belongs to the other till, told them',
    });
    await expect(
      resolveAttention(deps(), item!.issueId!, 'acknowledge', { reason: 'twice', actor: budi() }),
    ).rejects.toThrow(/was already acknowledged/);
  });

  it('callback problem of an order here → check asks the gateway and acknowledges it; or acknowledge by order id', async () => {
    const a = await books.sell({ amount: 50_000 });
    await books.postCallback(callback({ id: a.id, amount: 5_000 }));
    const b = await books.sell({ amount: 60_000 });
    await books.postCallback(callback({ id: b.id, amount: 6_000 }));
    expect(kinds()).toEqual([
      ['callback_problem', a.id],
      ['callback_problem', b.id],
    ]);
    const issueA = queue()[0]!.issueId!;
    // The gateway has the order still waiting: an answer, so the issue is acknowledged.
    const checked = await resolveAttention(deps(), issueA, 'check', {
      reason: 'which amount is right?',
      actor: budi(),
    });
    expect(checked).toMatchObject({ kind: 'callback_problem', resolved: true, order: { state: 'awaiting_payment' } });
    expect(checked.message).toMatch(/still waits for payment/);
    expect(managerEvents(a.id).map((e) => [e.type, e.reason, e.payload])).toEqual([
      ['note', 'which amount is right?', { attention: 'check' }],
      ['note', 'check: the gateway still waits for payment', { inquiry: expect.any(String) }],
      [
        'note',
        'which amount is right? (checked: awaiting_payment)',
        { acknowledged: 'callback_problem', issueId: issueA },
      ],
    ]);

    const byOrder = await resolveAttention(deps(), b.id, 'acknowledge', {
      reason: 'wrong amount keyed',
      actor: budi(),
    });
    expect(byOrder).toMatchObject({ kind: 'callback_problem', resolved: true });
    expect(managerEvents(b.id)).toMatchObject([{ type: 'note', payload: { acknowledged: 'callback_problem' } }]);
    expect(kinds()).toEqual([]);
  });

  it('refuses what does not fit, and a reason that breaks the rule, changing nothing', async () => {
    const late = await latePayment();
    const fine = await books.sell({ amount: 10_000 });
    const before = books.loket.log.events(late.id).length;
    const act = (target: string | number, action: Parameters<typeof resolveAttention>[2], reason = 'a reason') =>
      resolveAttention(deps(), target, action, { reason, actor: budi() });

    await expect(act(late.id, 'acknowledge', 'ok')).rejects.toBeInstanceOf(InvalidReasonError);
    await expect(act(late.id, 'acknowledge', ' '.repeat(10))).rejects.toBeInstanceOf(InvalidReasonError);
    await expect(act(late.id, 'cancel')).rejects.toThrow(
      /is cancelled; cancel is for an order whose outcome is unknown/,
    );
    await expect(act(fine.id, 'mark_paid')).rejects.toThrow(/awaiting_payment within its deadline/);
    await expect(act('T01-NO-SUCH-ORDER', 'check')).rejects.toBeInstanceOf(OrderNotFoundError);
    await expect(act(999, 'acknowledge')).rejects.toMatchObject({
      code: 'not_found',
      message: 'no callback issue 999',
    });
    await expect(act(late.id, 'refund' as never)).rejects.toMatchObject({ code: 'invalid_arguments' });
    await expect(
      resolveAttention(deps(), late.id, 'acknowledge', { reason: 'fine reason', actor: { name: ' ' } }),
    ).rejects.toBeInstanceOf(ReportRuleError);
    expect(books.loket.log.events(late.id)).toHaveLength(before);
    expect(books.loket.log.require(fine.id).state).toBe('awaiting_payment');
    expect(kinds()).toEqual([['late_payment', late.id]]);
  });

  it('a check without a status inquiry is refused for an order that is not unknown', async () => {
    const order = await overdueOrder();
    const noInquiry = { ...deps(), client: { inquire: books.loket.client.inquire, config: { inquiryPath: null } } };
    await expect(
      resolveAttention(noInquiry, order.id, 'check', { reason: 'end of day', actor: budi() }),
    ).rejects.toThrow(/has no status inquiry/);
    expect(managerEvents(order.id)).toEqual([]);
  });
});

describe('callback_issues in the database', () => {
  it('an issue can only be acknowledged, once; never changed otherwise, replaced or removed', async () => {
    await books.postCallback(callback({ id: 'T09-NOT-HERE', amount: 75_000 }));
    const raw = new BetterSqlite3(join(books.dir, 'loket.db'));
    try {
      const id = raw.prepare('SELECT id FROM callback_issues').pluck().get() as number;
      expect(() => raw.prepare('UPDATE callback_issues SET amount = 1 WHERE id = ?').run(id)).toThrow(
        /callback_issues: a row can only be acknowledged, once/,
      );
      expect(() => raw.prepare("UPDATE callback_issues SET order_id = 'X' WHERE id = ?").run(id)).toThrow(/once/);
      expect(() => raw.prepare('DELETE FROM callback_issues').run()).toThrow(
        /callback_issues: a row cannot be deleted/,
      );
      expect(() =>
        raw.prepare('INSERT OR REPLACE INTO callback_issues SELECT * FROM callback_issues WHERE id = ?').run(id),
      ).toThrow(/callback_issues: a row cannot be replaced/);
      const ack = raw.prepare(
        'UPDATE callback_issues SET acknowledged_at = ?, acknowledged_by = ?, note = ? WHERE id = ?',
      );
      expect(() => ack.run('2025-03-14T04:00:00.000Z', 'Budi', null, id)).toThrow(/CHECK constraint failed/);
      ack.run('2025-03-14T04:00:00.000Z', 'Budi', 'told the other till', id);
      expect(() => ack.run('2025-03-14T05:00:00.000Z', 'Ani', 'again', id)).toThrow(/once/);
      expect(() =>
        raw.prepare('UPDATE callback_issues SET acknowledged_at = NULL, acknowledged_by = NULL, note = NULL').run(),
      ).toThrow(/once/);
    } finally {
      raw.close();
    }
    expect(queue()).toEqual([]);
  });
});
