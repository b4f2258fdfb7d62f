import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { toApiError } from '../../src-main/common/api';
import { InvalidPinError } from '../../src-main/core/staff/errors';
import { LOCKOUT_POLICY, PinLockout, lockoutDelayMs } from '../../src-main/core/staff/lockout';
import {
  PIN_RULE,
  SCRYPT_PARAMS,
  checkPinFormat,
  hashPin,
  parsePinHash,
  verifyPin,
} from '../../src-main/core/staff/pin';
import { openDatabase, type Database } from '../../src-main/db/open';
import { tempDir } from './helpers/loket';

/** A clock that stands still until the test moves it. */
function manualClock(start = '2025-03-14T03:00:00.000Z') {
  let t = Date.parse(start);
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
    set(iso: string) {
      t = Date.parse(iso);
    },
  };
}

const SEC = 1000;
const MIN = 60 * SEC;

describe('PIN format', () => {
  it('takes 4 to 8 ASCII digits, as given', () => {
    for (const pin of ['0000', '0123', '97531864', '12345']) expect(checkPinFormat(pin)).toBe(pin);
  });

  it('refuses anything else with InvalidPinError (invalid_arguments), never repeating what it was given', () => {
    const bad: unknown[] = [
      '123',
      '123456789',
      '',
      ' 1234',
      '1234 ',
      '1234\n',
      '12a4',
      '12.4',
      '-1234',
      '١٢٣٤', // Arabic-Indic digits
      '１２３４', // full-width digits
      1234,
      null,
      undefined,
      ['1234'],
    ];
    for (const pin of bad) {
      let error: unknown;
      try {
        checkPinFormat(pin);
      } catch (err) {
        error = err;
      }
      expect(error, String(pin)).toBeInstanceOf(InvalidPinError);
      expect((error as InvalidPinError).code).toBe('invalid_arguments');
      expect((error as Error).message).toBe(PIN_RULE);
      expect(toApiError(error)).toMatchObject({ code: 'invalid_arguments', message: 'PIN: 4 to 8 digits' });
    }
  });
});

describe('PIN hashing', () => {
  it('encodes scheme, parameters, a 16-byte salt and a 32-byte hash; the same PIN twice gives two hashes', async () => {
    const a = await hashPin('97531864');
    const b = await hashPin('97531864');
    expect(SCRYPT_PARAMS).toEqual({ N: 32768, r: 8, p: 1 });
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(b).not.toBe(a);
    expect(a.split('$')[4]).not.toBe(b.split('$')[4]);
    expect(a).not.toContain('97531864');
    expect(parsePinHash(a)).toMatchObject({ N: 32768, r: 8, p: 1 });
    expect(parsePinHash(a)!.salt).toHaveLength(16);
    expect(parsePinHash(a)!.hash).toHaveLength(32);
  });

  it('verifies the right PIN and no other', async () => {
    const stored = await hashPin('0123');
    expect(await verifyPin('0123', stored)).toBe(true);
    expect(await verifyPin('0124', stored)).toBe(false);
    expect(await verifyPin('123', stored)).toBe(false);
    expect(await verifyPin('01230', stored)).toBe(false);
    expect(await verifyPin(123, stored)).toBe(false);
    expect(await verifyPin(undefined, stored)).toBe(false);
  });

  it('reads the parameters from the stored string, so they can be raised without resetting PINs', async () => {
    const older = await hashPin('4321', { N: 2 ** 12, r: 8, p: 1 });
    expect(older).toMatch(/^scrypt\$4096\$8\$1\$/);
    expect(await verifyPin('4321', older)).toBe(true);
    expect(await verifyPin('4322', older)).toBe(false);
    // The parameters are part of what is checked: the same salt and hash under other parameters fail.
    expect(await verifyPin('4321', older.replace('$4096$', '$8192$'))).toBe(false);
  });

  it('a malformed or foreign stored string is false, never a throw', async () => {
    const good = await hashPin('2468');
    const [, , , , salt, hash] = good.split('$');
    const malformed: unknown[] = [
      undefined,
      null,
      42,
      '',
      '2468',
      'scrypt',
      'scrypt$',
      good + '$',
      good.replace('scrypt$', 'bcrypt$'),
      good.replace('$32768$', '$30000$'), // not a power of two
      good.replace('$32768$', '$032768$'),
      good.replace('$32768$', '$1$'),
      good.replace('$32768$', `$${2 ** 30}$`), // would need gigabytes
      good.replace('$8$1$', '$0$1$'),
      good.replace('$8$1$', '$8$99$'),
      good.replace('$8$1$', '$-8$1$'),
      `scrypt$32768$8$1$${salt}$`,
      `scrypt$32768$8$1$$${hash}`,
      `scrypt$32768$8$1$${salt}$${hash!.slice(0, 10)}`, // a hash too short to mean anything
      `scrypt$32768$8$1$${salt}$${hash!.slice(0, -1)}`, // not base64
      `scrypt$32768$8$1$${salt!.replace('=', '')}$${hash}`,
      `scrypt$32768$8$1$${salt}$${hash!.replace(/^./, '*')}`,
      `scrypt$32768$8$1$QUJD$${hash}`, // a 3-byte salt
      'x'.repeat(10_000),
    ];
    for (const stored of malformed) {
      expect(parsePinHash(stored), String(stored)).toBeUndefined();
      await expect(verifyPin('2468', stored), String(stored)).resolves.toBe(false);
    }
  });

  it('refuses to hash a PIN of the wrong format', async () => {
    await expect(hashPin('12')).rejects.toBeInstanceOf(InvalidPinError);
  });
});

describe('lockout policy', () => {
  it('the first 3 wrong PINs cost nothing, then 30 s doubling each time, capped at 15 minutes', () => {
    expect(LOCKOUT_POLICY).toEqual({ FREE_FAILURES: 3, BASE_DELAY_MS: 30 * SEC, MAX_DELAY_MS: 15 * MIN });
    const schedule = Array.from({ length: 12 }, (_, n) => lockoutDelayMs(n));
    expect(schedule).toEqual([0, 0, 0, 0, 30 * SEC, 1 * MIN, 2 * MIN, 4 * MIN, 8 * MIN, 15 * MIN, 15 * MIN, 15 * MIN]);
    expect(lockoutDelayMs(1000)).toBe(15 * MIN);
    expect(lockoutDelayMs(Number.MAX_SAFE_INTEGER)).toBe(15 * MIN);
    expect(lockoutDelayMs(-1)).toBe(0);
    expect(lockoutDelayMs(NaN)).toBe(0);
  });
});

describe('PinLockout on a database file', () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database;
  let path: string;
  const clock = manualClock();

  beforeEach(() => {
    dir = tempDir('loket-lockout-');
    path = join(dir.path, 'loket.db');
    db = openDatabase(path);
    clock.set('2025-03-14T03:00:00.000Z');
  });

  afterEach(() => {
    if (db.open) db.close();
    dir.remove();
  });

  const row = () => db.prepare('SELECT * FROM pin_lockout').all();

  it('grows with each wrong PIN in a row and stops at the cap', () => {
    const lockout = new PinLockout(db, clock);
    expect(lockout.check()).toEqual({ allowed: true });
    const seen: number[] = [];
    for (let n = 1; n <= 11; n++) {
      const f = lockout.failure();
      expect(f.failures).toBe(n);
      seen.push(f.retryAfterMs);
      if (f.retryAfterMs > 0) {
        expect(lockout.check()).toEqual({ allowed: false, retryAfterMs: f.retryAfterMs });
        clock.advance(f.retryAfterMs - 1);
        expect(lockout.check()).toEqual({ allowed: false, retryAfterMs: 1 });
        clock.advance(1);
      }
      expect(lockout.check()).toEqual({ allowed: true });
    }
    expect(seen).toEqual([0, 0, 0, 30 * SEC, MIN, 2 * MIN, 4 * MIN, 8 * MIN, 15 * MIN, 15 * MIN, 15 * MIN]);
  });

  it('is kept in the database: re-opening it (a restart) does not lift the lock or reset the count', () => {
    const lockout = new PinLockout(db, clock);
    for (let i = 0; i < 4; i++) lockout.failure();
    clock.advance(10 * SEC);
    db.close();

    db = openDatabase(path);
    const again = new PinLockout(db, clock);
    expect(again.check()).toEqual({ allowed: false, retryAfterMs: 20 * SEC });
    expect(again.failures()).toBe(4);
    clock.advance(20 * SEC);
    expect(again.check()).toEqual({ allowed: true });
    expect(again.failure()).toEqual({ failures: 5, retryAfterMs: MIN });
    expect(row()).toEqual([
      {
        id: 1,
        failures: 5,
        last_failure_at: '2025-03-14T03:00:30.000Z',
        locked_until: '2025-03-14T03:01:30.000Z',
      },
    ]);
  });

  it('a right PIN resets the count (the time of the last wrong one stays on record)', () => {
    const lockout = new PinLockout(db, clock);
    for (let i = 0; i < 5; i++) lockout.failure();
    clock.advance(MIN);
    lockout.success();
    expect(lockout.check()).toEqual({ allowed: true });
    expect(lockout.failures()).toBe(0);
    expect(row()).toEqual([{ id: 1, failures: 0, last_failure_at: '2025-03-14T03:00:00.000Z', locked_until: null }]);
    // Three free wrong PINs again.
    expect([1, 2, 3, 4].map(() => lockout.failure().retryAfterMs)).toEqual([0, 0, 0, 30 * SEC]);
  });

  it('while locked, an attempt is refused and not counted, whatever the PIN', () => {
    const lockout = new PinLockout(db, clock);
    for (let i = 0; i < 3; i++) expect(lockout.attempt()).toMatchObject({ allowed: true, retryAfterMs: 0 });
    expect(lockout.attempt()).toEqual({ allowed: true, failures: 4, retryAfterMs: 30 * SEC });
    clock.advance(5 * SEC);
    expect(lockout.attempt()).toEqual({ allowed: false, retryAfterMs: 25 * SEC });
    expect(lockout.attempt()).toEqual({ allowed: false, retryAfterMs: 25 * SEC });
    expect(lockout.failures()).toBe(4);
    clock.advance(25 * SEC);
    // Counted before the PIN is checked; a right PIN takes it back.
    expect(lockout.attempt()).toEqual({ allowed: true, failures: 5, retryAfterMs: MIN });
    lockout.success();
    expect(lockout.check()).toEqual({ allowed: true });
    expect(lockout.failures()).toBe(0);
  });

  it('a clock set back never makes the lock longer than the cap', () => {
    const lockout = new PinLockout(db, clock);
    for (let i = 0; i < 4; i++) lockout.failure();
    clock.set('2025-03-13T03:00:00.000Z');
    expect(lockout.check()).toEqual({ allowed: false, retryAfterMs: 15 * MIN });
  });

  it('clear() (the CLI reset) lifts the lock and the count', () => {
    const lockout = new PinLockout(db, clock);
    for (let i = 0; i < 9; i++) lockout.failure();
    expect(lockout.check()).toEqual({ allowed: false, retryAfterMs: 15 * MIN });
    lockout.clear();
    expect(lockout.check()).toEqual({ allowed: true });
    expect(lockout.failures()).toBe(0);
  });
});
