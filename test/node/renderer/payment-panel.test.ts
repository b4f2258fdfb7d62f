// @vitest-environment jsdom
// The payment panel: the order being paid, kept current, and simulate / park / cancel / print on it; the
// automatic receipt, printed once per order.
import { describe, expect, test } from 'vitest';
import { CallError } from '../../../src-renderer/src/api/errors';
import { PaymentPanelManager } from '../../../src-renderer/src/state/payment-panel.svelte';
import type { Paper } from '../../../src-renderer/src/state/preferences.svelte';
import { DISPLAY_IDLE, FakeApi, later, makeOrder, settle } from './fake-client';

function setup(options: { training?: boolean; networkPrinter?: boolean; paper?: Paper; autoPrint?: boolean } = {}) {
  const fake = new FakeApi();
  const printed: string[] = [];
  const world = { autoPrint: options.autoPrint ?? false };
  const panel = new PaymentPanelManager({
    api: fake.api,
    training: () => options.training ?? true,
    networkPrinter: () => options.networkPrinter ?? false,
    paper: () => options.paper ?? 58,
    autoPrint: () => world.autoPrint,
    printDocument: async (html) => {
      printed.push(html);
    },
  });
  return { fake, panel, printed, world };
}

describe('following the order', () => {
  test('newer news about the order replaces it; older news and other orders do not', () => {
    const { panel } = setup();
    const order = makeOrder();
    panel.show(order);
    const paid = later(order, { state: 'paid' }, 5);
    panel.observe(paid);
    expect(panel.order).toBe(paid);

    panel.observe(later(order, { state: 'awaiting_payment' }, 1));
    expect(panel.order).toBe(paid);
    panel.observe(makeOrder({ state: 'cancelled' }));
    expect(panel.order).toBe(paid);
  });

  test('a new sale waits while the customer may still pay', () => {
    const { panel } = setup();
    expect(panel.canStartNew).toBe(true);
    const order = makeOrder();
    panel.show(order);
    expect(panel.canStartNew).toBe(false);
    panel.observe(later(order, { state: 'expired' }));
    expect(panel.canStartNew).toBe(true);
  });

  test('resuming shows the order to the customer again; a display that cannot be told is reported', async () => {
    const { fake, panel } = setup();
    const order = makeOrder();
    fake.on('showOnDisplay', () => DISPLAY_IDLE);
    await panel.resume(order);
    expect(panel.order).toBe(order);
    expect(fake.callsOf('showOnDisplay')).toEqual([[order.id]]);
    expect(panel.notice).toBeNull();

    fake.fail('showOnDisplay');
    await panel.resume(order);
    expect(panel.notice).toMatchObject({ kind: 'error', error: { code: 'network' } });
  });

  test('a restored sale says so, and knows whether its receipt was printed', () => {
    const { panel } = setup();
    const order = makeOrder({ state: 'paid' });
    panel.show(order, { restored: true, receiptPrinted: true });
    expect(panel.notice).toEqual({ kind: 'restored' });
    expect(panel.receiptPrinted).toBe(true);
    panel.show(makeOrder({ state: 'paid' }));
    expect(panel.receiptPrinted).toBe(false);
  });

  test('clearing empties the panel, its notice and its dialog', () => {
    const { panel } = setup();
    panel.show(makeOrder(), { restored: true });
    panel.askCancel();
    panel.clear();
    expect(panel.order).toBeNull();
    expect(panel.notice).toBeNull();
    expect(panel.cancelOpen).toBe(false);
  });

  test('another order coming onto the panel closes a cancel dialog opened for the one before; news of the same keeps it', () => {
    const { panel } = setup();
    const first = makeOrder();
    panel.show(first);
    panel.askCancel();
    panel.show({ ...first, updatedAt: '2026-03-10T03:00:05.000Z' });
    expect(panel.cancelOpen).toBe(true);
    panel.show(makeOrder(), { restored: true });
    expect(panel.cancelOpen).toBe(false);
  });
});

describe('simulating a payment (training mode)', () => {
  test('the answer updates the panel; nothing else runs meanwhile', async () => {
    const { fake, panel } = setup();
    const order = makeOrder();
    panel.show(order);
    const held = fake.hold('simulatePayment');
    const running = panel.simulatePayment();
    expect(panel.busy).toBe('simulate');
    await panel.simulatePayment();
    await panel.printReceipt(order.id, false);
    expect(fake.callsOf('receipt')).toEqual([]);
    held.resolve(later(order, { state: 'paid' }));
    await running;
    expect(fake.callsOf('simulatePayment')).toEqual([[order.id]]);
    expect(panel.order?.state).toBe('paid');
    expect(panel.busy).toBeNull();
  });

  test('not outside training mode, and not for an order no longer waiting', async () => {
    const live = setup({ training: false });
    live.panel.show(makeOrder());
    await live.panel.simulatePayment();
    expect(live.fake.calls).toEqual([]);

    const training = setup();
    training.panel.show(makeOrder({ state: 'paid' }));
    await training.panel.simulatePayment();
    expect(training.fake.calls).toEqual([]);
  });

  test('a failure is shown as a notice, with the server error for its words', async () => {
    const { fake, panel } = setup();
    panel.show(makeOrder());
    const error = new CallError('forbidden', 'payments can be simulated in training mode only', 403);
    fake.fail('simulatePayment', error);
    await panel.simulatePayment();
    expect(panel.notice).toEqual({ kind: 'error', error });
    expect(panel.order?.state).toBe('awaiting_payment');
  });
});

describe('parking', () => {
  test('a waiting sale is parked: off the panel, with a notice, and the server told by the order id', async () => {
    const { fake, panel } = setup();
    const order = makeOrder();
    panel.show(order);
    fake.on('parkSale', () => null);
    expect(await panel.park()).toBe(true);
    expect(fake.callsOf('parkSale')).toEqual([[order.id]]);
    expect(panel.order).toBeNull();
    expect(panel.notice).toEqual({ kind: 'parked' });
    expect(panel.canStartNew).toBe(true);
  });

  test('a park refused keeps the sale on the panel, with why', async () => {
    const { fake, panel } = setup();
    const order = makeOrder();
    panel.show(order);
    fake.fail('parkSale', new CallError('conflict', 'order is paid'));
    expect(await panel.park()).toBe(false);
    expect(panel.order).toBe(order);
    expect(panel.notice).toMatchObject({ kind: 'error', error: { code: 'conflict' } });
  });

  test('only a sale still waiting, and not while something else runs', async () => {
    const { fake, panel } = setup();
    panel.show(makeOrder({ state: 'paid' }));
    expect(await panel.park()).toBe(false);
    panel.show(makeOrder());
    fake.hold('simulatePayment');
    void panel.simulatePayment();
    expect(await panel.park()).toBe(false);
    expect(fake.callsOf('parkSale')).toEqual([]);
  });
});

describe('cancelling', () => {
  test('asking opens the dialog; a cancel that goes through updates the order and closes it', async () => {
    const { fake, panel } = setup();
    const order = makeOrder();
    panel.show(order);
    panel.askCancel();
    expect(panel.cancelOpen).toBe(true);
    fake.on('cancelOrder', () => later(order, { state: 'cancelled' }));
    expect(await panel.cancel('customer left')).toBe(true);
    expect(fake.callsOf('cancelOrder')).toEqual([[order.id, 'customer left']]);
    expect(panel.order?.state).toBe('cancelled');
    expect(panel.cancelOpen).toBe(false);
  });

  test('a refused cancel shows its error in the dialog, which stays open, and not on the panel', async () => {
    const { fake, panel } = setup();
    const order = makeOrder();
    panel.show(order);
    panel.askCancel();
    const error = new CallError('conflict', `order ${order.id} is paid; only an order …`);
    fake.fail('cancelOrder', error);
    expect(await panel.cancel('customer left')).toBe(false);
    expect(panel.cancelError).toBe(error);
    expect(panel.cancelOpen).toBe(true);
    expect(panel.notice).toBeNull();
    expect(panel.order).toBe(order);

    // Asking again starts with a clean dialog; keeping the order closes it.
    panel.askCancel();
    expect(panel.cancelError).toBeUndefined();
    panel.keepOrder();
    expect(panel.cancelOpen).toBe(false);
  });

  test('the dialog does not open while another action runs', () => {
    const { fake, panel } = setup();
    panel.show(makeOrder());
    fake.hold('simulatePayment');
    void panel.simulatePayment();
    panel.askCancel();
    expect(panel.cancelOpen).toBe(false);
  });
});

describe('printing the receipt: one click, one print', () => {
  test('with a network printer: printed there, and its answer is the notice', async () => {
    const { fake, panel, printed } = setup({ networkPrinter: true });
    const order = makeOrder({ state: 'paid' });
    panel.show(order);
    fake.on('printReceipt', () => ({ ok: true, message: 'sent' }));
    await panel.printReceipt(order.id, true);
    expect(fake.callsOf('printReceipt')).toEqual([[order.id, { copy: true }]]);
    expect(fake.callsOf('receipt')).toEqual([]);
    expect(printed).toEqual([]);
    expect(panel.notice).toEqual({ kind: 'printed', auto: false });
    expect(panel.receiptPrinted).toBe(true);

    const refused = { key: 'print.failed', params: { problem: 'refused' } } as const;
    fake.on('printReceipt', () => ({ ok: false, message: 'printer refused the connection', reason: refused }));
    await panel.printReceipt(order.id, false);
    expect(panel.notice).toEqual({ kind: 'print_failed', reason: refused });
    expect(panel.order?.state).toBe('paid');
  });

  test('without one: the HTML receipt on the chosen paper, printed once by the browser, no preview', async () => {
    const { fake, panel, printed } = setup({ paper: 80 });
    const order = makeOrder({ state: 'paid' });
    panel.show(order);
    fake.on('receipt', () => ({ html: '<p>LUNAS</p>' }));
    await panel.printReceipt(order.id, false);
    expect(fake.callsOf('receipt')).toEqual([[order.id, { paper: 80, copy: false }]]);
    expect(fake.callsOf('printReceipt')).toEqual([]);
    expect(printed).toEqual(['<p>LUNAS</p>']);
    expect(panel.receiptPrinted).toBe(true);
  });

  test('a second click while the first print is in flight prints nothing more', async () => {
    const { fake, panel, printed } = setup();
    const order = makeOrder({ state: 'paid' });
    panel.show(order);
    const held = fake.hold('receipt');
    const first = panel.printReceipt(order.id, false);
    await panel.printReceipt(order.id, false);
    held.resolve({ html: '<p>1</p>' });
    await first;
    expect(fake.callsOf('receipt')).toHaveLength(1);
    expect(printed).toEqual(['<p>1</p>']);
  });

  test('a receipt that cannot be had is a notice, and the notice can be cleared', async () => {
    const { fake, panel, printed } = setup();
    const order = makeOrder({ state: 'paid' });
    panel.show(order);
    fake.fail('receipt', new CallError('not_found', 'no order'));
    await panel.printReceipt(order.id, false);
    expect(panel.notice).toMatchObject({ kind: 'error', error: { code: 'not_found' } });
    expect(printed).toEqual([]);
    panel.clearNotice();
    expect(panel.notice).toBeNull();
  });
});

describe('the automatic receipt (settings: printer.autoPrint)', () => {
  test('printed once when the order turns paid, however many times the news comes', async () => {
    const { fake, panel, printed } = setup({ autoPrint: true });
    fake.on('receipt', (id) => ({ html: `<p>${id}</p>` }));
    const order = makeOrder();
    panel.show(order);
    await settle();
    expect(printed).toEqual([]);

    const paid = later(order, { state: 'paid' });
    panel.observe(paid);
    panel.observe(later(paid, {}, 1));
    await settle();
    panel.observe(later(paid, {}, 2));
    panel.show(later(paid, {}, 3));
    await settle();
    expect(printed).toEqual([`<p>${order.id}</p>`]);
    expect(panel.receiptPrinted).toBe(true);
  });

  test('on the network printer when there is one, with its own notice', async () => {
    const { fake, panel, printed } = setup({ autoPrint: true, networkPrinter: true });
    fake.on('printReceipt', () => ({ ok: true, message: 'sent' }));
    const order = makeOrder();
    panel.show(order);
    panel.observe(later(order, { state: 'paid' }));
    await settle();
    expect(fake.callsOf('printReceipt')).toEqual([[order.id, { copy: false }]]);
    expect(printed).toEqual([]);
    expect(panel.notice).toEqual({ kind: 'printed', auto: true });
  });

  test('never for an order whose receipt the server says was printed (a reload after printing)', async () => {
    const { fake, panel, printed } = setup({ autoPrint: true });
    fake.on('receipt', () => ({ html: '<p>x</p>' }));
    panel.show(makeOrder({ state: 'paid' }), { receiptPrinted: true, restored: true });
    await settle();
    expect(fake.callsOf('receipt')).toEqual([]);
    expect(printed).toEqual([]);
  });

  test('a paid order restored before its receipt was printed gets it, once', async () => {
    const { fake, panel, printed } = setup({ autoPrint: true });
    fake.on('receipt', () => ({ html: '<p>x</p>' }));
    const order = makeOrder({ state: 'paid' });
    panel.show(order, { receiptPrinted: false, restored: true });
    panel.show(order, { receiptPrinted: false, restored: true });
    await settle();
    expect(printed).toEqual(['<p>x</p>']);
  });

  test('a payment that arrives while another action runs is printed when it is done', async () => {
    const { fake, panel, printed } = setup({ autoPrint: true });
    fake.on('receipt', () => ({ html: '<p>x</p>' }));
    const order = makeOrder();
    panel.show(order);
    const held = fake.hold('simulatePayment');
    const running = panel.simulatePayment();
    panel.observe(later(order, { state: 'paid' }));
    await settle();
    expect(printed).toEqual([]);
    held.resolve(later(order, { state: 'paid' }, 2));
    await running;
    await settle();
    expect(printed).toEqual(['<p>x</p>']);
  });

  test('off: nothing prints by itself', async () => {
    const { fake, panel, printed } = setup({ autoPrint: false });
    fake.on('receipt', () => ({ html: '<p>x</p>' }));
    const order = makeOrder();
    panel.show(order);
    panel.observe(later(order, { state: 'paid' }));
    await settle();
    expect(printed).toEqual([]);
  });

  test('a failed automatic print is not tried again by itself: the cashier prints with the button', async () => {
    const { fake, panel, printed } = setup({ autoPrint: true });
    fake.fail('receipt');
    const order = makeOrder();
    panel.show(order);
    panel.observe(later(order, { state: 'paid' }));
    await settle();
    panel.observe(later(order, { state: 'paid' }, 2));
    await settle();
    expect(fake.callsOf('receipt')).toHaveLength(1);
    expect(printed).toEqual([]);
    expect(panel.notice).toMatchObject({ kind: 'error' });
  });
});

describe('the payment slip: the code to take to an ATM or a store', () => {
  const vaOrder = () =>
    makeOrder({
      methodId: 'va_bni',
      kind: 'va_bank',
      instruction: { type: 'virtual_account', va: '8808123456789012' },
    });

  test('without a printer set up: the slip on the chosen paper, printed once by the browser; the sale is unchanged', async () => {
    const { fake, panel, printed } = setup({ paper: 80 });
    const order = vaOrder();
    panel.show(order);
    fake.on('paymentSlip', () => ({ html: '<p>SLIP</p>' }));
    await panel.printSlip();
    expect(fake.callsOf('paymentSlip')).toEqual([[order.id, { paper: 80 }]]);
    expect(fake.callsOf('printPaymentSlip')).toEqual([]);
    expect(printed).toEqual(['<p>SLIP</p>']);
    // A slip is not the receipt: the receipt is still to be printed, as the original.
    expect(panel.receiptPrinted).toBe(false);
    expect(panel.order).toBe(order);
  });

  test('with a printer: printed there; a failure is told as the slip’s, with the reason in the screen’s words', async () => {
    const { fake, panel, printed } = setup({ networkPrinter: true });
    const order = vaOrder();
    panel.show(order);
    fake.on('printPaymentSlip', () => ({ ok: true, message: 'Payment slip printed.' }));
    await panel.printSlip();
    expect(fake.callsOf('printPaymentSlip')).toEqual([[order.id]]);
    expect(panel.notice).toEqual({ kind: 'slip_printed' });
    const why = { key: 'print.failed', params: { problem: 'refused' } } as const;
    fake.on('printPaymentSlip', () => ({ ok: false, message: 'printer refused the connection', reason: why }));
    await panel.printSlip();
    expect(panel.notice).toEqual({ kind: 'slip_failed', reason: why });
    expect(printed).toEqual([]);
  });

  test('only for a VA or a store code waiting for payment', async () => {
    const { fake, panel } = setup();
    fake.on('paymentSlip', () => ({ html: '<p>SLIP</p>' }));
    panel.show(makeOrder());
    await panel.printSlip();
    const va = vaOrder();
    panel.show(later(va, { state: 'paid' }));
    await panel.printSlip();
    expect(fake.callsOf('paymentSlip')).toEqual([]);
  });
});
