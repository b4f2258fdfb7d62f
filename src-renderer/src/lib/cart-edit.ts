import type { Product } from '../../../src-main/common/product';
import type { Cart } from '../../../src-main/common/sale';
import { lineOfProduct } from '../../../src-main/common/sale';
import { MAX_QTY, type Discount, type SaleLine } from '../../../src-main/common/sale-line';

/**
 * The cart's edits, pure: each takes the cart and answers a new one (the state keeps it, saves it, quotes it). The
 * figures are never computed here: the server's quote is the only source of them (docs/cashier.md).
 */

export const EMPTY_CART: Cart = { lines: [], saleDiscount: null };

/**
 * A product rung up: one more of it when the last line is the same product without a discount of its own (a scanner
 * read the same item twice), else a new line at the end.
 */
export function addProduct(cart: Cart, product: Product, lineId: string, barcode?: string): Cart {
  const last = cart.lines.at(-1);
  if (last && last.productId === product.id && last.discount === undefined && last.qty < MAX_QTY)
    return withLines(cart, [...cart.lines.slice(0, -1), { ...last, qty: last.qty + 1 }]);
  return withLines(cart, [...cart.lines, lineOfProduct(product, lineId, 1, barcode)]);
}

/** A line typed by the cashier: a name and a price, in the store's default tax category (ppn). */
export function addFreeLine(cart: Cart, name: string, unitPrice: number, lineId: string): Cart {
  return withLines(cart, [...cart.lines, { lineId, name, unitPrice, qty: 1, taxCategory: 'ppn' }]);
}

/**
 * A quick item (resources/items.json) is a catalogue product whose SKU is its item id: the product found by that code is
 * the item's only while it still carries that item_id and is sold at the price the form added it at. Otherwise (the
 * amount was changed after the pick, the product was edited or deactivated) the line stays as typed, without item_id:
 * a fixed-denomination item at another price is not that item.
 */
export function isQuickItemProduct(product: Product, item: { itemId: string; unitPrice: number }): boolean {
  return product.active && product.itemId === item.itemId && product.price === item.unitPrice;
}

/**
 * The line `lineId` becomes a line of `product` (its id, SKU, tax category and item_id), keeping its quantity and
 * discount: a quick item added as typed, once its product is found.
 */
export function lineToProduct(cart: Cart, lineId: string, product: Product): Cart {
  return mapLine(cart, lineId, (l) => {
    const line = lineOfProduct(product, l.lineId, l.qty);
    if (l.discount) line.discount = l.discount;
    return line;
  });
}

/** The quantity as typed or stepped, kept within 1 to 9999. */
export function setQty(cart: Cart, lineId: string, qty: number): Cart {
  const kept = Math.min(MAX_QTY, Math.max(1, Math.trunc(Number.isFinite(qty) ? qty : 1)));
  return mapLine(cart, lineId, (l) => ({ ...l, qty: kept }));
}

export function stepQty(cart: Cart, lineId: string, by: 1 | -1): Cart {
  const line = cart.lines.find((l) => l.lineId === lineId);
  return line ? setQty(cart, lineId, line.qty + by) : cart;
}

export function removeLine(cart: Cart, lineId: string): Cart {
  return withLines(
    cart,
    cart.lines.filter((l) => l.lineId !== lineId),
  );
}

export function setLineDiscount(cart: Cart, lineId: string, discount: Discount | null): Cart {
  return mapLine(cart, lineId, (l) => {
    const { discount: _old, ...rest } = l;
    return discount ? { ...rest, discount } : rest;
  });
}

export function setSaleDiscount(cart: Cart, discount: Discount | null): Cart {
  return { lines: cart.lines, saleDiscount: discount };
}

/**
 * A discount as typed: "10%" or "12,5%" (a percent, to basis points), "5000" or "5.000" (an amount in rupiah), ""
 * (none). Anything else is null with `invalid`, never read as another discount.
 */
export function readDiscount(text: string): { ok: true; discount: Discount | null } | { ok: false } {
  const t = text.trim().replace(/^rp\.?\s*/i, '');
  if (t === '') return { ok: true, discount: null };
  const pct = /^(\d{1,3})(?:[.,](\d{1,2}))?\s*%$/.exec(t);
  if (pct) {
    const valueBp = Number(pct[1]) * 100 + Number((pct[2] ?? '').padEnd(2, '0'));
    return valueBp <= 10000 ? { ok: true, discount: { kind: 'percent', valueBp } } : { ok: false };
  }
  if (/^\d{1,3}(\.\d{3})+$/.test(t) || /^\d{1,12}$/.test(t))
    return { ok: true, discount: { kind: 'amount', value: Number(t.replace(/\./g, '')) } };
  return { ok: false };
}

/** A discount as the field shows it again. */
export function discountText(discount: Discount | null | undefined): string {
  if (!discount) return '';
  if (discount.kind === 'amount') return String(discount.value);
  const whole = Math.trunc(discount.valueBp / 100);
  const part = discount.valueBp % 100;
  return part === 0 ? `${whole}%` : `${whole},${String(part).padStart(2, '0').replace(/0$/, '')}%`;
}

function withLines(cart: Cart, lines: SaleLine[]): Cart {
  return { lines, saleDiscount: cart.saleDiscount ?? null };
}

function mapLine(cart: Cart, lineId: string, change: (line: SaleLine) => SaleLine): Cart {
  return withLines(
    cart,
    cart.lines.map((l) => (l.lineId === lineId ? change(l) : l)),
  );
}
