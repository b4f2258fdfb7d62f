// @vitest-environment jsdom
// The payment panel: the order being paid, kept current, and simulate / cancel / print on it.
import { describe, expect, test } from 'vitest';
import { CallError } from '../../../src-renderer/src/api/errors';
import { i18n } from '../../../src-renderer/src/i18n/i18n.svelte';
import { PaymentPanelManager } from '../../../src-renderer/src/state/payment-panel.svelte';
import type { Paper } from '../../../src-renderer/src/state/preferences.svelte';
import { DISPLAY_IDLE, FakeApi, later, makeOrder } from './fake-client';

function setup(options: { training?: boolean; networkPrinter?: boolean; paper?: Paper } = {}) {
  const fake = new FakeApi();
  const panel = new PaymentPanelManager({
    api: fake.api,
    training: () => options.training ?? true,
    networkPrinter: () => options.networkPrinter ?? false,
    paper: () => options.paper ?? 58,
  });
  return { fake, panel };
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
    expect(panel.notice).toEqual({ ok: false, text: i18n.t.errors.network });
  });

  test('clearing empties the panel, its notice, its receipt and its dialog', async () => {
    const { fake, panel } = setup();
    fake.on('receipt', () => ({ html: '<p>struk</p>' }));
    panel.show(makeOrder({ state: 'paid' }));
    await panel.printReceipt(panel.order!.id, false);
    panel.askCancel();
    panel.clear();
    expect(panel.order).toBeNull();
    expect(panel.receiptHtml).toBeNull();
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
    expect(await panel.printReceipt(order.id, false)).toBeNull();
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

  test('a failure is shown as a notice', async () => {
    const { fake, panel } = setup();
    panel.show(makeOrder());
    fake.fail('simulatePayment', new CallError('forbidden', 'payments can be simulated in training mode only', 403));
    await panel.simulatePayment();
    expect(panel.notice).toEqual({
      ok: false,
      text: i18n.t.errors.other('payments can be simulated in training mode only'),
    });
    expect(panel.order?.state).toBe('awaiting_payment');
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

  test('a refused cancel shows its message in the dialog, which stays open, and not on the panel', async () => {
    const { fake, panel } = setup();
    const order = makeOrder();
    panel.show(order);
    panel.askCancel();
    fake.fail('cancelOrder', new CallError('conflict', `order ${order.id} is paid; only an order …`));
    expect(await panel.cancel('customer left')).toBe(false);
    expect(panel.cancelError).toBe(i18n.t.errors.conflict(`order ${order.id} is paid; only an order …`));
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

describe('printing the receipt', () => {
  test('with a network printer: printed there, and its answer is the notice', async () => {
    const { fake, panel } = setup({ networkPrinter: true });
    const order = makeOrder({ state: 'paid' });
    panel.show(order);
    fake.on('printReceipt', () => ({ ok: true, message: 'sent' }));
    expect(await panel.printReceipt(order.id, true)).toBeNull();
    expect(fake.callsOf('printReceipt')).toEqual([[order.id, { copy: true }]]);
    expect(fake.callsOf('receipt')).toEqual([]);
    expect(panel.notice).toEqual({ ok: true, text: i18n.t.payment.printed });
    expect(panel.receiptHtml).toBeNull();

    fake.on('printReceipt', () => ({ ok: false, message: 'printer refused the connection' }));
    await panel.printReceipt(order.id, false);
    expect(panel.notice).toEqual({ ok: false, text: i18n.t.payment.printFailed('printer refused the connection') });
    expect(panel.order?.state).toBe('paid');
  });

  test('without one: the HTML receipt on the chosen paper, for the preview and the print dialog', async () => {
    const { fake, panel } = setup({ paper: 80 });
    const order = makeOrder({ state: 'paid' });
    panel.show(order);
    fake.on('receipt', () => ({ html: '<p>LUNAS</p>' }));
    expect(await panel.printReceipt(order.id, false)).toBe('<p>LUNAS</p>');
    expect(fake.callsOf('receipt')).toEqual([[order.id, { paper: 80, copy: false }]]);
    expect(fake.callsOf('printReceipt')).toEqual([]);
    expect(panel.receiptHtml).toBe('<p>LUNAS</p>');
    panel.closeReceipt();
    expect(panel.receiptHtml).toBeNull();
  });

  test('a receipt that cannot be had is a notice, and the notice can be cleared', async () => {
    const { fake, panel } = setup();
    const order = makeOrder({ state: 'paid' });
    panel.show(order);
    fake.fail('receipt', new CallError('not_found', 'no order'));
    expect(await panel.printReceipt(order.id, false)).toBeNull();
    expect(panel.notice).toEqual({ ok: false, text: i18n.t.errors.notFound });
    panel.clearNotice();
    expect(panel.notice).toBeNull();
  });
});
