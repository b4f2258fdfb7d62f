import type { LoketApi } from '../../../src-main/common/api';
import type { ManagerView } from '../../../src-main/common/manager';
import type { StaffRole, StaffSummary } from '../../../src-main/common/staff';
import type { CallError } from '../api/errors';
import type { ManagerContext } from './manager-context';
import { isPin, lockedUntil, pinProblem, type PinProblem } from './pin-entry.svelte';

/** A staff member's name (common/staff.ts): 1 to 40 characters. */
export const STAFF_NAME_MAX = 40;

/** What is wrong with a field before anything is sent. */
export type StaffFieldProblem = 'name' | 'pin' | 'pin_mismatch';

function nameProblem(name: string): StaffFieldProblem | undefined {
  const n = Array.from(name.trim()).length;
  return n >= 1 && n <= STAFF_NAME_MAX ? undefined : 'name';
}

/** A new PIN, typed twice. */
function newPinProblems(pin: string, again: string): { pin?: StaffFieldProblem; again?: StaffFieldProblem } {
  if (!isPin(pin)) return { pin: 'pin' };
  if (again !== pin) return { again: 'pin_mismatch' };
  return {};
}

type Fields<K extends string> = Record<K, string>;

/** A small form: its fields' text, the problem found with each, and an error from the server. */
class SmallForm<K extends string> {
  #values = $state<Fields<K>>({} as Fields<K>);
  #problems = $state.raw<Partial<Record<K, StaffFieldProblem>>>({});
  #error = $state.raw<CallError | null>(null);
  #busy = $state(false);
  readonly #empty: Fields<K>;

  constructor(empty: Fields<K>) {
    this.#empty = empty;
    this.#values = { ...empty };
  }

  value(field: K): string {
    return this.#values[field];
  }

  set(field: K, text: string): void {
    this.#values[field] = text;
    if (this.#problems[field]) this.#problems = { ...this.#problems, [field]: undefined };
    this.#error = null;
  }

  problem(field: K): StaffFieldProblem | undefined {
    return this.#problems[field];
  }

  get error(): CallError | null {
    return this.#error;
  }

  get busy(): boolean {
    return this.#busy;
  }

  reset(): void {
    this.#values = { ...this.#empty };
    this.#problems = {};
    this.#error = null;
  }

  /** Shows the problems found; true when there were none. */
  check(problems: Partial<Record<K, StaffFieldProblem>>): boolean {
    this.#problems = problems;
    return Object.values(problems).every((p) => p === undefined);
  }

  /** The first field with a problem, for the focus. */
  get firstProblem(): K | undefined {
    return (Object.keys(this.#values) as K[]).find((k) => this.#problems[k] !== undefined);
  }

  async run(send: () => Promise<{ ok: true } | { ok: false; error: CallError }>): Promise<boolean> {
    if (this.#busy) return false;
    this.#busy = true;
    this.#error = null;
    try {
      const outcome = await send();
      if (!outcome.ok) {
        if (outcome.error.code !== 'locked') this.#error = outcome.error;
        return false;
      }
      return true;
    } finally {
      this.#busy = false;
    }
  }
}

/** Someone new: name, role, and their PIN twice. */
export class AddStaffForm extends SmallForm<'name' | 'pin' | 'again'> {
  #role = $state<StaffRole>('cashier');

  constructor() {
    super({ name: '', pin: '', again: '' });
  }

  get role(): StaffRole {
    return this.#role;
  }

  setRole(role: StaffRole): void {
    this.#role = role;
  }

  override reset(): void {
    super.reset();
    this.#role = 'cashier';
  }
}

/** A new PIN for someone, set by the manager (no current PIN needed). */
export class StaffPinForm extends SmallForm<'pin' | 'again'> {
  constructor() {
    super({ pin: '', again: '' });
  }
}

/** One's own PIN: the current one, then the new one twice. */
export class OwnPinForm extends SmallForm<'current' | 'pin' | 'again'> {
  #refusal = $state.raw<PinProblem | null>(null);
  #done = $state(false);

  constructor() {
    super({ current: '', pin: '', again: '' });
  }

  get refusal(): PinProblem | null {
    return this.#refusal;
  }

  get lockedUntil(): number | undefined {
    return lockedUntil(this.#refusal);
  }

  get done(): boolean {
    return this.#done;
  }

  setOutcome(refusal: PinProblem | null, done: boolean): void {
    this.#refusal = refusal;
    this.#done = done;
  }

  override set(field: 'current' | 'pin' | 'again', text: string): void {
    super.set(field, text);
    this.#done = false;
  }
}

/**
 * The store's staff: the list (with former staff), adding someone, changing a role, setting someone's PIN,
 * deactivating and reactivating; and the manager's own PIN.
 */
export class StaffEditor {
  readonly add = new AddStaffForm();
  readonly pinForm = new StaffPinForm();
  readonly ownPin = new OwnPinForm();
  #pinFor = $state<number | null>(null);
  #rowBusy = $state<number | null>(null);
  #rowError = $state.raw<{ staffId: number; error: CallError } | null>(null);
  #notice = $state.raw<{ kind: 'added' | 'pin_set'; name: string } | null>(null);
  readonly #ctx: ManagerContext;
  readonly #now: () => number;

  constructor(ctx: ManagerContext, now: () => number = Date.now) {
    this.#ctx = ctx;
    this.#now = now;
  }

  /** Everyone, active first, then by name. */
  get staff(): readonly StaffSummary[] {
    const list = this.#ctx.view?.staff ?? [];
    return [...list].sort((a, b) => Number(b.active) - Number(a.active) || a.name.localeCompare(b.name));
  }

  get me(): StaffSummary | undefined {
    return this.#ctx.view?.me;
  }

  /** Whose PIN the PIN dialog sets; undefined when it is closed. */
  get pinFor(): StaffSummary | undefined {
    return this.staff.find((s) => s.id === this.#pinFor);
  }

  get rowBusy(): number | null {
    return this.#rowBusy;
  }

  get rowError(): { staffId: number; error: CallError } | null {
    return this.#rowError;
  }

  /** The last thing done, for a short confirmation. */
  get notice(): { kind: 'added' | 'pin_set'; name: string } | null {
    return this.#notice;
  }

  async addStaff(): Promise<boolean> {
    const form = this.add;
    const name = form.value('name').trim();
    const pins = newPinProblems(form.value('pin'), form.value('again'));
    if (!form.check({ name: nameProblem(name), pin: pins.pin, again: pins.again })) return false;
    this.#notice = null;
    const role = form.role;
    const pin = form.value('pin');
    const done = await form.run(() => this.#viewCall((api, token) => api.addStaff(token, { name, role, pin })));
    if (done) {
      form.reset();
      this.#notice = { kind: 'added', name };
    }
    return done;
  }

  setRole(staffId: number, role: StaffRole): Promise<boolean> {
    return this.#rowCall(staffId, { role });
  }

  setActive(staffId: number, active: boolean): Promise<boolean> {
    return this.#rowCall(staffId, { active });
  }

  openPinForm(staffId: number): void {
    this.pinForm.reset();
    this.#notice = null;
    this.#pinFor = staffId;
  }

  closePinForm(): void {
    this.#pinFor = null;
    this.pinForm.reset();
  }

  /** Sets the PIN of the staff member the dialog is open for. */
  async setPin(): Promise<boolean> {
    const staff = this.pinFor;
    if (!staff) return false;
    const form = this.pinForm;
    const pins = newPinProblems(form.value('pin'), form.value('again'));
    if (!form.check({ pin: pins.pin, again: pins.again })) return false;
    const pin = form.value('pin');
    const done = await form.run(() => this.#viewCall((api, token) => api.updateStaff(token, staff.id, { pin })));
    if (done) {
      this.closePinForm();
      this.#notice = { kind: 'pin_set', name: staff.name };
    }
    return done;
  }

  async changeOwnPin(): Promise<boolean> {
    const form = this.ownPin;
    const until = form.lockedUntil;
    if (until !== undefined && until > this.#now()) return false;
    const current = form.value('current');
    const pins = newPinProblems(form.value('pin'), form.value('again'));
    if (!form.check({ current: isPin(current) ? undefined : 'pin', pin: pins.pin, again: pins.again })) return false;
    form.setOutcome(null, false);
    const next = form.value('pin');
    let refusal: PinProblem | null = null;
    const done = await form.run(async () => {
      const outcome = await this.#ctx.call((api, token) => api.changeOwnPin(token, current, next));
      if (!outcome.ok) return outcome;
      if (!outcome.value.ok) refusal = pinProblem(outcome.value, this.#now());
      return { ok: true };
    });
    if (!done) return false;
    form.reset();
    form.setOutcome(refusal, refusal === null);
    return refusal === null;
  }

  async #rowCall(staffId: number, patch: { role?: StaffRole; active?: boolean }): Promise<boolean> {
    if (this.#rowBusy !== null) return false;
    this.#rowBusy = staffId;
    this.#rowError = null;
    this.#notice = null;
    try {
      const outcome = await this.#viewCall((api, token) => api.updateStaff(token, staffId, patch));
      if (!outcome.ok && outcome.error.code !== 'locked') this.#rowError = { staffId, error: outcome.error };
      return outcome.ok;
    } finally {
      this.#rowBusy = null;
    }
  }

  /** A call that answers a newer view, which is applied. */
  async #viewCall(
    fn: (api: LoketApi, token: string) => Promise<ManagerView>,
  ): Promise<{ ok: true } | { ok: false; error: CallError }> {
    const outcome = await this.#ctx.call(fn);
    if (!outcome.ok) return outcome;
    this.#ctx.applyView(outcome.value);
    return { ok: true };
  }
}
