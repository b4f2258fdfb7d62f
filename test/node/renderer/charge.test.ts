// @vitest-environment jsdom
// The charge manager: sending the sale, and what the cashier may do when it gave no payment to wait for.
import { describe, expect, test } from 'vitest';
import type { Order } from '../../../src-main/common/order';
import type { FieldIssue } from '../../../src-main/common/order-request';
import { CallError } from '../../../src-renderer/src/api/errors';
import { ChargeManager, problemFrom } from '../../../src-renderer/src/state/charge.svelte';
import { FakeApi, failure, later, makeOrder, METHODS, settle } from './fake-client';

function setup() {
  const fake = new FakeApi().on('showOnDisplay', () => {
    throw new CallError('network', 'down');
  });
  const handed: Order[] = [];
  const world = { blocked: false, starts: 0 };
  const charge = new ChargeManager({
    api: fake.api,
    methods: () => METHODS,
    blocked: () => world.blocked,
    onStart: () => world.starts++,
    onPayment: (order) => handed.push(order),
  });
  charge.form.offerMethods(METHODS);
  charge.form.setAmountText('25.000');
  charge.form.setItemName('Kopi susu');
  return { fake, charge, handed, world };
}

describe('charging', () => {
  test('a charge that gives an order hands it to the payment panel, with what was typed', async () => {
    const { fake, charge, handed, world } = setup();
    const order = makeOrder();
    fake.onTyped(() => ({ ok: true, order }));

    expect(await charge.charge()).toBe('payment');

    expect(fake.typedCalls()).toEqual([[{ methodId: 'qris_dynamic', amount: 25000, itemName: 'Kopi susu' }]]);
    expect(handed).toEqual([order]);
    expect(charge.problem).toBeNull();
    expect(charge.charging).toBe(false);
    expect(world.starts).toBe(1);
  });

  test('an amount that is not whole rupiah is refused at the field: nothing is sent, the rule is shown', async () => {
    const { fake, charge, handed } = setup();
    charge.form.setAmountText('12.5');
    expect(await charge.charge()).toBe('issues');
    expect(charge.form.amountError).toBe('grouping');
    charge.form.setAmountText('1e12');
    expect(await charge.charge()).toBe('issues');
    expect(charge.form.amountError).toBe('characters');
    expect(fake.typedCalls()).toEqual([]);
    expect(handed).toEqual([]);
  });

  test('only what the chosen method takes is sent along', async () => {
    const { fake, charge } = setup();
    fake.onTyped(() => ({ ok: true, order: makeOrder() }));
    charge.form.setCustomerName('  Budi  ');
    await charge.charge();
    charge.form.setAmountText('25000');
    charge.form.setItemName('Sepatu');
    charge.form.setCustomerName('  Budi  ');
    charge.form.methodId = 'va_bca';
    await charge.charge();
    const [[first], [second]] = fake.typedCalls() as [[object], [object]];
    expect(first).not.toHaveProperty('customerName');
    expect(second).toMatchObject({ methodId: 'va_bca', customerName: 'Budi' });
  });

  test('no second charge while one is in flight', async () => {
    const { fake, charge, handed } = setup();
    const held = fake.holdTyped();
    const first = charge.charge();
    expect(charge.charging).toBe(true);
    expect(charge.canCharge).toBe(false);

    expect(await charge.charge()).toBe('busy');
    expect(fake.typedCalls()).toHaveLength(1);

    held.resolve({ ok: true, order: makeOrder() });
    expect(await first).toBe('payment');
    expect(handed).toHaveLength(1);
  });

  test('no charge while the payment panel holds an order (or acts on it)', async () => {
    const { fake, charge, world } = setup();
    world.blocked = true;
    expect(await charge.charge()).toBe('busy');
    expect(fake.typedCalls()).toHaveLength(0);
    expect(world.starts).toBe(0);
  });

  test('a live event that overtakes the answer is not lost: the newer of the two is handed on', async () => {
    const { fake, charge, handed } = setup();
    const held = fake.holdTyped();
    const outcome = charge.charge();
    const created = makeOrder({ state: 'awaiting_payment' });
    const paid = later(created, { state: 'paid', paidAt: '2026-03-10T03:00:01.000Z' });
    // A fast callback: the order is paid before the create call's answer arrives.
    charge.observe(paid);
    held.resolve({ ok: true, order: created });

    expect(await outcome).toBe('payment');
    expect(handed).toEqual([paid]);
  });

  test('an older event does not replace the answer', async () => {
    const { fake, charge, handed } = setup();
    const created = makeOrder({ state: 'awaiting_payment' });
    const creating = { ...created, state: 'creating' as const, updatedAt: '2026-03-10T02:59:59.000Z' };
    charge.observe(creating);
    fake.onTyped(() => ({ ok: true, order: created }));
    await charge.charge();
    expect(handed).toEqual([created]);
  });

  test('field issues go to their fields and are not a problem', async () => {
    const { fake, charge } = setup();
    const issues: FieldIssue[] = [
      { field: 'amount', rule: 'amount_range', message: 'amount must be between 1000 and 500000' },
    ];
    fake.onTyped(() => ({
      ok: false,
      failure: failure({ class: 'invalid_input', retry: 'final', issues }),
    }));
    expect(await charge.charge()).toBe('issues');
    expect(charge.form.issueFor('amount')).toEqual(issues[0]);
    expect(charge.problem).toBeNull();
    expect(charge.canCharge).toBe(true);
  });

  test("a typed sale the cart refuses shows the order's issues at their fields, all at once", async () => {
    const { fake, charge } = setup();
    const issues: FieldIssue[] = [
      { field: 'user_mdn', rule: 'format', message: 'user_mdn: must be an Indonesian mobile number' },
      { field: 'item_name', rule: 'required', message: 'item_name: must not be empty' },
      {
        field: 'amount',
        rule: 'amount_range',
        message: 'amount: must be between 1000 and 500000',
        params: { min: 1000, max: 500000 },
      },
    ];
    fake.on('chargeSale', () => ({
      ok: false,
      saleId: null,
      sale: null,
      failure: failure({ class: 'invalid_input', retry: 'final', issues }),
      issues: [{ field: 'lines[0].name', rule: 'format', message: 'lines[0].name: 1 to 80 characters' }],
    }));
    expect(await charge.charge()).toBe('issues');
    expect(charge.form.issueFor('amount')).toEqual(issues[2]);
    expect(charge.form.issueFor('item_name')).toEqual(issues[1]);
    expect(charge.form.issueFor('user_mdn')).toEqual(issues[0]);
    expect(charge.problem).toBeNull();
  });

  test('a charge that gives an order leaves an empty form for the next sale, the V1 choice included', async () => {
    const { fake, charge } = setup();
    fake.onTyped(() => ({ ok: true, order: makeOrder({ api: 'v1' }) }));
    charge.form.useHostedPage = true;
    await charge.charge();
    expect(fake.typedCalls()[0]![0]).toMatchObject({ api: 'v1' });
    expect(charge.form.useHostedPage).toBe(false);
    expect(charge.form.amount).toBe(0);
    expect(charge.form.itemName).toBe('');
    expect(charge.form.methodId).toBe('qris_dynamic');
  });

  test('a sale that was refused keeps the form as typed, to be corrected', async () => {
    const { fake, charge } = setup();
    fake.onTyped(() => ({ ok: false, failure: failure({ class: 'rejected', retry: 'final' }) }));
    charge.form.useHostedPage = true;
    await charge.charge();
    expect(charge.form.amount).toBe(25000);
    expect(charge.form.useHostedPage).toBe(true);
  });

  test('a refused charge is final: refused, no action, and a new charge may follow', async () => {
    const { fake, charge } = setup();
    const rejected = makeOrder({ state: 'rejected' });
    fake.onTyped(() => ({
      ok: false,
      order: rejected,
      failure: failure({ class: 'rejected', retry: 'final', retcode: '2203', httpStatus: 400 }),
    }));
    expect(await charge.charge()).toBe('problem');
    expect(charge.problem).toMatchObject({ kind: 'refused', action: null, order: rejected });
    expect(charge.outcomeOpen).toBe(false);

    fake.onTyped(() => ({ ok: true, order: makeOrder() }));
    expect(await charge.charge()).toBe('payment');
    expect(fake.typedCalls()).toHaveLength(2);
  });
});

describe('what a failure allows is read from failure.retry', () => {
  test('may_exist: "do not charge again", Check again with the order, and Charge blocked', async () => {
    const { fake, charge, world } = setup();
    const unknown = makeOrder({ state: 'unknown', delivery: 'sent' });
    fake.onTyped(() => ({
      ok: false,
      order: unknown,
      failure: failure({ class: 'unknown', retry: 'may_exist' }),
    }));
    expect(await charge.charge()).toBe('problem');
    expect(charge.problem).toMatchObject({ kind: 'unknown', action: 'check', order: unknown });
    expect(charge.outcomeOpen).toBe(true);

    expect(await charge.charge()).toBe('busy');
    expect(fake.typedCalls()).toHaveLength(1);
    expect(world.starts).toBe(1);
  });

  test('a duplicate refusal the server marks may_exist is an open outcome, whatever its class', () => {
    const order = makeOrder({ state: 'unknown' });
    expect(problemFrom(failure({ class: 'rejected', retry: 'may_exist' }), order)).toMatchObject({
      kind: 'unknown',
      action: 'check',
    });
    expect(problemFrom(failure({ class: 'invalid_input', retry: 'final' }))).toMatchObject({
      kind: 'other',
      action: null,
    });
    expect(problemFrom(failure({ class: 'unknown', retry: 'may_exist' }))).toMatchObject({
      kind: 'unknown',
      action: null,
    });
  });

  test('an outage is not a refusal: "nothing was charged", and Retry sends the same order by its id', async () => {
    const { fake, charge, handed } = setup();
    const down = makeOrder({ state: 'unknown', delivery: 'not_sent' });
    fake.onTyped(() => ({
      ok: false,
      order: down,
      failure: failure({ class: 'outage', retry: 'safe_to_resend', retcode: '5003', httpStatus: 503 }),
    }));
    await charge.charge();
    expect(charge.problem).toMatchObject({ kind: 'outage', action: 'retry', order: down });
    // The order is still open (Loket refuses a second sale over it): Retry it, or dismiss the message first.
    expect(charge.outcomeOpen).toBe(true);
    expect(await charge.charge()).toBe('busy');

    const sent = later(down, { state: 'awaiting_payment', delivery: 'answered' });
    fake.on('retryOrder', () => ({ ok: true, order: sent }));
    expect(await charge.retry()).toBe('payment');
    expect(fake.callsOf('retryOrder')).toEqual([[down.id]]);
    expect(fake.typedCalls()).toHaveLength(1);
    expect(handed).toEqual([sent]);
  });

  test('the kinds, read off class and retry: may_exist first, then outage, then refusal', () => {
    const order = makeOrder({ state: 'unknown' });
    expect(problemFrom(failure({ class: 'outage', retry: 'safe_to_resend' }), order).kind).toBe('outage');
    expect(problemFrom(failure({ class: 'not_sent', retry: 'safe_to_resend' }), order).kind).toBe('outage');
    // An outage the server says may exist is never "send again".
    expect(problemFrom(failure({ class: 'outage', retry: 'may_exist' }), order)).toMatchObject({
      kind: 'unknown',
      action: 'check',
    });
    expect(problemFrom(failure({ class: 'rejected', retry: 'final', httpStatus: 401 })).kind).toBe('refused');
    expect(problemFrom(failure({ class: 'storage', retry: 'final' })).kind).toBe('other');
  });

  test('a sale still waiting on the display: the charge is refused, and the cashier can go to that sale', async () => {
    const { fake, charge } = setup();
    fake.fail('chargeSale', new CallError('conflict', 'another sale is waiting on the display: park it or finish it'));
    expect(await charge.charge()).toBe('problem');
    expect(charge.problem).toMatchObject({ kind: 'waiting', action: 'show' });
    expect(charge.outcomeOpen).toBe(false);
    // What was typed stays, for when that sale is parked or finished.
    expect(charge.form.amount).toBe(25000);
    expect(await charge.retry()).toBe('busy');
    expect(fake.typedCalls()).toHaveLength(1);
  });

  test('an order whose outcome is unknown holds the till: after its message is closed, Charge brings it back', async () => {
    const { fake, charge } = setup();
    const unknown = makeOrder({ state: 'unknown', delivery: 'sent' });
    fake.onTyped(() => ({
      ok: false,
      order: unknown,
      failure: failure({ class: 'unknown', retry: 'may_exist' }),
    }));
    expect(await charge.charge()).toBe('problem');
    charge.dismissProblem();
    expect(charge.outcomeOpen).toBe(false);
    // The server refuses any other order while that one is unknown; its warning comes back, with Check again.
    fake.fail('chargeSale', new CallError('conflict', 'the outcome of order … is still unknown'));
    fake.on('currentSale', () => ({ order: unknown, receiptPrinted: false }));
    expect(await charge.charge()).toBe('problem');
    expect(charge.problem).toMatchObject({ kind: 'unknown', action: 'check', order: { id: unknown.id } });
    expect(charge.outcomeOpen).toBe(true);
    expect(charge.canCharge).toBe(false);
  });

  test('safe_to_resend: Retry sends the same order again, by its id, never a new one', async () => {
    const { fake, charge, handed } = setup();
    const notSent = makeOrder({ state: 'unknown', delivery: 'not_sent' });
    fake.onTyped(() => ({
      ok: false,
      order: notSent,
      failure: failure({ class: 'not_sent', retry: 'safe_to_resend' }),
    }));
    await charge.charge();
    expect(charge.problem).toMatchObject({ kind: 'outage', action: 'retry' });

    const sent = later(notSent, { state: 'awaiting_payment', delivery: 'answered' });
    fake.on('retryOrder', () => ({ ok: true, order: sent }));
    expect(await charge.retry()).toBe('payment');
    expect(fake.callsOf('retryOrder')).toEqual([[notSent.id]]);
    expect(fake.typedCalls()).toHaveLength(1);
    expect(handed).toEqual([sent]);
    expect(charge.problem).toBeNull();
  });

  test('Loket unreachable mid-charge: the order may exist, so it is may_exist and Charge stays blocked', async () => {
    const { fake, charge } = setup();
    fake.fail('chargeSale', new CallError('network', 'Loket did not answer (fetch failed).'));
    expect(await charge.charge()).toBe('problem');
    expect(charge.problem).toMatchObject({
      kind: 'unknown',
      action: null,
      failure: { class: 'unknown', retry: 'may_exist' },
      callError: { code: 'network' },
    });
    expect(charge.outcomeOpen).toBe(true);
    expect(await charge.charge()).toBe('busy');

    charge.dismissProblem();
    fake.fail('chargeSale', new CallError('internal', 'Internal error in Loket.'));
    await charge.charge();
    expect(charge.outcomeOpen).toBe(true);
  });

  test('a refused call (not a failed charge) is an error that does not block', async () => {
    const { fake, charge } = setup();
    const error = new CallError('forbidden', 'no token', 401);
    fake.fail('chargeSale', error);
    expect(await charge.charge()).toBe('problem');
    expect(charge.problem).toEqual({ kind: 'error', error, action: null });
    expect(charge.outcomeOpen).toBe(false);
    expect(charge.canCharge).toBe(true);
  });
});

describe('checking again', () => {
  async function withOpenOutcome() {
    const s = setup();
    const unknown = makeOrder({ state: 'unknown', delivery: 'sent' });
    s.fake.onTyped(() => ({
      ok: false,
      order: unknown,
      failure: failure({ class: 'unknown', retry: 'may_exist', message: 'no answer' }),
    }));
    await s.charge.charge();
    return { ...s, unknown };
  }

  test('a check that finds the order waiting for payment hands it to the panel', async () => {
    const { fake, charge, handed, unknown } = await withOpenOutcome();
    const found = later(unknown, { state: 'awaiting_payment' });
    fake.on('retryOrder', () => ({ ok: true, order: found }));
    expect(await charge.retry()).toBe('payment');
    expect(fake.callsOf('retryOrder')).toEqual([[unknown.id]]);
    expect(handed).toEqual([found]);
    expect(charge.outcomeOpen).toBe(false);
  });

  test('a check that fails keeps the warning and the order, with the new reason', async () => {
    const { fake, charge, unknown } = await withOpenOutcome();
    fake.fail('retryOrder');
    expect(await charge.retry()).toBe('problem');
    expect(charge.problem).toMatchObject({ kind: 'unknown', action: 'check', order: unknown });
    expect(charge.problem).toMatchObject({ callError: { code: 'network' } });
    expect(charge.outcomeOpen).toBe(true);
    expect(charge.checking).toBe(false);
  });

  test('a check still unanswered stays "do not charge again"', async () => {
    const { fake, charge, unknown } = await withOpenOutcome();
    const still = later(unknown, {});
    fake.on('retryOrder', () => ({
      ok: false,
      order: still,
      failure: failure({ class: 'rejected', retry: 'may_exist', message: 'duplicate' }),
    }));
    await charge.retry();
    expect(charge.problem).toMatchObject({ kind: 'unknown', order: still });
    expect(charge.outcomeOpen).toBe(true);
  });

  test('one check at a time', async () => {
    const { fake, charge, unknown } = await withOpenOutcome();
    const held = fake.hold('retryOrder');
    const first = charge.retry();
    expect(charge.checking).toBe(true);
    expect(await charge.retry()).toBe('busy');
    held.resolve({ ok: true, order: later(unknown, { state: 'awaiting_payment' }) });
    await first;
    expect(fake.callsOf('retryOrder')).toHaveLength(1);
  });

  test("a live event about the problem's order settles it: an order to pay goes to the panel", async () => {
    const { charge, handed, unknown } = await withOpenOutcome();
    charge.observe(later(unknown, { delivery: 'answered' }, 1));
    expect(charge.problem).toMatchObject({ kind: 'unknown', order: { delivery: 'answered' } });
    // An older event never steps back.
    charge.observe(unknown);
    expect(charge.problem).toMatchObject({ order: { delivery: 'answered' } });

    const awaiting = later(unknown, { state: 'awaiting_payment' }, 2);
    charge.observe(awaiting);
    expect(handed).toEqual([awaiting]);
    expect(charge.problem).toBeNull();
  });

  test('an event about another order leaves the problem alone', async () => {
    const { charge, handed } = await withOpenOutcome();
    charge.observe(makeOrder({ state: 'paid' }));
    expect(charge.outcomeOpen).toBe(true);
    expect(handed).toEqual([]);
  });

  test('dismissing: the message goes, the display is sent back to idle, and Charge works again', async () => {
    const { fake, charge } = await withOpenOutcome();
    charge.dismissProblem();
    await settle();
    expect(charge.problem).toBeNull();
    expect(fake.callsOf('showOnDisplay')).toEqual([[null]]);
    expect(charge.canCharge).toBe(true);
  });
});

test('starting over empties the form and the message, and keeps the method', async () => {
  const { fake, charge } = setup();
  fake.onTyped(() => ({ ok: false, failure: failure({ class: 'rejected', retry: 'final' }) }));
  charge.form.methodId = 'va_bca';
  await charge.charge();
  charge.startOver();
  expect(charge.problem).toBeNull();
  expect(charge.form.amount).toBe(0);
  expect(charge.form.itemName).toBe('');
  expect(charge.form.methodId).toBe('va_bca');
});

describe('after a reload, and charging again', () => {
  test('an order whose outcome is open comes back as "do not charge again", with Check again', () => {
    const { charge } = setup();
    const unknown = makeOrder({ state: 'unknown', delivery: 'sent' });
    charge.restore(unknown);
    expect(charge.problem).toMatchObject({ kind: 'unknown', action: 'check', order: unknown });
    expect(charge.outcomeOpen).toBe(true);
  });

  test('a refused order comes back as refused, with its retcode', () => {
    const { charge } = setup();
    const rejected = makeOrder({
      state: 'rejected',
      rejection: { retcode: '1003', message: 'header appkey: does not match', httpStatus: 401 },
    });
    charge.restore(rejected);
    expect(charge.problem).toMatchObject({
      kind: 'refused',
      action: null,
      failure: { retcode: '1003', httpStatus: 401, message: 'header appkey: does not match' },
    });
    expect(charge.outcomeOpen).toBe(false);
  });

  test('charging again fills the form with the same sale; the method when still offered', () => {
    const { charge } = setup();
    charge.chargeAgain(
      makeOrder({
        state: 'expired',
        amount: 41000,
        itemName: 'Sepatu',
        methodId: 'va_bca',
        customerName: 'Budi',
        api: 'v1',
      }),
    );
    expect(charge.form.amount).toBe(41000);
    expect(charge.form.itemName).toBe('Sepatu');
    expect(charge.form.methodId).toBe('va_bca');
    expect(charge.form.customerName).toBe('Budi');
    expect(charge.form.useHostedPage).toBe(false);
    expect(charge.problem).toBeNull();

    charge.chargeAgain(makeOrder({ state: 'failed', methodId: 'ewallet_gone', itemId: 'KOPI', itemName: 'Kopi susu' }));
    expect(charge.form.methodId).toBe('va_bca');
    expect(charge.form.itemId).toBe('KOPI');
  });
});
