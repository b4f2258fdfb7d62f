import { z } from 'zod';
import { kindsWhere, kindSpec, PAYMENT_KINDS } from './payment-kinds';

/** The kinds live in the registry (common/payment-kinds/): one module each; answers are parsed by shape, not by id. */
export { PAYMENT_KINDS, type PaymentKind } from './payment-kinds';

const label = z.object({ id: z.string().min(1), en: z.string().min(1) }).strict();

export const paymentMethodSchema = z
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
  .strict()
  .refine((m) => m.minAmount <= m.maxAmount, { message: 'minAmount must not exceed maxAmount', path: ['minAmount'] })
  .refine((m) => !m.hasShortCode || kindSpec(m.kind).catalogue?.shortCode === true, {
    message: `hasShortCode applies to ${kindsWhere((k) => k.catalogue?.shortCode === true).join(', ')} only`,
    path: ['hasShortCode'],
  })
  .refine((m) => !m.requiresCustomerName || kindSpec(m.kind).catalogue?.customerName === true, {
    message: `requiresCustomerName applies to ${kindsWhere((k) => k.catalogue?.customerName === true).join(', ')} only`,
    path: ['requiresCustomerName'],
  });

export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

export const paymentCatalogueSchema = z
  .array(paymentMethodSchema)
  .min(1)
  .superRefine((methods, ctx) => {
    const seen = new Set<string>();
    methods.forEach((m, i) => {
      if (seen.has(m.id)) ctx.addIssue({ code: 'custom', message: `duplicate id ${m.id}`, path: [i, 'id'] });
      seen.add(m.id);
    });
  });

/** Parses a catalogue, throwing one message that lists every problem with its place in the file. */
export function parsePaymentCatalogue(data: unknown, source = 'payment-methods.json'): PaymentMethod[] {
  const result = paymentCatalogueSchema.safeParse(data);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new Error(`${source} is not a valid payment-method catalogue:\n${problems.join('\n')}`);
}

export function findMethod(methods: readonly PaymentMethod[], id: string): PaymentMethod | undefined {
  return methods.find((m) => m.id === id);
}
