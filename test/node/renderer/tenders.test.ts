// @vitest-environment jsdom
// The tender screen's state (tenders.svelte.ts) and the charge manager with it: cash with change worked out before
// anything is sent (the same pure rules the server charges by), quick cash, a part taken and the rest by a gateway
// method or by other, the server's refusal of cash without an open shift, and the payment panel's struk of a sale.
import { describe, expect, test } from 'vitest';
import type { Order } from '../../../src-main/common/order';
import type { Cart, SaleQuote, SaleView } from '../../../src-main/common/sale';
import type { CashRounding } from '../../../src-main/common/cash';
import { ChargeManager } from '../../../src-renderer/src/state/charge.svelte';
import { PaymentPanelManager } from '../../../src-renderer/src/state/payment-panel.svelte';
import { TenderManager } from '../../../src-renderer/src/state/tenders.svelte';
import { FakeApi, makeOrder, METHODS } from './fake-client';

function tenders(total: number | null, rounding: CashRounding = 'off', shift = true) {
  const fake = new FakeApi().on('currentShift', () => (shift ? ({ id: 'T01-S0001' } as never) : null));
  return { fake, state: new TenderManager({ api: fake.api, total: () => total, rounding: () => rounding }) };
}

function saleView(over: Partial<SaleView> = {}): SaleView {
  return {
    id: 'S1',
    state: 'completed',
    terminalId: 'T01',
    training: true,
    lines: [],
    saleDiscount: null,
    subtotal: 68_050,
    lineDiscounts: 0,
    saleDiscountAmount: 0,
    discounts: 0,
    net: 0,
    dpp: 0,
    ppn: 0,
    pbjt: 0,
    service: 0,
    total: 68_050,
    taxLines: [],
    tenders: [],
    rounding: 0,
    change: 0,
    paid: 68_050,
    createdAt: '2026-11-26T01:00:00.000Z',
    updatedAt: '2026-11-26T01:00:00.000Z',
    ...over,
  } as SaleView;
}

describe('the tender screen', () => {
  test('shows the change of cash handed over before charging, and quick cash only at or above what is due', async () => {
    const { state } = tenders(68_050);
    await state.open('cash');
    expect(state.isOpen).toBe(true);
    expect(state.noShift).toBe(false);
    expect(state.quickCash).toEqual({ exact: 68_050, notes: [100_000] });
    state.pickHanded(100_000);
    expect(state.preview).toMatchObject({ ok: true, step: { applied: 68_050, change: 31_950, dueAfter: 0 } });
    expect(state.settles).toBe(true);
    expect(state.confirm()).toEqual({ kind: 'charge', tenders: [{ kind: 'cash', handed: 100_000 }] });
  });

  test('rounds cash as the store does, with its rounding line, and the exact button is the rounded amount', async () => {
    const { state } = tenders(18_050, 'down');
    await state.open('cash');
    expect(state.quickCash).toEqual({ exact: 18_000, notes: [20_000, 50_000, 100_000] });
    state.setHanded('20.000');
    expect(state.preview).toMatchObject({ ok: true, step: { applied: 18_000, change: 2_000, rounding: -50 } });
  });

  test('cash below what is due is taken as a part; the rest goes by a gateway method with it, in one charge', async () => {
    const { state } = tenders(68_050);
    await state.open('cash');
    state.setHanded('50000');
    expect(state.settles).toBe(false);
    expect(state.confirm()).toEqual({ kind: 'part' });
    expect(state.parts).toEqual([{ kind: 'cash', handed: 50_000 }]);
    expect(state.due).toBe(18_050);
    expect(state.taken).toBe(50_000);
    expect(state.handedText).toBe('');
    state.setEntry('gateway');
    expect(state.confirm()).toEqual({ kind: 'invalid' });
    expect(state.issues).toMatchObject([{ field: 'tenders[1].methodId', rule: 'method' }]);
    state.methodId = 'qris_dynamic';
    expect(state.confirm()).toEqual({
      kind: 'charge',
      tenders: [
        { kind: 'cash', handed: 50_000 },
        { kind: 'gateway', methodId: 'qris_dynamic' },
      ],
    });
    state.removePart(0);
    expect(state.due).toBe(68_050);
  });

  test('an "other" tender needs its reference, never more than is due, and takes all that is due without an amount', async () => {
    const { state } = tenders(40_000);
    await state.open('other');
    expect(state.confirm()).toEqual({ kind: 'invalid' });
    expect(state.issues).toMatchObject([{ field: 'tenders[0].reference', rule: 'reference' }]);
    state.setReference('EDC 123456');
    state.setAmount('50.000');
    expect(state.confirm()).toEqual({ kind: 'invalid' });
    expect(state.issues).toMatchObject([{ rule: 'over_due' }]);
    state.setAmount('');
    expect(state.confirm()).toEqual({ kind: 'charge', tenders: [{ kind: 'other', reference: 'EDC 123456' }] });
  });

  test('says at once when no shift is open, and again when the server refuses cash for it', async () => {
    const { state } = tenders(10_000, 'off', false);
    await state.open('cash');
    expect(state.noShift).toBe(true);
    state.shiftOpened();
    expect(state.noShift).toBe(false);
    state.showIssues([{ field: 'tenders', rule: 'no_open_shift', message: 'no shift' }]);
    expect(state.noShift).toBe(true);
  });

  test('an amount that is not whole rupiah is not a tender', async () => {
    const { state } = tenders(10_000);
    await state.open('cash');
    state.setHanded('12,50');
    expect(state.amountUnreadable).toBe(true);
    expect(state.draft).toBeNull();
    expect(state.confirm()).toEqual({ kind: 'invalid' });
  });
});

describe('charging through the tender screen', () => {
  function setup(total = 44_000) {
    const quote = {
      ok: true,
      figures: { total },
      lines: [],
      overLimit: [],
      itemName: 'Kopi susu +1',
      cashRounding: 'off',
    } as unknown as SaleQuote;
    const fake = new FakeApi()
      .on('currentShift', () => ({ id: 'T01-S0001' }) as never)
      .on('saveCart', ({ cart }) => cart)
      .on('quoteSale', () => quote);
    const handed: { order: Order; sale?: SaleView }[] = [];
    const done: SaleView[] = [];
    const charge = new ChargeManager({
      api: fake.api,
      methods: () => METHODS,
      blocked: () => false,
      onStart: () => undefined,
      onPayment: (order, sale) => handed.push({ order, ...(sale ? { sale } : {}) }),
      onSaleDone: (sale) => done.push(sale),
      newLineId: () => 'L1',
    });
    charge.form.offerMethods(METHODS);
    charge.cart.addFree('Kopi susu', total);
    return { fake, charge, handed, done };
  }

  test('Cash opens the tender screen; cash with change charges the cart with it and the sale is done', async () => {
    const { fake, charge, done } = setup();
    expect(await charge.openTenders('cash')).toBe('tender');
    expect(charge.tenders.isOpen).toBe(true);
    expect(charge.tenders.total).toBe(44_000);
    charge.tenders.pickHanded(50_000);
    const sale = saleView({ total: 44_000, change: 6_000, paid: 44_000 });
    fake.on('chargeSale', () => ({ ok: true, saleId: 'S1', sale, order: null }));
    expect(await charge.charge()).toBe('done');
    const [input] = fake.callsOf('chargeSale')[0]!;
    expect(input.tenders).toEqual([{ kind: 'cash', handed: 50_000 }]);
    expect(input.methodId).toBeUndefined();
    expect((input.cart as Cart).lines).toHaveLength(1);
    expect(done).toEqual([sale]);
    expect(charge.tenders.isOpen).toBe(false);
    expect(charge.cart.empty).toBe(true);
  });

  test('a split: cash for part, then QRIS for the rest goes to the payment panel with its sale', async () => {
    const { fake, charge, handed } = setup(68_050);
    expect(await charge.openTenders('cash')).toBe('tender');
    charge.tenders.setHanded('50000');
    expect(await charge.chargeTenders()).toBe('part');
    charge.tenders.setEntry('gateway');
    charge.tenders.methodId = 'qris_dynamic';
    const order = makeOrder({ amount: 18_050 });
    const sale = saleView({ state: 'tendering', paid: 50_000 });
    fake.on('chargeSale', () => ({ ok: true, saleId: 'S1', sale, order }));
    expect(await charge.chargeTenders()).toBe('payment');
    expect(fake.callsOf('chargeSale')[0]![0].tenders).toEqual([
      { kind: 'cash', handed: 50_000 },
      { kind: 'gateway', methodId: 'qris_dynamic' },
    ]);
    expect(handed).toEqual([{ order, sale }]);
  });

  test("the server's refusal of cash without a shift shows on the tender screen; nothing is lost", async () => {
    const { fake, charge } = setup();
    await charge.openTenders('cash');
    charge.tenders.pickHanded(50_000);
    fake.on('chargeSale', () => ({
      ok: false,
      saleId: null,
      sale: null,
      failure: { class: 'invalid_input', retry: 'final', message: 'x' },
      issues: [{ field: 'tenders', rule: 'no_open_shift', message: 'cash: no shift is open' }],
    }));
    expect(await charge.chargeTenders()).toBe('issues');
    expect(charge.tenders.noShift).toBe(true);
    expect(charge.tenders.isOpen).toBe(true);
    expect(charge.tenders.handedText).toBe('50000');
    expect(charge.cart.empty).toBe(false);
  });

  test('an empty cart with nothing typed opens no tender screen', async () => {
    const { charge } = setup();
    charge.cart.remove('L1');
    expect(await charge.openTenders('cash')).toBe('issues');
    expect(charge.tenders.isOpen).toBe(false);
  });
});

describe("the payment panel's struk of a sale", () => {
  function panel(networkPrinter = false) {
    const fake = new FakeApi()
      .on('saleReceipt', () => ({ html: '<p>struk</p>' }))
      .on('printSaleReceipt', () => ({ ok: true, message: 'ok' }))
      .on('saleOf', () => null);
    const printed: string[] = [];
    const manager = new PaymentPanelManager({
      api: fake.api,
      training: () => true,
      networkPrinter: () => networkPrinter,
      paper: () => 80,
      autoPrint: () => false,
      printDocument: async (html) => void printed.push(html),
    });
    return { fake, manager, printed };
  }

  test('a sale paid in cash shows on the panel; Print prints its struk once, then a copy; A4 on request', async () => {
    const { fake, manager, printed } = panel();
    manager.showSale(saleView());
    expect(manager.sale?.id).toBe('S1');
    await manager.printSale(false);
    await manager.printSale(false, 'A4');
    expect(fake.callsOf('saleReceipt')).toEqual([
      [{ saleId: 'S1', paper: 80, copy: false }],
      [{ saleId: 'S1', paper: 'A4', copy: true }],
    ]);
    expect(printed).toEqual(['<p>struk</p>', '<p>struk</p>']);
    expect(manager.saleReceiptPrinted).toBe(true);
    manager.clear();
    expect(manager.sale).toBeNull();
  });

  test("a cart sale's paid order prints the sale's struk on the network printer, not the order's receipt", async () => {
    const { fake, manager } = panel(true);
    const order = makeOrder({ state: 'paid' });
    const sale = saleView({
      tenders: [
        { no: 1, kind: 'gateway', state: 'paid', orderId: order.id, amount: 68_050, handed: 0, change: 0, rounding: 0 },
      ],
    });
    manager.show(order, { sale });
    await manager.printReceipt(order.id, false);
    expect(fake.callsOf('printSaleReceipt')).toEqual([[{ saleId: 'S1', copy: false }]]);
    expect(fake.callsOf('printReceipt')).toEqual([]);
    expect(manager.receiptPrinted).toBe(true);
  });

  test("an order shown without its sale (after a reload) finds it when printed, and prints the sale's struk", async () => {
    const { fake, manager, printed } = panel();
    const order = makeOrder({ state: 'paid' });
    const sale = saleView({
      tenders: [
        { no: 1, kind: 'gateway', state: 'paid', orderId: order.id, amount: 1, handed: 0, change: 0, rounding: 0 },
      ],
    });
    fake.on('saleOf', () => sale);
    manager.show(order);
    await manager.printReceipt(order.id, false);
    expect(manager.sale).toEqual(sale);
    expect(fake.callsOf('saleReceipt')).toEqual([[{ saleId: 'S1', paper: 80, copy: false }]]);
    expect(fake.callsOf('receipt')).toEqual([]);
    expect(printed).toHaveLength(1);
  });
});
