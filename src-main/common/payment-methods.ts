import { z } from 'zod';
import { kindsWhere, kindSpec } from './payment-kinds';
import { paymentMethodFields, type PaymentMethod } from './payment-method-fields';

/** The kinds live in the registry (common/payment-kinds/): one module each; answers are parsed by shape, not by id. */
export { PAYMENT_KINDS, type PaymentKind } from './payment-kinds';
export { findMethod, type PaymentMethod } from './payment-method-fields';

export const paymentMethodSchema = paymentMethodFields
  .refine((m) => m.minAmount <= m.maxAmount, { message: 'minAmount must not exceed maxAmount', path: ['minAmount'] })
  .refine((m) => !m.hasShortCode || kindSpec(m.kind).catalogue?.shortCode === true, {
    message: `hasShortCode applies to ${kindsWhere((k) => k.catalogue?.shortCode === true).join(', ')} only`,
    path: ['hasShortCode'],
  })
  .refine((m) => !m.requiresCustomerName || kindSpec(m.kind).catalogue?.customerName === true, {
    message: `requiresCustomerName applies to ${kindsWhere((k) => k.catalogue?.customerName === true).join(', ')} only`,
    path: ['requiresCustomerName'],
  });

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
