// @vitest-environment jsdom
// The refund dialog's state (docs/tenders.md, "The refund screen") against the fake client: the sale found from its
// order or its number, lines and quantities picked, what the screen checks before asking, the server's issues worded
// in the cashier's language, the refund made and its receipt shown and printed.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { RefundableView, RefundView } from '../../../src-main/common/refund-doc';
import type { SaleView } from '../../../src-main/common/sale';
import { messagesFor } from '../../../src-renderer/src/i18n/i18n.svelte';
import { refundIssueText } from '../../../src-renderer/src/lib/refund-words';
import { RefundManager } from '../../../src-renderer/src/state/refund.svelte';
import { FakeApi, makeOrder } from './fake-client';

function view(overrides: Partial<RefundableView> = {}): RefundableView {
  return {
    saleId: 'S-1',
    saleState: 'completed',
    refundable: true,
    total: 50_000,
    paid: 50_000,
    lines: [
      {
        lineId: 'a',
        position: 1,
        qty: 2,
        refundedQty: 0,
        qtyLeft: 2,
        amountLeft: 30_000,
        name: 'Kopi',
        unitPrice: 15_000,
      },
      {
        lineId: 'b',
        position: 2,
        qty: 1,
        refundedQty: 0,
        qtyLeft: 1,
        amountLeft: 20_000,
        name: 'Roti',
        unitPrice: 20_000,
      },
    ],
    amountRefunded: 0,
    moneyRefunded: 0,
    moneyLeft: 50_000,
    hows: ['cash'],
    defaultHow: 'cash',
    refunds: [],
    ...overrides,
  };
}

function made(overrides: Partial<RefundView> = {}): RefundView {
  return {
    id: 'R-1',
    saleId: 'S-1',
    terminalId: 'T1',
    training: false,
    how: 'cash',
    reason: 'damaged',
    lines: [{ lineNo: 1, saleLineNo: 2, lineId: 'b', name: 'Roti', qty: 1, amount: 20_000 }],
    amount: 20_000,
    rounding: 0,
    money: 20_000,
    cashRounding: 0,
    paidBack: 20_000,
    tax: { net: 20_000, dpp: 0, ppn: 0, pbjt: 0, service: 0 },
    complete: false,
    approvedBy: { staffId: 7, name: 'Mira' },
    createdAt: '2026-11-26T02:00:00.000Z',
    ...overrides,
  };
}

function setup(options: { view?: RefundableView | null; network?: boolean } = {}) {
  const printed: string[] = [];
  const fake = new FakeApi()
    .on('saleOf', () => ({ id: 'S-1' }) as SaleView)
    .on('refundableOf', () => (options.view === undefined ? view() : options.view))
    .on('refundReceipt', ({ copy }) => ({ html: `<p>receipt${copy ? ' copy' : ''}</p>` }))
    .on('printRefundReceipt', () => ({ ok: true, message: 'printed' }));
  const refund = new RefundManager({
    api: fake.api,
    paper: () => 58,
    networkPrinter: () => options.network ?? false,
    printDocument: async (html) => void printed.push(html),
  });
  return { fake, refund, printed };
}

/** A form filled in for the second line: reason, manager and PIN. */
function fill(refund: RefundManager): void {
  refund.toggle('b');
  refund.reason = 'damaged';
  refund.managerId = 7;
  for (const d of '1234') refund.pin.press(d as '1');
}

describe('finding the sale', () => {
  test("a paid order's sale is found through saleOf, then what is left of it", async () => {
    const { fake, refund } = setup();
    await refund.start(makeOrder({ id: 'ORD-1', state: 'paid' }));
    expect(fake.callsOf('saleOf')).toEqual([[{ orderId: 'ORD-1' }]]);
    expect(fake.callsOf('refundableOf')).toEqual([[{ saleId: 'S-1' }]]);
    expect(refund.step).toBe('form');
    expect(refund.block).toBeNull();
    expect(refund.how).toBe('cash');
  });

  test('an order without a cart sale says so rather than showing a form', async () => {
    const { fake, refund } = setup();
    fake.on('saleOf', () => null);
    await refund.start(makeOrder({ state: 'paid' }));
    expect(refund.block).toBe('no_sale');
    expect(fake.callsOf('refundableOf')).toHaveLength(0);
  });

  test('a sale typed by its number; an unknown number stays on the find step', async () => {
    const { fake, refund } = setup();
    refund.find();
    refund.saleText = ' S-9 ';
    fake.on('refundableOf', () => null);
    await refund.lookUp();
    expect(refund.step).toBe('find');
    expect(refund.block).toBe('no_sale');
    fake.on('refundableOf', () => view());
    await refund.lookUp();
    expect(fake.callsOf('refundableOf').at(-1)).toEqual([{ saleId: 'S-9' }]);
    expect(refund.step).toBe('form');
  });

  test('a sale refunded in full, or not completed, is blocked', async () => {
    const full = setup({ view: view({ moneyLeft: 0, lines: view().lines.map((l) => ({ ...l, qtyLeft: 0 })) }) });
    await full.refund.start(makeOrder({ state: 'paid' }));
    expect(full.refund.block).toBe('nothing_left');
    const open = setup({ view: view({ refundable: false, saleState: 'pending' }) });
    await open.refund.start(makeOrder({ state: 'paid' }));
    expect(open.refund.block).toBe('not_completed');
    expect(await open.refund.submit()).toBe(false);
  });
});

describe('picking lines', () => {
  test('quantities stay within what is left; the whole sale is sent as the lines the cashier saw', async () => {
    const { fake, refund } = setup();
    await refund.start(makeOrder({ state: 'paid' }));
    refund.setQty('a', 5);
    expect(refund.qtyOf('a')).toBe(2);
    refund.setQty('a', -1);
    expect(refund.qtyOf('a')).toBe(0);
    refund.pickWhole();
    expect(refund.whole).toBe(true);
    expect(refund.money).toBe(50_000);
    refund.reason = 'wrong order';
    refund.managerId = 7;
    refund.pin.setText('1234');
    fake.on('refundSale', () => ({ ok: true, refund: made({ complete: true }), refundable: view({ moneyLeft: 0 }) }));
    await refund.submit();
    const [input] = fake.callsOf('refundSale')[0]!;
    expect(input).toEqual({
      saleId: 'S-1',
      lines: [
        { lineId: 'a', qty: 2 },
        { lineId: 'b', qty: 1 },
      ],
      reason: 'wrong order',
      how: 'cash',
      managerPin: { staffId: 7, pin: '1234' },
    });
  });

  test('one of two units: its share of the line, then of the cash rounding', async () => {
    const { refund } = setup({ view: view({ paid: 50_000 - 50, total: 50_000 }) });
    await refund.start(makeOrder({ state: 'paid' }));
    refund.setQty('a', 1);
    expect(refund.whole).toBe(false);
    // 15.000 of the line; money = round(15.000 × 49.950 / 50.000) = 14.985.
    expect(refund.money).toBe(14_985);
  });

  test('property: the money shown never exceeds what is left, and the whole sale shows exactly what is left', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ qty: fc.integer({ min: 1, max: 9 }), unit: fc.integer({ min: 1, max: 500_000 }) }), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.integer({ min: -99, max: 0 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 6, maxLength: 6 }),
        async (lines, rounding, asks) => {
          const total = lines.reduce((a, l) => a + l.qty * l.unit, 0);
          const paid = Math.max(0, total + rounding);
          const v = view({
            total,
            paid,
            moneyLeft: paid,
            lines: lines.map((l, i) => ({
              lineId: `l${i}`,
              position: i + 1,
              qty: l.qty,
              refundedQty: 0,
              qtyLeft: l.qty,
              amountLeft: l.qty * l.unit,
              name: `Item ${i}`,
              unitPrice: l.unit,
            })),
          });
          const { refund } = setup({ view: v });
          await refund.start(makeOrder({ state: 'paid' }));
          lines.forEach((_, i) => refund.setQty(`l${i}`, asks[i]!));
          expect(refund.money).toBeGreaterThanOrEqual(0);
          expect(refund.money).toBeLessThanOrEqual(paid);
          refund.pickWhole();
          expect(refund.money).toBe(paid);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('asking for the refund', () => {
  test('the screen checks lines, reason, manager and PIN before calling; nothing is sent', async () => {
    const { fake, refund } = setup();
    await refund.start(makeOrder({ state: 'paid' }));
    expect(await refund.submit()).toBe(false);
    expect(refund.issues.map((i) => `${i.field}:${i.rule}`)).toEqual([
      'lines:lines',
      'reason:reason',
      'managerPin:pin_required',
    ]);
    refund.managerId = 7;
    refund.pin.setText('12');
    await refund.submit();
    expect(refund.issueFor('managerPin')?.rule).toBe('format');
    expect(fake.callsOf('refundSale')).toHaveLength(0);
    refund.reason = 'damaged';
    expect(refund.issueFor('reason')).toBeUndefined();
  });

  test('a refund made: the view shrinks, the receipt is shown, printing it the first time is the original', async () => {
    const { fake, refund, printed } = setup();
    await refund.start(makeOrder({ state: 'paid' }));
    fill(refund);
    const after = view({
      lines: [view().lines[0]!, { ...view().lines[1]!, refundedQty: 1, qtyLeft: 0, amountLeft: 0 }],
      moneyLeft: 30_000,
    });
    fake.on('refundSale', () => ({ ok: true, refund: made(), refundable: after }));
    expect(await refund.submit()).toBe(true);
    expect(fake.callsOf('refundSale')[0]![0].lines).toEqual([{ lineId: 'b', qty: 1 }]);
    expect(refund.step).toBe('done');
    expect(refund.view?.moneyLeft).toBe(30_000);
    expect(refund.pin.value).toBe('');
    expect(refund.receiptHtml).toBe('<p>receipt</p>');
    expect(fake.callsOf('refundReceipt')).toEqual([[{ refundId: 'R-1', paper: 58 }]]);
    await refund.print();
    await refund.print();
    expect(printed).toEqual(['<p>receipt</p>', '<p>receipt copy</p>']);
    expect(refund.printed).toBe(true);
  });

  test('on the receipt printer: the first print the original, then copies; a failed print says so', async () => {
    const { fake, refund } = setup({ network: true });
    await refund.start(makeOrder({ state: 'paid' }));
    fill(refund);
    fake.on('refundSale', () => ({ ok: true, refund: made(), refundable: view() }));
    await refund.submit();
    await refund.print();
    fake.on('printRefundReceipt', () => ({ ok: false, message: 'offline' }));
    await refund.print();
    expect(fake.callsOf('printRefundReceipt')).toEqual([
      [{ refundId: 'R-1', copy: false }],
      [{ refundId: 'R-1', copy: true }],
    ]);
    expect(refund.printFailed).toBe(true);
  });

  test("the server's issues are kept by field and worded from rule and params in both languages", async () => {
    const { fake, refund } = setup();
    await refund.start(makeOrder({ state: 'paid' }));
    fill(refund);
    const issues = [
      {
        field: 'lines[0].qty',
        rule: 'qty',
        message: 'lines[0].qty: only 0 left',
        params: { position: 2, left: 0, asked: 1 },
      },
      { field: 'how', rule: 'no_open_shift', message: 'how: no shift is open' },
      { field: 'managerPin', rule: 'wrong_pin', message: 'managerPin: wrong' },
    ];
    fake.on('refundSale', () => ({ ok: false, issues }));
    expect(await refund.submit()).toBe(false);
    expect(refund.step).toBe('form');
    expect(refund.pin.value).toBe('');
    const en = messagesFor('en');
    const id = messagesFor('id');
    expect(refundIssueText(refund.issueFor('lines[0].qty')!, en)).toBe('Line 2: only 0 left to refund (asked 1).');
    expect(refundIssueText(refund.issueFor('lines[0].qty')!, id)).toContain('Baris 2');
    expect(refundIssueText(refund.issueFor('how')!, en)).toContain('open a shift');
    expect(refundIssueText(refund.issueFor('how')!, id)).toContain('buka shift');
    expect(refundIssueText(refund.issueFor('managerPin')!, id)).toBe('PIN manajer salah.');
    expect(refundIssueText({ field: 'x', rule: 'unheard_of', message: 'x' }, en)).toBe(en.refund.rules.other);
    // Changing the quantity clears the line's issue; changing how clears how's.
    refund.setQty('b', 1);
    expect(refund.issueFor('lines[0].qty')).toBeUndefined();
    refund.how = 'cash';
    expect(refund.issueFor('how')).toBeUndefined();
  });

  test('outside Loket only when the view allows it', async () => {
    const { refund } = setup();
    await refund.start(makeOrder({ state: 'paid' }));
    refund.how = 'outside';
    expect(refund.how).toBe('cash');
    const digital = setup({ view: view({ hows: ['cash', 'outside'], defaultHow: 'outside' }) });
    await digital.refund.start(makeOrder({ state: 'paid' }));
    expect(digital.refund.how).toBe('outside');
  });

  test('closing drops an answer still on its way', async () => {
    const { fake, refund } = setup();
    const held = fake.hold('refundableOf');
    const started = refund.start(makeOrder({ state: 'paid' }));
    await held.called;
    refund.close();
    held.resolve(view());
    await started;
    expect(refund.step).toBe('closed');
    expect(refund.view).toBeNull();
  });
});
