import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  cashOutIssue,
  checkMovement,
  roundCash,
  shiftCash,
  type CashRounding,
  type ShiftCashEvent,
  type TenderInput,
} from '../../src-main/common/cash';
import { planTenders } from '../../src-main/common/tender-kinds/plan';
import { mulDivFloor } from '../../src-main/common/money-math';
import { cashRefund, planRefund, type RefundableSale, type RefundedQty } from '../../src-main/common/refund';
import { computeSale } from '../../src-main/common/sale-totals';
import { propertyParams } from './helpers/property';
import { cartArb, saleDiscountArb, saleDiscountFor, taxSettingsArb, toLines } from './helpers/sale-arbitraries';

/**
 * Issue 20's acceptance property: a day at the counter from random carts, discounts, tax settings, split tenders,
 * cash rounding, partial refunds (in cash or outside Loket), pay-ins and pay-outs. Every sale's tenders sum to its
 * total plus its rounding line, change is never negative, refunds never give back more than was paid, and the
 * shift's expected cash (rebuilt from its events by shiftCash) is float + cash in − change − cash refunds − pay-outs +
 * pay-ins, tallied here on the side as the day goes.
 *
 * Seeded: a failure prints fast-check's seed and path; LOKET_PROPERTY_SEED (and LOKET_PROPERTY_PATH) replay it,
 * LOKET_PROPERTY_RUNS sets the number of days (test/node/helpers/property.ts).
 */

/** A tender as a share of what is due when it is offered, so the shapes fit any total. */
const tenderShape = fc.oneof(
  // Cash: the exact due (rounded), near it (within Rp150 either way), a share of it, or a note above it.
  fc.record({
    kind: fc.constant('cash' as const),
    how: fc.constantFrom('exact', 'near', 'part', 'note' as const),
    share: fc.integer({ min: 1, max: 9999 }),
    near: fc.integer({ min: -150, max: 150 }),
  }),
  fc.record({
    kind: fc.constant('gateway' as const),
    share: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant('other' as const),
    share: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: undefined }),
  }),
);
type TenderShape = typeof tenderShape extends fc.Arbitrary<infer T> ? T : never;

const NOTES = [1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000];

function tenderFor(shape: TenderShape, due: number, mode: CashRounding): TenderInput {
  if (shape.kind === 'cash') {
    const rounded = roundCash(due, mode);
    if (shape.how === 'exact') return { kind: 'cash', handed: rounded };
    if (shape.how === 'near') return { kind: 'cash', handed: Math.max(1, due + shape.near) };
    if (shape.how === 'part') return { kind: 'cash', handed: Math.max(1, mulDivFloor(due, shape.share, 10_000)) };
    const note = NOTES.find((n) => n >= rounded) ?? Math.ceil(rounded / 100_000) * 100_000;
    return { kind: 'cash', handed: note };
  }
  const amount = shape.share === undefined ? undefined : Math.max(1, mulDivFloor(due, shape.share, 10_000));
  return shape.kind === 'gateway'
    ? { kind: 'gateway', methodId: 'qris_dynamic', amount }
    : { kind: 'other', reference: 'EDC 0001', amount };
}

const saleArb = fc.record({
  cart: cartArb,
  discount: saleDiscountArb,
  tenders: fc.array(tenderShape, { maxLength: 4 }),
  finishInCash: fc.boolean(),
});
const eventArb = fc.oneof(
  fc.record({
    type: fc.constant('refund' as const),
    sale: fc.nat(),
    whole: fc.boolean(),
    picks: fc.array(fc.record({ line: fc.nat(), qty: fc.integer({ min: 1, max: 4 }) }), { minLength: 1, maxLength: 3 }),
    cash: fc.boolean(),
  }),
  fc.record({
    type: fc.constantFrom('pay_in' as const, 'pay_out' as const),
    amount: fc.integer({ min: 1, max: 300_000 }),
  }),
);

describe('money at the counter (property, issue 20)', () => {
  it('a day of random sales, split tenders, rounding, refunds and pay-ins/outs keeps the money exact', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        taxSettingsArb,
        fc.constantFrom('off' as const, 'down' as const, 'nearest' as const),
        fc.array(saleArb, { minLength: 1, maxLength: 6 }),
        fc.array(eventArb, { maxLength: 10 }),
        (float, settings, mode, sales, later) => {
          const events: ShiftCashEvent[] = [{ type: 'float', amount: float }];
          const tally = { cashIn: 0, change: 0, cashRefunds: 0, payIns: 0, payOuts: 0 };
          const paidSales: { sale: RefundableSale; previous: RefundedQty[]; refunded: number; cashMoney: number }[] =
            [];

          for (const s of sales) {
            const lines = toLines(s.cart);
            const first = computeSale(lines, null, settings);
            fc.pre(first.ok);
            if (!first.ok) return;
            const figures = computeSale(lines, saleDiscountFor(s.discount, first.sale.afterDiscounts), settings);
            if (!figures.ok) throw new Error(figures.issues[0]!.message);
            const total = figures.sale.total;
            fc.pre(total <= 50_000_000_000); // a till's sale; the tender shapes stay meaningful

            // Offer the tenders one at a time, as a cashier would; the plan refuses what breaks a rule.
            const accepted: TenderInput[] = [];
            let due = total;
            for (const shape of s.tenders) {
              if (due === 0) break;
              const t = tenderFor(shape, due, mode);
              const r = planTenders(total, [...accepted, t], mode);
              if (!r.ok) {
                expect(r.issues).toHaveLength(1);
                expect(['over_due', 'amount']).toContain(r.issues[0]!.rule);
                continue;
              }
              accepted.push(t);
              due = r.plan.due;
            }
            if (due > 0)
              accepted.push(
                s.finishInCash
                  ? { kind: 'cash', handed: roundCash(due, mode) + 500 }
                  : { kind: 'gateway', methodId: 'qris_dynamic' },
              );
            const r = planTenders(total, accepted, mode);
            if (!r.ok) throw new Error(r.issues[0]!.message);
            const plan = r.plan;

            // The tenders sum to the total, plus the rounding line, which is explicit and under Rp100.
            expect(plan.complete).toBe(true);
            expect(plan.applied).toBe(total + plan.rounding);
            expect(Math.abs(plan.rounding)).toBeLessThan(100);
            for (const step of plan.steps) {
              expect(step.change).toBeGreaterThanOrEqual(0);
              expect(step.applied - step.rounding).toBeLessThanOrEqual(step.dueBefore); // no tender pays more than is due
              if (step.kind === 'cash') {
                events.push({ type: 'cash_tender', handed: step.handed, change: step.change });
                tally.cashIn += step.handed;
                tally.change += step.change;
              }
            }
            paidSales.push({
              sale: { lines: figures.sale.lines, total, paid: plan.applied },
              previous: [],
              refunded: 0,
              cashMoney: 0,
            });
          }

          for (const e of later) {
            const drawer = shiftCash(events).expected;
            if (e.type === 'refund') {
              const p = paidSales[e.sale % paidSales.length]!;
              const request = e.whole
                ? ({ kind: 'whole' } as const)
                : {
                    kind: 'lines' as const,
                    lines: [
                      ...new Map(
                        e.picks.map((k) => [p.sale.lines[k.line % p.sale.lines.length]!.lineId, k.qty]),
                      ).entries(),
                    ].map(([lineId, qty]) => ({ lineId, qty })),
                  };
              const r = planRefund(p.sale, p.previous, request);
              if (!r.ok) continue; // more than is left: refused, with its issue (refund.test.ts checks the words)
              const refund = r.refund;
              if (e.cash) {
                const c = cashRefund(p.cashMoney, refund.money, mode);
                const short = cashOutIssue(c.handedBack, drawer);
                if (short) {
                  expect(short.rule).toBe('drawer');
                  continue; // the drawer cannot pay it: refused, nothing recorded
                }
                events.push({ type: 'cash_refund', amount: c.handedBack });
                tally.cashRefunds += c.handedBack;
                p.cashMoney += refund.money;
              }
              p.refunded += refund.money;
              for (const l of refund.lines) p.previous.push({ lineId: l.lineId, qty: l.qty });
              // Never more than was paid; everything refunded is exactly what was paid.
              expect(p.refunded).toBeLessThanOrEqual(p.sale.paid);
              if (refund.complete) expect(p.refunded).toBe(p.sale.paid);
            } else {
              const m = checkMovement(e.type, e.amount, 'Belanja toko', {
                payOutLimit: 100_000,
                paidOut: tally.payOuts,
              });
              expect(m.ok).toBe(true);
              if (!m.ok) continue;
              expect(m.needsManagerPin).toBe(e.type === 'pay_out' && tally.payOuts + e.amount > 100_000);
              const short = e.type === 'pay_out' ? cashOutIssue(m.amount, drawer) : undefined;
              if (short) {
                expect(e.amount).toBeGreaterThan(drawer);
                continue;
              }
              events.push({ type: e.type, amount: m.amount });
              if (e.type === 'pay_in') tally.payIns += m.amount;
              else tally.payOuts += m.amount;
            }
          }

          const cash = shiftCash(events);
          expect(cash.expected).toBe(
            float + tally.cashIn - tally.change - tally.cashRefunds - tally.payOuts + tally.payIns,
          );
          expect(cash.expected).toBeGreaterThanOrEqual(0); // nothing was paid out of an empty drawer
          expect(cash.cashSales).toBe(tally.cashIn - tally.change);
        },
      ),
      propertyParams(300),
    );
  });
});
