import type { Database } from 'better-sqlite3';
import type { Lang } from '../../common/app-info';
import { formatRupiah } from '../../common/money';
import type { Order } from '../../common/order';
import { checkReason } from '../../common/order-policy';
import { reason as saying, type Reason } from '../../common/reasons';
import type { PaymentMethod } from '../../common/payment-methods';
import type { AttentionAction, AttentionItem, AttentionKind } from '../../common/reports';
import type { GatewayClient } from '../gateway/client';
import type { OrderLog } from '../orders/order-log';
import { ORDER_COLUMNS, rowToOrder, type OrderRow, type SqlValue } from '../orders/order-rows';
import { describeFailure, type OrderService } from '../payments/order-service';
import { CallbackIssues, type CallbackIssue, type CallbackIssueReason } from './callback-issues';
import { invalidQuery, refused, ReportRuleError } from './errors';
import { dbOf, stmt, type Books } from './sql';

export const ATTENTION_ACTIONS: readonly AttentionAction[] = [
  'check',
  'mark_paid',
  'cancel',
  'acknowledge',
  'set_aside',
];

/** What each kind of item allows (a callback problem is checked only when this log has its order). */
export const ACTIONS_BY_KIND: Readonly<Record<AttentionKind, readonly AttentionAction[]>> = {
  unknown: ['check', 'mark_paid', 'cancel', 'set_aside'],
  overdue: ['check', 'mark_paid', 'cancel'],
  late_payment: ['acknowledge'],
  callback_problem: ['check', 'acknowledge'],
  mismatch: ['check', 'acknowledge'],
};

/** The note a late payment is acknowledged with (its payload); the next late payment of the order opens a new item. */
export const LATE_PAYMENT_ACKNOWLEDGED = { acknowledged: 'late_payment' } as const;
/**
 * The note a manager's "set aside" writes on an order whose outcome is unknown: the till that charged it may sell
 * again (AppService's hold), while the order stays unknown and in the queue.
 */
export const TILL_RELEASED = { tillReleased: true } as const;

/** The note a gateway mismatch is acknowledged with; a different mismatch noted later opens a new item. */
export const MISMATCH_ACKNOWLEDGED = { acknowledged: 'mismatch' } as const;

export interface AttentionOptions {
  /** The language of the summaries: the store's. Default 'en'. */
  lang?: Lang;
  /** For the method's name in the summaries; its id otherwise. */
  methods?: readonly PaymentMethod[];
  /**
   * Only the items of orders created in [from, to) (a callback about an order this log lacks counts when it
   * was received); the whole queue by default.
   */
  from?: Date;
  to?: Date;
}

const EARLIEST = '0000-01-01T00:00:00.000Z';
const LATEST = '9999-12-31T23:59:59.999Z';

type Text = Record<Lang, string>;
const say = (lang: Lang, text: Text) => text[lang];

type OrderWithSince = OrderRow & { since: string | null };

function methodName(order: Order, options: AttentionOptions, lang: Lang): string {
  return options.methods?.find((m) => m.id === order.methodId)?.label[lang] ?? order.methodId;
}

type OrderKind = Exclude<AttentionKind, 'callback_problem'>;

/** What the last mismatch note of an order says (OrderService.noteMismatch's payload). */
interface MismatchNote {
  via: 'inquiry' | 'callback';
  fields: string[];
  reported: Record<string, unknown>;
  applied: boolean;
}

function mismatchSummary(order: Order, note: MismatchNote | undefined, what: string, lang: Lang): string {
  const said = note ? note.fields.map((f) => `${f} ${JSON.stringify(note.reported[f] ?? null)}`).join(', ') : '?';
  const status = String(note?.reported.status ?? '?');
  if (note?.applied)
    return say(lang, {
      en:
        `A signed callback reported ${status} with another ${said} than the order's: applied; ` +
        `check which way the customer paid (${what}).`,
      id:
        `Callback bertanda tangan melaporkan ${status} dengan ${said} yang berbeda dari pesanan: diterapkan; ` +
        `periksa cara pelanggan membayar (${what}).`,
    });
  const via = note?.via === 'callback';
  return say(lang, {
    en:
      `The gateway's ${via ? 'callback' : 'status answer'} does not match the order (${said}): not applied; ` +
      `check the order at the gateway (${what}).`,
    id:
      `Jawaban ${via ? 'callback' : 'status'} gateway tidak cocok dengan pesanan (${said}): tidak diterapkan; ` +
      `periksa pesanan di gateway (${what}).`,
  });
}

function orderSummary(kind: OrderKind, order: Order, options: AttentionOptions, note?: MismatchNote): string {
  const lang = options.lang ?? 'en';
  const what = `${formatRupiah(order.amount)}, ${methodName(order, options, lang)}`;
  switch (kind) {
    case 'unknown':
      return say(lang, {
        en: `Sent, but its outcome is not known: it may have been charged (${what}).`,
        id: `Terkirim, tetapi hasilnya belum diketahui: mungkin sudah ditagih (${what}).`,
      });
    case 'late_payment':
      return say(lang, {
        en: `Paid after it was ${order.state}: the money is somewhere (${what}).`,
        id: `Dibayar setelah ${STATE_ID[order.state] ?? order.state}: uangnya ada di suatu tempat (${what}).`,
      });
    case 'overdue':
      return say(lang, {
        en: `Still awaiting payment past its deadline: the gateway never said (${what}).`,
        id: `Masih menunggu pembayaran melewati batas waktunya: gateway belum memberi kabar (${what}).`,
      });
    case 'mismatch':
      return mismatchSummary(order, note, what, lang);
  }
}

const STATE_ID: Partial<Record<Order['state'], string>> = {
  cancelled: 'dibatalkan',
  expired: 'kedaluwarsa',
  failed: 'gagal',
  paid: 'lunas',
  awaiting_payment: 'menunggu pembayaran',
  unknown: 'belum diketahui',
  rejected: 'ditolak',
  creating: 'sedang dibuat',
};

function issueSummary(issue: CallbackIssue, order: Order | undefined, lang: Lang): string {
  const amount = issue.amount === undefined ? '' : ` ${formatRupiah(issue.amount)}`;
  const texts: Record<CallbackIssueReason, Text> = {
    unknown_order: {
      en: `An authentic ${issue.status}${amount} callback for an order this till does not have.`,
      id: `Callback ${issue.status}${amount} yang sah untuk pesanan yang tidak ada di kasir ini.`,
    },
    amount_mismatch: {
      en: `A ${issue.status} callback reports${amount}, but the order is for ${formatRupiah(order?.amount ?? 0)}: not applied.`,
      id: `Callback ${issue.status} melaporkan${amount}, padahal pesanan sebesar ${formatRupiah(order?.amount ?? 0)}: tidak diterapkan.`,
    },
    not_forward: {
      en: `The gateway reported ${issue.status} while the order is ${order?.state ?? '?'}: ignored.`,
      id: `Gateway melaporkan ${issue.status} padahal pesanan ${order ? (STATE_ID[order.state] ?? order.state) : '?'}: diabaikan.`,
    },
  };
  return say(lang, texts[issue.reason]);
}

/** What an order's item is about, as a reason a screen words in its own language. */
function orderWhat(kind: Exclude<AttentionKind, 'callback_problem'>, order: Order): Reason {
  const of = { amount: order.amount, methodId: order.methodId };
  switch (kind) {
    case 'unknown':
      return saying('attention.item.unknown', of);
    case 'late_payment':
      return saying('attention.item.late_payment', { ...of, state: order.state });
    case 'overdue':
      return saying('attention.item.overdue', of);
    case 'mismatch':
      return saying('attention.item.mismatch', of);
  }
}

function issueWhat(issue: CallbackIssue, order: Order | undefined): Reason {
  const amount = issue.amount === undefined ? {} : { amount: issue.amount };
  switch (issue.reason) {
    case 'unknown_order':
      return saying('attention.item.unknown_order', { status: issue.status, ...amount });
    case 'amount_mismatch':
      return saying('attention.item.amount_mismatch', {
        status: issue.status,
        ...amount,
        orderAmount: order?.amount ?? 0,
      });
    case 'not_forward':
      return saying('attention.item.not_forward', { status: issue.status, ...(order ? { state: order.state } : {}) });
  }
}

/** The four queues' SQL, each optionally for one order (`id = ?`), of orders created in [from, to). */
function orderItems(db: Database, now: Date, from: string, to: string, orderId?: string) {
  const one = orderId === undefined ? '' : ' AND id = ?';
  const extra: SqlValue[] = orderId === undefined ? [] : [orderId];
  const unknown = stmt<SqlValue[], OrderWithSince>(
    db,
    `SELECT ${ORDER_COLUMNS},
       (SELECT MAX(at) FROM order_events e WHERE e.order_id = orders.id AND e.to_state = 'unknown') AS since
     FROM orders WHERE state = 'unknown' AND created_at >= ? AND created_at < ?${one}`,
  ).all(from, to, ...extra);
  const overdue = stmt<SqlValue[], OrderWithSince>(
    db,
    `SELECT ${ORDER_COLUMNS}, expires_at AS since
     FROM orders WHERE state = 'awaiting_payment' AND created_at >= ? AND created_at < ? AND expires_at < ?${one}`,
  ).all(from, to, now.toISOString(), ...extra);
  // A late payment is open until a note acknowledges it after the last late payment the order received.
  const late = stmt<SqlValue[], OrderWithSince>(
    db,
    `SELECT ${ORDER_COLUMNS},
       (SELECT MAX(at) FROM order_events l WHERE l.order_id = orders.id AND l.type = 'late_payment') AS since
     FROM orders WHERE late_payment = 1 AND created_at >= ? AND created_at < ?${one}
       AND NOT EXISTS (
         SELECT 1 FROM order_events a
         WHERE a.order_id = orders.id AND a.type = 'note' AND json_extract(a.payload, '$.acknowledged') = 'late_payment'
           AND a.seq > COALESCE((SELECT MAX(seq) FROM order_events l WHERE l.order_id = orders.id AND l.type = 'late_payment'), 0))`,
  ).all(from, to, ...extra);
  // A mismatch is open until a note acknowledges it after the last mismatch noted on the order (read through the
  // partial index order_events_mismatch, migration 7).
  const mismatch = stmt<SqlValue[], OrderWithSince & { note: string }>(
    db,
    `SELECT ${ORDER_COLUMNS}, m.since AS since, m.note AS note
     FROM (SELECT e.order_id, e.seq, e.at AS since, json_extract(e.payload, '$.mismatch') AS note FROM order_events e
           WHERE e.type = 'note' AND json_extract(e.payload, '$.mismatch') IS NOT NULL
             AND e.seq = (SELECT MAX(x.seq) FROM order_events x WHERE x.order_id = e.order_id AND x.type = 'note'
                            AND json_extract(x.payload, '$.mismatch') IS NOT NULL)) m
     JOIN orders ON orders.id = m.order_id
     WHERE created_at >= ? AND created_at < ?${one}
       AND NOT EXISTS (
         SELECT 1 FROM order_events a
         WHERE a.order_id = orders.id AND a.type = 'note' AND json_extract(a.payload, '$.acknowledged') = 'mismatch'
           AND a.seq > m.seq)`,
  ).all(from, to, ...extra);
  return { unknown, overdue, late, mismatch };
}

interface IssueWithOrder {
  id: number;
  order_created_at: string | null;
}

function openIssues(db: Database, orderId?: string): { issue: CallbackIssue; orderCreatedAt: string | null }[] {
  const rows = stmt<SqlValue[], IssueWithOrder>(
    db,
    `SELECT ci.id, o.created_at AS order_created_at FROM callback_issues ci LEFT JOIN orders o ON o.id = ci.order_id
     WHERE ci.acknowledged_at IS NULL${orderId === undefined ? '' : ' AND ci.order_id = ?'} ORDER BY ci.received_at, ci.id`,
  ).all(...(orderId === undefined ? [] : [orderId]));
  const store = new CallbackIssues(db);
  return rows.map((r) => ({ issue: store.get(r.id)!, orderCreatedAt: r.order_created_at }));
}

function collect(db: Database, now: Date, options: AttentionOptions, orderId?: string): AttentionItem[] {
  const lang = options.lang ?? 'en';
  const from = options.from?.toISOString() ?? EARLIEST;
  const to = options.to?.toISOString() ?? LATEST;
  const items: AttentionItem[] = [];
  const queues = orderItems(db, now, from, to, orderId);
  const add = (kind: OrderKind, rows: (OrderWithSince & { note?: string })[]) => {
    for (const row of rows) {
      const order = rowToOrder(row);
      const note = row.note === undefined ? undefined : (JSON.parse(row.note) as MismatchNote);
      items.push({
        kind,
        orderId: order.id,
        order,
        since: row.since ?? order.updatedAt,
        summary: orderSummary(kind, order, options, note),
        what: orderWhat(kind, order),
        actions: [...ACTIONS_BY_KIND[kind]],
      });
    }
  };
  add('unknown', queues.unknown);
  add('overdue', queues.overdue);
  add('late_payment', queues.late);
  add('mismatch', queues.mismatch);
  for (const { issue, orderCreatedAt } of openIssues(db, orderId)) {
    // An issue belongs to the day of its order, or — for an order this log lacks — to the day it came.
    const when = orderCreatedAt ?? issue.receivedAt;
    if (when < from || when >= to) continue;
    const order = orderCreatedAt === null ? undefined : rowToOrderById(db, issue.orderId);
    items.push({
      kind: 'callback_problem',
      orderId: issue.orderId,
      ...(order ? { order } : {}),
      since: issue.receivedAt,
      summary: issueSummary(issue, order, lang),
      what: issueWhat(issue, order),
      actions: order ? ['check', 'acknowledge'] : ['acknowledge'],
      issueId: issue.id,
    });
  }
  // Oldest first; at the same moment, the items of orders first (as they were made), then callback problems as
  // they came.
  const key = (i: AttentionItem) => [
    i.since,
    String(i.issueId ?? 0).padStart(16, '0'),
    i.order?.createdAt ?? '',
    i.orderId,
  ];
  return items.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let n = 0; n < ka.length; n++) if (ka[n] !== kb[n]) return ka[n]! < kb[n]! ? -1 : 1;
    return 0;
  });
}

function rowToOrderById(db: Database, id: string): Order | undefined {
  const row = stmt<[string], OrderRow>(db, `SELECT ${ORDER_COLUMNS} FROM orders WHERE id = ?`).get(id);
  return row && rowToOrder(row);
}

/**
 * The attention queue (docs/end-of-day.md, "Attention"): what needs a person before the day is closed, oldest
 * first — orders whose outcome is unknown, late payments not yet acknowledged, orders still awaiting payment
 * past their deadline (`expires_at` before `now`), and authentic callbacks that could not be applied and are
 * not acknowledged. Each item lists the actions that fit it (resolveAttention runs them).
 */
export function attention(books: Books, now: Date, options: AttentionOptions = {}): AttentionItem[] {
  return collect(dbOf(books), now, options);
}

// ---------------------------------------------------------------- acting on an item

export interface AttentionDeps {
  log: OrderLog;
  orders: OrderService;
  /** The gateway's status inquiry, for checking an order that is not `unknown` (OrderService.resolve does those). */
  client?: Pick<GatewayClient, 'inquire'> & { readonly config: { readonly inquiryPath: string | null } };
  /** Default: the callback issues on the log's connection. */
  issues?: CallbackIssues;
}

export interface AttentionRequest {
  /** The reason rule (order-policy.ts: 3 to 200 characters, trimmed). */
  reason: string;
  /** Who acts: a member of staff (their name and id), or `cli:<user>`; recorded on every event as source 'manager'. */
  actor: { name: string; staffId?: number };
}

export interface AttentionOutcome {
  action: AttentionAction;
  kind: AttentionKind;
  orderId: string;
  issueId?: number;
  /** The order as it is now, when this log has it. */
  order?: Order;
  /** Whether the item has left the queue. A check may leave it (the gateway still says "waiting"). */
  resolved: boolean;
  /** What happened, in plain words. */
  message: string;
  /** The same, for a screen to word in its language. */
  reason: Reason;
}

/**
 * Runs one action on an attention item, through OrderService and the order log, and records it with the
 * actor (source 'manager') and their reason: `target` is an order id, or a callback issue's id (a number).
 *
 * - `check`: an unknown order is resolved as the cashier's "check again" does (inquiry, or the same bytes
 *   re-sent); any other order is asked about with the status inquiry and the answer applied. The reason is
 *   noted on the order first. For a callback problem, a check that got the gateway's answer also
 *   acknowledges the issue.
 * - `mark_paid`, `cancel`: OrderService.confirmPaid / cancel, for an unknown or overdue order.
 * - `set_aside`: for an unknown order, a note (TILL_RELEASED) that lets the till that charged it sell again; the
 *   order stays unknown and in the queue.
 * - `acknowledge`: a late payment gets a `note` event with payload `{ acknowledged: 'late_payment' }`; a
 *   callback problem gets its acknowledgement (and, when this log has the order, a note on it). By order id, a
 *   late payment is acknowledged first, else every open callback problem of that order.
 *
 * Refused (a ReportRuleError, `conflict`) when the action does not fit any open item of the target; an unknown
 * order is OrderNotFoundError, an unknown issue `not_found`, a bad reason InvalidReasonError.
 */
export async function resolveAttention(
  deps: AttentionDeps,
  target: string | number,
  action: AttentionAction,
  request: AttentionRequest,
): Promise<AttentionOutcome> {
  if (!ATTENTION_ACTIONS.includes(action))
    throw invalidQuery('action', `one of ${ATTENTION_ACTIONS.join(', ')} (got ${JSON.stringify(action)})`);
  const reason = checkReason(request.reason);
  const name = request.actor.name.trim();
  if (name.length < 1 || name.length > 100) throw invalidQuery('actor', 'a name of 1 to 100 characters');
  const actor = { name, ...(request.actor.staffId === undefined ? {} : { staffId: request.actor.staffId }) };
  const issues = deps.issues ?? new CallbackIssues(deps.log.db, deps.log.clock);
  const db = deps.log.db;
  const now = () => deps.log.clock.now();

  if (typeof target === 'number') {
    const issue = issues.get(target);
    if (!issue)
      throw new ReportRuleError('not_found', `no callback issue ${target}`, saying('attention.issue_not_found'));
    if (issue.acknowledgedAt !== undefined)
      throw refused(
        `callback issue ${target} was already acknowledged at ${issue.acknowledgedAt} by ${issue.acknowledgedBy ?? '?'}`,
        saying('attention.already_acknowledged', { orderId: issue.orderId }),
      );
    return onIssue(deps, issues, issue, action, reason, actor);
  }

  const order = deps.log.require(target);
  const open = collect(db, now(), {}, order.id);
  const stateItem = open.find((i) => i.kind === 'unknown' || i.kind === 'overdue');
  const late = open.find((i) => i.kind === 'late_payment');
  const mismatch = open.find((i) => i.kind === 'mismatch');
  const problems = open.filter((i) => i.kind === 'callback_problem').map((i) => issues.get(i.issueId!)!);

  if (action === 'acknowledge') {
    if (late) {
      const after = deps.log.atomically(() => {
        // Read again under the write lock: another manager may have acknowledged it meanwhile.
        if (!collect(db, now(), {}, order.id).some((i) => i.kind === 'late_payment'))
          throw refused(
            `the late payment of order ${order.id} was acknowledged meanwhile`,
            saying('attention.already_acknowledged', { orderId: order.id }),
          );
        deps.log.note(order.id, { source: 'manager', actor: actor.name, reason, payload: LATE_PAYMENT_ACKNOWLEDGED });
        return deps.log.require(order.id);
      });
      return {
        action,
        kind: 'late_payment',
        orderId: order.id,
        order: after,
        resolved: true,
        message: 'late payment acknowledged',
        reason: saying('attention.late_acknowledged', { orderId: order.id }),
      };
    }
    if (problems.length > 0) {
      deps.log.atomically(() => {
        for (const issue of problems) acknowledgeIssue(deps.log, issues, issue, reason, actor.name);
      });
      return {
        action,
        kind: 'callback_problem',
        orderId: order.id,
        ...(problems.length === 1 ? { issueId: problems[0]!.id } : {}),
        order: deps.log.require(order.id),
        resolved: true,
        message: `${problems.length} callback problem(s) acknowledged`,
        reason: saying('attention.problems_acknowledged', { count: problems.length }),
      };
    }
    if (mismatch) {
      const after = deps.log.atomically(() => {
        if (!collect(db, now(), {}, order.id).some((i) => i.kind === 'mismatch'))
          throw refused(
            `the mismatch of order ${order.id} was acknowledged meanwhile`,
            saying('attention.already_acknowledged', { orderId: order.id }),
          );
        deps.log.note(order.id, { source: 'manager', actor: actor.name, reason, payload: MISMATCH_ACKNOWLEDGED });
        return deps.log.require(order.id);
      });
      return {
        action,
        kind: 'mismatch',
        orderId: order.id,
        order: after,
        resolved: true,
        message: 'mismatch acknowledged',
        reason: saying('attention.mismatch_acknowledged', { orderId: order.id }),
      };
    }
    throw refused(
      `order ${order.id} has no late payment, callback problem or mismatch to acknowledge`,
      saying('attention.nothing_to_acknowledge', { orderId: order.id }),
    );
  }

  if (!stateItem) {
    if (action === 'check' && problems.length > 0) return onIssue(deps, issues, problems[0]!, action, reason, actor);
    if (action === 'check' && mismatch) {
      // A check whose answer matches the order settles the question: the mismatch is acknowledged with the reason.
      const checked = await checkOrder(deps, order, reason, actor);
      const still = collect(db, now(), {}, order.id).some((i) => i.kind === 'mismatch');
      if (checked.answered && still)
        deps.log.note(order.id, {
          source: 'manager',
          actor: actor.name,
          reason: `${reason} (checked: the gateway's answer matches)`.slice(0, 200),
          payload: MISMATCH_ACKNOWLEDGED,
        });
      return {
        action,
        kind: 'mismatch',
        orderId: order.id,
        order: deps.log.require(order.id),
        resolved: checked.answered,
        message: checked.message,
        reason: checked.reason,
      };
    }
    throw refused(
      `order ${order.id} is ${order.state}${order.state === 'awaiting_payment' ? ' within its deadline' : ''}; ` +
        `${action.replace('_', ' ')} is for an order whose outcome is unknown or that is overdue`,
      saying('attention.does_not_fit', { orderId: order.id, state: order.state, action }),
    );
  }
  const kind = stateItem.kind;
  if (action === 'set_aside') {
    if (kind !== 'unknown')
      throw refused(
        `order ${order.id} is ${order.state}; set aside is for an order whose outcome is unknown`,
        saying('attention.set_aside_unknown_only', { orderId: order.id, state: order.state }),
      );
    deps.log.note(order.id, {
      source: 'manager',
      actor: actor.name,
      reason,
      payload: { ...TILL_RELEASED, attention: 'set_aside' },
    });
    return {
      action,
      kind,
      orderId: order.id,
      order: deps.log.require(order.id),
      resolved: false,
      message: `order ${order.id} stays unknown and in the queue; the till may sell again`,
      reason: saying('attention.set_aside', { orderId: order.id }),
    };
  }
  if (action === 'mark_paid' || action === 'cancel') {
    const meta = {
      source: 'manager' as const,
      actor: actor.name,
      ...(actor.staffId === undefined ? {} : { staffId: actor.staffId }),
      reason,
    };
    const after = action === 'mark_paid' ? deps.orders.confirmPaid(order.id, meta) : deps.orders.cancel(order.id, meta);
    return {
      action,
      kind,
      orderId: order.id,
      order: after,
      resolved: true,
      message: `order ${order.id} is now ${after.state}`,
      reason: saying('attention.now', { orderId: order.id, state: after.state }),
    };
  }
  const checked = await checkOrder(deps, order, reason, actor);
  const still = collect(db, now(), {}, order.id).some((i) => i.kind === kind);
  return {
    action,
    kind,
    orderId: order.id,
    order: checked.order,
    resolved: !still,
    message: checked.message,
    reason: checked.reason,
  };
}

async function onIssue(
  deps: AttentionDeps,
  issues: CallbackIssues,
  issue: CallbackIssue,
  action: AttentionAction,
  reason: string,
  actor: { name: string; staffId?: number },
): Promise<AttentionOutcome> {
  const order = deps.log.get(issue.orderId);
  const base = { action, kind: 'callback_problem' as const, orderId: issue.orderId, issueId: issue.id };
  if (action === 'acknowledge') {
    deps.log.atomically(() => acknowledgeIssue(deps.log, issues, issue, reason, actor.name));
    return {
      ...base,
      ...(order ? { order: deps.log.require(order.id) } : {}),
      resolved: true,
      message: 'callback problem acknowledged',
      reason: saying('attention.problems_acknowledged', { count: 1 }),
    };
  }
  if (action !== 'check' || !order)
    throw refused(
      order
        ? `${action.replace('_', ' ')} does not fit a callback problem: check it or acknowledge it`
        : `the order ${issue.orderId} is not in this log: a callback problem about it can only be acknowledged`,
      order
        ? saying('attention.does_not_fit', { orderId: order.id, state: order.state, action })
        : saying('attention.only_acknowledge', { orderId: issue.orderId }),
    );
  const checked = await checkOrder(deps, order, reason, actor);
  if (!checked.answered)
    return { ...base, order: checked.order, resolved: false, message: checked.message, reason: checked.reason };
  deps.log.atomically(() =>
    acknowledgeIssue(deps.log, issues, issue, `${reason} (checked: ${checked.order.state})`.slice(0, 200), actor.name),
  );
  return {
    ...base,
    order: deps.log.require(order.id),
    resolved: true,
    message: checked.message,
    reason: checked.reason,
  };
}

/** The issue's acknowledgement, and a note on its order when this log has it: one transaction (the caller's). */
function acknowledgeIssue(
  log: OrderLog,
  issues: CallbackIssues,
  issue: CallbackIssue,
  reason: string,
  by: string,
): void {
  issues.acknowledge(issue.id, by, reason);
  if (log.get(issue.orderId))
    log.note(issue.orderId, {
      source: 'manager',
      actor: by,
      reason,
      payload: { acknowledged: 'callback_problem', issueId: issue.id },
    });
}

/**
 * Asks the gateway about one order, on a manager's behalf: the reason goes on the order first, then an unknown
 * order is resolved by OrderService (inquiry or re-send), any other is asked with the status inquiry and the
 * answer applied (forward changes only; a payment for a given-up order is flagged). `answered`: the gateway
 * gave an answer Loket could use.
 */
async function checkOrder(
  deps: AttentionDeps,
  order: Order,
  reason: string,
  actor: { name: string; staffId?: number },
): Promise<{ answered: boolean; order: Order; message: string; reason: Reason }> {
  const who = {
    source: 'manager' as const,
    actor: actor.name,
    ...(actor.staffId === undefined ? {} : { staffId: actor.staffId }),
  };
  if (order.state !== 'unknown' && !deps.client?.config.inquiryPath)
    throw refused(
      `this gateway has no status inquiry, so order ${order.id} (${order.state}) cannot be checked from here: ` +
        'look it up at the gateway, then mark it paid or cancel it',
      saying('attention.no_inquiry', { orderId: order.id, state: order.state }),
    );
  deps.log.note(order.id, { ...who, reason, payload: { attention: 'check' } });
  if (order.state === 'unknown') {
    const outcome = await deps.orders.resolve(order.id, who);
    const after = deps.log.require(order.id);
    return {
      answered: after.state !== 'unknown',
      order: after,
      message: outcome.ok ? `order ${order.id} is now ${after.state}` : describeFailure(outcome.failure),
      reason:
        after.state === 'unknown'
          ? saying('attention.still_unknown', { orderId: order.id })
          : saying('attention.now', { orderId: order.id, state: after.state }),
    };
  }
  const answer = await deps.client!.inquire(order.id);
  if (!answer.ok) {
    deps.log.note(order.id, { ...who, reason: `check: the status inquiry failed: ${answer.failure.message}` });
    return {
      answered: false,
      order: deps.log.require(order.id),
      message: `the status inquiry failed: ${answer.failure.message}`,
      reason: saying('attention.inquiry_failed', { orderId: order.id }),
    };
  }
  const { order: after, applied } = deps.orders.applyInquiryAnswer(order.id, answer, {
    ...who,
    reason: `check: the status inquiry says ${answer.status}`,
  });
  if (applied === 'mismatch')
    return {
      answered: false,
      order: after,
      message: `the gateway's answer does not match order ${order.id} (another order, amount or method): not applied`,
      reason: saying('attention.mismatch_not_applied', { orderId: order.id }),
    };
  if (answer.status === 'PENDING') {
    deps.log.note(order.id, {
      ...who,
      reason: 'check: the gateway still waits for payment',
      payload: { inquiry: answer.raw },
    });
    return {
      answered: true,
      order: deps.log.require(order.id),
      message: `the gateway still waits for payment of order ${order.id}: cancel it, or mark it paid when the money is seen`,
      reason: saying('attention.still_waiting', { orderId: order.id }),
    };
  }
  return {
    answered: true,
    order: after,
    message:
      applied === 'changed'
        ? `order ${order.id} is now ${after.state} (status inquiry: ${answer.status})`
        : applied === 'late_payment'
          ? `the gateway says ${answer.status}: kept as a late payment on ${after.state} order ${order.id}`
          : applied === 'closed'
            ? `the gateway says ${answer.status}: order ${order.id}, cancelled in Loket, is closed there too`
            : `the gateway says ${answer.status}; order ${order.id} stays ${after.state}`,
    reason:
      applied === 'changed'
        ? saying('attention.now', { orderId: order.id, state: after.state })
        : applied === 'late_payment'
          ? saying('attention.kept_late', { orderId: order.id, status: answer.status, state: after.state })
          : applied === 'closed'
            ? saying('attention.closed', { orderId: order.id, status: answer.status })
            : saying('attention.stays', { orderId: order.id, status: answer.status, state: after.state }),
  };
}
