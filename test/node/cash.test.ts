import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_CASH_SETTINGS,
  DENOMINATIONS,
  cashOutIssue,
  cashSettingsSchema,
  cashTender,
  checkMovement,
  checkReference,
  countByDenomination,
  countDifference,
  countedTotalIssue,
  exactTender,
  roundCash,
  shiftCash,
  type TenderInput,
} from '../../src-main/common/cash';
import { planTenders } from '../../src-main/common/tender-kinds/plan';
import { propertyParams } from './helpers/property';

describe('cash rounding', () => {
  it('is off by default; down goes to the Rp100 below; nearest rounds Rp50 up', () => {
    expect(DEFAULT_CASH_SETTINGS).toEqual({ rounding: 'off', payOutLimit: 100_000 });
    expect(roundCash(18_050, 'off')).toBe(18_050);
    expect(roundCash(18_050, 'down')).toBe(18_000);
    expect(roundCash(18_099, 'down')).toBe(18_000);
    expect(roundCash(18_050, 'nearest')).toBe(18_100);
    expect(roundCash(18_049, 'nearest')).toBe(18_000);
    expect(roundCash(18_000, 'nearest')).toBe(18_000);
    expect(roundCash(49, 'nearest')).toBe(0);
    expect(roundCash(0, 'down')).toBe(0);
  });

  it('names a bad setting and a bad argument', () => {
    expect(cashSettingsSchema.safeParse({ rounding: 'up' }).error?.issues[0]?.message).toBe(
      "'off', 'down' (to the Rp100 below) or 'nearest' (to the nearest Rp100, Rp50 up)",
    );
    expect(() => roundCash(-1, 'down')).toThrow(/roundCash: amount must be a safe integer ≥ 0/);
    expect(() => roundCash(150, 'up' as 'down')).toThrow(/mode must be one of off, down, nearest/);
  });
});

describe('a cash tender', () => {
  it('settles the sale at the rounded due, with change and the rounding line', () => {
    expect(cashTender(18_050, 20_000, 'down')).toEqual({
      ok: true,
      step: {
        kind: 'cash',
        dueBefore: 18_050,
        handed: 20_000,
        applied: 18_000,
        change: 2000,
        rounding: -50,
        dueAfter: 0,
      },
    });
    expect(cashTender(18_050, 20_000, 'nearest')).toMatchObject({
      ok: true,
      step: { applied: 18_100, change: 1900, rounding: 50 },
    });
    expect(cashTender(18_050, 20_000, 'off')).toMatchObject({
      ok: true,
      step: { applied: 18_050, change: 1950, rounding: 0 },
    });
    expect(cashTender(18_050, 18_000, 'down')).toMatchObject({
      ok: true,
      step: { applied: 18_000, change: 0, rounding: -50, dueAfter: 0 },
    });
  });

  it('settles exactly (no rounding) when the customer hands the due but less than the due rounded up', () => {
    expect(cashTender(18_050, 18_070, 'nearest')).toMatchObject({
      ok: true,
      step: { applied: 18_050, change: 20, rounding: 0, dueAfter: 0 },
    });
  });

  it('pays part of the sale when less is handed, with no rounding', () => {
    expect(cashTender(18_050, 10_000, 'down')).toMatchObject({
      ok: true,
      step: { applied: 10_000, change: 0, rounding: 0, dueAfter: 8050 },
    });
  });

  it('settles a due that rounds to 0 with nothing handed', () => {
    expect(cashTender(40, 0, 'down')).toMatchObject({
      ok: true,
      step: { applied: 0, change: 0, rounding: -40, dueAfter: 0 },
    });
  });

  it('names what is wrong', () => {
    expect(cashTender(100, 0, 'off')).toEqual({
      ok: false,
      issue: {
        field: 'handed',
        rule: 'amount',
        message: 'handed: a whole number of rupiah from 1 to 100000000000000 (Rp100 is due in cash)',
        params: { min: 1, max: 100_000_000_000_000 },
      },
    });
    expect(cashTender(100, 1.5, 'off')).toEqual({
      ok: false,
      issue: {
        field: 'handed',
        rule: 'amount',
        message: 'handed: a whole number of rupiah from 0 to 100000000000000 (got 1.5)',
        params: { min: 0, max: 100_000_000_000_000 },
      },
    });
    expect(cashTender(100, '100', 'off')).toMatchObject({
      ok: false,
      issue: { message: 'handed: a whole number of rupiah from 0 to 100000000000000 (got "100")' },
    });
    expect(cashTender(0, 1000, 'off')).toEqual({
      ok: false,
      issue: { field: 'handed', rule: 'nothing_due', message: 'handed: nothing is due; the sale is paid' },
    });
  });
});

describe('a tender without change (gateway, other)', () => {
  it('takes what is due when no amount is given', () => {
    expect(exactTender('gateway', 18_050, undefined)).toEqual({
      ok: true,
      step: { kind: 'gateway', dueBefore: 18_050, applied: 18_050, handed: 0, change: 0, rounding: 0, dueAfter: 0 },
    });
    expect(exactTender('other', 18_050, 8050)).toMatchObject({ ok: true, step: { applied: 8050, dueAfter: 10_000 } });
  });

  it('may not exceed what is due, and names the rule', () => {
    expect(exactTender('gateway', 18_050, 20_000, 'tenders[1].')).toEqual({
      ok: false,
      issue: {
        field: 'tenders[1].amount',
        rule: 'over_due',
        message: 'tenders[1].amount: at most the Rp18.050 still due (got Rp20.000); only cash gives change',
      },
    });
    expect(exactTender('other', 100, 0)).toMatchObject({
      ok: false,
      issue: { rule: 'amount', message: 'amount: a whole number of rupiah from 1 to 100000000000000 (got 0)' },
    });
    expect(exactTender('other', 0, undefined)).toMatchObject({ ok: false, issue: { rule: 'nothing_due' } });
  });

  it('an "other" tender needs its reference', () => {
    expect(checkReference('  EDC 123456 ')).toEqual({ ok: true, reference: 'EDC 123456' });
    expect(checkReference('  ', 'tenders[0].')).toEqual({
      ok: false,
      issue: {
        field: 'tenders[0].reference',
        rule: 'reference',
        message:
          'tenders[0].reference: the slip’s or the transfer’s reference, 1 to 100 characters, without control characters (got "  ")',
      },
    });
    expect(checkReference('x'.repeat(101)).ok).toBe(false);
    expect(checkReference('a\u0000b').ok).toBe(false);
  });
});

describe('a split-tender plan', () => {
  it('Rp50.000 cash and the rest by QRIS', () => {
    const r = planTenders(
      68_050,
      [
        { kind: 'cash', handed: 50_000 },
        { kind: 'gateway', methodId: 'qris_dynamic' },
      ],
      'down',
    );
    expect(r).toEqual({
      ok: true,
      plan: {
        steps: [
          {
            kind: 'cash',
            dueBefore: 68_050,
            handed: 50_000,
            applied: 50_000,
            change: 0,
            rounding: 0,
            dueAfter: 18_050,
          },
          { kind: 'gateway', dueBefore: 18_050, handed: 0, applied: 18_050, change: 0, rounding: 0, dueAfter: 0 },
        ],
        total: 68_050,
        applied: 68_050,
        rounding: 0,
        change: 0,
        due: 0,
        complete: true,
      },
    });
  });

  it('QRIS for part, then cash settles the rest with rounding', () => {
    const r = planTenders(
      68_050,
      [
        { kind: 'gateway', methodId: 'qris_dynamic', amount: 50_000 },
        { kind: 'cash', handed: 20_000 },
      ],
      'nearest',
    );
    expect(r).toMatchObject({
      ok: true,
      plan: { applied: 68_100, rounding: 50, change: 1900, due: 0, complete: true },
    });
  });

  it('is incomplete while something is due', () => {
    expect(planTenders(10_000, [{ kind: 'other', reference: 'TRF-1', amount: 4000 }], 'off')).toMatchObject({
      ok: true,
      plan: { due: 6000, complete: false },
    });
    expect(planTenders(0, [], 'off')).toMatchObject({ ok: true, plan: { due: 0, complete: true, steps: [] } });
  });

  it('names every bad tender', () => {
    const tenders = [
      { kind: 'gateway', methodId: '' },
      { kind: 'other', reference: '' },
      { kind: 'card' },
      { kind: 'gateway', methodId: 'qris_dynamic', amount: 20_000 },
      { kind: 'cash', handed: 10_000 },
      { kind: 'other', reference: 'EDC 1', amount: 1 },
    ] as unknown as TenderInput[];
    expect(planTenders(10_000, tenders, 'off')).toEqual({
      ok: false,
      issues: [
        { field: 'tenders[0].methodId', rule: 'method', message: "tenders[0].methodId: the payment method's id" },
        {
          field: 'tenders[1].reference',
          rule: 'reference',
          message:
            'tenders[1].reference: the slip’s or the transfer’s reference, 1 to 100 characters, without control characters (got "")',
        },
        {
          field: 'tenders[2].kind',
          rule: 'kind',
          message: `tenders[2].kind: 'cash', 'gateway' or 'other' (got "card")`,
        },
        {
          field: 'tenders[3].amount',
          rule: 'over_due',
          message: 'tenders[3].amount: at most the Rp10.000 still due (got Rp20.000); only cash gives change',
        },
        {
          field: 'tenders[5].amount',
          rule: 'nothing_due',
          message: 'tenders[5].amount: nothing is due; the sale is paid',
        },
      ],
    });
  });

  // A cash tender is drawn relative to what is due when it is offered: near it (within Rp150 either way, where
  // rounding and the exact settle happen), any amount, or one of the usual notes.
  const tenderArb = fc.oneof(
    fc.record({ kind: fc.constant('cash' as const), near: fc.integer({ min: -150, max: 150 }) }),
    fc.record({
      kind: fc.constant('cash' as const),
      handed: fc.oneof(fc.integer({ min: 0, max: 200_000 }), fc.constantFrom(10_000, 20_000, 50_000, 100_000)),
    }),
    fc.record({
      kind: fc.constant('gateway' as const),
      methodId: fc.constant('qris_dynamic'),
      amount: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: undefined }),
    }),
    fc.record({
      kind: fc.constant('other' as const),
      reference: fc.constant('EDC 1'),
      amount: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: undefined }),
    }),
  );
  const resolve = (t: typeof tenderArb extends fc.Arbitrary<infer T> ? T : never, due: number): TenderInput =>
    'near' in t ? { kind: 'cash', handed: Math.max(0, due + t.near) } : t;

  it('each step follows from the last; change never negative; rounding only when cash settles, under Rp100 (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300_000 }),
        fc.array(tenderArb, { maxLength: 6 }),
        fc.constantFrom('off' as const, 'down' as const, 'nearest' as const),
        (total, tenders, mode) => {
          // Take the tenders one at a time, as a cashier would, keeping those the plan accepts.
          const accepted: TenderInput[] = [];
          let dueNow = total;
          for (const shape of tenders) {
            const t = resolve(shape, dueNow);
            const r = planTenders(total, [...accepted, t], mode);
            if (r.ok) {
              accepted.push(t);
              dueNow = r.plan.due;
            } else expect(r.issues).toHaveLength(1);
          }
          const r = planTenders(total, accepted, mode);
          if (!r.ok) throw new Error(r.issues[0]!.message);
          const p = r.plan;
          let due = total;
          for (const s of p.steps) {
            expect(s.dueBefore).toBe(due);
            expect(s.change).toBeGreaterThanOrEqual(0);
            expect(s.dueAfter).toBeGreaterThanOrEqual(0);
            expect(s.applied - s.rounding + s.dueAfter).toBe(s.dueBefore);
            if (s.kind === 'cash') {
              expect(s.handed).toBe(s.applied + s.change);
              // Change only when the sale is settled, and never more than what was handed beyond the due.
              if (s.change > 0) expect(s.dueAfter).toBe(0);
              expect(s.change).toBeLessThanOrEqual(
                Math.max(0, s.handed - Math.min(s.dueBefore, roundCash(s.dueBefore, mode))),
              );
            } else {
              expect(s.change).toBe(0);
              expect(s.applied).toBeLessThanOrEqual(s.dueBefore);
            }
            if (s.rounding !== 0) {
              expect(s.kind).toBe('cash');
              expect(s.dueAfter).toBe(0);
              expect(Math.abs(s.rounding)).toBeLessThan(100);
              expect(s.applied % 100 === 0).toBe(true);
            }
            due = s.dueAfter;
          }
          expect(p.applied).toBe(total - p.due + p.rounding);
          expect(p.complete).toBe(p.due === 0);
        },
      ),
      propertyParams(1000),
    );
  });
});

describe("the shift's cash", () => {
  it('expected = float + cash applied − cash refunds − pay-outs + pay-ins', () => {
    expect(
      shiftCash([
        { type: 'float', amount: 200_000 },
        { type: 'cash_tender', handed: 50_000, change: 1950 },
        { type: 'cash_tender', handed: 20_000, change: 0 },
        { type: 'cash_refund', amount: 18_000 },
        { type: 'pay_out', amount: 25_000 },
        { type: 'pay_in', amount: 10_000 },
      ]),
    ).toEqual({
      float: 200_000,
      cashIn: 70_000,
      change: 1950,
      cashSales: 68_050,
      cashVoids: 0,
      cashRefunds: 18_000,
      payIns: 10_000,
      payOuts: 25_000,
      expected: 235_050,
    });
    expect(shiftCash([]).expected).toBe(0);
  });

  it("a voided sale's cash given back (cash_void) lowers the expected cash, apart from the refunds", () => {
    expect(
      shiftCash([
        { type: 'float', amount: 200_000 },
        { type: 'cash_tender', handed: 50_000, change: 0 },
        { type: 'cash_void', amount: 50_000 },
        { type: 'cash_tender', handed: 20_000, change: 1_000 },
      ]),
    ).toMatchObject({ cashSales: 69_000, cashVoids: 50_000, cashRefunds: 0, expected: 219_000 });
    expect(() => shiftCash([{ type: 'cash_void', amount: -1 }])).toThrow(/events\[0\]\.amount must be a safe integer/);
  });

  it('refuses a broken event rather than count it', () => {
    expect(() => shiftCash([{ type: 'cash_tender', handed: 100, change: 200 }])).toThrow(
      /events\[0\]\.change is more than what was handed/,
    );
    expect(() => shiftCash([{ type: 'pay_in', amount: -1 }])).toThrow(/events\[0\]\.amount must be a safe integer/);
    expect(() => shiftCash([{ type: 'tip', amount: 1 } as never])).toThrow(/events\[0\]\.type is unknown \("tip"\)/);
  });

  it("a pay-in or pay-out needs an amount and a reason; a pay-out taking the shift's pay-outs over the limit needs a PIN", () => {
    const shift = { payOutLimit: 100_000, paidOut: 0 };
    expect(checkMovement('pay_out', 50_000, '  Beli galon air ', shift)).toEqual({
      ok: true,
      amount: 50_000,
      reason: 'Beli galon air',
      needsManagerPin: false,
      paidOut: 0,
    });
    expect(checkMovement('pay_out', 120_000, 'Bayar kurir', shift)).toMatchObject({ ok: true, needsManagerPin: true });
    expect(checkMovement('pay_in', 500_000, 'Tambah modal', shift)).toMatchObject({
      ok: true,
      needsManagerPin: false,
    });
    // The limit is the shift's: two pay-outs just under it are over it together.
    expect(checkMovement('pay_out', 60_000, 'Bayar kurir', { payOutLimit: 100_000, paidOut: 60_000 })).toEqual({
      ok: true,
      amount: 60_000,
      reason: 'Bayar kurir',
      needsManagerPin: true,
      paidOut: 60_000,
    });
    expect(checkMovement('pay_out', 40_000, 'Bayar kurir', { payOutLimit: 100_000, paidOut: 60_000 })).toMatchObject({
      needsManagerPin: false,
    });
    // A pay-in is never limited, whatever was paid out.
    expect(checkMovement('pay_in', 1, 'Koin', { payOutLimit: 0, paidOut: 500_000 })).toMatchObject({
      needsManagerPin: false,
      paidOut: 0,
    });
    expect(checkMovement('pay_out', 200_000, 'x', shift)).toEqual({
      ok: false,
      issues: [
        {
          field: 'reason',
          rule: 'reason',
          message: 'reason: say why, in 3 to 200 characters, without control characters',
        },
      ],
    });
    expect(checkMovement('pay_in', 0, undefined, shift)).toMatchObject({
      ok: false,
      issues: [
        { field: 'amount', message: 'amount: a whole number of rupiah from 1 to 100000000000000 (got 0)' },
        { field: 'reason' },
      ],
    });
  });

  it('a pay-out or cash refund the drawer cannot pay is refused without saying what the drawer should hold', () => {
    expect(cashOutIssue(20_000, 15_000)).toEqual({
      field: 'amount',
      rule: 'drawer',
      message: 'amount: Rp20.000 is more than the drawer should hold',
    });
    expect(JSON.stringify(cashOutIssue(20_000, 15_000))).not.toMatch(/15[.]?000/);
    expect(cashOutIssue(15_000, 15_000)).toBeUndefined();
  });
});

describe('counting the drawer', () => {
  it('has the Indonesian notes and coins', () => {
    expect(DENOMINATIONS.map((d) => `${d.kind} ${d.value}`)).toEqual([
      'note 100000',
      'note 50000',
      'note 20000',
      'note 10000',
      'note 5000',
      'note 2000',
      'note 1000',
      'coin 1000',
      'coin 500',
      'coin 200',
      'coin 100',
    ]);
  });

  it('totals a count by denomination', () => {
    const r = countByDenomination({ note100000: 2, note50000: 1, note1000: 3, coin1000: 2, coin500: 3, coin100: 4 });
    expect(r.ok && r.total).toBe(200_000 + 50_000 + 3000 + 2000 + 1500 + 400);
    expect(r.ok && r.lines.find((l) => l.id === 'coin500')).toEqual({
      id: 'coin500',
      value: 500,
      kind: 'coin',
      count: 3,
      amount: 1500,
    });
    expect(countByDenomination({})).toMatchObject({ ok: true, total: 0 });
  });

  it('names a bad count and an unknown denomination', () => {
    expect(countByDenomination({ note50000: -1, coin50: 2, coin200: 1.5 })).toEqual({
      ok: false,
      issues: [
        {
          field: 'counts.coin50',
          rule: 'denomination',
          message:
            'counts.coin50: not an Indonesian note or coin Loket counts (note100000, note50000, note20000, note10000, ' +
            'note5000, note2000, note1000, coin1000, coin500, coin200, coin100)',
        },
        {
          field: 'counts.note50000',
          rule: 'count',
          message: 'counts.note50000: a whole number from 0 to 100000 (got -1)',
        },
        {
          field: 'counts.coin200',
          rule: 'count',
          message: 'counts.coin200: a whole number from 0 to 100000 (got 1.5)',
        },
      ],
    });
  });

  it('compares the blind count with what was expected', () => {
    expect(countDifference(235_050, 235_000)).toEqual({
      expected: 235_050,
      counted: 235_000,
      difference: -50,
      status: 'short',
    });
    expect(countDifference(100_000, 100_500)).toMatchObject({ difference: 500, status: 'over' });
    expect(countDifference(100_000, 100_000)).toMatchObject({ difference: 0, status: 'even' });
    expect(countDifference(-5000, 0)).toMatchObject({ difference: 5000, status: 'over' });
    expect(countedTotalIssue(-1)).toEqual({
      field: 'counted',
      rule: 'amount',
      message: 'counted: a whole number of rupiah from 0 to 100000000000000 (got -1)',
      params: { min: 0, max: 100_000_000_000_000 },
    });
    expect(countedTotalIssue(1000)).toBeUndefined();
  });
});
