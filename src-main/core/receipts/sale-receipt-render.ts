import type { PaperWidth } from './receipt-model';
import { renderEscPos } from './receipt-escpos';
import { renderReceiptHtml, type HtmlPaper } from './receipt-html';
import type { RefundReceiptInput, SaleReceiptInput } from './sale-receipt-input';
import { buildRefundReceipt, buildSaleReceipt, type SaleReceiptContext } from './sale-receipt';

/**
 * What the sale's side calls to print: a sale's struk and a refund's receipt, from the stored sale, as a
 * self-contained HTML document (58 mm, 80 mm or A4) or as ESC/POS bytes for the receipt printer (58 or 80 mm).
 * Whether a struk is the original or a copy is the caller's to decide (`copy`), as for an order's receipt: once the
 * first has been issued, every later one is a copy. See docs/receipts.md.
 */

export type SaleReceiptHtmlOptions = SaleReceiptContext & { paper: HtmlPaper };
export type SaleReceiptEscPosOptions = SaleReceiptContext & { paper: PaperWidth };

export function saleReceiptHtml(input: SaleReceiptInput, options: SaleReceiptHtmlOptions): string {
  return renderReceiptHtml(buildSaleReceipt(input, options), { paper: options.paper });
}

export function saleReceiptEscPos(input: SaleReceiptInput, options: SaleReceiptEscPosOptions): Buffer {
  return renderEscPos(buildSaleReceipt(input, options), { paper: options.paper });
}

export function refundReceiptHtml(input: RefundReceiptInput, options: SaleReceiptHtmlOptions): string {
  return renderReceiptHtml(buildRefundReceipt(input, options), { paper: options.paper });
}

export function refundReceiptEscPos(input: RefundReceiptInput, options: SaleReceiptEscPosOptions): Buffer {
  return renderEscPos(buildRefundReceipt(input, options), { paper: options.paper });
}
