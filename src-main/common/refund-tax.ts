import { mulDivHalfUp } from './money-math';
import type { CategoryTax, TaxCategory } from './tax';

/**
 * The tax a refund gives back (docs/tenders.md, "Refunds"), split from the sale's tax lines to the rupiah. Per tax
 * category c, with T_c the sum of the sale's line totals in c and C_c the line amounts of c refunded so far, each of
 * the category's DPP, PPN, PBJT and service is given back cumulatively:
 *   part(C) = round(C × part_c / T_c);  this refund's part = part(C after) − part(C before)
 * so the refunds of a sale, taken together, give back exactly the sale's tax lines when it is refunded in full, and
 * never more. The net is what is left of the amount: amount = net + ppn + pbjt + service for every refund.
 */

export interface RefundTax {
  net: number;
  dpp: number;
  ppn: number;
  pbjt: number;
  service: number;
}

export const NO_REFUND_TAX: RefundTax = { net: 0, dpp: 0, ppn: 0, pbjt: 0, service: 0 };

/**
 * `lineTotals`: each sale line's category and total; `before` and `now`: the line amounts refunded per category
 * before this refund, and by it.
 */
export function refundTax(
  categories: readonly CategoryTax[],
  lineTotals: readonly { category: TaxCategory; total: number }[],
  before: ReadonlyMap<TaxCategory, number>,
  now: ReadonlyMap<TaxCategory, number>,
): RefundTax {
  const out = { ...NO_REFUND_TAX };
  for (const [category, amount] of now) {
    if (amount === 0) continue;
    const t = lineTotals.filter((l) => l.category === category).reduce((a, l) => a + l.total, 0);
    const tax = categories.find((c) => c.category === category);
    const b = before.get(category) ?? 0;
    const part = (of: number) => (t === 0 ? 0 : mulDivHalfUp(b + amount, of, t) - mulDivHalfUp(b, of, t));
    const dpp = tax ? part(tax.dpp) : 0;
    const ppn = tax ? part(tax.ppn) : 0;
    const pbjt = tax ? part(tax.pbjt) : 0;
    const service = tax ? part(tax.service) : 0;
    out.dpp += dpp;
    out.ppn += ppn;
    out.pbjt += pbjt;
    out.service += service;
    out.net += amount - ppn - pbjt - service;
  }
  return out;
}
