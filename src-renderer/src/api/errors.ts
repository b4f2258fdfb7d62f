/**
 * An API call that did not give a result. `code` is the server's error code (see ApiError in
 * src-main/common/api.ts) or `network` when Loket could not be reached at all. `message` is the server's
 * own words, in English; screens show their own translated text for the codes they know.
 */
export class CallError extends Error {
  constructor(
    readonly code: 'unknown_method' | 'invalid_arguments' | 'forbidden' | 'not_found' | 'conflict' | 'internal' | 'network',
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CallError';
  }
}

const CODES = new Set<CallError['code']>(['unknown_method', 'invalid_arguments', 'forbidden', 'not_found', 'conflict', 'internal', 'network']);

export function toCallError(err: unknown): CallError {
  if (err instanceof CallError) return err;
  const message = err instanceof Error ? err.message : String(err);
  // Electron's ipcRenderer.invoke prefixes the thrower's message; the code is not carried over.
  const code = (err as { code?: unknown } | null)?.code;
  return new CallError(typeof code === 'string' && CODES.has(code as CallError['code']) ? (code as CallError['code']) : 'internal', message);
}
