import type { LoketApi } from '../../../src-main/common/api';
import type { TillStatus } from '../../../src-main/common/manager';
import type { StaffSummary } from '../../../src-main/common/staff';
import { toCallError } from '../api/errors';
import { lockedUntil, PinEntry, pinProblem, type PinProblem } from './pin-entry.svelte';

export interface TillDeps {
  api: Pick<LoketApi, 'tillStatus' | 'signIn' | 'signOut'>;
  /** The time now (ms); tests pass their own. */
  now?: () => number;
}

/**
 * Who sells at this till: the staff member signed in (or nobody), kept current by the server's `info`
 * events, and signing in or switching — pick a name, then (when the store asks for cashier PINs) the PIN.
 * The same sign-in serves the header's dialog and the prompt that replaces the sale form.
 */
export class TillManager {
  #status = $state.raw<TillStatus | null>(null);
  #dialogOpen = $state(false);
  #pickedId = $state<number | null>(null);
  #problem = $state.raw<PinProblem | null>(null);
  #busy = $state(false);
  readonly pin = new PinEntry();

  readonly #deps: TillDeps;
  readonly #now: () => number;

  constructor(deps: TillDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  get status(): TillStatus | null {
    return this.#status;
  }

  /** Who is signed in, or null. */
  get staff(): StaffSummary | null {
    return this.#status?.staff ?? null;
  }

  /** Active staff, for the picker. */
  get staffList(): readonly StaffSummary[] {
    return this.#status?.staffList ?? [];
  }

  /** The store asks every cashier for their PIN before a sale. */
  get pinRequired(): boolean {
    return this.#status?.requireCashierPin ?? false;
  }

  /** Nobody is signed in where the store requires it: the sale form gives way to signing in. */
  get needsSignIn(): boolean {
    return this.pinRequired && this.staff === null;
  }

  get dialogOpen(): boolean {
    return this.#dialogOpen;
  }

  get picked(): StaffSummary | undefined {
    return this.staffList.find((s) => s.id === this.#pickedId);
  }

  get problem(): PinProblem | null {
    return this.#problem;
  }

  /** PIN entry is locked until this moment (ms), after too many wrong PINs. */
  get lockedUntil(): number | undefined {
    return lockedUntil(this.#problem);
  }

  get busy(): boolean {
    return this.#busy;
  }

  async load(): Promise<void> {
    this.observe(await this.#deps.api.tillStatus());
  }

  /** The till as the server says it is now (a live `info` event, or an answer). */
  observe(status: TillStatus): void {
    this.#status = status;
    if (this.#pickedId !== null && !status.staffList.some((s) => s.id === this.#pickedId)) this.#pickedId = null;
  }

  /** The header's "sign in / switch" dialog. */
  openDialog(): void {
    this.#reset();
    this.#dialogOpen = true;
  }

  closeDialog(): void {
    this.#dialogOpen = false;
    this.#reset();
  }

  pick(staffId: number): void {
    if (this.#pickedId === staffId) return;
    this.#pickedId = staffId;
    this.pin.clear();
    const until = this.lockedUntil;
    if (until === undefined || until <= this.#now()) this.#problem = null;
  }

  /** Signs the picked staff member in (with the PIN typed, when the store asks for one); true when done. */
  async signIn(): Promise<boolean> {
    const staff = this.picked;
    if (!staff || this.#busy) return false;
    const until = this.lockedUntil;
    if (until !== undefined && until > this.#now()) return false;
    const pin = this.pinRequired ? this.pin.value : null;
    if (pin !== null && !this.pin.complete) {
      this.#problem = { kind: 'format' };
      return false;
    }
    this.#busy = true;
    try {
      const result = await this.#deps.api.signIn(staff.id, pin);
      if (result.ok) {
        this.observe(result.till);
        this.#dialogOpen = false;
        this.#reset();
        return true;
      }
      this.#problem = pinProblem(result, this.#now());
      this.pin.clear();
      if (result.reason === 'no_such_staff') await this.load().catch(() => undefined);
      return false;
    } catch (err) {
      this.#problem = { kind: 'error', error: toCallError(err) };
      return false;
    } finally {
      this.#busy = false;
    }
  }

  async signOut(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    try {
      this.observe(await this.#deps.api.signOut());
      this.#dialogOpen = false;
      this.#reset();
    } catch (err) {
      this.#problem = { kind: 'error', error: toCallError(err) };
    } finally {
      this.#busy = false;
    }
  }

  #reset(): void {
    // A lockout is the till's, not the dialog's: it stays shown until it is over.
    if (this.lockedUntil === undefined || this.lockedUntil <= this.#now()) this.#problem = null;
    this.pin.clear();
    const list = this.staffList;
    this.#pickedId = list.length === 1 ? list[0]!.id : null;
  }
}
