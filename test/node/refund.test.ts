import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { roundCash } from '../../src-main/common/cash';
import {
  cashRefund,
  cumulativeLineAmount,
  planRefund,
  refundable,
  type RefundableSale,
  type RefundedQty,
} from '../../src-main/common/refund';
import { computeSale } from '../../src-main/common/sale-totals';
import { propertyParams } from './helpers/property';
import { cartArb, taxSettingsArb, toLines } from './helpers/sale-arbitraries';

// Three lines: 3 × (total 10.000), 2 × (7.001), 1 free; total 17.001, paid 17.000 in cash rounded down.
const sale: RefundableSale = {
  lines: [
    { lineId: 'A', qty: 3, total: 10_000 },
    { lineId: 'B', qty: 2, total: 7001 },
    { lineId: 'C', qty: 1, total: 0 },
  ],
  total: 17_001,
  paid: 17_000,
};

function plan(previous: RefundedQty[], request: Parameters<typeof planRefund>[2]) {
  const r = planRefund(sale, previous, request);
  if (!r.ok) throw new Error(r.issues.map((i) => i.message).join('\n'));
  return r.refund;
}

describe('refund amounts', () => {
  it('are cumulative per line, so parts sum to the line total', () => {
    expect([0, 1, 2, 3].map((j) => cumulativeLineAmount(10_000, 3, j))).toEqual([0, 3333, 6667, 10_000]);
    expect(plan([], { kind: 'lines', lines: [{ lineId: 'A', qty: 1 }] }).lines).toEqual([
      { lineId: 'A', position: 1, qty: 1, amount: 3333 },
    ]);
    expect(plan([{ lineId: 'A', qty: 1 }], { kind: 'lines', lines: [{ lineId: 'A', qty: 1 }] }).lines[0]!.amount).toBe(
      3334,
    );
    expect(plan([{ lineId: 'A', qty: 2 }], { kind: 'lines', lines: [{ lineId: 'A', qty: 1 }] }).lines[0]!.amount).toBe(
      3333,
    );
    expect(() => cumulativeLineAmount(100, 2, 3)).toThrow(/j must be a whole number from 0 to n = 2/);
  });

  it('share the sale’s cash rounding, so all refunds together give back exactly what was paid', () => {
    const first = plan([], { kind: 'lines', lines: [{ lineId: 'A', qty: 1 }] });
    expect(first).toEqual({
      lines: [{ lineId: 'A', position: 1, qty: 1, amount: 3333 }],
      amount: 3333,
      rounding: 0,
      money: 3333,
      complete: false,
    });
    const rest = plan([{ lineId: 'A', qty: 1 }], { kind: 'whole' });
    expect(rest).toEqual({
      lines: [
        { lineId: 'A', position: 1, qty: 2, amount: 6667 },
        { lineId: 'B', position: 2, qty: 2, amount: 7001 },
        { lineId: 'C', position: 3, qty: 1, amount: 0 },
      ],
      amount: 13_668,
      rounding: -1,
      money: 13_667,
      complete: true,
    });
    expect(first.money + rest.money).toBe(sale.paid);
  });

  it('a whole refund of a fresh sale gives back what was paid', () => {
    expect(plan([], { kind: 'whole' })).toMatchObject({ amount: 17_001, money: 17_000, rounding: -1, complete: true });
  });

  it('tell what is left', () => {
    expect(
      refundable(sale, [
        { lineId: 'A', qty: 1 },
        { lineId: 'B', qty: 2 },
      ]),
    ).toEqual({
      ok: true,
      refundable: {
        lines: [
          { lineId: 'A', position: 1, qty: 3, refundedQty: 1, qtyLeft: 2, amountLeft: 6667 },
          { lineId: 'B', position: 2, qty: 2, refundedQty: 2, qtyLeft: 0, amountLeft: 0 },
          { lineId: 'C', position: 3, qty: 1, refundedQty: 0, qtyLeft: 1, amountLeft: 0 },
        ],
        amountRefunded: 10_334,
        amountLeft: 6667,
        moneyRefunded: 10_333, // round(10.334 × 17.000 / 17.001) = round(10.333,39)
        moneyLeft: 6667,
      },
    });
  });
});

describe('refund issues', () => {
  it('"line 1: at most 2 left to refund" and the other rules, lines counted from 1', () => {
    const r = planRefund(
      sale,
      [
        { lineId: 'A', qty: 1 },
        { lineId: 'B', qty: 2 },
      ],
      {
        kind: 'lines',
        lines: [
          { lineId: 'A', qty: 3 },
          { lineId: 'B', qty: 1 },
          { lineId: 'C', qty: 0 },
          { lineId: 'Z', qty: 1 },
          { lineId: 'A', qty: 1 },
        ],
      },
    );
    expect(r).toEqual({
      ok: false,
      issues: [
        { field: 'lines[0].qty', rule: 'qty', message: 'line 1: at most 2 left to refund (asked for 3)' },
        { field: 'lines[1].qty', rule: 'nothing_left', message: 'line 2: refunded in full already' },
        { field: 'lines[2].qty', rule: 'qty', message: 'line 3: the quantity is a whole number, 1 or more (got 0)' },
        { field: 'lines[3].lineId', rule: 'line_id', message: 'lines[3].lineId: the sale has no line "Z"' },
        { field: 'lines[4].lineId', rule: 'line_id', message: 'line 1: named twice; give its quantity once' },
      ],
    });
  });

  it('nothing left, no lines, a bad request', () => {
    const all = sale.lines.map((l) => ({ lineId: l.lineId, qty: l.qty }));
    expect(planRefund(sale, all, { kind: 'whole' })).toEqual({
      ok: false,
      issues: [
        { field: 'sale', rule: 'nothing_left', message: 'sale: nothing is left to refund; it was refunded in full' },
      ],
    });
    expect(planRefund(sale, [], { kind: 'lines', lines: [] })).toMatchObject({
      ok: false,
      issues: [{ field: 'lines', rule: 'lines' }],
    });
    expect(planRefund(sale, [], { kind: 'some' } as never)).toMatchObject({
      ok: false,
      issues: [{ field: 'request', rule: 'lines' }],
    });
  });

  it('earlier refunds that do not fit the sale are named', () => {
    expect(
      planRefund(
        sale,
        [
          { lineId: 'A', qty: 2 },
          { lineId: 'A', qty: 2 },
          { lineId: 'X', qty: 1 },
        ],
        { kind: 'whole' },
      ),
    ).toEqual({
      ok: false,
      issues: [
        {
          field: 'previous[1].qty',
          rule: 'previous',
          message: 'previous[1].qty: line 1 has 1 left, so an earlier refund of 2 cannot be',
        },
        { field: 'previous[2].lineId', rule: 'previous', message: 'previous[2].lineId: the sale has no line "X"' },
      ],
    });
  });

  it('a sale whose figures do not add up is named', () => {
    expect(planRefund({ ...sale, total: 17_000 }, [], { kind: 'whole' })).toMatchObject({
      ok: false,
      issues: [{ field: 'sale.total', message: "sale.total: the sum of the lines' totals, Rp17.001 (got 17000)" }],
    });
    expect(planRefund({ ...sale, paid: 17_200 }, [], { kind: 'whole' })).toMatchObject({
      ok: false,
      issues: [{ field: 'sale.paid' }],
    });
    expect(
      planRefund(
        {
          lines: [
            { lineId: '', qty: 0, total: -1 },
            { lineId: 'A', qty: 1, total: 1 },
            { lineId: 'A', qty: 1, total: 1 },
          ],
          total: 0,
          paid: 0,
        },
        [],
        { kind: 'whole' },
      ),
    ).toMatchObject({
      ok: false,
      issues: [
        { field: 'sale.lines[0].lineId' },
        { field: 'sale.lines[0].qty' },
        { field: 'sale.lines[0].total' },
        { field: 'sale.lines[2].lineId' },
      ],
    });
  });
});

describe('cash refunds', () => {
  it('give back the exact money when the store does not round cash', () => {
    expect(cashRefund(0, 3333, 'off')).toEqual({ handedBack: 3333, rounding: 0 });
  });

  it('round down to Rp100 cumulatively, so the drawer pays back at most what was paid', () => {
    const a = cashRefund(0, 3333, 'nearest');
    expect(a).toEqual({ handedBack: 3300, rounding: -33 });
    const b = cashRefund(3333, 13_667, 'nearest');
    expect(b).toEqual({ handedBack: 13_700, rounding: 33 });
    expect(a.handedBack + b.handedBack).toBe(17_000);
  });
});

describe('refunds: properties', () => {
  it('never give back more than was paid; refunding everything gives back exactly what was paid (property)', () => {
    const step = fc.record({
      whole: fc.boolean(),
      picks: fc.array(fc.record({ line: fc.nat(), qty: fc.integer({ min: 1, max: 5 }) }), {
        minLength: 1,
        maxLength: 4,
      }),
      cash: fc.boolean(),
    });
    fc.assert(
      fc.property(
        cartArb,
        taxSettingsArb,
        fc.constantFrom('off' as const, 'down' as const, 'nearest' as const),
        fc.array(step, { maxLength: 8 }),
        (drafts, settings, mode, steps) => {
          const computed = computeSale(toLines(drafts), null, settings);
          fc.pre(computed.ok);
          if (!computed.ok) return;
          const total = computed.sale.total;
          const paid = roundCash(total, mode);
          const s: RefundableSale = { lines: computed.sale.lines, total, paid };
          const previous: RefundedQty[] = [];
          let money = 0;
          let cashMoney = 0;
          let handedBack = 0;
          const amountByLine = new Map<string, number>();
          for (const st of steps) {
            const request = st.whole
              ? ({ kind: 'whole' } as const)
              : {
                  kind: 'lines' as const,
                  lines: [
                    ...new Map(st.picks.map((p) => [s.lines[p.line % s.lines.length]!.lineId, p.qty])).entries(),
                  ].map(([lineId, qty]) => ({
                    lineId,
                    qty,
                  })),
                };
            const r = planRefund(s, previous, request);
            const left = refundable(s, previous);
            if (!left.ok) throw new Error(left.issues[0]!.message);
            if (!r.ok) {
              // Refused only when it asks for more than is left (or there is nothing left).
              expect(r.issues.every((i) => i.rule === 'qty' || i.rule === 'nothing_left')).toBe(true);
              continue;
            }
            const refund = r.refund;
            expect(refund.money).toBeGreaterThanOrEqual(0);
            expect(refund.money).toBeLessThanOrEqual(left.refundable.moneyLeft);
            expect(refund.amount).toBe(refund.lines.reduce((a, l) => a + l.amount, 0));
            expect(Math.abs(refund.rounding)).toBeLessThan(100);
            money += refund.money;
            if (st.cash) {
              const c = cashRefund(cashMoney, refund.money, mode);
              expect(c.handedBack).toBeGreaterThanOrEqual(0);
              cashMoney += refund.money;
              handedBack += c.handedBack;
              expect(handedBack).toBeLessThanOrEqual(cashMoney);
            }
            for (const l of refund.lines) {
              previous.push({ lineId: l.lineId, qty: l.qty });
              amountByLine.set(l.lineId, (amountByLine.get(l.lineId) ?? 0) + l.amount);
            }
            expect(money).toBeLessThanOrEqual(paid);
            const after = refundable(s, previous);
            expect(after.ok && after.refundable.moneyRefunded).toBe(money);
            if (refund.complete) {
              expect(money).toBe(paid);
              for (const l of s.lines) expect(amountByLine.get(l.lineId) ?? 0).toBe(l.total);
            }
          }
        },
      ),
      propertyParams(300),
    );
  });
});
