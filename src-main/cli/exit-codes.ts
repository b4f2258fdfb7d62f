import type { GatewayFailure } from '../core/gateway/client';

/** Documented in docs/cli.md; scripts rely on them. */
export const EXIT = {
  OK: 0,
  UNEXPECTED: 1,
  INVALID_INPUT: 2,
  REJECTED: 3,
  NOT_SENT_OR_UNKNOWN: 4,
} as const;

export function exitCodeFor(failure: GatewayFailure): number {
  switch (failure.class) {
    case 'invalid_input':
      return EXIT.INVALID_INPUT;
    case 'rejected':
      // "Already exists" is no refusal: the order is at the gateway and left unknown here.
      return failure.duplicate ? EXIT.NOT_SENT_OR_UNKNOWN : EXIT.REJECTED;
    case 'not_sent':
    case 'unknown':
    case 'malformed':
      return EXIT.NOT_SENT_OR_UNKNOWN;
  }
}

/** A mistake in how the command was called: exit code 2, message on stderr, no stack trace. */
export { UsageError } from '../sandbox/command';
