/**
 * An API call that did not give a result. `code` is the server's error code (see ApiError in
 * src-main/common/api.ts; over IPC read from the message's prefix) or `network` when Loket could not be
 * reached at all. `message` is the server's own words, in English, never an internal detail; screens show
 * their own translated text for the codes they know.
 */
export class CallError extends Error {
  constructor(
    readonly code:
      'unknown_method' | 'invalid_arguments' | 'forbidden' | 'not_found' | 'conflict' | 'internal' | 'network',
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CallError';
  }
}

const CODES = new Set<CallError['code']>([
  'unknown_method',
  'invalid_arguments',
  'forbidden',
  'not_found',
  'conflict',
  'internal',
  'network',
]);

export function toCallError(err: unknown): CallError {
  if (err instanceof CallError) return err;
  const message = err instanceof Error ? err.message : String(err);
  // Over IPC only the message survives: Electron wraps it as "Error invoking remote method 'loket:x':
  // Error: <code>: <message>", the code being the main process's prefix (src-main/electron/ipc-api.ts).
  const m = /Error: ([a-z_]+): ([\s\S]*)$/.exec(message);
  if (m && CODES.has(m[1] as CallError['code'])) return new CallError(m[1] as CallError['code'], m[2]!);
  return new CallError('internal', 'Internal error in Loket.');
}
