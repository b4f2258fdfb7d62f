import type { OrderState } from '../../../src-main/common/order';
import type { KeychainProblem, PrintProblem, ReasonKey, ReasonParams } from '../../../src-main/common/reasons';

/**
 * What a reason's words need besides its parameters, in the screen's language and the store's zone: a sentence
 * never formats an amount, a state, a method or a time by itself.
 */
export interface Say {
  rupiah(amount: number): string;
  /** A state as it reads inside a sentence ("waiting for payment"). */
  state(state: OrderState): string;
  /** A payment method's name in the screen's language (its id when the list does not have it). */
  method(methodId: string): string;
  /** An instant as a date and time in the store's zone. */
  time(iso: string): string;
  /** A store day (YYYY-MM-DD) as a date. */
  day(day: string): string;
  /** "a, b or c". */
  either(items: readonly string[]): string;
}

/** The words of every reason (src-main/common/reasons.ts), one function per key: a key left out fails to compile. */
export type ReasonWords = { [K in ReasonKey]: (params: ReasonParams[K], say: Say) => string };

export type KeychainWords = Record<KeychainProblem, string>;
export type PrintWords = Record<PrintProblem, (at: string) => string>;
