import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeFor } from '../../src-main/cli/exit-codes';

describe('CLI exit codes', () => {
  it('maps each failure class, and a "duplicate" answer to unknown (the order exists), not to rejected', () => {
    expect(exitCodeFor({ class: 'invalid_input', message: 'x', issues: [] })).toBe(EXIT.INVALID_INPUT);
    expect(exitCodeFor({ class: 'rejected', message: 'x', httpStatus: 422, duplicate: false })).toBe(EXIT.REJECTED);
    expect(exitCodeFor({ class: 'rejected', message: 'x', retcode: '2301', httpStatus: 409, duplicate: true })).toBe(
      EXIT.NOT_SENT_OR_UNKNOWN,
    );
    expect(exitCodeFor({ class: 'not_sent', message: 'x' })).toBe(EXIT.NOT_SENT_OR_UNKNOWN);
    expect(exitCodeFor({ class: 'unknown', message: 'x' })).toBe(EXIT.NOT_SENT_OR_UNKNOWN);
    expect(exitCodeFor({ class: 'malformed', message: 'x', httpStatus: 200, raw: '' })).toBe(EXIT.NOT_SENT_OR_UNKNOWN);
  });
});
