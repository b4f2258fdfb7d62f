import type { GatewayFailure, InquiryStatus } from '../gateway/client';

/* What happened to an order, in words for the command line and the log (a screen words reasons itself). */

/** What the disk said, in words for a cashier (SQLite's code names stay in the log). */
export function storageWords(err: unknown): string {
  const code = (err as { code?: string }).code ?? '';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'the disk is full';
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS') return 'the file or its disk is read-only';
  return `the disk refused the write: ${(err as Error).message}`;
}

export function describeFailure(failure: GatewayFailure): string {
  switch (failure.class) {
    case 'outage':
      return `the gateway is not answering (${failure.message}); nothing was charged — it is safe to try again with the same order`;
    case 'storage':
      return failure.message;
    case 'rejected':
      return `rejected by the gateway${failure.retcode ? ` (retcode ${failure.retcode})` : ''}, HTTP ${failure.httpStatus}: ${failure.message}`;
    case 'not_sent':
      return `not sent: ${failure.message}; it is safe to try again with the same order`;
    case 'unknown':
      return `outcome unknown: ${failure.message}; the order may exist at the gateway — reconcile, do not charge again`;
    case 'malformed':
      return `the gateway's answer could not be read (${failure.message}); the order may exist — reconcile`;
    case 'invalid_input':
      return failure.message;
  }
}

/** What applying a gateway status did, in words (reconcile's report). */
export function describeApplied(
  applied: 'changed' | 'unchanged' | 'late_payment' | 'closed' | 'mismatch',
  status: InquiryStatus,
): string {
  switch (applied) {
    case 'late_payment':
      return `the gateway says ${status}: kept as a late payment, for the manager`;
    case 'closed':
      return `the gateway says ${status}: closed there too`;
    case 'mismatch':
      return "the gateway's answer does not match the order: not applied, for the manager";
    case 'changed':
    case 'unchanged':
      return `the gateway says ${status}`;
  }
}
