import { z } from 'zod';
import { pinSchema } from '../staff';

/** The argument schemas more than one service's rows use. */

export const orderId = z.string().min(1).max(36);
/** A store day in the store's time zone. */
export const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day YYYY-MM-DD');
/** An export's days and file: the till's books (prepareExport) and the whole store's (prepareStoreExport) alike. */
export const exportRange = z
  .object({
    from: day,
    to: day,
    format: z.enum(['csv', 'xlsx']),
    delimiter: z.enum([',', ';']).optional(),
    bom: z.boolean().optional(),
  })
  .strict();
/** A manager session's token: every manager method takes it first, and it locks when idle. */
export const session = z.string().min(16).max(100);
export const staffId = z.number().int().positive();
/** A manager's PIN given at the till to allow one thing (a pay-out over the limit, a no sale): whose, and the PIN. */
export const managerPin = z.object({ staffId, pin: pinSchema }).strict();
