import type { Order } from '../../common/order';
import type { SaleView } from '../../common/sale';
import type { TaxSettings } from '../../common/tax';
import type { SaleReceiptInput, SaleReceiptStore, SaleReceiptTender } from '../receipts/sale-receipt-input';

/**
 * The struk's input from a stored sale: its lines and figures as stored (never computed again), its tenders in the
 * order they were taken, each gateway tender with its order as the log has it now (paid, or still waiting).
 *
 * The tax block and a PKP store's invoice fields print the tax settings the sale was computed with (its rates, DPP
 * factor, prices including or excluding tax, the seller, address and NPWP), stored with it: a reprint after a manager
 * changed them reads as the first struk did. `ctx.tax`, the store's settings now, is read only for a sale stored
 * before Loket kept them (docs/tax.md, "A sale keeps its tax settings").
 */
export function saleReceiptInputOf(
  sale: SaleView,
  ctx: { serial: string; tax: TaxSettings; store: SaleReceiptStore; order: (id: string) => Order | undefined },
): SaleReceiptInput {
  const tenders: SaleReceiptTender[] = sale.tenders.flatMap((t): SaleReceiptTender[] => {
    if (t.kind === 'cash')
      return [{ kind: 'cash', applied: t.amount, handed: t.handed, change: t.change, rounding: t.rounding }];
    if (t.kind === 'other') return [{ kind: 'other', applied: t.amount, reference: t.reference ?? '' }];
    const order = t.orderId ? ctx.order(t.orderId) : undefined;
    // A gateway tender whose order never reached the log (refused before it was written) is not a payment.
    return order ? [{ kind: 'gateway', applied: t.amount, order }] : [];
  });
  return {
    saleId: sale.id,
    serial: ctx.serial,
    createdAt: sale.createdAt,
    ...(sale.completedAt ? { completedAt: sale.completedAt } : {}),
    lines: sale.lines.map((l) => ({
      lineId: l.lineId,
      taxCategory: l.taxCategory,
      qty: l.qty,
      gross: l.gross,
      lineDiscount: l.lineDiscount,
      saleDiscount: l.saleDiscount,
      net: l.net,
      total: l.total,
      name: l.name,
      unitPrice: l.unitPrice,
      ...(l.discount ? { discount: l.discount } : {}),
    })),
    saleDiscount: sale.saleDiscount,
    figures: {
      categories: sale.taxLines,
      subtotal: sale.subtotal,
      lineDiscounts: sale.lineDiscounts,
      saleDiscount: sale.saleDiscountAmount,
      discounts: sale.discounts,
      afterDiscounts: sale.subtotal - sale.discounts,
      net: sale.net,
      dpp: sale.dpp,
      ppn: sale.ppn,
      pbjt: sale.pbjt,
      service: sale.service,
      total: sale.total,
    },
    tax: sale.taxSettings ?? ctx.tax,
    tenders,
    ...(sale.staffId !== undefined ? { staff: { id: sale.staffId, name: sale.staffName } } : {}),
    training: sale.training,
    store: ctx.store,
  };
}
