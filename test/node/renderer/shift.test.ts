// @vitest-environment jsdom
// The shift on the cashier's screen (state/shift.svelte.ts) against a fake API: the header's shift, opening with a
// float, pay-ins and pay-outs (the server's `pin_required` bringing up the manager's PIN, a wrong PIN), a no sale,
// the blind count (checked and confirmed before anything is sent; the answer the first to say what was expected),
// the X report only while a manager has unlocked, printing, and `shift.requestOpen()` for the tender screen.
import { afterEach, describe, expect, test } from 'vitest';
import { DENOMINATIONS as COMMON_DENOMINATIONS, MAX_COUNT as COMMON_MAX_COUNT } from '../../../src-main/common/cash';
import type { DrawerResult, ShiftReport, ShiftView, TillShift } from '../../../src-main/common/shifts';
import { reason } from '../../../src-main/common/reasons';
import { CallError } from '../../../src-renderer/src/api/errors';
import { DENOMINATIONS, MAX_COUNT } from '../../../src-renderer/src/lib/denominations';
import { en } from '../../../src-renderer/src/i18n/en';
import { id } from '../../../src-renderer/src/i18n/id';
import { sayReason } from '../../../src-renderer/src/lib/say';
import { shift as shiftEntry, ShiftState } from '../../../src-renderer/src/state/shift.svelte';
import { FakeApi, settle } from './fake-client';

const T0 = Date.parse('2026-03-10T03:00:00.000Z');
const MANAGER_TOKEN = 'm'.repeat(32);
const OPENED: TillShift = {
  id: 'T1-S0001',
  terminalId: 'T1',
  businessDay: '2026-03-10',
  timeZone: 'Asia/Jakarta',
  state: 'open',
  openedAt: '2026-03-10T01:00:00.000Z',
  openedBy: { staffId: 2, name: 'Ani' },
  float: 200_000,
};
const DRAWER_OK: DrawerResult = { ok: true, message: 'the cash drawer opened', reason: reason('drawer.opened', {}) };
const NO_PRINTER: DrawerResult = {
  ok: false,
  message: 'no receipt printer',
  reason: reason('drawer.no_printer'),
};

function view(overrides: Partial<ShiftView> = {}): ShiftView {
  return {
    ...OPENED,
    cash: {
      float: 200_000,
      cashIn: 50_000,
      change: 1_950,
      cashSales: 48_050,
      cashVoids: 0,
      cashRefunds: 0,
      payIns: 0,
      payOuts: 0,
      expected: 248_050,
    },
    ...overrides,
  };
}

function report(kind: 'X' | 'Z', shift = view()): ShiftReport {
  return {
    kind,
    shift,
    tenders: [{ tender: 'cash', count: 1, amount: 48_050 }],
    cashTenders: { count: 1, handed: 50_000, change: 1_950, net: 48_050 },
    voided: { count: 0, amount: 0 },
    refunds: { count: 0, amount: 0 },
    payIns: [],
    payOuts: [],
    noSales: [],
    rounding: 0,
    expected: shift.cash.expected,
  };
}

function event(type: 'float' | 'pay_in' | 'pay_out' | 'no_sale', amount: number) {
  return { seq: 2, at: '2026-03-10T02:00:00.000Z', type, amount, change: 0 };
}

/** Every state a test made is disposed after it: `shift.requestOpen()` reaches only the test's own. */
const made: ShiftState[] = [];
afterEach(() => {
  for (const s of made.splice(0)) s.dispose();
});

function setup(options: { current?: TillShift | null; managerUnlocked?: boolean } = {}) {
  const fake = new FakeApi();
  fake.on('currentShift', () => options.current ?? null);
  const prints: string[] = [];
  let unlocked = options.managerUnlocked ?? false;
  const shift = new ShiftState({
    api: fake.api,
    printDocument: async (html) => {
      prints.push(html);
    },
    // The manager's session as the cashier view gives it: its token handed to the call, never to the state.
    manager: {
      unlocked: () => unlocked,
      call: async (fn) =>
        unlocked
          ? { ok: true, value: await fn(MANAGER_TOKEN) }
          : { ok: false, error: new CallError('locked', 'manager mode is locked') },
    },
    now: () => T0,
  });
  made.push(shift);
  return { fake, shift, prints, unlock: () => (unlocked = true) };
}

describe('the header and opening a shift', () => {
  test('none open: the header button opens the open-shift dialog; a float is sent as whole rupiah', async () => {
    const { fake, shift } = setup();
    await shift.load();
    expect(shift.loaded).toBe(true);
    expect(shift.current).toBeNull();

    shift.openFromHeader();
    expect(shift.dialog).toBe('open');
    fake.on('openShift', ({ float }) => ({
      shift: { ...OPENED, float },
      event: event('float', float),
      drawer: NO_PRINTER,
    }));
    expect(await shift.openShift('200.000')).toBe(true);
    expect(fake.callsOf('openShift')).toEqual([[{ float: 200_000 }]]);
    expect(shift.current?.id).toBe('T1-S0001');
    // The drawer that could not be reached is said, and the shift is open all the same.
    expect(shift.done).toEqual({ what: 'opened', amount: 200_000, drawer: NO_PRINTER });
    shift.dismiss();
    expect(shift.dialog).toBeNull();
  });

  test('a float that is not whole rupiah is refused on its field and never sent; 0 is a float', async () => {
    const { fake, shift } = setup();
    await shift.load();
    shift.show('open');
    for (const bad of ['', '12,5', '-5', 'abc']) {
      expect(await shift.openShift(bad)).toBe(false);
      expect(shift.issueOf('float')).toBe('float');
    }
    expect(fake.callsOf('openShift')).toEqual([]);
    fake.on('openShift', () => ({ shift: { ...OPENED, float: 0 }, event: event('float', 0), drawer: DRAWER_OK }));
    expect(await shift.openShift('0')).toBe(true);
    expect(shift.issueOf('float')).toBeUndefined();
  });

  test('already open elsewhere: the refusal is said and the header learns the open shift', async () => {
    const { fake, shift } = setup();
    await shift.load();
    shift.show('open');
    fake.fail(
      'openShift',
      new CallError('conflict', 'already open', 409, reason('shift.already_open', { shiftId: 'T1-S0001' })),
    );
    fake.on('currentShift', () => OPENED);
    expect(await shift.openShift('100000')).toBe(false);
    expect(shift.error?.reason?.key).toBe('shift.already_open');
    expect(shift.current?.id).toBe('T1-S0001');
  });

  test('open: the header button opens the menu', async () => {
    const { shift } = setup({ current: OPENED });
    await shift.load();
    shift.openFromHeader();
    expect(shift.dialog).toBe('menu');
  });

  test('opened or closed elsewhere (the command line): the header button shows what is so now', async () => {
    const { fake, shift } = setup();
    await shift.load();
    fake.on('currentShift', () => OPENED);
    shift.openFromHeader();
    expect(shift.dialog).toBe('open');
    await settle();
    expect(shift.dialog).toBe('menu');
    expect(shift.current?.id).toBe('T1-S0001');

    shift.dismiss();
    fake.on('currentShift', () => null);
    shift.openFromHeader();
    expect(shift.dialog).toBe('menu');
    await settle();
    expect(shift.dialog).toBe('open');
    expect(shift.current).toBeNull();
  });
});

describe('requestOpen, for the tender screen', () => {
  test('no shift: the dialog comes up saying why; true once opened and the dialog is left', async () => {
    const { fake, shift } = setup();
    await shift.load();
    const asked = shiftEntry.requestOpen();
    expect(shift.dialog).toBe('open');
    expect(shift.forSale).toBe(true);
    fake.on('openShift', () => ({ shift: OPENED, event: event('float', 1), drawer: DRAWER_OK }));
    await shift.openShift('150000');
    let told: boolean | undefined;
    void asked.then((v) => (told = v));
    await settle();
    expect(told).toBeUndefined();
    shift.dismiss();
    expect(await asked).toBe(true);
    expect(shiftEntry.isOpen).toBe(true);
    shift.dispose();
  });

  test('left without opening: false; with a shift open already: true at once', async () => {
    const { shift } = setup();
    await shift.load();
    const asked = shiftEntry.requestOpen();
    shift.dismiss();
    expect(await asked).toBe(false);
    shift.dispose();
    expect(await shiftEntry.requestOpen()).toBe(false);

    const open = setup({ current: OPENED });
    await open.shift.load();
    expect(await shiftEntry.requestOpen()).toBe(true);
    expect(open.shift.dialog).toBeNull();
    open.shift.dispose();
  });
});

describe('pay-ins and pay-outs', () => {
  test('amount and reason are required, checked before anything is sent', async () => {
    const { fake, shift } = setup({ current: OPENED });
    await shift.load();
    shift.show('pay_in');
    expect(await shift.move('', 'ok')).toBe(false);
    expect(shift.issueOf('amount')).toBe('amount');
    expect(shift.issueOf('reason')).toBe('reason');
    expect(await shift.move('0', 'coins from the bank')).toBe(false);
    expect(shift.issueOf('amount')).toBe('amount');
    expect(shift.issueOf('reason')).toBeUndefined();
    expect(fake.callsOf('shiftMovement')).toEqual([]);

    fake.on('shiftMovement', (input) => ({ shift: OPENED, event: event(input.type, input.amount), drawer: DRAWER_OK }));
    expect(await shift.move('50.000', '  coins from the bank ')).toBe(true);
    expect(fake.callsOf('shiftMovement')).toEqual([
      [{ type: 'pay_in', amount: 50_000, reason: 'coins from the bank' }],
    ]);
    expect(shift.done).toEqual({ what: 'pay_in', amount: 50_000, drawer: DRAWER_OK });
  });

  test("over the limit: the server's pin_required asks for a manager; a wrong PIN is said; the right one is sent", async () => {
    const { fake, shift } = setup({ current: OPENED });
    await shift.load();
    shift.show('pay_out');
    const pinRefusal = (refusal: string, code: 'invalid_arguments' | 'forbidden') =>
      new CallError(code, 'managerPin', 400, reason('shift.manager_pin', { refusal }));
    fake.fail('shiftMovement', pinRefusal('pin_required', 'invalid_arguments'));
    expect(await shift.move('150000', 'supplier paid')).toBe(false);
    expect(shift.pinAsked).toBe(true);
    expect(shift.error).toBeNull();

    // Nobody picked, or a PIN too short: said here, not sent.
    expect(await shift.move('150000', 'supplier paid')).toBe(false);
    expect(shift.pinProblem).toEqual({ kind: 'format' });
    expect(fake.callsOf('shiftMovement')).toHaveLength(1);

    shift.pickManager(1);
    shift.pin.setText('1234');
    fake.fail('shiftMovement', pinRefusal('wrong_pin', 'forbidden'));
    expect(await shift.move('150000', 'supplier paid')).toBe(false);
    expect(shift.pinProblem).toEqual({ kind: 'wrong_pin' });
    expect(shift.pin.value).toBe('');

    shift.pin.setText('97531864');
    fake.on('shiftMovement', (input) => ({
      shift: OPENED,
      event: event(input.type, input.amount),
      drawer: DRAWER_OK,
    }));
    expect(await shift.move('150000', 'supplier paid')).toBe(true);
    expect(fake.callsOf('shiftMovement').at(-1)).toEqual([
      { type: 'pay_out', amount: 150_000, reason: 'supplier paid', managerPin: { staffId: 1, pin: '97531864' } },
    ]);
    // The PIN is never kept.
    expect(shift.pin.value).toBe('');
    expect(shift.done?.what).toBe('pay_out');
  });

  test("more than the drawer should hold: the server's rule shows on the amount, without a figure", async () => {
    const { fake, shift } = setup({ current: OPENED });
    await shift.load();
    shift.show('pay_out');
    fake.fail(
      'shiftMovement',
      new CallError('invalid_arguments', 'x', 400, reason('shift.field_rule', { field: 'amount', rule: 'drawer' })),
    );
    expect(await shift.move('90000', 'supplier paid')).toBe(false);
    expect(shift.issueOf('amount')).toBe('drawer');
  });

  test('a lockout stays shown when the dialog is left and opened again', async () => {
    const { fake, shift } = setup({ current: OPENED });
    await shift.load();
    shift.show('no_sale');
    expect(shift.pinAsked).toBe(true);
    shift.pickManager(1);
    shift.pin.setText('1111');
    fake.fail(
      'noSale',
      new CallError(
        'forbidden',
        'x',
        403,
        reason('shift.manager_pin', { refusal: 'locked_out', retryAfterMs: 60_000 }),
      ),
    );
    expect(await shift.noSale('change for a note')).toBe(false);
    expect(shift.pinProblem).toEqual({ kind: 'locked_out', until: T0 + 60_000 });
    shift.dismiss();
    shift.show('no_sale');
    expect(shift.pinProblem).toEqual({ kind: 'locked_out', until: T0 + 60_000 });
    // While locked out, nothing is sent.
    shift.pickManager(1);
    shift.pin.setText('2222');
    expect(await shift.noSale('change for a note')).toBe(false);
    expect(fake.callsOf('noSale')).toHaveLength(1);
  });
});

describe('no sale', () => {
  test('a reason and a manager with their PIN, always', async () => {
    const { fake, shift } = setup({ current: OPENED });
    await shift.load();
    shift.show('no_sale');
    expect(await shift.noSale('x')).toBe(false);
    expect(shift.issueOf('reason')).toBe('reason');
    expect(shift.pinProblem).toEqual({ kind: 'format' });
    shift.pickManager(1);
    shift.pin.setText('97531864');
    fake.on('noSale', () => ({ shift: OPENED, event: event('no_sale', 0), drawer: NO_PRINTER }));
    expect(await shift.noSale('change for a customer')).toBe(true);
    expect(fake.callsOf('noSale')).toEqual([
      [{ reason: 'change for a customer', managerPin: { staffId: 1, pin: '97531864' } }],
    ]);
    expect(shift.done).toEqual({ what: 'no_sale', amount: 0, drawer: NO_PRINTER });
  });
});

describe('the blind count', () => {
  test('by denomination: checked and confirmed before it is sent; the answer reveals expected and the difference', async () => {
    const { fake, shift } = setup({ current: OPENED });
    await shift.load();
    shift.show('close');
    expect(shift.closeStep).toBe('count');

    expect(shift.reviewCount({ mode: 'denominations', counts: {} })).toBe(false);
    expect(shift.issueOf('count')).toBe('nothing');
    expect(shift.reviewCount({ mode: 'denominations', counts: { note50000: '2', coin500: '1,5' } })).toBe(false);
    expect(shift.issueOf('coin500')).toBe('count');
    expect(shift.reviewCount({ mode: 'denominations', counts: { note50000: '200001' } })).toBe(false);
    expect(fake.callsOf('closeShift')).toEqual([]);

    expect(
      shift.reviewCount({
        mode: 'denominations',
        counts: { note100000: '2', note20000: '2', coin500: '4', note1000: '0' },
      }),
    ).toBe(true);
    expect(shift.closeStep).toBe('confirm');
    expect(shift.countedTotal).toBe(242_000);
    expect(shift.closed).toBeNull();
    // Back to the count and on again: still nothing sent.
    shift.backToCount();
    expect(shift.closeStep).toBe('count');
    shift.reviewCount({ mode: 'denominations', counts: { note100000: '2', note20000: '2', coin500: '4' } });

    const closedView = view({
      state: 'closed',
      closedAt: '2026-03-10T10:00:00.000Z',
      count: { expected: 248_050, counted: 242_000, difference: -6_050, status: 'short' },
    });
    fake.on('closeShift', () => ({
      expected: 248_050,
      counted: 242_000,
      difference: -6_050,
      status: 'short',
      shift: closedView,
      report: { ...report('Z', closedView), count: closedView.count! },
      drawer: DRAWER_OK,
    }));
    expect(await shift.close()).toBe(true);
    expect(fake.callsOf('closeShift')).toEqual([[{ denominations: { note100000: 2, note20000: 2, coin500: 4 } }]]);
    expect(shift.closeStep).toBe('result');
    expect(shift.closed).toMatchObject({ expected: 248_050, counted: 242_000, difference: -6_050, status: 'short' });
    expect(shift.report?.kind).toBe('Z');
    expect(shift.current).toBeNull();
  });

  test('as a total', async () => {
    const { fake, shift } = setup({ current: OPENED });
    await shift.load();
    shift.show('close');
    expect(shift.reviewCount({ mode: 'total', text: '12,50' })).toBe(false);
    expect(shift.issueOf('counted')).toBe('counted');
    expect(shift.reviewCount({ mode: 'total', text: 'Rp 248.050' })).toBe(true);
    const held = fake.hold('closeShift');
    const closing = shift.close();
    expect(await held.called).toEqual([{ counted: 248_050 }]);
    // Leaving while the close is on its way is not possible.
    shift.dismiss();
    expect(shift.dialog).toBe('close');
    const closedView = view({ state: 'closed' });
    held.resolve({
      expected: 248_050,
      counted: 248_050,
      difference: 0,
      status: 'even',
      shift: closedView,
      report: report('Z', closedView),
      drawer: DRAWER_OK,
    });
    expect(await closing).toBe(true);
    expect(shift.closed?.status).toBe('even');
  });

  test('refused while a sale is being paid: said in the dialog, the shift stays open, the count kept', async () => {
    const { fake, shift } = setup({ current: OPENED });
    await shift.load();
    shift.show('close');
    shift.reviewCount({ mode: 'total', text: '100000' });
    const why = reason('shift.sales_being_paid', {
      sales: [{ serial: 'T1-000042', orderId: 'T1-Q', methodId: 'qris_dynamic', orderState: 'awaiting_payment' }],
    });
    fake.fail('closeShift', new CallError('conflict', 'being paid', 409, why));
    expect(await shift.close()).toBe(false);
    expect(shift.error?.reason).toEqual(why);
    expect(shift.closeStep).toBe('confirm');
    expect(shift.countedTotal).toBe(100_000);
    expect(shift.current).toEqual(OPENED);
    // Said in the screen's language: the struk number, the method, the order and its state, and what to do.
    const methods = [{ id: 'qris_dynamic', label: { id: 'QRIS', en: 'QRIS' } }] as never;
    expect(sayReason(why, en, { lang: 'en', methods })).toBe(
      'The shift cannot be closed while a sale is still being paid: T1-000042 (QRIS T1-Q: waiting for payment). ' +
        'Wait for the payment, check it again on the payment screen, or void the sale; then close the shift.',
    );
    expect(sayReason(why, id, { lang: 'id', methods })).toMatch(/^Shift belum dapat ditutup .*T1-000042 \(QRIS T1-Q: /);
  });

  test('closed elsewhere meanwhile: said, and the header follows', async () => {
    const { fake, shift } = setup({ current: OPENED });
    await shift.load();
    shift.show('close');
    shift.reviewCount({ mode: 'total', text: '100000' });
    fake.fail('closeShift', new CallError('conflict', 'none', 409, reason('shift.none_open')));
    fake.on('currentShift', () => null);
    expect(await shift.close()).toBe(false);
    expect(shift.error?.reason?.key).toBe('shift.none_open');
    expect(shift.current).toBeNull();
  });
});

describe('the X report and printing', () => {
  test('the X report is not asked for until a manager has unlocked', async () => {
    const { fake, shift, unlock } = setup({ current: OPENED });
    await shift.load();
    fake.on('shiftReport', () => report('X'));
    shift.show('report');
    await settle();
    expect(shift.xAllowed).toBe(false);
    expect(fake.callsOf('shiftReport')).toEqual([]);
    expect(shift.report).toBeNull();

    unlock();
    shift.show('report');
    await settle();
    // Asked with the manager's session: the server answers the X report to nobody else.
    expect(fake.callsOf('shiftReport')).toEqual([[MANAGER_TOKEN, {}]]);
    expect(shift.report?.kind).toBe('X');
  });

  test('printing: the receipt printer, or the A4 page when there is none; the A4 page on its own', async () => {
    const { fake, shift, prints } = setup({ current: OPENED, managerUnlocked: true });
    await shift.load();
    fake.on('shiftReport', () => report('X'));
    fake.on('shiftReportHtml', () => ({ html: '<html>X</html>' }));
    shift.show('report');
    await settle();

    fake.on('printShiftReport', () => ({
      ok: true,
      message: 'printed',
      reason: reason('print.done', { what: 'report' }),
    }));
    await shift.printReport();
    expect(fake.callsOf('printShiftReport')).toEqual([[MANAGER_TOKEN, { shiftId: 'T1-S0001' }]]);
    expect(shift.reportNotice).toMatchObject({ kind: 'printed', ok: true });

    fake.on('printShiftReport', () => ({
      ok: false,
      message: 'no printer',
      reason: reason('print.no_printer', { what: 'report' }),
    }));
    await shift.printReport();
    expect(prints).toEqual(['<html>X</html>']);
    expect(shift.reportNotice).toEqual({ kind: 'page' });

    await shift.printPage();
    expect(fake.callsOf('shiftReportHtml')).toEqual([
      [MANAGER_TOKEN, { shiftId: 'T1-S0001' }],
      [MANAGER_TOKEN, { shiftId: 'T1-S0001' }],
    ]);
    expect(prints).toHaveLength(2);
  });

  test('the Z report after the close prints without a manager (no token): the count is in', async () => {
    const { fake, shift, prints } = setup({ current: OPENED });
    await shift.load();
    shift.show('close');
    shift.reviewCount({ mode: 'total', text: '248.050' });
    const closedView = view({ state: 'closed' });
    fake.on('closeShift', () => ({
      expected: 248_050,
      counted: 248_050,
      difference: 0,
      status: 'even',
      shift: closedView,
      report: report('Z', closedView),
      drawer: DRAWER_OK,
    }));
    expect(await shift.close()).toBe(true);
    fake.on('printShiftReport', () => ({
      ok: false,
      message: 'no printer',
      reason: reason('print.no_printer', { what: 'report' }),
    }));
    fake.on('shiftReportHtml', () => ({ html: '<html>Z</html>' }));
    await shift.printReport();
    expect(fake.callsOf('printShiftReport')).toEqual([[null, { shiftId: 'T1-S0001' }]]);
    expect(fake.callsOf('shiftReportHtml')).toEqual([[null, { shiftId: 'T1-S0001' }]]);
    expect(prints).toEqual(['<html>Z</html>']);
  });

  test('an X report whose manager locked meanwhile is not printed: the error is said', async () => {
    const { fake, shift } = setup({ current: OPENED, managerUnlocked: true });
    await shift.load();
    fake.on('shiftReport', () => report('X'));
    shift.show('report');
    await settle();
    fake.fail('printShiftReport', new CallError('locked', 'manager mode is locked', 401, reason('manager.locked')));
    await shift.printReport();
    expect(shift.reportNotice).toMatchObject({ kind: 'error', error: { code: 'locked' } });
  });

  test("a pay-out over the shift's limit says the shift's pay-outs so far, this one and the limit", async () => {
    const { fake, shift } = setup({ current: OPENED });
    await shift.load();
    shift.show('pay_out');
    fake.fail(
      'shiftMovement',
      new CallError(
        'invalid_arguments',
        'managerPin',
        400,
        reason('shift.manager_pin', { refusal: 'pin_required', paidOut: 60_000, amount: 60_000, limit: 100_000 }),
      ),
    );
    expect(await shift.move('60000', 'the gas man')).toBe(false);
    expect(shift.pinAsked).toBe(true);
    expect(shift.overLimit).toEqual({ paidOut: 60_000, amount: 60_000, limit: 100_000 });
    shift.dismiss();
    shift.show('pay_out');
    expect(shift.overLimit).toBeNull();
  });
});

test("the renderer's notes and coins are common/cash.ts's", () => {
  expect(DENOMINATIONS).toEqual(COMMON_DENOMINATIONS);
  expect(MAX_COUNT).toBe(COMMON_MAX_COUNT);
});
