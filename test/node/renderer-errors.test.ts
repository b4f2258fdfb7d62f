import { describe, expect, it } from 'vitest';
import { CallError, toCallError } from '../../src-renderer/src/api/errors';

describe('toCallError (the renderer reading an IPC failure)', () => {
  it('reads the code the main process put in front of the message', () => {
    const e = toCallError(
      new Error(
        "Error invoking remote method 'loket:cancelOrder': Error: conflict: order T01-1 is paid; only an order waiting for payment can be cancelled",
      ),
    );
    expect(e).toMatchObject({
      code: 'conflict',
      message: 'order T01-1 is paid; only an order waiting for payment can be cancelled',
    });
  });

  it('shows nothing of an unexpected error but that it happened', () => {
    const e = toCallError(
      new Error(
        "Error invoking remote method 'loket:createOrder': SqliteError: disk I/O error at /home/kasir/.config/Loket/loket.db",
      ),
    );
    expect(e.code).toBe('internal');
    expect(e.message).not.toContain('loket.db');
    expect(toCallError('boom').code).toBe('internal');
  });

  it('keeps a CallError as it is', () => {
    const original = new CallError('network', 'Loket did not answer.');
    expect(toCallError(original)).toBe(original);
  });
});
