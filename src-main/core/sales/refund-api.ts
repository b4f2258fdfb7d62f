import { ApiError, type PrintResult, type ReceiptView } from '../../common/api';
import { reason } from '../../common/reasons';
import type { Lang } from '../../common/app-info';
import type { PaymentMethod } from '../../common/payment-methods';
import type { RefundableView, RefundSaleInput, RefundSaleResult, RefundView } from '../../common/refund-doc';
import type { SaleView } from '../../common/sale';
import { renderReceiptHtml } from '../receipts/receipt-html';
import type { Receipt } from '../receipts/receipt-model';
import { buildRefundReceipt } from '../receipts/sale-receipt';
import type { RefundReceiptInput, SaleReceiptStore } from '../receipts/sale-receipt-input';
import type { RefundService } from './refund-service';

/**
 * The refund's API methods (common/api-table/refund-methods.ts) over the RefundService of the order log in use, and
 * its receipt: shown for printing from the screen (58 or 80 mm HTML) or sent to the receipt printer as every
 * receipt is (host/printing.ts). The drawer opens for a cash refund through the shift's ledger once the refund has
 * committed (core/shifts/shift-ledger.ts), as for a cash tender.
 */

export interface RefundApiOptions {
  /** The store, its zone and language, and the payment methods, as a struk prints them. */
  context(): { store: SaleReceiptStore; lang: Lang; timeZone: string; methods: readonly PaymentMethod[] };
  printedAt(): Date;
  /** Sends a receipt to the receipt printer (or the OS's); says so when none is set up. */
  print(receipt: Receipt): Promise<PrintResult>;
}

export class RefundApi {
  constructor(
    readonly service: RefundService,
    private readonly sale: (saleId: string) => SaleView | undefined,
    private readonly o: RefundApiOptions,
  ) {}

  refundableOf = (input: { saleId: string }): RefundableView | null => this.service.refundableOf(input);

  refundSale = (input: RefundSaleInput): Promise<RefundSaleResult> => this.service.refundSale(input);

  /** Shown for printing from the screen: a copy once the original has gone to the printer. */
  refundReceipt = (input: { refundId: string; paper: 58 | 80; copy?: boolean | undefined }): ReceiptView => ({
    html: renderReceiptHtml(this.receiptOf(input.refundId, this.isCopy(input)), { paper: input.paper }),
  });

  /** On the receipt printer: the first is the original, every later one a copy (an event of the refund says so). */
  printRefundReceipt = async (input: { refundId: string; copy?: boolean | undefined }): Promise<PrintResult> => {
    const copy = this.isCopy(input);
    const result = await this.o.print(this.receiptOf(input.refundId, copy));
    if (result.ok) this.service.receiptPrinted(input.refundId, copy);
    return result;
  };

  private isCopy(input: { refundId: string; copy?: boolean | undefined }): boolean {
    return input.copy === true || this.service.receiptIssued(input.refundId);
  }

  private receiptOf(refundId: string, copy: boolean): Receipt {
    const refund = this.service.refund({ refundId });
    if (!refund)
      throw new ApiError('not_found', `no refund ${refundId}`, reason('arguments.invalid', { field: 'refundId' }));
    const sale = this.sale(refund.saleId)!;
    const ctx = this.o.context();
    const serial = this.service.saleSerialOf(refund.saleId);
    return buildRefundReceipt(refundReceiptInputOf(refund, sale, { store: ctx.store, serial }), {
      lang: ctx.lang,
      timeZone: ctx.timeZone,
      methods: ctx.methods,
      copy,
      printedAt: this.o.printedAt(),
    });
  }
}

/**
 * The refund receipt's input (sale-receipt-input.ts) from the stored refund and its sale: nothing computed again.
 * `serial`: the sale's struk number (SaleStore.serialOf), printed as the original receipt's.
 */
export function refundReceiptInputOf(
  refund: RefundView,
  sale: SaleView,
  ctx: { store: SaleReceiptStore; serial?: string | undefined },
): RefundReceiptInput {
  return {
    refundId: refund.id,
    saleId: refund.saleId,
    ...(ctx.serial !== undefined ? { saleSerial: ctx.serial } : {}),
    at: refund.createdAt,
    plan: {
      lines: refund.lines.map((l) => ({ lineId: l.lineId, position: l.saleLineNo, qty: l.qty, amount: l.amount })),
      amount: refund.amount,
      rounding: refund.rounding,
      money: refund.money,
      complete: refund.complete,
    },
    saleLines: sale.lines.map((l) => ({ lineId: l.lineId, name: l.name, qty: l.qty })),
    payout:
      refund.how === 'cash'
        ? { kind: 'cash', handedBack: refund.paidBack, rounding: refund.cashRounding }
        : { kind: 'outside', methodId: refund.methodId },
    reason: refund.reason,
    ...(refund.staffId !== undefined ? { staff: { id: refund.staffId, name: refund.staffName } } : {}),
    approvedBy: { id: refund.approvedBy.staffId ?? refund.approvedBy.name, name: refund.approvedBy.name },
    tax: { dpp: refund.tax.dpp, ppn: refund.tax.ppn, pbjt: refund.tax.pbjt, service: refund.tax.service },
    training: refund.training,
    store: ctx.store,
  };
}
