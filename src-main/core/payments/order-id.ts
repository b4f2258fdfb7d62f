import { randomInt } from 'node:crypto';
import type { Clock } from '../ports';

/** Crockford base32: no I, L, O or U, so a cashier reading an id aloud is not misheard. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const TERMINAL_ID_PATTERN = /^[A-Z0-9]{1,8}$/;

/**
 * `merchant_transaction_id` (docs/orders.md): terminal prefix, then the UTC time to the millisecond, then
 * four random characters — unique across terminals sharing an appid, sortable by time, readable, and at
 * most 8 + 1 + 8 + 1 + 9 + 1 + 4 = 32 characters (the interface allows 36).
 */
export function newMerchantTransactionId(terminalId: string, clock: Clock): string {
  if (!TERMINAL_ID_PATTERN.test(terminalId)) {
    throw new Error(`terminal id: 1 to 8 capital letters or digits (got ${JSON.stringify(terminalId)})`);
  }
  const iso = clock.now().toISOString(); // 2026-11-22T07:15:03.123Z
  const day = iso.slice(0, 10).replaceAll('-', '');
  const time = iso.slice(11, 23).replace(/[:.]/g, '');
  let suffix = '';
  for (let i = 0; i < 4; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return `${terminalId}-${day}-${time}-${suffix}`;
}
