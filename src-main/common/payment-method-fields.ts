import { z } from 'zod';
import { PAYMENT_KINDS } from './payment-kinds/kind-names';

/*
 * A payment method's fields as the catalogue gives them (resources/payment-methods.json): the shape every kind's
 * module and the order-request validator read. The rules that ask a kind's spec (a flag only some kinds may set)
 * are added in payment-methods.ts, which imports the kinds' registry: this module does not, so the kinds may read it.
 */

const label = z.object({ id: z.string().min(1), en: z.string().min(1) }).strict();

export const paymentMethodFields = z
  .object({
    /** `<type>_<name>`, as the interface's identifiers (e.g. `va_bca`, `airtime_telkomsel`). */
    id: z.string().regex(/^[a-z]+_[a-z0-9]+$/, 'id must look like <type>_<name> in lowercase'),
    kind: z.enum(PAYMENT_KINDS),
    /** The bank, carrier, wallet or store name shown next to the instruction. */
    provider: z.string().min(1),
    label,
    requiresCustomerName: z.boolean(),
    /**
     * Loket asks the cashier for the customer's phone: plain carrier billing charges that number, and an SMS-reply
     * method without a short code sends the SMS to reply to to it (see asksForPhone in payment-instruction.ts). Loket's rule, not the
     * interface's: `user_mdn` is optional for every method at the gateway, and an SMS-reply method with a short
     * code needs none (the customer texts the short code from their own phone).
     */
    requiresPhone: z.boolean().default(false),
    /** The interface: `short_code` is sent "for two carriers' SMS methods". */
    hasShortCode: z.boolean().default(false),
    /** The interface: "One e-wallet response has no back_url". */
    returnsBackUrl: z.boolean().default(true),
    enabled: z.boolean(),
    minAmount: z.number().int().positive().default(1),
    maxAmount: z.number().int().positive().default(100_000_000),
  })
  .strict();

export type PaymentMethod = z.infer<typeof paymentMethodFields>;

export function findMethod(methods: readonly PaymentMethod[], id: string): PaymentMethod | undefined {
  return methods.find((m) => m.id === id);
}
