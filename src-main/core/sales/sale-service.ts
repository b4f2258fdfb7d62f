import { ApiError, type ChargeFailure, type ChargeResult, type ChargeInput } from '../../common/api';
import { planTenders, type CashIssue, type TenderInput, type TenderStep } from '../../common/cash';
import { gatewayItemId, gatewayItemName } from '../../common/item-name';
import type { Order, OrderState } from '../../common/order';
import type { Product } from '../../common/product';
import { reason } from '../../common/reasons';
import {
  cartSchema,
  type Cart,
  type ChargeSaleInput,
  type ChargeSaleResult,
  type SaleFieldIssue,
  type SaleQuote,
  type SaleTender,
  type SaleView,
  type SoldLine,
} from '../../common/sale';
import type { SaleLine } from '../../common/sale-line';
import { computeSale, discountsOverLimit } from '../../common/sale-totals';
import type { StaffSummary } from '../../common/staff';
import { staffActor, type AuditLog } from '../audit/audit-log';
import type { OrderLog } from '../orders/order-log';
import type { Clock } from '../ports';
import { DEFAULT_SEARCH_LIMIT, type ProductStore } from '../products/product-store';
import type { SaleSettings } from '../settings/sale-settings';
import { NoOpenShiftError, type CashLedger } from '../shifts/cash-ledger';
import type { PinCheckResult } from '../staff/access';
import { Uuidv7Generator } from '../../db/uuidv7';
import type { SaleStore } from './sale-store';
import type { PrintResult } from '../../common/api';
import type { HtmlPaper } from '../receipts/receipt-html';
import type { SaleReceiptInput, SaleReceiptStore } from '../receipts/sale-receipt-input';
import { printProblemOf } from '../print-problem';
import { saleReceiptInputOf } from './sale-receipt-of';

/**
 * The sale at the counter (docs/sale.md): the cart being rung up (stored per terminal), its figures (recomputed here
 * from the lines and the store's tax settings, never taken from the caller), and charging it — its tenders (cash,
 * a gateway payment, other), the sale and its lines written with the gateway order's `creating` row in one
 * transaction before the request leaves, through the counter's one order path (one sale at a time, an unknown
 * outcome holds the till, one charge in flight). The sale completes when its last tender is paid (the order log's
 * changes are followed) and is voided when its gateway order ends unpaid (rejected, failed, cancelled, expired).
 *
 * Decided here:
 * - A catalogue line (productId) is sold at the catalogue's name, price, tax category and item_id; a product no
 *   longer in the catalogue or inactive is an issue of its line. A free-typed line keeps its name, price, quantity,
 *   category and discount, and has no SKU, barcode or item_id (those are the catalogue's).
 * - At most one gateway tender per sale (one order on the customer display at a time), which takes what is still due
 *   when it has no amount; cash and other tenders are paid when recorded, in the sale's transaction (a cash tender
 *   with its movement in the shift, through the CashLedger port).
 * - The stored cart is cleared when a sale is charged: the sale holds its lines from then on (cartOf rings a refused
 *   sale up again).
 * - Voiding a sale whose cash was taken records that cash as given back (a cash refund movement of the shift).
 */

/** The order path of the counter (AppService): the same rules for a sale's order as for any other. */
export interface CounterPort {
  chargeOrder(input: ChargeInput, alsoWrite?: (order: Order) => void): Promise<ChargeResult>;
  cancelOrder(id: string, reason: string): Order;
}

export interface SaleServiceDeps {
  sales: SaleStore;
  products: ProductStore;
  log: OrderLog;
  counter: CounterPort;
  /** Read at each call: a manager's change applies to the next sale. */
  settings: () => SaleSettings;
  terminalId: () => string;
  training: boolean;
  clock: Clock;
  /** Who sells at this till. */
  till?: () => { staff: StaffSummary | null };
  /** A manager's PIN for a discount above the limit (AccessControl.approveAsManager), and the audit log. */
  approveAsManager?: (staffId: number, pin: string) => Promise<PinCheckResult>;
  audit?: AuditLog;
  /** Where cash meets the drawer's shift; absent: no shift can be open, so cash is refused. */
  cashLedger?: CashLedger;
  /** The struk's renderings and the printer set up (the host's); absent: the struk cannot be had here. */
  receipts?: SaleReceiptPort;
}

/** The host's side of a sale's struk: the store's header, the two renderings, and the receipt printer. */
export interface SaleReceiptPort {
  store(): SaleReceiptStore;
  html(input: SaleReceiptInput, options: { paper: HtmlPaper; copy: boolean }): string;
  /** Sends it to the printer set up (network, or the OS's); false when none is set up. Rejects when it fails. */
  print(input: SaleReceiptInput, options: { copy: boolean }): Promise<boolean>;
}

/** Order states in which a gateway tender will never be paid: its sale is voided. */
const UNPAID_END: readonly OrderState[] = ['rejected', 'failed', 'cancelled', 'expired'];

const ids = new Uuidv7Generator();

export class SaleService {
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: SaleServiceDeps) {
    this.unsubscribe = deps.log.onChange((order) => this.orderChanged(order));
    // Orders settled while Loket was stopped (or between the order's commit and the sale's): caught up now.
    for (const { orderId } of deps.sales.pendingOrders()) {
      const order = deps.log.get(orderId);
      if (order) this.orderChanged(order);
    }
  }

  close(): void {
    this.unsubscribe();
  }

  searchProducts(input: { text: string; limit?: number | undefined }): Product[] {
    return this.deps.products.search(input.text, input.limit ?? DEFAULT_SEARCH_LIMIT);
  }

  productByCode(input: { code: string }): Product | null {
    return this.deps.products.byCode(input.code);
  }

  currentCart(): Cart {
    return this.deps.sales.loadCart(this.deps.terminalId()) ?? { lines: [], saleDiscount: null };
  }

  saveCart(input: { cart: Cart }): Cart {
    this.deps.sales.saveCart(this.deps.terminalId(), input.cart);
    return input.cart;
  }

  quoteSale(input: { cart: Cart }): SaleQuote {
    return this.quote(input.cart, this.deps.settings());
  }

  sale(input: { saleId: string }): SaleView | null {
    return this.deps.sales.get(input.saleId) ?? null;
  }

  saleOf(input: { orderId: string }): SaleView | null {
    const id = this.deps.sales.saleIdOfOrder(input.orderId);
    return id === undefined ? null : (this.deps.sales.get(id) ?? null);
  }

  /**
   * Voids a sale still being paid: its pending gateway order is cancelled by today's order rules (a reason, 3 to 200
   * characters), and the sale is voided when the cancel is recorded. A completed sale is refunded, not voided.
   */
  voidSale(input: { saleId: string; reason: string }): SaleView {
    const sale = this.deps.sales.get(input.saleId);
    if (!sale)
      throw new ApiError('not_found', `no sale ${input.saleId}`, reason('arguments.invalid', { field: 'saleId' }));
    if (sale.state !== 'tendering' && sale.state !== 'open')
      throw new ApiError(
        'conflict',
        `sale ${sale.id} is ${sale.state}: only a sale still being paid is voided (a completed one is refunded)`,
      );
    const pending = sale.tenders.find((t) => t.kind === 'gateway' && t.state === 'pending' && t.orderId);
    if (pending?.orderId) this.deps.counter.cancelOrder(pending.orderId, input.reason);
    return this.deps.sales.require(sale.id);
  }

  async chargeSale(input: ChargeSaleInput): Promise<ChargeSaleResult> {
    const settings = this.deps.settings();
    const quote = this.quote(input.cart, settings);
    if (!quote.ok) return refused(quote.issues);
    const { figures, lines } = quote;

    const tenderInputs: TenderInput[] =
      input.tenders ?? (input.methodId !== undefined ? [{ kind: 'gateway', methodId: input.methodId }] : []);
    if (tenderInputs.length === 0)
      return refused([
        {
          field: 'tenders',
          rule: 'required',
          message: 'tenders: how the sale is paid (methodId, or one or more tenders)',
        },
      ]);
    if (input.tenders !== undefined && input.methodId !== undefined)
      return refused([{ field: 'methodId', rule: 'one_of', message: 'methodId: give methodId or tenders, not both' }]);
    const gatewayCount = tenderInputs.filter((t) => t.kind === 'gateway').length;
    if (gatewayCount > 1)
      return refused([
        {
          field: 'tenders',
          rule: 'one_gateway_tender',
          message: 'tenders: at most one gateway payment per sale (one order on the customer display at a time)',
        },
      ]);
    const plan = planTenders(figures.total, tenderInputs, settings.cash.rounding);
    if (!plan.ok) return refused(plan.issues.map(cashIssue));
    if (!plan.plan.complete)
      return refused([
        {
          field: 'tenders',
          rule: 'incomplete',
          message: `tenders: Rp${plan.plan.due} of the sale is still due; the tenders must pay all of it`,
        },
      ]);

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

    const cashSteps = plan.plan.steps.filter((s) => s.kind === 'cash');
    let shiftId: string | undefined;
    if (cashSteps.length > 0) {
      try {
        if (!this.deps.cashLedger) throw new NoOpenShiftError();
        shiftId = this.deps.cashLedger.openShiftId();
      } catch (err) {
        if (err instanceof NoOpenShiftError)
          return refused([{ field: 'tenders', rule: err.rule, message: err.message }]);
        throw err;
      }
    }

    const saleId = ids.next(this.deps.clock.now().getTime());
    const staff = this.deps.till?.().staff ?? null;
    const actor = { actor: staff?.name ?? 'cashier', ...(staff ? { staffId: staff.id } : {}) };
    const tenders: Omit<SaleTender, 'no'>[] = plan.plan.steps.map((step, i) => tenderOf(step, tenderInputs[i]!));
    // The lines' categories read here, as before, but in one read for the cart rather than one per line.
    const catalogue = this.deps.products.getMany(lines.flatMap((l) => (l.productId ? [l.productId] : [])));
    const soldLines: Omit<SoldLine, 'lineNo'>[] = lines.map((l, i) => {
      const f = figures.lines[i]!;
      const sold: Omit<SoldLine, 'lineNo'> = {
        lineId: l.lineId,
        name: l.name,
        category: l.productId ? (catalogue.get(l.productId)?.category ?? '') : '',
        unitPrice: l.unitPrice,
        qty: l.qty,
        taxCategory: l.taxCategory,
        gross: f.gross,
        lineDiscount: f.lineDiscount,
        saleDiscount: f.saleDiscount,
        net: f.net,
        total: f.total,
      };
      if (l.productId !== undefined) sold.productId = l.productId;
      if (l.sku !== undefined) sold.sku = l.sku;
      if (l.barcode !== undefined) sold.barcode = l.barcode;
      if (l.fixedDenomination) sold.itemId = l.fixedDenomination.itemId;
      if (l.discount !== undefined) sold.discount = l.discount;
      return sold;
    });

    const write = (order?: Order) => {
      const sale = this.deps.sales.create(
        {
          id: saleId,
          terminalId: this.deps.terminalId(),
          training: this.deps.training,
          staffId: staff?.id,
          staffName: staff?.name,
          customerName: input.customerName,
          phone: input.phone,
          saleDiscount: input.cart.saleDiscount ?? null,
          figures: { ...figures, categories: figures.categories },
          lines: soldLines,
          tenders: tenders.map((t) => (t.kind === 'gateway' && order ? { ...t, orderId: order.id } : t)),
          taxSettings: settings.tax,
        },
        actor,
      );
      if (approvedBy)
        this.deps.sales.note(saleId, {
          ...actor,
          payload: {
            discountApprovedBy: { staffId: approvedBy.id, name: approvedBy.name },
            overLimit: quote.overLimit,
          },
        });
      const now = this.deps.clock.now().toISOString();
      for (const step of cashSteps)
        this.deps.cashLedger!.record({
          type: 'cash_tender',
          handed: step.handed,
          change: step.change,
          shiftId: shiftId!,
          documentId: saleId,
          at: now,
          staffId: staff?.id ?? null,
        });
      // The cart is now the sale's: a reload shows the sale, not the lines again.
      this.deps.sales.clearCart(this.deps.terminalId());
      return sale;
    };
    const audit = () => {
      if (approvedBy && this.deps.audit)
        this.deps.audit.record({
          actor: staffActor(approvedBy),
          action: 'discount.approved',
          detail: {
            saleId,
            discounts: quote.overLimit.map((o) => ({ field: o.field, percentBp: o.percentBp, limitBp: o.limitBp })),
          },
        });
    };

    const gatewayAt = tenders.findIndex((t) => t.kind === 'gateway');
    if (gatewayAt < 0) {
      // Cash and other only: paid as recorded, nothing to send.
      const sale = this.deps.sales.db.transaction(() => write()).immediate();
      audit();
      return { ok: true, saleId, sale, order: null };
    }
    const tender = tenders[gatewayAt]!;
    const itemName = quote.itemName;
    const itemId = gatewayItemId(lines, tender.amount, figures.total);
    let written = false;
    const charged = await this.deps.counter.chargeOrder(
      {
        methodId: tender.methodId!,
        amount: tender.amount,
        itemName,
        ...(itemId !== undefined ? { itemId } : {}),
        ...(input.customerName ? { customerName: input.customerName } : {}),
        ...(input.phone ? { phone: input.phone } : {}),
      },
      (order) => {
        write(order);
        written = true;
      },
    );
    if (written) audit();
    const sale = written ? (this.deps.sales.get(saleId) ?? null) : null;
    if (charged.ok) return { ok: true, saleId, sale: sale!, order: charged.order };
    return {
      ok: false,
      saleId: written ? saleId : null,
      sale,
      ...(charged.order ? { order: charged.order } : {}),
      failure: charged.failure,
    };
  }

  /**
   * The sale's struk as HTML, for the screen's print (58, 80 mm or A4). Noted on the sale (and its order) as shown:
   * once a sale's first struk has been issued, every later one is a copy (docs/receipts.md, one original per sale).
   */
  saleReceipt(input: { saleId: string; paper: HtmlPaper; copy: boolean }): { html: string } {
    const port = this.requireReceipts();
    const sale = this.requireSale(input.saleId);
    const copy = input.copy || this.receiptIssued(sale);
    const html = port.html(this.receiptInput(sale, port), { paper: input.paper, copy });
    this.noteReceipt(
      sale,
      'shown',
      copy,
      `struk shown for printing (${input.paper}${input.paper === 'A4' ? '' : ' mm'})`,
    );
    return { html };
  }

  /** Prints the sale's struk on the printer set up; a printer that fails never undoes the sale (the result says). */
  async printSaleReceipt(input: { saleId: string; copy: boolean }): Promise<PrintResult> {
    const port = this.requireReceipts();
    const sale = this.requireSale(input.saleId);
    const copy = input.copy || this.receiptIssued(sale);
    try {
      const printed = await port.print(this.receiptInput(sale, port), { copy });
      if (!printed)
        return {
          ok: false,
          message: 'No printer is set up: print from this screen instead.',
          reason: reason('print.no_printer', { what: 'receipt' }),
        };
      this.noteReceipt(sale, 'printed', copy, `struk printed${copy ? ' (copy)' : ''}`);
      return {
        ok: true,
        message: copy ? 'Copy printed.' : 'Receipt printed.',
        reason: reason('print.done', { what: copy ? 'copy' : 'receipt' }),
      };
    } catch (err) {
      // A printer that took the job and did not finish may have printed it: the next one is a copy.
      if ((err as { reason?: unknown }).reason === 'unfinished')
        this.noteReceipt(sale, 'uncertain', copy, `struk printer failed: ${(err as Error).message}`);
      return {
        ok: false,
        message: (err as Error).message,
        reason: reason('print.failed', { problem: printProblemOf(err) }),
      };
    }
  }

  private requireReceipts(): SaleReceiptPort {
    if (!this.deps.receipts) throw new ApiError('unavailable', 'The struk cannot be printed here.');
    return this.deps.receipts;
  }

  private requireSale(saleId: string): SaleView {
    const sale = this.deps.sales.get(saleId);
    if (!sale) throw new ApiError('not_found', `sale ${saleId} is not in the log`);
    return sale;
  }

  private receiptInput(sale: SaleView, port: SaleReceiptPort): SaleReceiptInput {
    return saleReceiptInputOf(sale, {
      serial: this.deps.sales.serialOf(sale.id) ?? sale.id,
      tax: this.deps.settings().tax,
      store: port.store(),
      order: (id) => this.deps.log.get(id),
    });
  }

  /** The sale's first struk has been issued (shown for printing, printed, or maybe printed). */
  private receiptIssued(sale: SaleView): boolean {
    return this.deps.sales.events(sale.id).some((e) => {
      const receipt = (e.payload as { receipt?: unknown } | null)?.receipt;
      return receipt === 'shown' || receipt === 'printed' || receipt === 'uncertain';
    });
  }

  /**
   * A struk issued: a note of the sale, and of its gateway order, so the order's own "receipt printed" (the paid screen
   * after a reload, the display after a restart) reads the same.
   */
  private noteReceipt(sale: SaleView, receipt: 'shown' | 'printed' | 'uncertain', copy: boolean, words: string): void {
    this.deps.sales.note(sale.id, { actor: 'cashier', payload: { receipt, copy } });
    for (const t of sale.tenders)
      if (t.orderId && this.deps.log.get(t.orderId))
        this.deps.log.note(t.orderId, { source: 'cashier', reason: words, payload: { receipt, copy } });
  }

  /** A gateway order of a sale changed: its tender is paid (the sale completes when all are) or ends unpaid. */
  private orderChanged(order: Order): void {
    if (order.state !== 'paid' && !UNPAID_END.includes(order.state)) return;
    const saleId = this.deps.sales.saleIdOfOrder(order.id);
    if (saleId === undefined) return;
    const before = this.deps.sales.get(saleId);
    if (!before || before.state === 'completed' || before.state === 'voided') return;
    const after = this.deps.sales.settleTender(order.id, order.state === 'paid' ? 'paid' : 'failed', {
      actor: 'system',
      payload: { orderState: order.state },
    });
    if (after?.state === 'voided') this.giveCashBack(after);
  }

  /** A voided sale's cash goes back to the customer: a cash refund movement of the shift, and a note of it. */
  private giveCashBack(sale: SaleView): void {
    const cash = sale.tenders.filter((t) => t.kind === 'cash').reduce((a, t) => a + t.amount, 0);
    if (cash === 0) return;
    try {
      this.deps.sales.db
        .transaction(() => {
          const ledger = this.deps.cashLedger;
          if (!ledger) throw new NoOpenShiftError();
          ledger.record({
            type: 'cash_refund',
            amount: cash,
            shiftId: ledger.openShiftId(),
            documentId: sale.id,
            at: this.deps.clock.now().toISOString(),
            staffId: null,
          });
          this.deps.sales.note(sale.id, { actor: 'system', payload: { cashReturned: cash } });
        })
        .immediate();
    } catch (err) {
      // The void stands; the drawer's count will show the cash, and the note says why.
      this.deps.sales.note(sale.id, {
        actor: 'system',
        payload: { cashReturned: 0, cashToReturn: cash, problem: (err as Error).message },
      });
    }
  }

  /** The cart's figures (never the caller's), its lines as they would be sold, and what a charge would need. */
  private quote(cart: Cart, settings: SaleSettings): SaleQuote {
    const parsed = cartSchema.safeParse(cart);
    if (!parsed.success)
      return {
        ok: false,
        issues: parsed.error.issues.map((i) => {
          // A cart's paths start with a name (lines, saleDiscount): ".lines[2].qty" less its first dot.
          const field =
            i.path
              .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
              .join('')
              .slice(1) || 'cart';
          return { field, rule: 'format', message: `${field}: ${i.message}` };
        }),
      };
    const issues: SaleFieldIssue[] = [];
    if (cart.lines.length === 0) issues.push({ field: 'lines', rule: 'lines', message: 'lines: a sale needs a line' });
    // The cart's products in one read (two statements whatever the lines' number), not two queries per line.
    const catalogue = this.deps.products.getMany(
      cart.lines.flatMap((l) => (l.productId === undefined ? [] : [l.productId])),
    );
    const lines: SaleLine[] = cart.lines.map((line, i) => {
      if (line.productId === undefined) {
        // A typed line is what the cashier typed: no SKU, barcode or item_id of the catalogue's.
        const typed: SaleLine = { ...line };
        delete typed.sku;
        delete typed.barcode;
        delete typed.fixedDenomination;
        return typed;
      }
      const product = catalogue.get(line.productId);
      if (!product || !product.active) {
        issues.push({
          field: `lines[${i}].productId`,
          rule: 'product',
          message: `line ${i + 1}, productId: ${line.productId} is not an active product of the catalogue`,
        });
        return line;
      }
      const sold: SaleLine = {
        ...line,
        sku: product.sku,
        name: product.name,
        unitPrice: product.price,
        taxCategory: product.taxCategory,
      };
      delete sold.fixedDenomination;
      if (product.itemId !== undefined) sold.fixedDenomination = { itemId: product.itemId };
      return sold;
    });
    if (issues.length > 0) return { ok: false, issues };
    const computed = computeSale(lines, cart.saleDiscount, settings.tax);
    if (!computed.ok) return { ok: false, issues: computed.issues };
    const name = gatewayItemName(lines);
    if (!name.ok) return { ok: false, issues: [name.issue] };
    return {
      ok: true,
      figures: computed.sale,
      lines,
      overLimit: discountsOverLimit(lines, cart.saleDiscount, computed.sale, settings.discounts),
      itemName: name.itemName,
      cashRounding: settings.cash.rounding,
    };
  }
}

function refused(issues: SaleFieldIssue[]): ChargeSaleResult {
  const failure: ChargeFailure = {
    class: 'invalid_input',
    retry: 'final',
    message: issues.map((i) => i.message).join('; '),
    issues: [],
  };
  return { ok: false, saleId: null, sale: null, failure, issues };
}

function cashIssue(issue: CashIssue): SaleFieldIssue {
  return { field: issue.field, rule: issue.rule, message: issue.message };
}

function tenderOf(step: TenderStep, input: TenderInput): Omit<SaleTender, 'no'> {
  const base = { amount: step.applied, handed: step.handed, change: step.change, rounding: step.rounding };
  if (input.kind === 'cash') return { kind: 'cash', state: 'paid', ...base };
  if (input.kind === 'other') return { kind: 'other', state: 'paid', reference: input.reference.trim(), ...base };
  return { kind: 'gateway', state: 'pending', methodId: input.methodId, ...base };
}
