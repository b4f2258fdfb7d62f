import { ApiError, type PrintResult } from '../../common/api';
import type { Order } from '../../common/order';
import type { Product } from '../../common/product';
import { reason } from '../../common/reasons';
import type { Cart, ChargeSaleInput, ChargeSaleResult, SaleQuote, SaleView } from '../../common/sale';
import type { StaffSummary } from '../../common/staff';
import { staffActor, type AuditLog } from '../audit/audit-log';
import type { OrderLog } from '../orders/order-log';
import type { Clock } from '../ports';
import { DEFAULT_SEARCH_LIMIT, type ProductStore } from '../products/product-store';
import type { SaleSettings } from '../settings/sale-settings';
import type { SaleStore } from './sale-store';
import type { HtmlPaper } from '../receipts/receipt-html';
import type { SaleReceiptInput, SaleReceiptStore } from '../receipts/sale-receipt-input';
import { printProblemOf } from '../print-problem';
import { saleReceiptInputOf } from './sale-receipt-of';
import { quoteCart } from './sale-quote';

/**
 * The sale at the counter (docs/sale.md): the cart being rung up (stored per terminal), its figures (quoted by
 * sale-quote.ts from the lines and the store's tax settings, never taken from the caller), charging it (the counter's
 * one way: core/counter/counter.ts, through the host's charge, which also keeps the customer display), voiding a sale
 * still being paid, and its struk.
 *
 * Decided here:
 * - The stored cart is cleared when a sale is charged: the sale holds its lines from then on (cartOf rings a refused
 *   sale up again, under a new key).
 * - A sale is voided by cancelling its pending gateway order; the order log writes the void and the cash given back
 *   in the cancel's own transaction (core/counter/sale-follows-order.ts), with the audit entry of the void.
 */

/** The host's charge (AppService.chargeSale: the counter, and the display around it), and the cancel of an order. */
export interface CounterPort {
  chargeSale(input: ChargeSaleInput): Promise<ChargeSaleResult>;
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
  /** The audit log of the order log's database: a void's entry commits with the void. */
  audit?: AuditLog;
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

export class SaleService {
  constructor(private readonly deps: SaleServiceDeps) {}

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
    return quoteCart(input.cart, this.deps.settings(), this.deps.products);
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
    const pending = sale.tenders.find((t) => t.state === 'pending' && t.orderId);
    if (pending?.orderId) {
      const orderId = pending.orderId;
      // The cancel, the void it causes (and the cash given back) and the audit entry: one transaction.
      this.deps.log.atomically(() => {
        this.deps.counter.cancelOrder(orderId, input.reason);
        const staff = this.deps.till?.().staff ?? null;
        this.deps.audit?.record({
          actor: staff ? staffActor(staff) : { name: 'system', source: 'system' },
          action: 'sale.voided',
          detail: { saleId: sale.id, orderId, reason: input.reason.trim() },
        });
      });
    }
    return this.deps.sales.require(sale.id);
  }

  /** Charges the cart: the counter's one way (core/counter/counter.ts), through the host's charge (the display, polling). */
  chargeSale(input: ChargeSaleInput): Promise<ChargeSaleResult> {
    return this.deps.counter.chargeSale(input);
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
}
