import type { ApiEnvelope, ApiErrorCode } from '../../../src-main/common/api';
import type { Reason } from '../../../src-main/common/reasons';

/**
 * An API call that did not give a result. `code` is the server's error code (ApiErrorCode in
 * src-main/common/order-policy.ts) or `network` when Loket could not be reached at all. `message` is the
 * server's own words, in English, never an internal detail, and never shown: screens word `reason` (the key and
 * parameters of what the server meant, common/reasons.ts) in their own language, or say what the code means.
 */
export class CallError extends Error {
  constructor(
    readonly code: ApiErrorCode | 'network',
    message: string,
    readonly status?: number,
    readonly reason?: Reason,
    /** An `internal` error: the log file that has its details (the data folder's loket.log). */
    readonly logFile?: string,
  ) {
    super(message);
    this.name = 'CallError';
  }
}

/** The result of an envelope, or its error thrown as a CallError: the same for IPC and HTTP. */
export function unwrap<T>(envelope: ApiEnvelope<T>, status?: number): T {
  if (envelope.ok) return envelope.result;
  throw new CallError(
    envelope.error.code,
    envelope.error.message,
    status,
    envelope.error.reason,
    envelope.error.logFile,
  );
}

/** Anything a call threw, as a CallError; what is not one already is a fault of ours, shown without detail. */
export function toCallError(err: unknown): CallError {
  if (err instanceof CallError) return err;
  return new CallError('internal', 'Internal error in Loket.');
}
