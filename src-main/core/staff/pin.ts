import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { InvalidPinError } from './errors';

/**
 * Staff PINs: the format rule, and how a PIN is kept (a salted scrypt hash, never the PIN).
 *
 * A PIN of 4 to 8 digits has at most 10^8 values, so no hash makes a stolen database safe against a
 * determined offline search; the hash keeps the PINs from being read off the file, and the real defence is
 * online: the lockout (lockout.ts) and the database file being the shop's. The cost is set so that checking a
 * PIN is not noticed at the till (see SCRYPT_PARAMS), and it is stored with each hash, so it can be raised later
 * without invalidating the PINs already set.
 */

import { PIN_MAX_DIGITS, PIN_MIN_DIGITS, PIN_RULE } from '../../common/staff';

export { PIN_MAX_DIGITS, PIN_MIN_DIGITS, PIN_RULE };

const PIN_PATTERN = new RegExp(`^[0-9]{${PIN_MIN_DIGITS},${PIN_MAX_DIGITS}}$`);

/**
 * The PIN as given, when it is 4 to 8 ASCII digits; otherwise InvalidPinError (`invalid_arguments`). Not
 * trimmed, and never a number (1234 would lose the leading zeros of 0123). The message never repeats it.
 */
export function checkPinFormat(pin: unknown): string {
  if (typeof pin !== 'string' || !PIN_PATTERN.test(pin)) throw new InvalidPinError(PIN_RULE);
  return pin;
}

export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/**
 * N=2^15, r=8, p=1 (32 MiB of memory per check). Measured on the development machine (2 shared
 * Xeon cores): about 85 ms per hash or check, against 36 ms at N=2^14; either goes unnoticed at a PIN pad, and
 * this one doubles the cost of searching a stolen file. Changing it means changing this constant only: hashes
 * already stored keep their own parameters (verifyPin reads them), and take these when the PIN is next set.
 */
export const SCRYPT_PARAMS: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };

const SCHEME = 'scrypt';
const SALT_BYTES = 16;
const HASH_BYTES = 32;
// Bounds on what a stored string may ask for, so that a damaged or planted row cannot make one check take
// gigabytes or minutes: up to 256 MiB of scrypt memory (e.g. N=2^18 with r=8).
const MAX_SCRYPT_MEMORY = 256 * 1024 * 1024;
const MAX_R = 32;
const MAX_P = 16;

/** Node's default `maxmem` (32 MiB) is exactly what N=2^15, r=8 needs, and scrypt needs a little more. */
function scryptMaxmem({ N, r, p }: ScryptParams): number {
  return 128 * r * (N + p + 2) + 1024 * 1024;
}

function scryptAsync(pin: string, salt: Buffer, keylen: number, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: scryptMaxmem(params) };
  return new Promise((resolve, reject) =>
    scrypt(pin, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/**
 * `scrypt$<N>$<r>$<p>$<salt, base64>$<hash, base64>`, with a fresh 16-byte random salt, so two staff with
 * the same PIN (or one PIN set twice) have different hashes. Async: scrypt runs on libuv's thread pool.
 */
export async function hashPin(pin: string, params: ScryptParams = SCRYPT_PARAMS): Promise<string> {
  checkPinFormat(pin);
  const salt = randomBytes(SALT_BYTES);
  const hash = await scryptAsync(pin, salt, HASH_BYTES, params);
  return [SCHEME, params.N, params.r, params.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

interface ParsedHash extends ScryptParams {
  salt: Buffer;
  hash: Buffer;
}

const DECIMAL = /^[1-9][0-9]{0,9}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function parseBase64(text: string | undefined, minBytes: number, maxBytes: number): Buffer | undefined {
  if (text === undefined || !BASE64.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length >= minBytes && bytes.length <= maxBytes ? bytes : undefined;
}

/** The parts of a stored hash, or undefined for anything that is not exactly a hash this code could have written. */
export function parsePinHash(encoded: unknown): ParsedHash | undefined {
  if (typeof encoded !== 'string' || encoded.length > 512) return undefined;
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== SCHEME) return undefined;
  const [n, r, p] = parts.slice(1, 4).map((x) => (DECIMAL.test(x!) ? Number(x) : NaN)) as [number, number, number];
  if (!(n >= 2 && (n & (n - 1)) === 0 && n <= 2 ** 24)) return undefined;
  if (!(r >= 1 && r <= MAX_R && p >= 1 && p <= MAX_P)) return undefined;
  if (128 * n * r > MAX_SCRYPT_MEMORY) return undefined;
  const salt = parseBase64(parts[4], SALT_BYTES, 64);
  const hash = parseBase64(parts[5], 16, 64);
  if (salt === undefined || hash === undefined) return undefined;
  return { N: n, r, p, salt, hash };
}

/**
 * Whether `pin` is the PIN `encoded` was made from: recomputed with the stored parameters and salt, and
 * compared in constant time (lengths first: `timingSafeEqual` needs equal lengths, and the length is not
 * secret). Anything wrong — a PIN of the wrong format, a malformed or foreign stored string, a scrypt error —
 * is `false`, never a throw whose message could tell a caller something.
 */
export async function verifyPin(pin: unknown, encoded: unknown): Promise<boolean> {
  try {
    if (typeof pin !== 'string' || !PIN_PATTERN.test(pin)) return false;
    const parsed = parsePinHash(encoded);
    if (parsed === undefined) return false;
    const actual = await scryptAsync(pin, parsed.salt, parsed.hash.length, parsed);
    return actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash);
  } catch {
    return false;
  }
}
