import type { LoketApi, PrintResult } from '../../../src-main/common/api';
import type { DrawerResult, ShiftCloseResult, ShiftReport, TillShift } from '../../../src-main/common/shifts';
import { CallError, toCallError } from '../api/errors';
import type { CallOutcome } from './manager-context';
import { readAmount } from '../lib/amount-input';
import { DENOMINATIONS, MAX_COUNT, type DenominationId } from '../lib/denominations';
import { reasonProblem } from '../lib/reason';
import { PinEntry, type PinProblem } from './pin-entry.svelte';

export type ShiftApi = Pick<
  LoketApi,
  | 'currentShift'
  | 'openShift'
  | 'shiftMovement'
  | 'noSale'
  | 'closeShift'
  | 'shiftReport'
  | 'shiftReportHtml'
  | 'printShiftReport'
>;

export interface ShiftDeps {
  api: ShiftApi;
  /** The browser's print of the A4 page (tests count the prints). */
  printDocument: (html: string) => Promise<void>;
  /**
   * The manager's session at this till. The X report shows the cash the drawer should hold, so the server answers it
   * only with a manager's session (its token) and the screen asks for it only while a manager has the manager's
   * screens unlocked: the close's count stays blind (docs/tenders.md, "Shifts"). The Z report needs none.
   */
  manager?: {
    unlocked(): boolean;
    /** A call with the session's token (which this state never sees or keeps). */
    call<T>(fn: (token: string) => Promise<T>): Promise<CallOutcome<T>>;
  };
  /** The time now (ms), for the end of a PIN lockout; tests pass their own. */
  now?: () => number;
}

/** Which of the shift's dialogs is up. */
export type ShiftDialog = 'open' | 'menu' | 'pay_in' | 'pay_out' | 'no_sale' | 'close' | 'report';

/** The close: the blind count, then its confirmation, then what was expected and the difference (the Z report). */
export type CloseStep = 'count' | 'confirm' | 'result';

/** The words a field's problem is said with (i18n shift.fields). */
export type ShiftFieldWord = 'float' | 'amount' | 'drawer' | 'reason' | 'counted' | 'count' | 'nothing';

/** A field of the shift's dialogs: float, amount, reason, counted, or one note or coin of the count. */
export type ShiftField = 'float' | 'amount' | 'reason' | 'counted' | 'count' | DenominationId;

/** The blind count as the cashier typed it: one total, or how many of each note and coin. */
export type CountInput =
  { mode: 'total'; text: string } | { mode: 'denominations'; counts: Partial<Record<DenominationId, string>> };

/** What a change of the shift did, for the dialog's last step: what was done, and whether the drawer opened. */
export interface ShiftDone {
  what: 'opened' | 'pay_in' | 'pay_out' | 'no_sale';
  amount: number;
  drawer: DrawerResult;
}

/** A pay-out that takes the shift's pay-outs over the manager's limit (the limit is per shift, not per pay-out). */
export interface PayOutsOverLimit {
  paidOut: number;
  amount: number;
  limit: number;
}

export type ReportNotice =
  | { kind: 'printed'; ok: boolean; result: PrintResult }
  | { kind: 'page' }
  | { kind: 'page_failed' }
  | { kind: 'error'; error: CallError };

type Busy = 'load' | 'open' | 'movement' | 'no_sale' | 'close' | 'report' | 'print' | 'page';

/**
 * This till's shift on the cashier's screen (docs/tenders.md, "Shifts"; components/shift/): whether one is open and
 * by whom (never its cash: the server's TillShift has none), opening it with a float, pay-ins and pay-outs (a pay-out
 * over the manager's limit asks for a manager's PIN when the server says so), a manager's no sale, the close by a
 * blind count — taken and confirmed before the answer says what was expected — and the X and Z reports.
 */
export class ShiftState {
  #shift = $state.raw<TillShift | null>(null);
  #loaded = $state(false);
  #dialog = $state<ShiftDialog | null>(null);
  #busy = $state<Busy | null>(null);
  #error = $state.raw<CallError | null>(null);
  #issues = $state.raw<Partial<Record<ShiftField, ShiftFieldWord>>>({});
  #done = $state.raw<ShiftDone | null>(null);
  /** The server asked for a manager's PIN (a pay-out over the limit): the dialog shows the PIN step. */
  #pinAsked = $state(false);
  /** A pay-out over the shift's limit: the shift's pay-outs so far, this amount and the limit, as the server said. */
  #overLimit = $state.raw<PayOutsOverLimit | null>(null);
  #managerId = $state<number | null>(null);
  #pinProblem = $state.raw<PinProblem | null>(null);
  #closeStep = $state<CloseStep>('count');
  #count = $state.raw<{ counted: number } | { counted: number; denominations: Record<string, number> } | null>(null);
  #closed = $state.raw<ShiftCloseResult | null>(null);
  #report = $state.raw<ShiftReport | null>(null);
  #reportNotice = $state.raw<ReportNotice | null>(null);
  /** The open-shift dialog was asked for by a cash sale refused for want of a shift: it says so. */
  #forSale = $state(false);
  readonly pin = new PinEntry();

  readonly #deps: ShiftDeps;
  readonly #now: () => number;
  /** Who waits for a shift to open (requestOpen): told true once it is, false when the dialog is left without. */
  #waiting: ((opened: boolean) => void)[] = [];

  constructor(deps: ShiftDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  /** The open shift of this till (without its cash figures), or null. */
  get current(): TillShift | null {
    return this.#shift;
  }

  /** The till's shift has been asked for at least once. */
  get loaded(): boolean {
    return this.#loaded;
  }

  get dialog(): ShiftDialog | null {
    return this.#dialog;
  }

  get busy(): Busy | null {
    return this.#busy;
  }

  /** A call that failed, or a rule the server gave that is not one field's. */
  get error(): CallError | null {
    return this.#error;
  }

  issueOf(field: ShiftField): ShiftFieldWord | undefined {
    return this.#issues[field];
  }

  get hasIssues(): boolean {
    return Object.keys(this.#issues).length > 0;
  }

  get done(): ShiftDone | null {
    return this.#done;
  }

  get pinAsked(): boolean {
    return this.#pinAsked;
  }

  /** Why the PIN is asked for a pay-out: the shift's pay-outs so far, this one and the limit (when the server said). */
  get overLimit(): PayOutsOverLimit | null {
    return this.#overLimit;
  }

  get managerId(): number | null {
    return this.#managerId;
  }

  get pinProblem(): PinProblem | null {
    return this.#pinProblem;
  }

  get closeStep(): CloseStep {
    return this.#closeStep;
  }

  /** The count about to be sent (the confirm step): its total. */
  get countedTotal(): number | null {
    return this.#count?.counted ?? null;
  }

  /** The close's answer: expected, counted, the difference and the Z report. */
  get closed(): ShiftCloseResult | null {
    return this.#closed;
  }

  /** The report on show: the X report, or the Z report after the close. */
  get report(): ShiftReport | null {
    return this.#report;
  }

  get reportNotice(): ReportNotice | null {
    return this.#reportNotice;
  }

  /** The open-shift dialog is up because a cash sale needs a shift (requestOpen). */
  get forSale(): boolean {
    return this.#forSale;
  }

  /** The X report may be shown: a manager has unlocked the manager's screens. */
  get xAllowed(): boolean {
    return this.#deps.manager?.unlocked() ?? false;
  }

  /** Asks the server for the till's open shift; this instance is the one `shift.requestOpen()` reaches. */
  async load(): Promise<void> {
    if (!mounted.includes(this)) mounted.push(this);
    await this.refresh();
  }

  async refresh(): Promise<void> {
    try {
      this.#shift = await this.#deps.api.currentShift();
    } catch {
      // The header says nothing new; the next refresh (opening the menu, a reconnect) asks again.
    } finally {
      this.#loaded = true;
    }
  }

  dispose(): void {
    const at = mounted.indexOf(this);
    if (at >= 0) mounted.splice(at, 1);
    this.#settleWaiting(false);
  }

  /**
   * The open-shift dialog, for another screen (a cash tender refused with `no_open_shift`): true once a shift is open
   * (at once when one already is), false when the cashier leaves the dialog without opening one.
   */
  requestOpen(): Promise<boolean> {
    if (this.#shift) return Promise.resolve(true);
    const told = new Promise<boolean>((resolve) => this.#waiting.push(resolve));
    if (this.#dialog !== 'open') this.show('open');
    this.#forSale = true;
    return told;
  }

  /** The header's button: the open-shift dialog with no shift, else the shift's menu (asking the server again). */
  openFromHeader(): void {
    this.show(this.#shift ? 'menu' : 'open');
    void this.refresh().then(() => {
      // Closed or opened elsewhere meanwhile (the command line): the right dialog for what is now so.
      if (this.#dialog === 'menu' && !this.#shift) this.show('open');
      else if (this.#dialog === 'open' && this.#shift && !this.#done) this.show('menu');
    });
  }

  /** A dialog of the shift, fresh. */
  show(dialog: ShiftDialog): void {
    this.#reset();
    this.#dialog = dialog;
    // A no sale always needs a manager's PIN; a pay-out only when the server says so.
    if (dialog === 'no_sale') this.#pinAsked = true;
    if (dialog === 'report') void this.#loadReport();
  }

  /** Leaves the dialog on show (Escape, Cancel, Done). A close's result stays until then. */
  dismiss(): void {
    if (this.#busy === 'open' || this.#busy === 'movement' || this.#busy === 'no_sale' || this.#busy === 'close')
      return;
    this.#dialog = null;
    this.#reset();
    this.#settleWaiting(this.#shift !== null);
  }

  pickManager(staffId: number): void {
    if (this.#managerId === staffId) return;
    this.#managerId = staffId;
    this.pin.clear();
    const until = lockedUntil(this.#pinProblem);
    if (until === undefined || until <= this.#now()) this.#pinProblem = null;
  }

  /** Opens the shift with the float typed (whole rupiah, 0 or more). */
  async openShift(floatText: string): Promise<boolean> {
    if (this.#busy) return false;
    const float = amountOf(floatText, 0);
    this.#issues = float === undefined ? { float: 'float' } : {};
    this.#error = null;
    if (float === undefined) return false;
    this.#busy = 'open';
    try {
      const change = await this.#deps.api.openShift({ float });
      this.#shift = change.shift;
      this.#done = { what: 'opened', amount: float, drawer: change.drawer };
      return true;
    } catch (err) {
      // Opened elsewhere meanwhile: the header follows.
      if (this.#refused(err, 'float').reason?.key === 'shift.already_open') await this.refresh();
      return false;
    } finally {
      this.#busy = null;
    }
  }

  /**
   * A pay-in or pay-out (the dialog on show) with its amount and reason. A pay-out over the manager's limit is
   * refused by the server with `pin_required`: the dialog then asks for a manager and their PIN, and the next call
   * carries them (checked there, never kept here).
   */
  async move(amountText: string, reasonText: string): Promise<boolean> {
    const type = this.#dialog;
    if (this.#busy || (type !== 'pay_in' && type !== 'pay_out')) return false;
    const amount = amountOf(amountText, 1);
    const issues: Partial<Record<ShiftField, ShiftFieldWord>> = {};
    if (amount === undefined) issues.amount = 'amount';
    if (reasonProblem(reasonText)) issues.reason = 'reason';
    this.#issues = issues;
    this.#error = null;
    if (amount === undefined || issues.reason) return false;
    const managerPin = this.#approval();
    if (managerPin === 'incomplete') return false;
    this.#busy = 'movement';
    try {
      const change = await this.#deps.api.shiftMovement({
        type,
        amount,
        reason: reasonText.trim(),
        ...(managerPin ? { managerPin } : {}),
      });
      this.#shift = change.shift;
      this.#done = { what: type, amount, drawer: change.drawer };
      this.pin.clear();
      return true;
    } catch (err) {
      this.#refused(err, 'amount');
      return false;
    } finally {
      this.#busy = null;
    }
  }

  /** A manager's no sale: a reason and the manager's PIN, always. */
  async noSale(reasonText: string): Promise<boolean> {
    if (this.#busy || this.#dialog !== 'no_sale') return false;
    this.#issues = reasonProblem(reasonText) ? { reason: 'reason' } : {};
    this.#error = null;
    this.#pinAsked = true;
    const managerPin = this.#approval();
    if (this.hasIssues || managerPin === 'incomplete' || managerPin === undefined) return false;
    this.#busy = 'no_sale';
    try {
      const change = await this.#deps.api.noSale({ reason: reasonText.trim(), managerPin });
      this.#shift = change.shift;
      this.#done = { what: 'no_sale', amount: 0, drawer: change.drawer };
      this.pin.clear();
      return true;
    } catch (err) {
      this.#refused(err, 'reason');
      return false;
    } finally {
      this.#busy = null;
    }
  }

  /**
   * The blind count as typed, checked here (whole numbers, something entered); nothing is sent yet: the confirm step
   * shows the total counted — never what was expected — and `close()` sends it.
   */
  reviewCount(input: CountInput): boolean {
    if (this.#busy || this.#dialog !== 'close' || this.#closeStep !== 'count') return false;
    this.#error = null;
    if (input.mode === 'total') {
      const counted = amountOf(input.text, 0);
      this.#issues = counted === undefined ? { counted: 'counted' } : {};
      if (counted === undefined) return false;
      this.#count = { counted };
    } else {
      const issues: Partial<Record<ShiftField, ShiftFieldWord>> = {};
      const denominations: Record<string, number> = {};
      let counted = 0;
      let typed = false;
      for (const d of DENOMINATIONS) {
        const text = (input.counts[d.id] ?? '').trim();
        if (text === '') continue;
        typed = true;
        const n = /^\d{1,6}$/.test(text) ? Number(text) : NaN;
        if (!Number.isInteger(n) || n > MAX_COUNT) {
          issues[d.id] = 'count';
          continue;
        }
        if (n > 0) denominations[d.id] = n;
        counted += n * d.value;
      }
      if (!typed) issues.count = 'nothing';
      this.#issues = issues;
      if (Object.keys(issues).length > 0) return false;
      this.#count = { counted, denominations };
    }
    this.#closeStep = 'confirm';
    return true;
  }

  /** Back from the confirm step to the count, as it was typed. */
  backToCount(): void {
    if (this.#busy || this.#closeStep !== 'confirm') return;
    this.#closeStep = 'count';
    this.#error = null;
  }

  /** Closes the shift with the count confirmed; the answer is the first to say what was expected. */
  async close(): Promise<boolean> {
    const count = this.#count;
    if (this.#busy || this.#closeStep !== 'confirm' || !count) return false;
    this.#busy = 'close';
    this.#error = null;
    try {
      const result = await this.#deps.api.closeShift(
        'denominations' in count ? { denominations: count.denominations } : { counted: count.counted },
      );
      this.#closed = result;
      this.#report = result.report;
      this.#shift = null;
      this.#closeStep = 'result';
      return true;
    } catch (err) {
      // Closed elsewhere meanwhile: the header follows.
      if (this.#refused(err, 'counted').reason?.key === 'shift.none_open') await this.refresh();
      return false;
    } finally {
      this.#busy = null;
    }
  }

  /** The report on show on the receipt printer; with none set up, the A4 page from the screen instead. */
  async printReport(): Promise<void> {
    const shiftId = this.#report?.shift.id;
    if (this.#busy || !shiftId) return;
    this.#busy = 'print';
    this.#reportNotice = null;
    let result: PrintResult;
    try {
      result = await this.#asReader((token) => this.#deps.api.printShiftReport(token, { shiftId }));
    } catch (err) {
      this.#reportNotice = { kind: 'error', error: toCallError(err) };
      return;
    } finally {
      this.#busy = null;
    }
    if (!result.ok && result.reason?.key === 'print.no_printer') await this.printPage();
    else this.#reportNotice = { kind: 'printed', ok: result.ok, result };
  }

  /** The report's A4 page, printed from this screen (or saved as a PDF from the print dialog). */
  async printPage(): Promise<void> {
    const shiftId = this.#report?.shift.id;
    if (this.#busy || !shiftId) return;
    this.#busy = 'page';
    this.#reportNotice = null;
    try {
      const { html } = await this.#asReader((token) => this.#deps.api.shiftReportHtml(token, { shiftId }));
      try {
        await this.#deps.printDocument(html);
        this.#reportNotice = { kind: 'page' };
      } catch {
        this.#reportNotice = { kind: 'page_failed' };
      }
    } catch (err) {
      this.#reportNotice = { kind: 'error', error: toCallError(err) };
    } finally {
      this.#busy = null;
    }
  }

  /** The X report of the open shift, when a manager has unlocked the manager's screens (with their session). */
  async #loadReport(): Promise<void> {
    if (!this.xAllowed) return;
    this.#busy = 'report';
    try {
      this.#report = await this.#asManager((token) => this.#deps.api.shiftReport(token, {}));
    } catch (err) {
      this.#error = toCallError(err);
    } finally {
      this.#busy = null;
    }
  }

  /** A call about the report on show: a Z report's by anyone at the till (no token), an X report's as the manager. */
  #asReader<T>(fn: (token: string | null) => Promise<T>): Promise<T> {
    return this.#report?.kind === 'Z' ? fn(null) : this.#asManager(fn);
  }

  async #asManager<T>(fn: (token: string) => Promise<T>): Promise<T> {
    const manager = this.#deps.manager;
    if (!manager) throw new CallError('locked', 'manager mode is locked');
    const outcome = await manager.call(fn);
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /** The manager's PIN for the call: none asked yet, the manager and PIN typed, or not complete (said so). */
  #approval(): { staffId: number; pin: string } | undefined | 'incomplete' {
    if (!this.#pinAsked) return undefined;
    const until = lockedUntil(this.#pinProblem);
    if (until !== undefined && until > this.#now()) return 'incomplete';
    if (this.#managerId === null || !this.pin.complete) {
      this.#pinProblem = { kind: 'format' };
      return 'incomplete';
    }
    this.#pinProblem = null;
    return { staffId: this.#managerId, pin: this.pin.value };
  }

  /**
   * A refusal in the screen's terms: a field's rule under its field, a manager's PIN needed or refused on the PIN
   * step, anything else as the dialog's error. `fallback` is the field a rule without a known field belongs to.
   */
  #refused(err: unknown, fallback: ShiftField): CallError {
    const error = toCallError(err);
    const reason = error.reason;
    if (reason?.key === 'shift.manager_pin') {
      const { refusal, retryAfterMs, paidOut, amount, limit } = reason.params;
      this.pin.clear();
      if (refusal === 'pin_required') {
        this.#pinAsked = true;
        this.#pinProblem = null;
        this.#overLimit =
          paidOut !== undefined && amount !== undefined && limit !== undefined ? { paidOut, amount, limit } : null;
        return error;
      }
      const now = this.#now();
      this.#pinProblem =
        refusal === 'locked_out'
          ? { kind: 'locked_out', until: now + (retryAfterMs ?? 0) }
          : refusal === 'wrong_pin'
            ? retryAfterMs
              ? { kind: 'wrong_pin', until: now + retryAfterMs }
              : { kind: 'wrong_pin' }
            : refusal === 'not_a_manager'
              ? { kind: 'not_a_manager' }
              : { kind: 'no_such_staff' };
      return error;
    }
    if (reason?.key === 'shift.field_rule') {
      const { field, rule } = reason.params;
      const word = fieldWord(field, rule);
      const at = fieldOf(field) ?? fallback;
      this.#issues = { [at]: word };
      return error;
    }
    this.#error = error;
    return error;
  }

  #reset(): void {
    this.#error = null;
    this.#issues = {};
    this.#done = null;
    this.#pinAsked = false;
    this.#overLimit = null;
    this.#managerId = null;
    // A lockout is the till's: it stays shown until it is over.
    const until = lockedUntil(this.#pinProblem);
    if (until === undefined || until <= this.#now()) this.#pinProblem = null;
    this.pin.clear();
    this.#closeStep = 'count';
    this.#count = null;
    this.#closed = null;
    this.#report = null;
    this.#reportNotice = null;
    this.#forSale = false;
  }

  #settleWaiting(opened: boolean): void {
    for (const tell of this.#waiting.splice(0)) tell(opened);
  }
}

/** A whole number of rupiah typed as the cashier's amount field takes it, at least `min`; else undefined. */
function amountOf(text: string, min: number): number | undefined {
  const reading = readAmount(text);
  return reading.kind === 'amount' && reading.value >= min ? reading.value : undefined;
}

function lockedUntil(problem: PinProblem | null): number | undefined {
  return problem && (problem.kind === 'wrong_pin' || problem.kind === 'locked_out') ? problem.until : undefined;
}

function fieldOf(field: string): ShiftField | undefined {
  if (field === 'float' || field === 'amount' || field === 'reason' || field === 'counted') return field;
  const id = field.replace(/^(denominations|counts)\./, '');
  return DENOMINATIONS.some((d) => d.id === id) ? (id as DenominationId) : undefined;
}

function fieldWord(field: string, rule: string): ShiftFieldWord {
  if (rule === 'drawer') return 'drawer';
  if (rule === 'reason') return 'reason';
  if (rule === 'count' || rule === 'denomination') return 'count';
  if (field === 'float') return 'float';
  if (field === 'counted') return 'counted';
  return 'amount';
}

/** The shift states loaded and not disposed, the newest last: the cashier view's is the one `shift` reaches. */
const mounted: ShiftState[] = [];
const active = (): ShiftState | undefined => mounted.at(-1);

/**
 * The shift as other screens reach it, without a reference to the cashier view's state: the tender screen, when a
 * cash tender is refused with `no_open_shift`, calls `shift.requestOpen()` — the open-shift dialog comes up, and the
 * promise says whether a shift is open when it is left (then the sale may be tendered again).
 */
export const shift = {
  requestOpen(): Promise<boolean> {
    return active()?.requestOpen() ?? Promise.resolve(false);
  },
  /** A shift is open at this till, as last heard. */
  get isOpen(): boolean {
    const current = active()?.current;
    return current !== undefined && current !== null;
  },
};
