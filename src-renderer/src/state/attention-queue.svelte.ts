import type { Order } from '../../../src-main/common/order';
import type { Reason } from '../../../src-main/common/reasons';
import type { AttentionAction, AttentionItem } from '../../../src-main/common/reports';
import type { CallError } from '../api/errors';
import { reasonProblem } from '../lib/reason';
import type { ManagerContext } from './manager-context';

/** A reason refused: found here before sending, or by the server (its reason says the rule, with its numbers). */
export type ReasonIssue = { kind: 'too_short' } | { kind: 'too_long' } | { kind: 'server'; reason: Reason };

/** What the last action did (its reason, for the screen's words); `resolved`: the item has left the queue. */
export interface ActionOutcome {
  orderId: string;
  action: AttentionAction;
  resolved: boolean;
  reason: Reason;
  order?: Order;
}

/** The id the server acts on: a callback problem by its own number (its order may not be in this log). */
export function attentionTarget(item: AttentionItem): string | number {
  return item.kind === 'callback_problem' && item.issueId !== undefined ? item.issueId : item.orderId;
}

/** A stable key for an item: an order can be in the queue for two things at once (late, and a callback problem). */
export function attentionKey(item: AttentionItem): string {
  return `${item.kind}:${item.issueId ?? item.orderId}`;
}

/**
 * The attention queue (docs/end-of-day.md, "Attention"): what needs a person, oldest first, and the actions
 * each item allows. An action asks for a reason first (the reason rule, checked here and again by the
 * server); once done, its outcome is shown and the queue is loaded again, since one action may settle
 * other items too (a check that learns "paid" settles a callback problem of the same order).
 */
export class AttentionQueue {
  #items = $state.raw<AttentionItem[]>([]);
  #loaded = $state(false);
  #loading = $state(false);
  #error = $state.raw<CallError | null>(null);

  #pending = $state.raw<{ item: AttentionItem; action: AttentionAction } | null>(null);
  #reason = $state('');
  #reasonIssue = $state.raw<ReasonIssue | null>(null);
  #busy = $state(false);
  #actionError = $state.raw<CallError | null>(null);
  #outcome = $state.raw<ActionOutcome | null>(null);

  readonly #ctx: ManagerContext;
  readonly #onChange: () => void;
  #request = 0;

  constructor(ctx: ManagerContext, onChange: () => void = () => undefined) {
    this.#ctx = ctx;
    this.#onChange = onChange;
  }

  get items(): readonly AttentionItem[] {
    return this.#items;
  }

  /** How many items are open; null until the queue has been loaded once. */
  get count(): number | null {
    return this.#loaded ? this.#items.length : null;
  }

  get loaded(): boolean {
    return this.#loaded;
  }

  get loading(): boolean {
    return this.#loading;
  }

  get error(): CallError | null {
    return this.#error;
  }

  async load(): Promise<void> {
    const mine = ++this.#request;
    this.#loading = true;
    this.#error = null;
    const outcome = await this.#ctx.call((api, token) => api.attentionQueue(token));
    if (mine !== this.#request) return;
    this.#loading = false;
    if (!outcome.ok) {
      if (outcome.error.code !== 'locked') this.#error = outcome.error;
      return;
    }
    this.#items = outcome.value;
    this.#loaded = true;
  }

  /** The section is on screen: the queue as it is now, without the outcome of an action done a while ago. */
  async open(): Promise<void> {
    this.#outcome = null;
    await this.load();
  }

  /** Once, for the count beside the section's name; the section itself loads afresh when opened. */
  async loadOnce(): Promise<void> {
    if (!this.#loaded && !this.#loading) await this.load();
  }

  // ---------------------------------------------------------------- an action, with its reason

  /** The action whose reason is being asked for (its dialog is open). */
  get pending(): { item: AttentionItem; action: AttentionAction } | null {
    return this.#pending;
  }

  get reason(): string {
    return this.#reason;
  }

  get reasonIssue(): ReasonIssue | null {
    return this.#reasonIssue;
  }

  get busy(): boolean {
    return this.#busy;
  }

  /** The action was refused for something other than its reason (e.g. dealt with elsewhere meanwhile). */
  get actionError(): CallError | null {
    return this.#actionError;
  }

  /** What the last action did, until the next one starts. */
  get outcome(): ActionOutcome | null {
    return this.#outcome;
  }

  start(item: AttentionItem, action: AttentionAction): void {
    if (this.#busy || !item.actions.includes(action)) return;
    this.#pending = { item, action };
    this.#reason = '';
    this.#reasonIssue = null;
    this.#actionError = null;
    this.#outcome = null;
  }

  setReason(text: string): void {
    this.#reason = text;
    this.#reasonIssue = null;
  }

  /** The dialog closed without acting. */
  dismiss(): void {
    if (this.#busy) return;
    this.#pending = null;
  }

  /** Sends the action with its reason; false (and nothing sent) while the reason breaks the rule. */
  async confirm(): Promise<boolean> {
    const pending = this.#pending;
    if (!pending || this.#busy) return false;
    const problem = reasonProblem(this.#reason);
    if (problem) {
      this.#reasonIssue = { kind: problem };
      return false;
    }
    const reason = this.#reason.trim();
    this.#busy = true;
    this.#actionError = null;
    const target = attentionTarget(pending.item);
    const outcome = await this.#ctx.call((api, token) => api.resolveAttention(token, target, pending.action, reason));
    this.#busy = false;
    if (!outcome.ok) {
      const error = outcome.error;
      if (error.code === 'locked') return false;
      if (error.reason?.key === 'order.reason_rule') this.#reasonIssue = { kind: 'server', reason: error.reason };
      else this.#actionError = error;
      // Dealt with elsewhere meanwhile: the queue as it is now shows why.
      if (error.code === 'conflict' || error.code === 'not_found') void this.load();
      return false;
    }
    const result = outcome.value;
    this.#pending = null;
    this.#outcome = {
      orderId: pending.item.orderId,
      action: pending.action,
      resolved: result.resolved,
      reason: result.reason,
      ...(result.order ? { order: result.order } : {}),
    };
    await this.load();
    this.#onChange();
    return true;
  }
}
