import { z } from 'zod';

/** Named staff and their roles: cashier by default, manager for settings, overrides, reports and exports. */
export const STAFF_ROLES = ['cashier', 'manager'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** A member of staff as screens and the API see them: never the PIN's hash. */
export interface StaffSummary {
  id: number;
  name: string;
  role: StaffRole;
  active: boolean;
}

export const PIN_MIN_DIGITS = 4;
export const PIN_MAX_DIGITS = 8;
export const PIN_RULE = `PIN: ${PIN_MIN_DIGITS} to ${PIN_MAX_DIGITS} digits`;
/** The API gate's check of a PIN's form; core checks it again before hashing. */
export const pinSchema = z.string().regex(/^[0-9]{4,8}$/, PIN_RULE);

export const STAFF_NAME_MAX = 40;
export const STAFF_NAME_RULE = `name: 1 to ${STAFF_NAME_MAX} characters`;

/** Why a PIN was not accepted; the screen shows it (and, when locked out, for how long). */
export type PinRefusal =
  | { ok: false; reason: 'wrong_pin'; /** set when this wrong PIN locked PIN entry */ retryAfterMs?: number }
  | { ok: false; reason: 'locked_out'; retryAfterMs: number }
  | { ok: false; reason: 'no_such_staff' }
  | { ok: false; reason: 'not_a_manager' }
  /** The store asks every cashier for their PIN, and none was given. */
  | { ok: false; reason: 'pin_required' };
