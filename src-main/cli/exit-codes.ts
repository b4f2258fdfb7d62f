import type { OrderState } from '../common/order';
import { retrySafety } from '../common/order-policy';
import type { ChargeFailure } from '../common/api';
import type { GatewayFailure } from '../core/gateway/client';

/** Documented in docs/cli.md; scripts rely on them. */
export const EXIT = {
  OK: 0,
  UNEXPECTED: 1,
  INVALID_INPUT: 2,
  REJECTED: 3,
  NOT_SENT_OR_UNKNOWN: 4,
  /**
   * The OS keychain cannot be used (not installed, locked, no D-Bus session), or live mode's secrets cannot be
   * read from it: nothing was written, and no order was sent.
   */
  KEYCHAIN: 5,
  /**
   * The order log cannot be used — the disk is full, the file is damaged, empty, missing while backups exist,
   * or unwritable: nothing was sent (docs/when-things-break.md).
   */
  STORAGE: 6,
  /**
   * Another Loket process holds the data folder (the desktop app, `serve`, another command that changes the books):
   * nothing was changed and nothing was sent. The message names that process.
   */
  FOLDER_IN_USE: 7,
} as const;

/** Read off the failure's retry safety (order-policy.ts): "already exists" is no refusal, so it exits 4, not 3. */
export function exitCodeFor(failure: GatewayFailure, orderState?: OrderState): number {
  if (failure.class === 'invalid_input') return EXIT.INVALID_INPUT;
  if (failure.class === 'storage') return orderState === 'unknown' ? EXIT.NOT_SENT_OR_UNKNOWN : EXIT.STORAGE;
  const retry = retrySafety(
    { class: failure.class, duplicate: failure.class === 'rejected' && failure.duplicate },
    orderState,
  );
  return retry === 'final' ? EXIT.REJECTED : EXIT.NOT_SENT_OR_UNKNOWN;
}

/** The same, from a charge's answer (the counter's: its failure already carries its retry safety). */
export function exitCodeOfCharge(failure: ChargeFailure, orderState?: OrderState): number {
  if (failure.class === 'invalid_input') return EXIT.INVALID_INPUT;
  if (failure.class === 'storage') return orderState === 'unknown' ? EXIT.NOT_SENT_OR_UNKNOWN : EXIT.STORAGE;
  return failure.retry === 'final' ? EXIT.REJECTED : EXIT.NOT_SENT_OR_UNKNOWN;
}

/** A mistake in how the command was called: exit code 2, message on stderr, no stack trace. */
export { UsageError } from '../sandbox/command';
