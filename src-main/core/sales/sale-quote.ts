import { gatewayItemName } from '../../common/item-name';
import { cartSchema, type Cart, type SaleFieldIssue, type SaleQuote } from '../../common/sale';
import type { SaleLine } from '../../common/sale-line';
import { computeSale, discountsOverLimit } from '../../common/sale-totals';
import type { ProductStore } from '../products/product-store';
import type { SaleSettings } from '../settings/sale-settings';

/**
 * The cart's figures (never the caller's: common/sale-totals.ts from the lines and the store's tax settings), its lines
 * as they would be sold (a catalogue line at the catalogue's name, price, tax category and item_id; a product no longer
 * in the catalogue or inactive is an issue of its line; a typed line as typed, without the catalogue's SKU, barcode or
 * item_id), and what a charge of it would need (a manager's PIN for a discount above the limits, the gateway's
 * item_name). The sale's screen quotes with it; the counter charges what it quotes.
 */
export function quoteCart(cart: Cart, settings: SaleSettings, products: ProductStore): SaleQuote {
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
  const catalogue = products.getMany(cart.lines.flatMap((l) => (l.productId === undefined ? [] : [l.productId])));
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
