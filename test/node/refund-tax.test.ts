import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { planRefund, type RefundedQty } from '../../src-main/common/refund';
import { refundTax } from '../../src-main/common/refund-tax';
import { computeSale } from '../../src-main/common/sale-totals';
import type { TaxCategory } from '../../src-main/common/tax';
import { propertyParams } from './helpers/property';
import { cartArb, taxSettingsArb, toLines } from './helpers/sale-arbitraries';

/**
 * The tax a refund gives back (common/refund-tax.ts), per tax category, under the rounding rule of docs/tax.md (PPN
 * from the printed DPP): whatever the refunds of a sale, in whatever parts, each gives back no negative part, together
 * they never give back more of a category's DPP, PPN, PBJT or service than the sale carried, every refund's parts add
 * up to its amount, and refunding everything gives back each category's tax lines exactly.
 */

const PARTS = ['dpp', 'ppn', 'pbjt', 'service'] as const;

describe('the tax a refund gives back', () => {
  it('never more than the sale carried, per category; all of it once the sale is refunded in full (property)', () => {
    const step = fc.array(fc.record({ line: fc.nat(), qty: fc.integer({ min: 1, max: 5 }) }), {
      minLength: 1,
      maxLength: 4,
    });
    fc.assert(
      fc.property(cartArb, taxSettingsArb, fc.array(step, { maxLength: 8 }), (drafts, settings, steps) => {
        const computed = computeSale(toLines(drafts), null, settings);
        fc.pre(computed.ok);
        if (!computed.ok) return;
        const sale = computed.sale;
        const categoryOf = new Map(sale.lines.map((l) => [l.lineId, l.taxCategory]));
        const lineTotals = sale.lines.map((l) => ({ category: l.taxCategory, total: l.total }));
        const refundable = { lines: sale.lines, total: sale.total, paid: sale.total };
        const previous: RefundedQty[] = [];
        const before = new Map<TaxCategory, number>();
        const given = new Map<TaxCategory, Record<(typeof PARTS)[number], number>>();

        const refund = (request: Parameters<typeof planRefund>[2]): boolean => {
          const planned = planRefund(refundable, previous, request);
          if (!planned.ok) return false;
          const now = new Map<TaxCategory, number>();
          for (const l of planned.refund.lines) {
            const c = categoryOf.get(l.lineId)!;
            now.set(c, (now.get(c) ?? 0) + l.amount);
            previous.push({ lineId: l.lineId, qty: l.qty });
          }
          // Per category, so that a category's parts are its own (refundTax sums them over the categories).
          for (const [c, amount] of now) {
            const t = refundTax(sale.categories, lineTotals, before, new Map([[c, amount]]));
            expect(t.net + t.ppn + t.pbjt + t.service).toBe(amount);
            const sofar = given.get(c) ?? { dpp: 0, ppn: 0, pbjt: 0, service: 0 };
            for (const p of PARTS) {
              expect(t[p]).toBeGreaterThanOrEqual(0);
              sofar[p] += t[p];
            }
            given.set(c, sofar);
            before.set(c, (before.get(c) ?? 0) + amount);
          }
          // And all categories at once: the sums of the parts above.
          const all = refundTax(
            sale.categories,
            lineTotals,
            new Map([...before].map(([c, v]) => [c, v - (now.get(c) ?? 0)])),
            now,
          );
          expect(all.net + all.ppn + all.pbjt + all.service).toBe(planned.refund.amount);
          return true;
        };

        for (const picks of steps) {
          const lines = picks
            .filter(() => sale.lines.length > 0)
            .map((p) => ({ lineId: sale.lines[p.line % sale.lines.length]!.lineId, qty: p.qty }));
          const unique = [...new Map(lines.map((l) => [l.lineId, l])).values()];
          refund({ kind: 'lines', lines: unique });
          for (const c of sale.categories) {
            const g = given.get(c.category);
            if (g) for (const p of PARTS) expect(g[p]).toBeLessThanOrEqual(c[p]);
          }
        }
        // What is left, whole: every category's tax lines come back exactly.
        refund({ kind: 'whole' });
        for (const c of sale.categories) {
          const g = given.get(c.category) ?? { dpp: 0, ppn: 0, pbjt: 0, service: 0 };
          for (const p of PARTS) expect(g[p]).toBe(c[p]);
        }
      }),
      propertyParams(600),
    );
  });
});
