import type { ChargeSaleInput, ChargeSaleResult, SaleFieldIssue, SaleView } from '../../common/sale';
import type { Order } from '../../common/order';
import type { StaffSummary } from '../../common/staff';
import { gatewayItemId } from '../../common/item-name';
import { tenderKind } from '../../common/tender-kinds';
import { Uuidv7Generator } from '../../db/uuidv7';
import { staffActor, type AuditLog } from '../audit/audit-log';
import { publicFailure, type GatewayFailure } from '../gateway/client';
import type { OrderLog } from '../orders/order-log';
import type { Actor, OrderService, PreparedOrder } from '../payments/order-service';
import type { Clock } from '../ports';
import type { ProductStore } from '../products/product-store';
import type { SaleStore } from '../sales/sale-store';
import { quoteCart } from '../sales/sale-quote';
import type { SaleSettings } from '../settings/sale-settings';
import { NoOpenShiftError, type CashLedger } from '../shifts/cash-ledger';
import type { DrawerPort } from '../shifts/drawer';
import type { PinCheckResult } from '../staff/access';
import { chargeBlocker, heldError } from './charge-guard';
import { planCharge, refused, soldLinesOf, type PlannedTender } from './charge-plan';
import { storedChargeResult } from './stored-charge';

/**
 * The counter (docs/sale.md, "One counter"; docs/architecture.md): the one module that owns a charge, for every tender
 * kind and every host (the app's cashier, browser mode, the CLI's `sale` and `order create`). A charge is a sale,
 * always — a typed item and amount is a one-line sale. Its steps:
 * 1. everything that can be checked is, before anything is written: the cart's figures (quoted again here, never the
 *    caller's), the tenders (each kind's rules), a manager's PIN for a discount above the limits, the gateway order's
 *    fields and the disk;
 * 2. one explicit SQLite transaction (IMMEDIATE: the write lock first) claims the charge's idempotency key — a sale
 *    already charged under it is answered again, never made twice — checks the one guard (an order of this till whose
 *    outcome is unknown, or one being sent, holds every tender: charge-guard.ts), and writes the sale, its lines and
 *    tenders, the gateway tender's order as `creating`, the cash's movement in this till's shift, the manager's
 *    approval with its audit entry, and clears the cart: all or nothing;
 * 3. then it acts: the drawer opens for cash (awaited, its result in the answer), the gateway order is sent.
 * The sale's later changes are written by the order log in the transaction of the order's change (sale-follows-
 * order.ts), in whichever process makes it; nothing here listens.
 */

export interface CounterDeps {
  log: OrderLog;
  orders: Pick<OrderService, 'prepare' | 'record' | 'sendCreated' | 'refusalOfWrite'>;
  sales: SaleStore;
  products: ProductStore;
  /** Read at each charge: a manager's change applies to the next sale. */
  settings: () => SaleSettings;
  terminalId: () => string;
  training: boolean;
  clock: Clock;
  /** Where cash meets this till's shift; absent: no shift can be open, so cash is refused. */
  cashLedger?: CashLedger | undefined;
  /** The audit log of the order log's own database (its entries commit with the change they record). */
  audit?: AuditLog | undefined;
  /** A manager's PIN for a discount above the limit (AccessControl.approveAsManager). */
  approveAsManager?: ((staffId: number, pin: string) => Promise<PinCheckResult>) | undefined;
  /** The cash drawer, opened once a charge with cash has committed. */
  drawer?: DrawerPort | undefined;
  /** Why no payment may be taken now (the order log failed its integrity check), or undefined. */
  refusal?: (() => string | undefined) | undefined;
}

/** Who charges: the cashier at the app (the member of staff signed in, or nobody), or the command line. */
export interface Charger {
  source: 'cashier' | 'cli';
  staff: StaffSummary | null;
}

/** The gateway order's own fields where a caller gives them (createOrder, `order create`): else the cart's. */
export interface OrderFields {
  itemName?: string | undefined;
  itemId?: string | undefined;
  userId?: string | undefined;
}

const ids = new Uuidv7Generator();

export class Counter {
  /** Charges under way in this process, by key: the same key again waits for the same answer. */
  private readonly inFlight = new Map<string, Promise<ChargeSaleResult>>();

  constructor(private readonly deps: CounterDeps) {}

  async charge(input: ChargeSaleInput, who: Charger, fields: OrderFields = {}): Promise<ChargeSaleResult> {
    const key = input.cart.saleKey;
    if (key === undefined) return this.chargeOnce(input, who, fields);
    const running = this.inFlight.get(key);
    if (running) return replayed(await running);
    const stored = this.deps.sales.idOfKey(key);
    if (stored !== undefined) return this.answerOf(stored);
    const charge = this.chargeOnce(input, who, fields);
    this.inFlight.set(key, charge);
    try {
      return await charge;
    } finally {
      this.inFlight.delete(key);
    }
  }

  /** The answer of sale `saleId`'s charge as it stands now (a charge made again under its key). */
  answerOf(saleId: string): ChargeSaleResult {
    const sale = this.deps.sales.require(saleId);
    const orderId = sale.tenders.find((t) => t.orderId)?.orderId;
    return replayed(storedChargeResult(sale, orderId ? this.deps.log.get(orderId) : undefined));
  }

  private async chargeOnce(input: ChargeSaleInput, who: Charger, fields: OrderFields): Promise<ChargeSaleResult> {
    const settings = this.deps.settings();
    const quote = quoteCart(input.cart, settings, this.deps.products);
    if (!quote.ok) return this.refusedWithOrderIssues(input, quote.issues);
    const plan = planCharge(input, quote.figures.total, settings.cash.rounding);
    if (!plan.ok) return plan.result;
    const refusal = this.deps.refusal?.();
    if (refusal) return failed({ class: 'storage', message: refusal });

    // A discount above the limits needs a manager's PIN, checked before anything is written or sent.
    let approvedBy: StaffSummary | undefined;
    if (quote.overLimit.length > 0) {
      if (!input.managerPin)
        return refused(
          quote.overLimit.map((o) => ({ field: o.field, rule: 'manager_pin_required', message: o.message })),
        );
      if (!this.deps.approveAsManager)
        return refused([{ field: 'managerPin', rule: 'unavailable', message: 'managerPin: cannot be checked here' }]);
      const checked = await this.deps.approveAsManager(input.managerPin.staffId, input.managerPin.pin);
      if (!checked.ok)
        return refused([
          { field: 'managerPin', rule: checked.reason, message: `managerPin: not accepted (${checked.reason})` },
        ]);
      approvedBy = checked.staff;
    }

    const actor: Actor = {
      source: who.source,
      actor: who.staff?.name ?? (who.source === 'cli' ? 'cli' : 'cashier'),
      ...(who.staff ? { staffId: who.staff.id } : {}),
    };
    const gateway = plan.tenders.find((t) => tenderKind(t.tender.kind).sendsOrder);
    let prepared: PreparedOrder | undefined;
    if (gateway) {
      const itemId = fields.itemId ?? gatewayItemId(quote.lines, gateway.tender.amount, quote.figures.total);
      const ready = this.deps.orders.prepare(
        {
          methodId: gateway.tender.methodId!,
          amount: gateway.tender.amount,
          itemName: fields.itemName ?? quote.itemName,
          ...(itemId !== undefined ? { itemId } : {}),
          ...(input.customerName ? { customerName: input.customerName } : {}),
          ...(input.phone ? { phone: input.phone } : {}),
          ...(fields.userId !== undefined ? { userId: fields.userId } : {}),
          ...(input.api ? { api: input.api } : {}),
        },
        actor,
      );
      if (!ready.ok) return failed(ready.failure);
      prepared = ready.prepared;
    }

    const saleId = ids.next(this.deps.clock.now().getTime());
    let written: { sale: SaleView; order?: Order; replayOf?: string } | undefined;
    let shiftRefusal: NoOpenShiftError | undefined;
    const storage = this.deps.orders.refusalOfWrite(() => {
      try {
        written = this.deps.log.atomically(() =>
          this.write(saleId, input, who, actor, quote, settings, plan.tenders, prepared, approvedBy),
        );
      } catch (err) {
        if (err instanceof NoOpenShiftError) shiftRefusal = err;
        else throw err;
      }
    });
    if (shiftRefusal) return refused([{ field: 'tenders', rule: shiftRefusal.rule, message: shiftRefusal.message }]);
    if (storage !== undefined) return failed({ class: 'storage', message: storage });
    const { sale, order, replayOf } = written!;
    if (replayOf !== undefined) return this.answerOf(replayOf);

    // Committed: now the drawer and the gateway. Neither can undo the sale.
    const drawer = plan.tenders.some((t) => tenderKind(t.tender.kind).intoDrawer)
      ? await this.deps.drawer?.open('cash_tender')
      : undefined;
    const withDrawer = drawer ? { drawer } : {};
    if (!order || !prepared) return { ok: true, saleId, sale, order: null, ...withDrawer };
    const outcome = await this.deps.orders.sendCreated(order, prepared, actor);
    const now = this.deps.sales.get(saleId) ?? sale;
    if (outcome.ok) return { ok: true, saleId, sale: now, order: outcome.order, ...withDrawer };
    return {
      ok: false,
      saleId,
      sale: now,
      ...(outcome.order ? { order: outcome.order } : {}),
      failure: publicFailure(outcome.failure, outcome.order?.state),
    };
  }

  /**
   * A cart refused, with the gateway order's own issues beside the cart's when the charge is one typed line paid by
   * one gateway method (a typed item and amount): the cashier sees every field's issue at once (the amount out of the
   * method's range, a phone the method needs), not one after another. Nothing is written or sent either way.
   */
  private refusedWithOrderIssues(input: ChargeSaleInput, issues: SaleFieldIssue[]): ChargeSaleResult {
    const result = refused(issues);
    const line = input.cart.lines.length === 1 ? input.cart.lines[0] : undefined;
    const only = input.tenders?.length === 1 ? input.tenders[0] : undefined;
    const methodId = input.methodId ?? (only?.kind === 'gateway' ? only.methodId : undefined);
    if (!line || line.productId !== undefined || typeof methodId !== 'string') return result;
    const order = this.deps.orders.prepare(
      {
        methodId,
        amount: line.unitPrice,
        itemName: line.name,
        ...(input.customerName ? { customerName: input.customerName } : {}),
        ...(input.phone ? { phone: input.phone } : {}),
      },
      { source: 'cashier' },
    );
    if (order.ok || order.failure.class !== 'invalid_input') return result;
    return { ...result, failure: { ...result.failure, issues: order.failure.issues } };
  }

  /** The charge's one transaction (see the class): runs inside OrderLog.atomically. */
  private write(
    saleId: string,
    input: ChargeSaleInput,
    who: Charger,
    actor: Actor,
    quote: Extract<ReturnType<typeof quoteCart>, { ok: true }>,
    settings: SaleSettings,
    tenders: readonly PlannedTender[],
    prepared: PreparedOrder | undefined,
    approvedBy: StaffSummary | undefined,
  ): { sale: SaleView; order?: Order; replayOf?: string } {
    const { sales, log } = this.deps;
    const key = input.cart.saleKey;
    // Under the write lock: another process (or a call that got here first) may have charged this key meanwhile.
    const already = key === undefined ? undefined : sales.idOfKey(key);
    if (already !== undefined) return { sale: sales.require(already), replayOf: already };
    const terminalId = this.deps.terminalId();
    const blocker = chargeBlocker(log.db, terminalId);
    if (blocker) throw heldError(blocker);

    const drawerTenders = tenders.filter((t) => tenderKind(t.tender.kind).intoDrawer);
    let shiftId: string | undefined;
    if (drawerTenders.length > 0) {
      if (!this.deps.cashLedger) throw new NoOpenShiftError();
      shiftId = this.deps.cashLedger.openShiftId();
    }
    const order = prepared ? this.deps.orders.record(prepared, actor) : undefined;
    const staff = who.staff;
    const saleActor = { actor: actor.actor, ...(staff ? { staffId: staff.id } : {}) };
    const catalogue = this.deps.products.getMany(quote.lines.flatMap((l) => (l.productId ? [l.productId] : [])));
    const sale = sales.create(
      {
        id: saleId,
        chargeKey: key,
        terminalId,
        training: this.deps.training,
        staffId: staff?.id,
        staffName: staff?.name,
        customerName: input.customerName,
        phone: input.phone,
        saleDiscount: input.cart.saleDiscount ?? null,
        figures: { ...quote.figures, categories: quote.figures.categories },
        // The tax settings it was computed with: every struk, reprint and report of it reads these.
        taxSettings: settings.tax,
        lines: soldLinesOf(quote, catalogue),
        tenders: tenders.map((t) =>
          tenderKind(t.tender.kind).sendsOrder && order ? { ...t.tender, orderId: order.id } : t.tender,
        ),
      },
      saleActor,
    );
    if (approvedBy) {
      sales.note(saleId, {
        ...saleActor,
        payload: {
          discountApprovedBy: { staffId: approvedBy.id, name: approvedBy.name },
          overLimit: quote.overLimit,
        },
      });
      this.deps.audit?.record({
        actor: staffActor(approvedBy),
        action: 'discount.approved',
        detail: {
          saleId,
          discounts: quote.overLimit.map((o) => ({ field: o.field, percentBp: o.percentBp, limitBp: o.limitBp })),
        },
      });
    }
    const at = this.deps.clock.now().toISOString();
    for (const t of drawerTenders)
      this.deps.cashLedger!.record({
        type: 'cash_tender',
        handed: t.step.handed,
        change: t.step.change,
        shiftId: shiftId!,
        documentId: saleId,
        at,
        staffId: staff?.id ?? null,
      });
    // The cart is now the sale's: a reload shows the sale, not the lines again.
    sales.clearCart(terminalId, key);
    return { sale: sales.get(saleId) ?? sale, ...(order ? { order } : {}) };
  }
}

function failed(failure: GatewayFailure): ChargeSaleResult {
  return { ok: false, saleId: null, sale: null, failure: publicFailure(failure) };
}

function replayed(result: ChargeSaleResult): ChargeSaleResult {
  return { ...result, replayed: true };
}
