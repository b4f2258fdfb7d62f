import type { DisplayCart, DisplaySale } from '../common/api';
import type { Cart, SaleQuote, SaleView } from '../common/sale';
import { tenderKind } from '../common/tender-kinds';

/**
 * The cart as the customer display shows it: each line's name, quantity and total after its discounts (the server's
 * quote), and the sale's total; null for an empty cart. A cart the quote refuses still shows its lines (at shelf
 * price × quantity), without a total.
 */
export function displayCartOf(cart: Cart, quote: SaleQuote): DisplayCart | null {
  if (cart.lines.length === 0) return null;
  if (!quote.ok)
    return { lines: cart.lines.map((l) => ({ name: l.name, qty: l.qty, total: l.unitPrice * l.qty })), total: null };
  return {
    lines: quote.lines.map((l, i) => ({
      name: l.name,
      qty: l.qty,
      total: quote.figures.lines[i]?.net ?? l.unitPrice * l.qty,
    })),
    total: quote.figures.total,
  };
}

/**
 * A sale as the customer display shows it beside its order (or alone, paid in cash or other): paid so far, still due,
 * the change and the rounding line. Every figure is the stored sale's; nothing is worked out again but the due.
 */
export function displaySaleOf(sale: SaleView): DisplaySale {
  const complete = sale.state === 'completed';
  return {
    total: sale.total,
    paid: sale.paid,
    due: complete ? 0 : Math.max(0, sale.total + sale.rounding - sale.paid),
    change: sale.change,
    rounding: sale.rounding,
    cash: sale.tenders.some((t) => tenderKind(t.kind).intoDrawer),
    complete,
  };
}
