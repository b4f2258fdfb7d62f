// Shifts (docs/tenders.md, "Shifts"): the shift's tables on a real SQLite file, the cash ledger port written in the
// caller's transaction, the blind count, pay-ins and pay-outs with a manager's PIN, and figures rebuilt after a
// restart; with a property test of the drawer's expected cash.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { shiftCash } from '../../src-main/common/cash';
import { AuditLog, cliActor, staffActor, type AuditActor } from '../../src-main/core/audit/audit-log';
import { NoOpenShiftError, type SaleCashMovement } from '../../src-main/core/shifts/cash-ledger';
import { NO_DRAWER, type DrawerCause, type DrawerPort } from '../../src-main/core/shifts/drawer';
import { ShiftRuleError } from '../../src-main/core/shifts/errors';
import { cashEvents, ShiftBook } from '../../src-main/core/shifts/shift-book';
import { LedgerOutsideTransactionError } from '../../src-main/core/shifts/shift-ledger';
import { ShiftService } from '../../src-main/core/shifts/shift-service';
import { AccessControl } from '../../src-main/core/staff/access';
import { openDatabase, type Database } from '../../src-main/db/open';
import { FakeClock } from './helpers/fake-clock';
import { tempDir } from './helpers/loket';
import { propertyParams } from './helpers/property';

const TILL: AuditActor = { name: 'Ani', source: 'app' };

let dir: { path: string; remove: () => void };
let db: Database;
let clock: FakeClock;
let opened: DrawerCause[];

/** A drawer that remembers why it was opened. */
const recordingDrawer = (): DrawerPort => ({
  open: (cause) => {
    opened.push(cause);
    return NO_DRAWER.open(cause);
  },
});

function service(
  options: { terminalId?: string; payOutLimit?: number; access?: AccessControl; audit?: AuditLog } = {},
): ShiftService {
  return new ShiftService({
    book: new ShiftBook(db),
    clock,
    terminalId: () => options.terminalId ?? 'T01',
    timeZone: () => 'Asia/Jakarta',
    cash: () => ({ rounding: 'off', payOutLimit: options.payOutLimit ?? 100_000 }),
    drawer: recordingDrawer(),
    ...(options.access ? { approver: options.access } : {}),
    ...(options.audit ? { audit: options.audit } : {}),
  });
}

/** A sale's cash, as core/sales writes it: in its own transaction, with its tender row (here: nothing else). */
function sellCash(s: ShiftService, handed: number, change: number, documentId = 'SALE-1'): void {
  db.transaction(() => {
    const shiftId = s.ledger.openShiftId();
    s.ledger.record({
      type: 'cash_tender',
      handed,
      change,
      shiftId,
      documentId,
      at: clock.now().toISOString(),
      staffId: null,
    });
  }).immediate();
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

beforeEach(() => {
  dir = tempDir('loket-shifts-');
  db = openDatabase(join(dir.path, 'loket.db'));
  clock = new FakeClock('2026-11-25T02:00:00.000Z');
  opened = [];
});

afterEach(() => {
  if (db.open) db.close();
  dir.remove();
});

describe('a shift', () => {
  it('opens with a float, one per terminal; a second open is refused naming the open one', async () => {
    const s = service();
    const { shift, event } = await s.open({ float: 200_000 }, TILL);
    expect(shift).toMatchObject({
      id: 'T01-S0001',
      terminalId: 'T01',
      businessDay: '2026-11-25',
      state: 'open',
      float: 200_000,
      openedBy: { name: 'Ani' },
      cash: { float: 200_000, expected: 200_000 },
    });
    expect(event).toMatchObject({ type: 'float', amount: 200_000 });
    expect(opened).toEqual(['shift_open']);
    await expect(s.open({ float: 0 }, TILL)).rejects.toThrow(/already open on this till \(T01-S0001\)/);
    // Another terminal on the same log has a shift of its own.
    expect((await service({ terminalId: 'T02' }).open({ float: 0 }, TILL)).shift.id).toBe('T02-S0001');
    // The database itself holds one open shift per terminal.
    expect(() =>
      db
        .prepare(
          `INSERT INTO shifts (id, terminal_id, business_day, time_zone, state, opened_at, opened_by, float)
           VALUES ('X', 'T01', '2026-11-25', 'Asia/Jakarta', 'open', '2026-11-25T02:00:00.000Z', 'x', 0)`,
        )
        .run(),
    ).toThrow(/UNIQUE constraint failed/);
  });

  it('refuses a float that is not a whole number of rupiah, naming the field and the rule', async () => {
    for (const float of [-1, 1.5, '1000', null]) {
      const err = await service()
        .open({ float }, TILL)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ShiftRuleError);
      expect((err as ShiftRuleError).code).toBe('invalid_arguments');
      expect((err as ShiftRuleError).issues[0]).toMatchObject({ field: 'float', rule: 'amount' });
    }
    expect(service().current()).toBeNull();
  });

  it('belongs to the store day it opened on, also after midnight and at its close', async () => {
    clock = new FakeClock('2026-11-25T16:30:00.000Z'); // 23:30 in Jakarta
    const s = service();
    await s.open({ float: 100_000 }, TILL);
    clock.advance(60 * 60_000); // 00:30 the next day
    const closed = await s.close({ counted: 100_000 }, TILL);
    expect(closed.shift).toMatchObject({ businessDay: '2026-11-25', closedAt: '2026-11-25T17:30:00.000Z' });
    expect(s.ofDay('2026-11-25').map((x) => x.id)).toEqual(['T01-S0001']);
    expect(s.ofDay('2026-11-26')).toEqual([]);
  });
});

describe('the cash ledger (the port the sale writes through)', () => {
  it('throws NoOpenShiftError when no shift is open', () => {
    expect(() => service().ledger.openShiftId()).toThrow(NoOpenShiftError);
  });

  it('writes in the caller’s transaction: a rolled-back sale leaves no cash and no outbox row; it never opens the drawer itself', async () => {
    const s = service();
    await s.open({ float: 50_000 }, TILL);
    opened = [];
    const outboxBefore = db.prepare('SELECT COUNT(*) FROM outbox').pluck().get();
    expect(() =>
      db
        .transaction(() => {
          s.ledger.record(movement(s, { handed: 100_000, change: 20_000 }));
          throw new Error('the sale failed after its tender');
        })
        .immediate(),
    ).toThrow(/the sale failed/);
    await nextTurn();
    expect(s.current()!.cash.expected).toBe(50_000);
    expect(db.prepare('SELECT COUNT(*) FROM outbox').pluck().get()).toBe(outboxBefore);
    expect(opened).toEqual([]);

    sellCash(s, 100_000, 20_000);
    await nextTurn();
    expect(s.current()!.cash).toMatchObject({ cashIn: 100_000, change: 20_000, cashSales: 80_000, expected: 130_000 });
    // The drawer opens once the sale has committed, by the counter that wrote it (test/node/one-counter*.test.ts).
    expect(opened).toEqual([]);
  });

  it('refuses a write outside a transaction, and a shift that is not the open one', async () => {
    const s = service();
    await s.open({ float: 0 }, TILL);
    expect(() => s.ledger.record(movement(s, { handed: 1000, change: 0 }))).toThrow(LedgerOutsideTransactionError);
    expect(() =>
      db.transaction(() => s.ledger.record({ ...movement(s, { handed: 1000, change: 0 }), shiftId: 'T01-S0099' }))(),
    ).toThrow(NoOpenShiftError);
  });

  it('refuses a cash refund larger than the drawer should hold (the refund rolls back with it)', async () => {
    const s = service();
    await s.open({ float: 10_000 }, TILL);
    const refund = (amount: number): SaleCashMovement => ({
      type: 'cash_refund',
      amount,
      shiftId: s.ledger.openShiftId(),
      documentId: 'REF-1',
      at: clock.now().toISOString(),
      staffId: null,
    });
    const short = (() => {
      try {
        db.transaction(() => s.ledger.record(refund(10_001)))();
      } catch (err) {
        return err as Error;
      }
    })();
    // Refused, without saying what the drawer should hold (the cashier sees it before the blind count).
    expect(short?.message).toBe('amount: Rp10.001 is more than the drawer should hold');
    db.transaction(() => s.ledger.record(refund(4_000)))();
    expect(s.current()!.cash).toMatchObject({ cashRefunds: 4_000, expected: 6_000 });
  });

  it('gives every event an outbox row (stream shift) with the whole shift as its snapshot', async () => {
    const s = service();
    await s.open({ float: 20_000 }, TILL);
    sellCash(s, 50_000, 5_000);
    const rows = db.prepare("SELECT * FROM outbox WHERE stream = 'shift' ORDER BY seq").all() as {
      stream_id: string;
      type: string;
      payload: string;
      terminal_id: string;
    }[];
    expect(rows.map((r) => [r.terminal_id, r.stream_id, r.type])).toEqual([
      ['T01', 'T01-S0001', 'float'],
      ['T01', 'T01-S0001', 'cash_tender'],
    ]);
    const last = JSON.parse(rows[1]!.payload) as { event: Record<string, unknown>; snapshot: Record<string, unknown> };
    expect(last.event).toMatchObject({ type: 'cash_tender', amount: 50_000, change: 5_000, document_id: 'SALE-1' });
    expect(last.snapshot).toMatchObject({ id: 'T01-S0001', state: 'open', cash: { expected: 65_000 }, events: 2 });
  });

  it('keeps the events append-only', async () => {
    const s = service();
    await s.open({ float: 1000 }, TILL);
    expect(() => db.prepare('UPDATE shift_events SET amount = 0').run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM shift_events').run()).toThrow(/append-only/);
    expect(() => db.prepare("UPDATE shifts SET float = 5 WHERE id = 'T01-S0001'").run()).toThrow(
      /only when it is closed/,
    );
    expect(() => db.prepare('DELETE FROM shifts').run()).toThrow(/never removed/);
  });
});

describe('pay-ins, pay-outs and no sale', () => {
  it('takes a pay-in and a pay-out with a reason; refuses a missing reason and more than the drawer holds', async () => {
    const s = service({ payOutLimit: 1_000_000 });
    await s.open({ float: 100_000 }, TILL);
    const paidIn = await s.movement({ type: 'pay_in', amount: 50_000, reason: 'change from the bank' }, TILL);
    expect(paidIn.event).toMatchObject({ type: 'pay_in', amount: 50_000, reason: 'change from the bank' });
    await s.movement({ type: 'pay_out', amount: 30_000, reason: 'ice for the cooler' }, TILL);
    expect(s.current()!.cash).toMatchObject({ payIns: 50_000, payOuts: 30_000, expected: 120_000 });

    const noReason = await s.movement({ type: 'pay_out', amount: 1000, reason: ' ' }, TILL).catch((e: unknown) => e);
    expect((noReason as ShiftRuleError).issues).toEqual([expect.objectContaining({ field: 'reason', rule: 'reason' })]);
    const tooMuch = await s
      .movement({ type: 'pay_out', amount: 120_001, reason: 'the rent' }, TILL)
      .catch((e: unknown) => e);
    expect((tooMuch as ShiftRuleError).issues).toEqual([expect.objectContaining({ field: 'amount', rule: 'drawer' })]);
    expect(opened).toEqual(['shift_open', 'pay_in', 'pay_out']);
  });

  it("needs a manager's PIN for a pay-out over the limit and for a no sale: checked, audited, never stored", async () => {
    const access = new AccessControl(db, { clock });
    const { staff: manager } = await access.setupFirstManager('Sri', '4821');
    const cashier = await access.addStaff({ name: 'Budi', role: 'cashier', pin: '1111' }, staffActor(manager));
    const audit = new AuditLog(db, clock);
    const s = service({ access, audit, payOutLimit: 50_000 });
    await s.open({ float: 500_000 }, staffActor(cashier));
    const big = { type: 'pay_out' as const, amount: 60_000, reason: 'supplier paid in cash' };
    // Up to the limit, no PIN.
    await s.movement({ type: 'pay_out', amount: 50_000, reason: 'parking fees' }, staffActor(cashier));

    const none = await s.movement(big, staffActor(cashier)).catch((e: unknown) => e);
    expect(none).toMatchObject({ code: 'invalid_arguments', issues: [{ field: 'managerPin', rule: 'pin' }] });
    const wrong = await s
      .movement({ ...big, managerPin: { staffId: manager.id, pin: '0000' } }, staffActor(cashier))
      .catch((e: unknown) => e);
    expect(wrong).toMatchObject({
      code: 'forbidden',
      why: { key: 'shift.manager_pin', params: { refusal: 'wrong_pin' } },
    });
    const notManager = await s
      .movement({ ...big, managerPin: { staffId: cashier.id, pin: '1111' } }, staffActor(cashier))
      .catch((e: unknown) => e);
    expect(notManager).toMatchObject({ why: { params: { refusal: 'not_a_manager' } } });
    expect(s.current()!.cash.payOuts).toBe(50_000);

    const ok = await s.movement({ ...big, managerPin: { staffId: manager.id, pin: '4821' } }, staffActor(cashier));
    expect(ok.event).toMatchObject({ by: { name: 'Budi' }, approvedBy: { staffId: manager.id, name: 'Sri' } });

    await expect(s.noSale({ reason: 'give change for a note' }, staffActor(cashier))).rejects.toMatchObject({
      issues: [{ field: 'managerPin' }],
    });
    const noSale = await s.noSale(
      { reason: 'give change for a note', managerPin: { staffId: manager.id, pin: '4821' } },
      staffActor(cashier),
    );
    expect(noSale.event).toMatchObject({ type: 'no_sale', amount: 0, approvedBy: { name: 'Sri' } });
    expect(noSale.shift.cash.expected).toBe(390_000);

    const actions = audit.list({ limit: 50 }).map((e) => [e.action, e.detail?.approvedBy ?? null]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['pin.failed', null],
        ['shift.paid_out', 'Sri'],
        ['shift.paid_out', null],
        ['shift.no_sale', 'Sri'],
      ]),
    );
    const everything = JSON.stringify([
      db.prepare('SELECT * FROM shift_events').all(),
      db.prepare('SELECT * FROM outbox').all(),
      db.prepare('SELECT * FROM audit_events').all(),
    ]);
    expect(everything).not.toContain('4821');
  });

  it("the limit is the shift's: the pay-out that takes the shift's pay-outs over it needs the PIN, naming the sums", async () => {
    const access = new AccessControl(db, { clock });
    const { staff: manager } = await access.setupFirstManager('Sri', '4821');
    const s = service({ access, payOutLimit: 100_000 });
    await s.open({ float: 1_000_000 }, TILL);
    await s.movement({ type: 'pay_out', amount: 60_000, reason: 'the ice man' }, TILL);
    const second = await s
      .movement({ type: 'pay_out', amount: 60_000, reason: 'the gas man' }, TILL)
      .catch((e: unknown) => e);
    expect(second).toMatchObject({
      code: 'invalid_arguments',
      why: {
        key: 'shift.manager_pin',
        params: { refusal: 'pin_required', paidOut: 60_000, amount: 60_000, limit: 100_000 },
      },
      issues: [{ field: 'managerPin', rule: 'pin' }],
    });
    expect((second as Error).message).toBe(
      "managerPin: this shift's pay-outs would come to Rp120.000 (Rp60.000 so far and this Rp60.000), over the " +
        "manager's limit of Rp100.000 a shift: a manager's PIN is needed (managerPin: the manager's staff id and PIN)",
    );
    expect(s.current()!.cash.payOuts).toBe(60_000);
    // Up to the limit in all, no PIN; with it, the rest.
    await s.movement({ type: 'pay_out', amount: 40_000, reason: 'the gas man' }, TILL);
    const approved = await s.movement(
      { type: 'pay_out', amount: 1, reason: 'a stamp', managerPin: { staffId: manager.id, pin: '4821' } },
      TILL,
    );
    expect(approved.event.approvedBy).toEqual({ staffId: manager.id, name: 'Sri' });
    // Pay-ins do not give the limit back: it counts what went out.
    await s.movement({ type: 'pay_in', amount: 500_000, reason: 'from the safe' }, TILL);
    await expect(s.movement({ type: 'pay_out', amount: 1, reason: 'a stamp' }, TILL)).rejects.toMatchObject({
      why: { params: { refusal: 'pin_required', paidOut: 100_001 } },
    });
  });

  it("asks for the PIN before the drawer: a cashier alone cannot learn the drawer's figure from refused pay-outs", async () => {
    const s = service({ payOutLimit: 100_000 });
    await s.open({ float: 50_000 }, TILL);
    // Over the drawer and over the limit: the PIN is asked for, and the drawer is not mentioned.
    const big = await s.movement({ type: 'pay_out', amount: 150_000, reason: 'the rent' }, TILL).catch((e) => e);
    expect(big).toMatchObject({ why: { params: { refusal: 'pin_required' } } });
    expect((big as Error).message).toMatch(
      /^managerPin: this pay-out of Rp150\.000 is over the manager's limit of Rp100\.000 a shift: a manager's PIN/,
    );
    expect(JSON.stringify(big)).not.toMatch(/Rp50\.000|drawer should hold/);
    // Under the limit and over the drawer: refused with no figure of the drawer.
    const small = await s.movement({ type: 'pay_out', amount: 60_000, reason: 'the rent' }, TILL).catch((e) => e);
    expect((small as ShiftRuleError).message).toBe('amount: Rp60.000 is more than the drawer should hold');
    expect(JSON.stringify(small)).not.toMatch(/Rp50\.000/);
  });

  it('at the command line, the machine account approves a large pay-out (as for every manager action there)', async () => {
    const s = service({ payOutLimit: 10 });
    const cli = cliActor('sri');
    await s.open({ float: 1000 }, cli);
    const out = await s.movement({ type: 'pay_out', amount: 500, reason: 'float to the other till' }, cli);
    expect(out.event.approvedBy).toEqual({ name: 'cli:sri' });
  });
});

describe('the blind count', () => {
  it('closes with the count as a total: only the answer reveals expected and the difference', async () => {
    const s = service();
    await s.open({ float: 100_000 }, TILL);
    sellCash(s, 50_000, 7_500);
    const result = await s.close({ counted: 140_000 }, TILL);
    expect(result).toMatchObject({ expected: 142_500, counted: 140_000, difference: -2_500, status: 'short' });
    expect(result.shift).toMatchObject({ state: 'closed', count: { expected: 142_500, difference: -2_500 } });
    expect(result.report.kind).toBe('Z');
    expect(s.current()).toBeNull();
    expect(opened.at(-1)).toBe('shift_close');
    // No cash without a shift now.
    expect(() => s.ledger.openShiftId()).toThrow(NoOpenShiftError);
    await expect(s.close({ counted: 0 }, TILL)).rejects.toThrow(/no shift is open/);
  });

  it('closes with a count by denomination, kept with the shift', async () => {
    const s = service();
    await s.open({ float: 75_500 }, TILL);
    const result = await s.close({ denominations: { note50000: 1, note20000: 1, note5000: 1, coin500: 1 } }, TILL);
    expect(result).toMatchObject({ counted: 75_500, expected: 75_500, difference: 0, status: 'even' });
    expect(result.shift.count!.byDenomination).toEqual({ note50000: 1, note20000: 1, note5000: 1, coin500: 1 });
  });

  it('refuses a bad count naming the field and the rule, and the shift stays open', async () => {
    const s = service();
    await s.open({ float: 0 }, TILL);
    await expect(s.close({ counted: -5 }, TILL)).rejects.toMatchObject({
      issues: [{ field: 'counted', rule: 'amount' }],
    });
    await expect(s.close({ denominations: { note3000: 1 } }, TILL)).rejects.toMatchObject({
      issues: [{ field: 'denominations.note3000', rule: 'denomination' }],
    });
    await expect(s.close({ denominations: { coin500: 1.5 } }, TILL)).rejects.toMatchObject({
      issues: [{ field: 'denominations.coin500', rule: 'count' }],
    });
    expect(s.current()!.state).toBe('open');
  });
});

describe('after a restart', () => {
  it('reads the same figures from the events, open and closed', async () => {
    const s = service();
    await s.open({ float: 100_000 }, TILL);
    sellCash(s, 100_000, 13_000);
    await s.movement({ type: 'pay_in', amount: 10_000, reason: 'coins from the bank' }, TILL);
    const before = s.report();
    db.close();
    db = openDatabase(join(dir.path, 'loket.db'));
    const again = service();
    expect(again.report()).toEqual(before);
    expect(again.current()!.cash.expected).toBe(197_000);
  });
});

describe('the expected cash (property)', () => {
  it('is float + cash in − change − cash refunds − pay-outs + pay-ins, and the same after a restart', async () => {
    const step = fc.oneof(
      fc
        .tuple(fc.integer({ min: 1, max: 5_000_000 }), fc.integer({ min: 0, max: 5_000_000 }))
        .map(([due, extra]) => ({ kind: 'sale' as const, handed: due + extra, change: extra })),
      fc.integer({ min: 1, max: 2_000_000 }).map((amount) => ({ kind: 'refund' as const, amount })),
      fc.integer({ min: 1, max: 2_000_000 }).map((amount) => ({ kind: 'pay_in' as const, amount })),
      fc.integer({ min: 1, max: 2_000_000 }).map((amount) => ({ kind: 'pay_out' as const, amount })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(step, { maxLength: 25 }),
        async (float, steps) => {
          db.close();
          dir.remove();
          dir = tempDir('loket-shifts-');
          db = openDatabase(join(dir.path, 'loket.db'));
          const s = service({ payOutLimit: Number.MAX_SAFE_INTEGER });
          await s.open({ float }, TILL);
          let model = float;
          let n = 0;
          for (const st of steps) {
            n += 1;
            if (st.kind === 'sale') {
              sellCash(s, st.handed, st.change, `SALE-${n}`);
              model += st.handed - st.change;
            } else if (st.kind === 'refund') {
              // The drawer cannot pay out more than it should hold: such a refund is refused, and nothing changes.
              const ok = st.amount <= model;
              const write = () =>
                db.transaction(() =>
                  s.ledger.record({
                    type: 'cash_refund',
                    amount: st.amount,
                    shiftId: s.ledger.openShiftId(),
                    documentId: `REF-${n}`,
                    at: clock.now().toISOString(),
                    staffId: null,
                  }),
                )();
              if (ok) {
                write();
                model -= st.amount;
              } else expect(write).toThrow(ShiftRuleError);
            } else {
              const ok = st.kind === 'pay_in' || st.amount <= model;
              const done = await s.movement({ type: st.kind, amount: st.amount, reason: 'a reason' }, TILL).then(
                () => true,
                () => false,
              );
              expect(done).toBe(ok);
              if (ok) model += st.kind === 'pay_in' ? st.amount : -st.amount;
            }
          }
          const cash = s.current()!.cash;
          expect(cash.expected).toBe(model);
          expect(cash.expected).toBe(
            cash.float + cash.cashIn - cash.change - cash.cashRefunds - cash.payOuts + cash.payIns,
          );
          const book = new ShiftBook(db);
          expect(shiftCash(cashEvents(book.events(s.current()!.id)))).toEqual(cash);
          db.close();
          db = openDatabase(join(dir.path, 'loket.db'));
          expect(service().current()!.cash).toEqual(cash);
        },
      ),
      propertyParams(40),
    );
  });
});

function movement(s: ShiftService, cash: { handed: number; change: number }): SaleCashMovement {
  return {
    type: 'cash_tender',
    ...cash,
    shiftId: s.ledger.openShiftId(),
    documentId: 'SALE-1',
    at: clock.now().toISOString(),
    staffId: null,
  };
}
