import {
  amountIssue,
  CASH_RANGE,
  cashOutIssue,
  checkMovement,
  countByDenomination,
  countDifference,
  countedTotalIssue,
  DEFAULT_CASH_SETTINGS,
  type CashSettings,
} from '../../common/cash';
import { dayIn } from '../../common/gateway-time';
import { REASON_MAX, REASON_MIN } from '../../common/order-policy';
import type {
  DrawerResult,
  SaleBeingPaid,
  ShiftChangeResult,
  ShiftCloseResult,
  ShiftEventView,
  ShiftFieldIssue,
  ShiftPerson,
  ShiftReport,
  ShiftView,
} from '../../common/shifts';
import type { PinCheckResult } from '../staff/access';
import { badTextReason } from '../../common/strict-json';
import { isWholeRupiah } from '../../common/whole-rupiah';
import type { AuditActor, AuditLog } from '../audit/audit-log';
import type { Clock } from '../ports';
import type { DrawerCause, DrawerPort } from './drawer';
import {
  invalidShiftInput,
  managerPinRefused,
  noOpenShift,
  payOutNeedsManager,
  salesBeingPaid,
  shiftNotFound,
} from './errors';
import type { ShiftBook } from './shift-book';
import { ShiftLedger } from './shift-ledger';
import { buildShiftReport, NO_TENDER_SOURCE, type ShiftTenderSource } from './shift-report';

/** A manager's PIN given at the till: whose, and the PIN (never stored, logged or audited). */
export interface ManagerPin {
  staffId: number;
  pin: string;
}

export interface ShiftServiceOptions {
  book: ShiftBook;
  clock: Clock;
  /** This till's terminal id now (LOKET_TERMINAL_ID, else the settings'). */
  terminalId: () => string;
  /** The store's zone now: a shift's business day is the day it opens in this zone. */
  timeZone: () => string;
  /** The `cash` settings (the pay-out limit). */
  cash?: () => CashSettings;
  drawer: DrawerPort;
  /** Checks a manager's PIN (AccessControl.approveAsManager): the same lockout and audit as every PIN. */
  approver?: { approveAsManager(staffId: number, pin: string): Promise<PinCheckResult> };
  /**
   * The audit log of the order log's database (the book's own connection: loket.db live, training/loket.db in
   * training, with stand-ins for the store's staff there): each change and its entry commit in one transaction.
   */
  audit?: AuditLog;
  /** The sales' other tenders and rounding for a report (shift-report.ts). */
  tenders?: ShiftTenderSource;
  /**
   * The till's sales still being paid (core/sales/sales-being-paid.ts): the close is refused while there is one,
   * naming it. Absent (a ledger only, tests of the shift alone): no sale is asked about.
   */
  salesBeingPaid?: { ofTerminal(terminalId: string): SaleBeingPaid[] };
  /** A staff member's name, for a sale's cash recorded through the ledger. */
  staffName?: (staffId: number) => string | undefined;
  /** A drawer that did not open after a sale's cash (the sale itself is done): for the log and the screens. */
  drawerProblem?: (result: DrawerResult, cause: DrawerCause) => void;
}

/**
 * The `cash` section of the settings (the pay-out limit) where the settings have one — it comes with the sale's cash
 * rounding — else its defaults (common/cash.ts).
 */
export function cashSettingsOf(settings: object): CashSettings {
  return (settings as { cash?: CashSettings }).cash ?? DEFAULT_CASH_SETTINGS;
}

export type CloseInput = { counted: unknown } | { denominations: Readonly<Record<string, unknown>> };

/**
 * Shifts at this till (docs/tenders.md, "Shifts"): one open shift per terminal, opened with a float; pay-ins and
 * pay-outs with a reason (a pay-out that takes the shift's pay-outs over the manager's limit needs a manager's PIN);
 * a manager's "no sale"; the close by a blind count — the count is taken first and only the answer reveals what was
 * expected; the X and Z reports.
 * Every change is an event of the shift (shift-book.ts), audited in the same transaction in the order log's audit
 * log, and opens the drawer (drawer.ts) after it is written; a drawer that does not open is said in the answer,
 * never an error.
 *
 * `actor` is who acts: a member of staff at the app (`staffActor`), the command line (`cliActor`), whose manager's
 * approval is the machine's account as for every manager action at the CLI (docs/cli.md), or the till with nobody
 * signed in.
 */
export class ShiftService {
  readonly ledger: ShiftLedger;

  constructor(private readonly o: ShiftServiceOptions) {
    if (o.audit && o.audit.db !== o.book.db)
      throw new Error(
        "ShiftService: the audit log must be on the shift book's database (the order log's), so that each change " +
          'and its audit entry commit in one transaction',
      );
    // The drawer opens for a sale's or a refund's cash when their transaction has committed, by whoever wrote them
    // (the counter, the refund service), who awaits it and says how it went: the ledger only writes.
    this.ledger = new ShiftLedger(o.book, {
      terminalId: o.terminalId,
      ...(o.staffName ? { staffName: o.staffName } : {}),
    });
  }

  /** The open shift of this till, or null. */
  current(): ShiftView | null {
    return this.o.book.current(this.o.terminalId()) ?? null;
  }

  async open(input: { float: unknown }, actor: AuditActor): Promise<ShiftChangeResult> {
    const float = input?.float;
    // The cash in the drawer at the start.
    if (!isWholeRupiah(float, CASH_RANGE)) throw invalidShiftInput([amountIssue('float', CASH_RANGE, float)]);
    const terminalId = this.o.terminalId();
    const now = this.o.clock.now();
    const timeZone = this.o.timeZone();
    const by = personOf(actor);
    const { shift, event } = this.write(() => {
      const opened = this.o.book.open({
        id: `${terminalId}-S${String(this.o.book.countOf(terminalId) + 1).padStart(4, '0')}`,
        terminalId,
        businessDay: dayIn(now, timeZone),
        timeZone,
        at: now.toISOString(),
        by,
        float,
      });
      const e = this.o.book.events(opened.id)[0]!;
      this.audit(actor, 'shift.opened', e, { shiftId: opened.id, float, businessDay: opened.businessDay });
      return { shift: opened, event: e };
    });
    return { shift, event, drawer: await this.o.drawer.open('shift_open') };
  }

  /** A pay-in or pay-out with its reason; a pay-out over the limit needs `managerPin` (at the app). */
  async movement(
    input: { type: 'pay_in' | 'pay_out'; amount: unknown; reason: unknown; managerPin?: ManagerPin },
    actor: AuditActor,
  ): Promise<ShiftChangeResult> {
    const limit = (this.o.cash?.() ?? DEFAULT_CASH_SETTINGS).payOutLimit;
    const check = (shift: ShiftView) => {
      const checked = checkMovement(input.type, input.amount, input.reason, {
        payOutLimit: limit,
        paidOut: shift.cash.payOuts,
      });
      if (!checked.ok) throw invalidShiftInput(checked.issues);
      return checked;
    };
    const first = check(this.requireOpen());
    // The PIN before the drawer: a pay-out that needs none is under the limit, so a cashier alone cannot try amounts
    // to learn what the drawer should hold (its refusal names no figure either).
    const approvedBy = first.needsManagerPin
      ? await this.approval(input.managerPin, actor, { paidOut: first.paidOut, amount: first.amount, limit })
      : undefined;
    // Checked again under the write lock: a refund or another pay-out may have moved cash meanwhile.
    const { shift, event } = this.write(() => {
      const open = this.requireOpen();
      const checked = check(open);
      if (checked.needsManagerPin && !approvedBy)
        throw payOutNeedsManager({ paidOut: checked.paidOut, amount: checked.amount, limit });
      const short = input.type === 'pay_out' ? cashOutIssue(checked.amount, open.cash.expected) : undefined;
      if (short) throw invalidShiftInput([short]);
      const e = this.o.book.append(open.id, {
        type: input.type,
        at: this.o.clock.now().toISOString(),
        amount: checked.amount,
        reason: checked.reason,
        by: personOf(actor),
        ...(approvedBy ? { approvedBy } : {}),
      });
      this.audit(actor, input.type === 'pay_in' ? 'shift.paid_in' : 'shift.paid_out', e, {
        shiftId: open.id,
        amount: e.amount,
        reason: e.reason,
        ...(approvedBy ? { approvedBy: approvedBy.name, approvedByStaffId: approvedBy.staffId ?? null } : {}),
        ...(input.type === 'pay_out' ? { limit, paidOutBefore: checked.paidOut } : {}),
      });
      return { shift: this.o.book.get(open.id)!, event: e };
    });
    return { shift, event, drawer: await this.o.drawer.open(input.type) };
  }

  /** A manager opens the drawer without a sale: a reason and the manager's PIN (at the app), audited. */
  async noSale(input: { reason: unknown; managerPin?: ManagerPin }, actor: AuditActor): Promise<ShiftChangeResult> {
    const text = typeof input.reason === 'string' ? input.reason.trim() : '';
    const n = [...text].length;
    if (n < REASON_MIN || n > REASON_MAX || badTextReason(text) !== undefined)
      throw invalidShiftInput([
        {
          field: 'reason',
          rule: 'reason',
          message: `reason: say why, in ${REASON_MIN} to ${REASON_MAX} characters, without control characters`,
        },
      ]);
    this.requireOpen();
    const approvedBy = await this.approval(input.managerPin, actor);
    const { shift, event } = this.write(() => {
      // Asked again under the write lock: the shift may have closed while the PIN was checked.
      const open = this.requireOpen();
      const e = this.o.book.append(open.id, {
        type: 'no_sale',
        at: this.o.clock.now().toISOString(),
        reason: text,
        by: personOf(actor),
        approvedBy,
      });
      this.audit(actor, 'shift.no_sale', e, {
        shiftId: open.id,
        reason: text,
        approvedBy: approvedBy.name,
        approvedByStaffId: approvedBy.staffId ?? null,
      });
      return { shift: this.o.book.get(open.id)!, event: e };
    });
    return { shift, event, drawer: await this.o.drawer.open('no_sale') };
  }

  /**
   * The blind count: `counted` as one total, or `denominations` ({ note50000: 3, coin500: 4 }). The answer is the
   * first place the expected cash appears; the shift closes with the count, expected and difference, audited.
   */
  async close(input: CloseInput, actor: AuditActor): Promise<ShiftCloseResult> {
    let counted: number;
    let byDenomination: Record<string, number> | undefined;
    if (input !== null && typeof input === 'object' && 'denominations' in input) {
      const c = countByDenomination(input.denominations ?? {});
      if (!c.ok)
        throw invalidShiftInput(
          c.issues.map((i) => ({
            ...i,
            field: i.field.replace(/^counts\./, 'denominations.'),
            message: i.message.replace(/^counts\./, 'denominations.'),
          })),
        );
      counted = c.total;
      byDenomination = Object.fromEntries(c.lines.filter((l) => l.count > 0).map((l) => [l.id, l.count]));
    } else {
      const value = (input as { counted?: unknown } | null)?.counted;
      const issue = countedTotalIssue(value);
      if (issue) throw invalidShiftInput([issue]);
      counted = value as number;
    }
    const by = personOf(actor);
    const shift = this.write(() => {
      const open = this.requireOpen();
      // Asked under the write lock: no sale of this till starts being paid between the question and the close.
      const paying = this.o.salesBeingPaid?.ofTerminal(open.terminalId) ?? [];
      if (paying.length > 0) throw salesBeingPaid(paying);
      const closed = this.o.book.close(open.id, {
        at: this.o.clock.now().toISOString(),
        by,
        counted,
        ...(byDenomination ? { byDenomination } : {}),
        expected: open.cash.expected,
      });
      const d = countDifference(closed.count!.expected, counted);
      this.audit(actor, 'shift.closed', this.o.book.events(closed.id).at(-1)!, {
        shiftId: closed.id,
        expected: d.expected,
        counted: d.counted,
        difference: d.difference,
        ...(byDenomination ? { byDenomination } : {}),
      });
      return closed;
    });
    const count = countDifference(shift.count!.expected, counted);
    return { ...count, shift, report: this.reportOf(shift), drawer: await this.o.drawer.open('shift_close') };
  }

  /** The report of `shiftId`; without it, the open shift's (X), else this till's last shift's (Z). */
  report(shiftId?: string): ShiftReport {
    const shift =
      shiftId === undefined ? (this.current() ?? this.o.book.latest(this.o.terminalId())) : this.o.book.get(shiftId);
    if (!shift) throw shiftId === undefined ? noOpenShift() : shiftNotFound(shiftId);
    return this.reportOf(shift);
  }

  /** The shifts that opened on store day `day`, each with its figures and (once closed) its variance. */
  ofDay(day: string): ShiftView[] {
    return this.o.book.ofDay(day);
  }

  private reportOf(shift: ShiftView): ShiftReport {
    return buildShiftReport(shift, this.o.book.events(shift.id), (this.o.tenders ?? NO_TENDER_SOURCE).ofShift(shift));
  }

  private requireOpen(): ShiftView {
    const open = this.current();
    if (!open) throw noOpenShift();
    return open;
  }

  /**
   * Who allowed it: the manager whose PIN was given, or at the command line its account (docs/cli.md). `payOuts`: a
   * pay-out over the shift's limit, which the refusal of a missing PIN names.
   */
  private async approval(
    pin: ManagerPin | undefined,
    actor: AuditActor,
    payOuts?: { paidOut: number; amount: number; limit: number },
  ): Promise<ShiftPerson> {
    if (pin === undefined) {
      if (actor.source === 'cli') return { name: actor.name };
      throw payOuts ? payOutNeedsManager(payOuts) : managerPinRefused({ ok: false, reason: 'pin_required' });
    }
    if (!this.o.approver) throw managerPinRefused({ ok: false, reason: 'no_such_staff' });
    const checked = await this.o.approver.approveAsManager(pin.staffId, pin.pin);
    if (!checked.ok) throw managerPinRefused(checked);
    return { staffId: checked.staff.id, name: checked.staff.name };
  }

  /**
   * The audit entry of a shift's change, written in the change's own transaction (the caller's `write`), so that a
   * crash leaves both or neither; it names the event it records (`eventSeq`).
   */
  private audit(
    actor: AuditActor,
    action: Parameters<AuditLog['record']>[0]['action'],
    event: ShiftEventView,
    detail: Record<string, unknown>,
  ) {
    this.o.audit?.record({ actor, action, detail: { ...detail, eventSeq: event.seq } });
  }

  private write<T>(fn: () => T): T {
    const db = this.o.book.db;
    const tx = db.transaction(fn);
    return db.inTransaction ? tx() : tx.immediate();
  }
}

function personOf(actor: AuditActor): ShiftPerson {
  return { ...(actor.staffId === undefined ? {} : { staffId: actor.staffId }), name: actor.name };
}

export type { ShiftEventView, ShiftFieldIssue };
