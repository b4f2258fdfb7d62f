import type { DisplayCart } from '../common/api';
import type { Cart, SaleQuote } from '../common/sale';

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
