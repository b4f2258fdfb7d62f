import { randomInt } from 'node:crypto';
import type { Clock } from '../ports';

/** Crockford base32: no I, L, O or U, so a cashier reading an id aloud is not misheard. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const TERMINAL_ID_PATTERN = /^[A-Z0-9]{1,8}$/;
/** A store's code in its store book (docs/store-book.md): 1 to 3 capital letters or digits. */
export const STORE_CODE_PATTERN = /^[A-Z0-9]{1,3}$/;

/**
 * `merchant_transaction_id` (docs/orders.md): the store's code once the terminal is enrolled in a store book, the
 * terminal prefix, then the UTC time to the millisecond, then four random characters — unique across the terminals
 * and the stores of a chain sharing an appid (terminal ids are unique per store, store codes per chain), sortable by
 * time, readable, and at most 3 + 1 + 8 + 1 + 8 + 1 + 9 + 1 + 4 = 36 characters (the interface's limit).
 */
export function newMerchantTransactionId(terminalId: string, clock: Clock, storeCode?: string): string {
  if (!TERMINAL_ID_PATTERN.test(terminalId)) {
    throw new Error(`terminal id: 1 to 8 capital letters or digits (got ${JSON.stringify(terminalId)})`);
  }
  if (storeCode !== undefined && !STORE_CODE_PATTERN.test(storeCode)) {
    throw new Error(`store code: 1 to 3 capital letters or digits (got ${JSON.stringify(storeCode)})`);
  }
  const iso = clock.now().toISOString(); // 2026-11-22T07:15:03.123Z
  const day = iso.slice(0, 10).replaceAll('-', '');
  const time = iso.slice(11, 23).replace(/[:.]/g, '');
  let suffix = '';
  for (let i = 0; i < 4; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return `${storeCode === undefined ? '' : `${storeCode}-`}${terminalId}-${day}-${time}-${suffix}`;
}
