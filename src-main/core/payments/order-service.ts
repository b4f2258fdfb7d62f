import { ManagerOnlyError, checkReason, mayCancel } from '../../common/order-policy';
import type { Order } from '../../common/order';
import { asksForPhone } from '../../common/payment-instruction';
import { kindSpec, type PaymentKind } from '../../common/payment-kinds';
import type { CreateResult, GatewayClient, GatewayFailure } from '../gateway/client';
import type { NewOrder, OrderLog, WriteOptions } from '../orders/order-log';
import { GatewayStatements } from './gateway-statements';
import { describeApplied, describeFailure, storageWords } from './order-words';

export { describeFailure } from './order-words';
import type { Actor } from './actor';
import type { Clock } from '../ports';
import { newMerchantTransactionId } from './order-id';
import { isStorageError } from '../../db/open';
import type { DiskCheck } from './disk-space';

export interface OrderInput {
  methodId: string;
  amount: number;
  itemName: string;
  itemId?: string;
  customerName?: string;
  /** The customer's id at the gateway; defaults to the terminal's walk-in customer. */
  userId?: string;
  phone?: string;
  api?: 'v1' | 'v2';
}

export type { Actor } from './actor';

export interface OrderServiceOptions {
  terminalId: string;
  /** The store's code, once the terminal is enrolled in a store book: the first part of every order id. */
  storeCode?: string;
  training: boolean;
  gatewayTimeZone: string;
  /** Where the gateway should send callbacks; omitted when Loket listens for none. */
  notificationUrl?: string;
  /** Whether the data folder's disk has room to record an order; checked before anything is sent. */
  diskCheck?: DiskCheck;
  /** Whether the open order log is still the data folder's file (log-file.ts); checked before anything is sent. */
  logCheck?: DiskCheck;
  /** Deadline for methods whose answer carries no expired_date (docs/orders.md, "Expiry"). */
  fallbackTtlSeconds: Record<PaymentKind, number>;
}

export type CreateOutcome = { ok: true; order: Order } | { ok: false; order?: Order; failure: GatewayFailure };

/** An order checked and signed, not yet logged: its id, the bytes to send, the row to log as `creating`. */
export interface PreparedOrder {
  id: string;
  api: 'v1' | 'v2';
  bytes: string;
  row: NewOrder;
}

export type PrepareOutcome = { ok: true; prepared: PreparedOrder } | { ok: false; failure: GatewayFailure };

/**
 * Order creation and resolution (docs/orders.md): the order is logged as `creating` before the request
 * leaves, every answer — or its absence — becomes exactly one logged transition, and a request that may
 * have reached the gateway is never replaced by a fresh order: it is re-sent with the same id and bytes.
 */
export class OrderService {
  /** What the gateway states about orders (inquiries, callbacks), applied to the log. */
  readonly statements: GatewayStatements;

  constructor(
    private readonly log: OrderLog,
    private readonly client: GatewayClient,
    private readonly clock: Clock,
    private readonly options: OrderServiceOptions,
  ) {
    this.statements = new GatewayStatements(log, client, clock, options);
  }

  /** A status the gateway reported (callback or inquiry): GatewayStatements.applyGatewayStatus. */
  applyGatewayStatus(...args: Parameters<GatewayStatements['applyGatewayStatus']>) {
    return this.statements.applyGatewayStatus(...args);
  }

  /** A status inquiry's answer, checked then applied: GatewayStatements.applyInquiryAnswer. */
  applyInquiryAnswer(...args: Parameters<GatewayStatements['applyInquiryAnswer']>) {
    return this.statements.applyInquiryAnswer(...args);
  }

  /** A statement of the gateway that does not match the order, noted once: GatewayStatements.noteMismatch. */
  noteMismatch(...args: Parameters<GatewayStatements['noteMismatch']>): Order {
    return this.statements.noteMismatch(...args);
  }

  /** A manager's new terminal id: the prefix of the next orders' ids. */
  setTerminalId(terminalId: string): void {
    this.options.terminalId = terminalId;
  }

  /** Set once the callback listener knows its address (it may pick a free port at start). */
  setNotificationUrl(url: string | undefined): void {
    this.options.notificationUrl = url;
  }

  /**
   * A new order, checked and signed, before anything is written (docs/orders.md): its id, the exact bytes to send and
   * the row to log. Refused here (nothing written, nothing sent): a field the gateway would refuse, a phone the method
   * needs, earlier answers still unwritten, too little disk, a log that is no longer the data folder's file.
   */
  prepare(input: OrderInput, actor: Actor): PrepareOutcome {
    const id = newMerchantTransactionId(this.options.terminalId, this.clock, this.options.storeCode);
    const body: Record<string, unknown> = {
      user_id: input.userId ?? `walkin-${this.options.terminalId.toLowerCase()}`,
      merchant_transaction_id: id,
      payment_method: input.methodId,
      amount: input.amount,
      item_name: input.itemName,
    };
    if (input.itemId !== undefined) body.item_id = input.itemId;
    if (input.customerName !== undefined) body.customer_name = input.customerName;
    if (input.phone !== undefined) body.user_mdn = input.phone;
    if (this.options.notificationUrl) body.notification_url = this.options.notificationUrl;

    const prepared = this.client.prepare(body);
    if (!prepared.ok) return { ok: false, failure: prepared.failure };
    if (asksForPhone(prepared.method) && prepared.request.user_mdn === undefined) {
      // Loket's rule (asksForPhone): carrier billing charges that number, or the carrier's SMS to reply to goes to it;
      // the gateway's field is optional.
      const why =
        kindSpec(prepared.method.kind).phone === 'sms_reply'
          ? 'the SMS to reply to is sent to it'
          : 'carrier billing charges it';
      const message = `user_mdn: the customer's phone number is needed for ${prepared.method.id} (${why})`;
      return {
        ok: false,
        failure: { class: 'invalid_input', message, issues: [{ field: 'user_mdn', rule: 'required', message }] },
      };
    }
    const blocked = this.writeBlocker();
    if (blocked) return { ok: false, failure: { class: 'storage', message: blocked } };
    const { request } = prepared;
    return {
      ok: true,
      prepared: {
        id,
        api: input.api ?? 'v2',
        bytes: prepared.bytes,
        row: {
          id,
          terminalId: this.options.terminalId,
          api: input.api ?? 'v2',
          methodId: request.payment_method,
          kind: prepared.method.kind,
          amount: request.amount,
          currency: request.currency,
          itemName: request.item_name,
          ...(request.item_id === undefined ? {} : { itemId: request.item_id }),
          userId: request.user_id,
          ...(request.customer_name === undefined ? {} : { customerName: request.customer_name }),
          ...(request.user_mdn === undefined ? {} : { phone: request.user_mdn }),
          training: this.options.training,
          // Who sold it, in training as live: a manager trains staff and reads per-cashier figures in both.
          ...(actor.staffId !== undefined ? { staffId: actor.staffId } : {}),
          requestBody: prepared.bytes,
        },
      },
    };
  }

  /**
   * Logs a prepared order as `creating`, before its request leaves: in the caller's transaction when one is open on
   * the log (the counter writes the sale, its tenders and the order together), else in one of its own.
   */
  record(prepared: PreparedOrder, actor: Actor): Order {
    return this.log.create(prepared.row, actor);
  }

  /** Sends an order just logged as `creating` (record) and records what came back. */
  sendCreated(order: Order, prepared: PreparedOrder, actor: Actor): Promise<CreateOutcome> {
    return this.send(order.id, prepared.api, prepared.bytes, actor, order);
  }

  /** prepare, record and send: an order with no sale around it (the tests, the benchmarks; the counter uses the three). */
  async create(input: OrderInput, actor: Actor): Promise<CreateOutcome> {
    const ready = this.prepare(input, actor);
    if (!ready.ok) return ready;
    let created: Order | undefined;
    const logged = this.recordOrRefuse(() => (created = this.record(ready.prepared, actor)));
    if (logged !== undefined || !created) return { ok: false, failure: { class: 'storage', message: logged ?? '' } };
    return this.sendCreated(created, ready.prepared, actor);
  }

  /**
   * A write before anything is sent: undefined when it was recorded, else why not (nothing is sent then): for a
   * storage error; any other error is thrown.
   */
  refusalOfWrite(write: () => unknown): string | undefined {
    return this.recordOrRefuse(write);
  }

  /**
   * Sends an order's stored bytes again (same id, same signature input). The gateway's duplicate rule
   * makes this safe: at worst it answers "already exists".
   */
  async resend(id: string, actor: Actor): Promise<CreateOutcome> {
    const order = this.log.require(id);
    if (order.state !== 'unknown') {
      return {
        ok: false,
        order,
        failure: {
          class: 'invalid_input',
          message: `order ${id} is ${order.state}; only an unknown order is re-sent`,
          issues: [],
        },
      };
    }
    return this.send(id, order.api, this.log.requestBody(id)!, actor);
  }

  /**
   * The cashier's "check again" for one unknown order: re-send it when it certainly never left, else ask
   * the gateway's status inquiry (as reconciliation does), else re-send — the gateway's duplicate rule
   * makes that safe, and a duplicate answer means it exists there, so the outcome stays unknown.
   */
  async resolve(id: string, actor: Actor): Promise<CreateOutcome> {
    const waiting = this.pending.get(id);
    if (waiting && this.flushPendingWrites() > 0 && this.pending.has(id)) {
      return {
        ok: false,
        order: waiting.order,
        failure: {
          class: 'unknown',
          message: `order ${id} reached the gateway and still waits to be recorded: free space on the disk, then check again`,
        },
      };
    }
    const order = this.log.require(id);
    if (order.state !== 'unknown') {
      return order.state === 'awaiting_payment' || order.state === 'paid'
        ? { ok: true, order }
        : {
            ok: false,
            order,
            failure: { class: 'invalid_input', message: `order ${id} is ${order.state}; nothing to check`, issues: [] },
          };
    }
    if (order.delivery === 'not_sent' || !this.client.config.inquiryPath) {
      const sent = await this.send(id, order.api, this.log.requestBody(id)!, actor);
      if (!sent.ok && sent.failure.class === 'rejected' && sent.failure.duplicate) {
        return {
          ok: false,
          order: this.log.require(id),
          failure: {
            class: 'unknown',
            message:
              'the gateway already has this order, but its payment data could not be read; a manager must check it',
          },
        };
      }
      return sent;
    }
    const outcome = await this.reconcileOne(order, actor);
    const after = this.log.require(id);
    if (after.state === 'unknown') return { ok: false, order: after, failure: { class: 'unknown', message: outcome } };
    if (after.state === 'rejected') {
      return {
        ok: false,
        order: after,
        failure: {
          class: 'rejected',
          message: after.rejection?.message ?? outcome,
          httpStatus: after.rejection?.httpStatus ?? 0,
          duplicate: false,
          ...(after.rejection?.retcode ? { retcode: after.rejection.retcode } : {}),
        },
      };
    }
    return { ok: true, order: after };
  }

  /**
   * Resolves every unknown order: by status inquiry where the gateway has one, by re-sending where the
   * request certainly never left, else leaves it for a manager. Returns what happened to each.
   */
  async reconcile(actor: Actor): Promise<{ id: string; outcome: string }[]> {
    const results: { id: string; outcome: string }[] = [];
    for (const order of this.log.unresolved()) {
      results.push({ id: order.id, outcome: await this.reconcileOne(order, actor) });
    }
    // Orders cancelled in Loket stay payable at the gateway until it closes them (the interface has no cancel
    // call): where the gateway has an inquiry, each is asked about until it gives its final word.
    if (this.client.config.inquiryPath) {
      for (const order of this.awaitingGatewayWord()) {
        const answer = await this.client.inquire(order.id);
        if (!answer.ok) {
          results.push({ id: order.id, outcome: `cancelled; the inquiry failed (${answer.failure.message})` });
          continue;
        }
        const { applied } = this.applyInquiryAnswer(order.id, answer, {
          ...actor,
          reason: 'reconcile: status inquiry',
        });
        results.push({ id: order.id, outcome: `cancelled; ${describeApplied(applied, answer.status)}` });
      }
    }
    return results;
  }

  /**
   * The order's own deadline at the gateway: its expiry as the gateway gave it, else its kind's lifetime from its
   * creation (docs/orders.md, "Expiry"). Until then (and a grace) a cancelled order may still be paid there.
   */
  gatewayDeadline(order: Order): Date {
    if (order.expiresAt) return new Date(order.expiresAt);
    return new Date(Date.parse(order.createdAt) + this.options.fallbackTtlSeconds[order.kind] * 1000);
  }

  /**
   * Orders cancelled in Loket whose gateway has not given its final word (a payment, an expiry, a failure) and that
   * were created within the longest lifetime a kind may have: the gateway may still take a payment for them.
   */
  awaitingGatewayWord(): Order[] {
    const longest = Math.max(...Object.values(this.options.fallbackTtlSeconds), 24 * 3600);
    const from = new Date(this.clock.now().getTime() - (longest + 24 * 3600) * 1000);
    return this.log.list({ state: 'cancelled', from }).filter((o) => !this.log.hasGatewayWord(o.id));
  }

  /**
   * No answer (a timeout, a dropped connection): did the gateway store the order? Its status inquiry, asked
   * at once under a short deadline, tells: it has it → the order as the gateway has it (its payment data where
   * the inquiry repeats it); it does not → an outage, nothing charged, and sending the same order again is safe;
   * no inquiry, or no clear answer → the outcome stays unknown (do not charge again).
   */
  private async checkLostAnswer(outcome: CreateOutcome & { ok: false }, actor: Actor): Promise<CreateOutcome> {
    const order = outcome.order;
    if (!order || !this.client.config.inquiryPath) return outcome;
    const answer = await this.client.inquire(order.id, {
      timeoutMs: Math.min(LOST_ANSWER_CHECK_MS, this.client.config.timeoutMs),
    });
    if (answer.ok) {
      this.statements.applyInquiry(order, answer, actor);
      const after = this.log.require(order.id);
      return after.state === 'unknown' ? { ...outcome, order: after } : { ok: true, order: after };
    }
    if (answer.failure.class === 'rejected' && answer.failure.httpStatus === 404) {
      const message = `${outcome.failure.message}, and the gateway does not have the order: nothing was charged`;
      // It never got stored there: as good as never sent (the same order may be sent again, and it holds no till).
      const after = this.log.setDelivery(order.id, 'not_sent', {
        ...actor,
        reason: `status inquiry: no such order at the gateway (${message})`,
      });
      return { ok: false, order: after, failure: { class: 'outage', message } };
    }
    return outcome;
  }

  private async reconcileOne(order: Order, actor: Actor): Promise<string> {
    if (this.client.config.inquiryPath) {
      const answer = await this.client.inquire(order.id);
      if (answer.ok) return this.statements.applyInquiry(order, answer, actor);
      if (answer.failure.class === 'rejected' && answer.failure.httpStatus === 404) {
        const resent = await this.send(order.id, order.api, this.log.requestBody(order.id)!, actor);
        return `re-sent after the inquiry found no such order: ${resent.ok ? resent.order.state : describeFailure(resent.failure)}`;
      }
      this.log.note(order.id, { ...actor, reason: `reconcile: inquiry failed: ${answer.failure.message}` });
      return `left unknown: the inquiry failed (${answer.failure.message})`;
    }
    if (order.delivery === 'not_sent') {
      const resent = await this.send(order.id, order.api, this.log.requestBody(order.id)!, actor);
      return `re-sent: ${resent.ok ? resent.order.state : describeFailure(resent.failure)}`;
    }
    this.log.note(order.id, {
      ...actor,
      reason:
        'reconcile: no status inquiry is configured and the request may have reached the gateway; a manager must decide',
    });
    return 'left for a manager (no status inquiry configured)';
  }

  /** A manager's confirmation that the customer paid (e.g. seen in the bank app). */
  confirmPaid(id: string, actor: Actor & { reason: string }): Order {
    return this.log.transition(
      id,
      'paid',
      { ...actor, reason: checkReason(actor.reason) },
      {
        paidAt: this.clock.now().toISOString(),
      },
    );
  }

  /**
   * Cancels the order in Loket. The gateway's interface has no cancel call: the order stays payable there until its
   * own deadline, and a payment that still comes is recorded as a late payment (polling and reconcile keep asking).
   * An order whose outcome is unknown may have been charged: only a manager (or the command line) cancels it.
   */
  cancel(id: string, actor: Actor & { reason: string }): Order {
    const reason = checkReason(actor.reason);
    const order = this.log.require(id);
    const by = actor.source === 'manager' || actor.source === 'cli' ? 'manager' : 'cashier';
    if (!mayCancel(order.state, by)) {
      throw new ManagerOnlyError(
        id,
        order.state,
        'it may have been charged: only a manager can cancel it, after checking it with the gateway',
      );
    }
    return this.log.transition(id, 'cancelled', { ...actor, reason });
  }

  /**
   * Sends the stored bytes and records what came back. `known` is the order as this service just wrote it
   * (a new order): while it is `creating` nothing else changes it — a callback for it is refused until its
   * answer is recorded — so it is not read again; the state is checked again inside the answer's transaction.
   */
  private async send(id: string, api: 'v1' | 'v2', bytes: string, actor: Actor, known?: Order): Promise<CreateOutcome> {
    let current = known ?? this.log.require(id);
    const lost = known ? undefined : this.options.logCheck?.();
    if (lost && !lost.ok) return { ok: false, order: current, failure: { class: 'storage', message: lost.message } };
    if (current.delivery !== 'pending') {
      const before = current;
      const refused = this.recordOrRefuse(
        () => (current = this.log.setDelivery(id, 'pending', { ...actor, reason: 're-sending the same request' })),
      );
      if (refused !== undefined) return { ok: false, order: before, failure: { class: 'storage', message: refused } };
    }
    let result: CreateResult;
    try {
      result = await this.client.create(api, bytes, current.kind);
    } catch (err) {
      // A fault of ours (a secret store that throws, say) must not leave the order `creating` until the
      // next start: whether the request left is not known, so it is `unknown` at once and reconciled.
      const message = `an unexpected error while sending: ${(err as Error)?.message ?? String(err)}`;
      const before = current;
      return this.recordAfterSending(before, () => ({
        ok: false,
        order: this.moveToUnknown(before, { ...actor, source: 'system', reason: message }, {}),
        failure: { class: 'unknown', message },
      }));
    }
    const before = current;
    const outcome = this.recordAfterSending(before, () => this.apply(before, result, actor));
    if (!outcome.ok && outcome.failure.class === 'unknown' && !this.pending.has(id)) {
      return this.checkLostAnswer(outcome, actor);
    }
    return outcome;
  }

  private apply(order: Order, result: CreateResult, actor: Actor): CreateOutcome {
    const id = order.id;
    if (result.ok) {
      const done = this.log.transition(
        id,
        'awaiting_payment',
        { ...actor, source: 'gateway', reason: 'the gateway accepted the order' },
        {
          delivery: 'answered',
          instruction: result.instruction,
          responseBody: result.raw,
          expiresAt: this.statements.expiry(order.kind, result.instruction, result.expiredDate),
          ...(result.transactionId ? { gatewayTransactionId: result.transactionId } : {}),
        },
        ANSWER,
      );
      return { ok: true, order: done };
    }
    const failure = result.failure;
    const meta = { ...actor, source: 'gateway' as const, reason: failure.message };
    switch (failure.class) {
      case 'rejected':
        if (failure.duplicate) {
          // The gateway already has this id: the order exists there, we just lack its payment data.
          return {
            ok: false,
            failure,
            order: this.moveToUnknown(order, meta, { delivery: 'answered', responseBody: failure.raw }, ANSWER),
          };
        }
        return {
          ok: false,
          failure,
          order: this.log.transition(
            id,
            'rejected',
            meta,
            {
              delivery: 'answered',
              rejection: {
                ...(failure.retcode === undefined ? {} : { retcode: failure.retcode }),
                message: failure.message,
                httpStatus: failure.httpStatus,
              },
              ...(failure.raw === undefined ? {} : { responseBody: failure.raw }),
            },
            ANSWER,
          ),
        };
      case 'not_sent':
        return { ok: false, failure, order: this.moveToUnknown(order, meta, { delivery: 'not_sent' }, ANSWER) };
      case 'unknown':
        return { ok: false, failure, order: this.moveToUnknown(order, meta, { delivery: 'sent' }, ANSWER) };
      case 'outage':
        // The gateway answered that it did not take it (a 5xx): nothing was charged, as if never sent. The same order
        // may be sent again, and it holds no till (core/counter/charge-guard.ts reads delivery).
        return {
          ok: false,
          failure,
          order: this.moveToUnknown(
            order,
            meta,
            { delivery: 'not_sent', ...(failure.raw ? { responseBody: failure.raw } : {}) },
            ANSWER,
          ),
        };
      case 'malformed':
        return {
          ok: false,
          failure,
          order: this.moveToUnknown(order, meta, { delivery: 'answered', responseBody: failure.raw }, ANSWER),
        };
      case 'invalid_input':
      case 'storage':
        return { ok: false, failure, order };
    }
  }

  /**
   * Orders the gateway answered (or may have received) whose outcome the order log could not take yet: a
   * full disk, a write the file system refused. Each is shown as `unknown` at once and written as soon as the
   * disk takes it; until then no new charge starts. A restart before that finds them `creating` in the log,
   * which becomes `unknown` and is reconciled, as after a crash.
   */
  private readonly pending = new Map<string, { order: Order; write: () => unknown }>();

  /** How many answered orders wait to be written. */
  pendingWrites(): number {
    return this.pending.size;
  }

  /** Writes what waits, oldest first, until the disk refuses again; returns how many still wait. */
  flushPendingWrites(): number {
    for (const [id, entry] of this.pending) {
      try {
        entry.write();
      } catch (err) {
        if (isStorageError(err)) break;
        // Not the disk: the write is wrong now (e.g. the order changed meanwhile) and waiting will not fix it. It
        // must not fail whatever asked for the flush (another sale's charge): the order goes to `unknown` (the
        // attention queue) if it is still `creating`, and the others are written.
        this.pending.delete(id);
        console.error(`[orders] the answer for ${id} could not be recorded: ${(err as Error).message}`);
        try {
          if (this.log.get(id)?.state === 'creating')
            this.log.transition(id, 'unknown', {
              source: 'gateway',
              reason: `its answer could not be recorded: ${(err as Error).message}`,
            });
        } catch (markErr) {
          if (isStorageError(markErr)) break;
          console.error(`[orders] ${id} stays creating until the next start: ${(markErr as Error).message}`);
        }
        continue;
      }
      this.pending.delete(id);
    }
    return this.pending.size;
  }

  /** Why no charge may start now, or undefined: earlier answers still unwritten, or too little disk. */
  private writeBlocker(): string | undefined {
    if (this.pending.size > 0 && this.flushPendingWrites() > 0) {
      const ids = [...this.pending.keys()].join(', ');
      return (
        `the order log cannot be written, and ${this.pending.size} order(s) the gateway already has are waiting ` +
        `to be recorded (${ids}). Nothing was sent. Free space on the disk holding Loket's data; charging starts ` +
        'again once they are written.'
      );
    }
    const file = this.options.logCheck?.();
    if (file && !file.ok) return file.message;
    const space = this.options.diskCheck?.();
    return space && !space.ok ? space.message : undefined;
  }

  /** A write before anything is sent: undefined when it was recorded, else why not (nothing is sent then). */
  private recordOrRefuse(write: () => unknown): string | undefined {
    try {
      write();
      return undefined;
    } catch (err) {
      if (!isStorageError(err)) throw err;
      return (
        `the order log cannot be written (${storageWords(err)}). Nothing was sent. Free space on the disk holding ` +
        "Loket's data (or fix what the message names), then charge again."
      );
    }
  }

  /** A write after the request left: when the disk refuses it, the order is `unknown` now and written later. */
  private recordAfterSending(before: Order, write: () => CreateOutcome): CreateOutcome {
    try {
      return write();
    } catch (err) {
      if (!isStorageError(err)) throw err;
      const order: Order = {
        ...before,
        state: 'unknown',
        delivery: before.delivery === 'pending' ? 'sent' : before.delivery,
        updatedAt: this.clock.now().toISOString(),
      };
      this.pending.set(before.id, { order, write });
      return {
        ok: false,
        order,
        failure: {
          class: 'unknown',
          message:
            `the request reached the gateway, but the order log could not record its outcome (${storageWords(err)}): ` +
            `order ${before.id} may be charged — do not charge again. It is recorded as soon as the disk takes it.`,
        },
      };
    }
  }

  private moveToUnknown(
    order: Order,
    meta: Actor & { reason: string },
    patch: Parameters<OrderLog['transition']>[3],
    options?: WriteOptions,
  ): Order {
    if (order.state === 'unknown') {
      if (patch?.delivery) return this.log.setDelivery(order.id, patch.delivery, meta);
      this.log.note(order.id, meta);
      return this.log.require(order.id);
    }
    return this.log.transition(order.id, 'unknown', meta, patch, options);
  }
}

/**
 * The answer to a charge commits without a second wait on the disk: the order's `creating` row is durable
 * already, and an answer lost to a power cut is recovered at the next start (docs/orders.md, "Durability").
 */
const ANSWER: WriteOptions = { durable: false };

/** The quick status check after a lost answer waits at most this long (the cashier is waiting too). */
const LOST_ANSWER_CHECK_MS = 3000;
