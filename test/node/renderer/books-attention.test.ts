// @vitest-environment jsdom
// The attention queue against the fake API: a reason is required before anything is sent, the action goes to
// the right target, its outcome is shown and the queue is loaded again; refusals land where they belong.
import { describe, expect, test } from 'vitest';
import { REASON_MAX as POLICY_MAX, REASON_MIN as POLICY_MIN } from '../../../src-main/common/order-policy';
import type { AttentionItem } from '../../../src-main/common/reports';
import { CallError } from '../../../src-renderer/src/api/errors';
import { REASON_MAX, REASON_MIN, reasonProblem } from '../../../src-renderer/src/lib/reason';
import { attentionTarget } from '../../../src-renderer/src/state/attention-queue.svelte';
import { ManagerSession } from '../../../src-renderer/src/state/manager-session.svelte';
import {
  dayReport,
  FakeApi,
  later,
  makeOrder,
  MANAGER,
  managerSession,
  managerView,
  settle,
  tillStatus,
  unknownItem,
} from './fake-client';

const TOKEN = managerSession().token;
const NOW = Date.parse('2026-03-10T12:00:00.000Z');

async function open(queue: AttentionItem[][]) {
  const fake = new FakeApi();
  fake.on('unlockManager', () => ({ ok: true, session: managerSession() })).on('managerView', () => managerView());
  // Each load answers the next queue in the list; the last one stays.
  const answers = [...queue];
  fake.on('attentionQueue', () => (answers.length > 1 ? answers.shift()! : answers[0]!));
  const manager = new ManagerSession({ api: fake.api, till: () => tillStatus(), now: () => NOW });
  manager.pick(MANAGER.id);
  manager.pin.setText('97531864');
  expect(await manager.unlock()).toBe(true);
  const attention = manager.editors!.attention;
  await attention.load();
  return { fake, manager, attention };
}

const order = makeOrder({ state: 'unknown' });
const DONE = { key: 'attention.now', params: { orderId: order.id, state: 'paid' } } as const;
const item = unknownItem(order);
const problem: AttentionItem = {
  kind: 'callback_problem',
  orderId: 'T1-ELSEWHERE',
  since: '2026-03-10T04:00:00.000Z',
  summary: 'Callback PAID yang sah untuk pesanan yang tidak ada di kasir ini.',
  what: { key: 'attention.item.unknown_order', params: { status: 'PAID' } },
  actions: ['acknowledge'],
  issueId: 7,
};

test("the reason rule is the server's", () => {
  expect([REASON_MIN, REASON_MAX]).toEqual([POLICY_MIN, POLICY_MAX]);
  expect(reasonProblem('  ab  ')).toBe('too_short');
  expect(reasonProblem(' abc ')).toBeUndefined();
  expect(reasonProblem('x'.repeat(REASON_MAX + 1))).toBe('too_long');
});

describe('an action with its reason', () => {
  test('without a reason of 3 to 200 characters nothing is sent; the problem is named', async () => {
    const { fake, attention } = await open([[item]]);
    attention.start(item, 'mark_paid');
    expect(attention.pending).toEqual({ item, action: 'mark_paid' });
    expect(await attention.confirm()).toBe(false);
    expect(attention.reasonIssue).toEqual({ kind: 'too_short' });
    attention.setReason('  ok ');
    expect(attention.reasonIssue).toBeNull();
    expect(await attention.confirm()).toBe(false);
    expect(attention.reasonIssue).toEqual({ kind: 'too_short' });
    attention.setReason('x'.repeat(201));
    expect(await attention.confirm()).toBe(false);
    expect(attention.reasonIssue).toEqual({ kind: 'too_long' });
    expect(fake.callsOf('resolveAttention')).toEqual([]);
    expect(attention.pending).not.toBeNull();
  });

  test('sent for the order with the reason trimmed; the outcome is shown and the queue loaded again', async () => {
    const { fake, attention } = await open([[item], []]);
    expect(attention.count).toBe(1);
    const paid = later(order, { state: 'paid' });
    fake.on('resolveAttention', () => ({
      resolved: true,
      message: `order ${order.id} is now paid`,
      reason: { key: 'attention.now', params: { orderId: order.id, state: 'paid' } },
      order: paid,
    }));
    attention.start(item, 'mark_paid');
    attention.setReason('  seen on the bank statement ');
    expect(await attention.confirm()).toBe(true);
    expect(fake.callsOf('resolveAttention')).toEqual([[TOKEN, order.id, 'mark_paid', 'seen on the bank statement']]);
    expect(fake.callsOf('attentionQueue')).toHaveLength(2);
    expect(attention.pending).toBeNull();
    expect(attention.items).toEqual([]);
    expect(attention.count).toBe(0);
    expect(attention.outcome).toMatchObject({ orderId: order.id, action: 'mark_paid', resolved: true, order: paid });
  });

  test('coming back to the section later: the queue afresh, the old outcome gone', async () => {
    const { fake, manager, attention } = await open([[item], [], []]);
    fake.on('resolveAttention', () => ({ resolved: true, message: 'done', reason: DONE }));
    attention.start(item, 'check');
    attention.setReason('customer asked');
    await attention.confirm();
    expect(attention.outcome).not.toBeNull();
    manager.selectSection('audit');
    fake.on('auditLog', () => []);
    manager.selectSection('attention');
    await settle();
    expect(attention.outcome).toBeNull();
    expect(fake.callsOf('attentionQueue')).toHaveLength(3);
  });

  test('a check that learns nothing leaves the item in the queue, and says so', async () => {
    const { fake, attention } = await open([[item]]);
    fake.on('resolveAttention', () => ({
      resolved: false,
      message: 'the gateway did not answer',
      reason: { key: 'attention.inquiry_failed', params: { orderId: order.id } },
      order,
    }));
    attention.start(item, 'check');
    attention.setReason('customer asked');
    expect(await attention.confirm()).toBe(true);
    expect(attention.outcome?.resolved).toBe(false);
    expect(attention.items).toEqual([item]);
  });

  test('a callback problem is acted on by its own number (its order may not be here)', async () => {
    const { fake, attention } = await open([[problem], []]);
    expect(attentionTarget(problem)).toBe(7);
    expect(attentionTarget(item)).toBe(order.id);
    fake.on('resolveAttention', () => ({
      resolved: true,
      message: 'callback problem acknowledged',
      reason: { key: 'attention.problems_acknowledged', params: { count: 1 } },
    }));
    attention.start(problem, 'acknowledge');
    attention.setReason('not our order: told the gateway');
    expect(await attention.confirm()).toBe(true);
    expect(fake.callsOf('resolveAttention')).toEqual([[TOKEN, 7, 'acknowledge', 'not our order: told the gateway']]);
  });

  test('an action the item does not allow is not started', async () => {
    const { attention } = await open([[problem]]);
    attention.start(problem, 'mark_paid');
    expect(attention.pending).toBeNull();
  });

  test("the server's refusal of the reason is shown at the field, in its words; the dialog stays", async () => {
    const { fake, attention } = await open([[item]]);
    // Known by its reason, never by reading the English (which may say anything).
    const rule = { key: 'order.reason_rule', params: { min: 3, max: 200 } } as const;
    fake.fail('resolveAttention', new CallError('invalid_arguments', 'words that do not matter', undefined, rule));
    attention.start(item, 'cancel');
    attention.setReason('abc');
    expect(await attention.confirm()).toBe(false);
    expect(attention.reasonIssue).toEqual({ kind: 'server', reason: rule });
    expect(attention.actionError).toBeNull();
    expect(attention.pending?.action).toBe('cancel');
  });

  test('dealt with elsewhere meanwhile: the refusal is shown and the queue loaded again', async () => {
    const { fake, attention } = await open([[item], []]);
    fake.fail('resolveAttention', new CallError('conflict', `order ${order.id} is paid`));
    attention.start(item, 'cancel');
    attention.setReason('customer left');
    expect(await attention.confirm()).toBe(false);
    await settle();
    expect(attention.actionError?.code).toBe('conflict');
    expect(attention.reasonIssue).toBeNull();
    expect(attention.items).toEqual([]);
  });

  test("after an action, the day's report on show is loaded again (its attention items changed)", async () => {
    const { fake, attention, manager } = await open([[item], []]);
    const day = manager.editors!.day;
    fake.on('dayReport', (_t, d) => dayReport(d, { attention: [item] }));
    await day.open();
    fake.on('dayReport', (_t, d) => dayReport(d));
    fake.on('resolveAttention', () => ({ resolved: true, message: 'done', reason: DONE }));
    attention.start(item, 'check');
    attention.setReason('customer asked');
    await attention.confirm();
    await settle();
    expect(fake.callsOf('dayReport')).toHaveLength(2);
    expect(day.report?.attention).toEqual([]);
  });
});

test('the count for the nav is unknown until the queue is loaded, and loaded once by loadOnce', async () => {
  const fake = new FakeApi();
  fake.on('unlockManager', () => ({ ok: true, session: managerSession() })).on('managerView', () => managerView());
  fake.on('attentionQueue', () => [item, problem]);
  const manager = new ManagerSession({ api: fake.api, till: () => tillStatus(), now: () => NOW });
  manager.pick(MANAGER.id);
  manager.pin.setText('97531864');
  await manager.unlock();
  const attention = manager.editors!.attention;
  expect(attention.count).toBeNull();
  await attention.loadOnce();
  await attention.loadOnce();
  expect(attention.count).toBe(2);
  expect(fake.callsOf('attentionQueue')).toHaveLength(1);
  // Choosing the section loads it afresh.
  manager.selectSection('attention');
  await settle();
  expect(fake.callsOf('attentionQueue')).toHaveLength(2);
});
