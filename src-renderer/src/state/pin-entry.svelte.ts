import type { PinRefusal } from '../../../src-main/common/staff';
import type { CallError } from '../api/errors';

/** The form of a PIN (common/staff.ts, whose zod schema stays out of the renderer bundle): 4 to 8 digits. */
export const PIN_MIN = 4;
export const PIN_MAX = 8;

export function isPin(text: string): boolean {
  return /^[0-9]+$/.test(text) && text.length >= PIN_MIN && text.length <= PIN_MAX;
}

export type PinKey = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | 'backspace' | 'clear';

/** A PIN being typed on a PIN pad or a keyboard: digits only, at most 8. */
export class PinEntry {
  #digits = $state('');

  get value(): string {
    return this.#digits;
  }

  get length(): number {
    return this.#digits.length;
  }

  /** Long enough to send (4 digits or more). */
  get complete(): boolean {
    return isPin(this.#digits);
  }

  press(key: PinKey): void {
    if (key === 'backspace') this.#digits = this.#digits.slice(0, -1);
    else if (key === 'clear') this.#digits = '';
    else if (this.#digits.length < PIN_MAX) this.#digits += key;
  }

  /** What a keyboard typed into the field: anything but digits is dropped. */
  setText(text: string): void {
    this.#digits = text.replace(/\D/g, '').slice(0, PIN_MAX);
  }

  clear(): void {
    this.#digits = '';
  }
}

/**
 * Why a PIN was not accepted, for the screen: the server's refusal with the end of a lockout as a moment
 * (so a countdown can show the time left), a PIN of the wrong form (caught here, never sent), or a call
 * that failed.
 */
export type PinProblem =
  | { kind: 'wrong_pin'; until?: number }
  | { kind: 'locked_out'; until: number }
  | { kind: 'no_such_staff' }
  | { kind: 'not_a_manager' }
  | { kind: 'format' }
  | { kind: 'error'; error: CallError };

export function pinProblem(refusal: PinRefusal, now: number): PinProblem {
  switch (refusal.reason) {
    case 'wrong_pin':
      return refusal.retryAfterMs ? { kind: 'wrong_pin', until: now + refusal.retryAfterMs } : { kind: 'wrong_pin' };
    case 'locked_out':
      return { kind: 'locked_out', until: now + refusal.retryAfterMs };
    case 'no_such_staff':
      return { kind: 'no_such_staff' };
    default:
      return { kind: 'not_a_manager' };
  }
}

/** PIN entry is locked till-wide until this moment (ms), if the problem says so. */
export function lockedUntil(problem: PinProblem | null): number | undefined {
  return problem && (problem.kind === 'wrong_pin' || problem.kind === 'locked_out') ? problem.until : undefined;
}
