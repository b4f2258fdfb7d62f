import type { Order } from '../../common/order';
import { checkReason } from '../../common/order-policy';
import { reason as saying, type Reason } from '../../common/reasons';
import type { AttentionAction, AttentionKind } from '../../common/reports';
import type { OrderLog } from '../orders/order-log';
import { checkOrder, type AttentionDeps } from './attention-check';
import {
  ATTENTION_ACTIONS,
  LATE_PAYMENT_ACKNOWLEDGED,
  MISMATCH_ACKNOWLEDGED,
  openItems,
  TILL_RELEASED,
} from './attention-queue';
import { CallbackIssues, type CallbackIssue } from './callback-issues';
import { invalidQuery, refused, ReportRuleError } from './errors';

/**
 * Acting on an attention item (docs/end-of-day.md, "Acting on an item"): a manager's check, mark paid, cancel, set
 * aside or acknowledge, each with a reason, through OrderService and the order log. The queue the actions fit is
 * attention-queue.ts; asking the gateway is attention-check.ts.
 */

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
  const open = openItems(db, now(), {}, order.id);
  const stateItem = open.find((i) => i.kind === 'unknown' || i.kind === 'overdue');
  const late = open.find((i) => i.kind === 'late_payment');
  const mismatch = open.find((i) => i.kind === 'mismatch');
  const problems = open.filter((i) => i.kind === 'callback_problem').map((i) => issues.get(i.issueId!)!);

  if (action === 'acknowledge') {
    if (late) {
      const after = deps.log.atomically(() => {
        // Read again under the write lock: another manager may have acknowledged it meanwhile.
        if (!openItems(db, now(), {}, order.id).some((i) => i.kind === 'late_payment'))
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
        if (!openItems(db, now(), {}, order.id).some((i) => i.kind === 'mismatch'))
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
      const still = openItems(db, now(), {}, order.id).some((i) => i.kind === 'mismatch');
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
  const still = openItems(db, now(), {}, order.id).some((i) => i.kind === kind);
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
