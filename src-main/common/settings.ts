import { z } from 'zod';
import { PAYMENT_KINDS, type PaymentKind } from './payment-methods';

/**
 * Loket's non-secret settings, stored in the order database (the appkey and signing secret live in the
 * SecretStore, never here). Shared with the renderer for the manager's settings screen.
 */
const kindSeconds = z.object(
  Object.fromEntries(
    PAYMENT_KINDS.map((k) => [
      k,
      z
        .number()
        .int()
        .min(30)
        .max(7 * 24 * 3600),
    ]),
  ) as Record<PaymentKind, z.ZodNumber>,
);

export const gatewaySettingsSchema = z
  .object({
    baseUrl: z
      .string()
      .regex(/^https?:\/\/[^\s/?#]+(?::\d+)?(\/[^\s?#]*)?$/, 'must be an http(s) base URL without query'),
    appId: z.string().min(1).max(100),
    signing: z.object({ key: z.enum(['appkey', 'secret']), encoding: z.enum(['hex', 'base64']) }).strict(),
    timeoutMs: z.number().int().min(1000).max(120_000),
    /** The aggregator's status inquiry, where it has one (the sandbox: /api/status); null turns polling off. */
    inquiryPath: z
      .string()
      .regex(/^\/\S*$/)
      .nullable(),
    /** The zone of the gateway's `expired_date`. */
    timeZone: z.string().min(1),
  })
  .strict();

export const callbackListenerSchema = z
  .object({
    host: z.string().min(1),
    port: z.number().int().min(0).max(65535),
    path: z.string().regex(/^\/\S*$/),
    /** The URL the gateway should call, when it differs from host:port (a relay or a tunnel). */
    publicUrl: z
      .string()
      .regex(/^https?:\/\/\S+$/)
      .optional(),
  })
  .strict();

export const settingsSchema = z
  .object({
    storeName: z.string().min(1).max(40),
    /** 1–8 capital letters or digits; the prefix of every merchant_transaction_id of this terminal. */
    terminalId: z.string().regex(/^[A-Z0-9]{1,8}$/, 'must be 1 to 8 capital letters or digits'),
    /** The store's zone: times are stored in UTC and shown in this zone. */
    timeZone: z.string().min(1),
    /** null: no gateway configured, so Loket runs against its embedded sandbox (training mode). */
    gateway: gatewaySettingsSchema.nullable(),
    callbackListener: callbackListenerSchema.nullable(),
    /** Deadline for methods whose answer has no expired_date. */
    fallbackTtlSeconds: kindSeconds,
  })
  .strict();

export type LoketSettings = z.infer<typeof settingsSchema>;
export type GatewaySettings = z.infer<typeof gatewaySettingsSchema>;

export const DEFAULT_SETTINGS: LoketSettings = {
  storeName: 'Toko Loket',
  terminalId: 'T01',
  timeZone: 'Asia/Jakarta',
  gateway: null,
  callbackListener: null,
  fallbackTtlSeconds: {
    qris: 15 * 60,
    ewallet_redirect: 15 * 60,
    ewallet_qr_redirect: 15 * 60,
    airtime_sms: 10 * 60,
    airtime: 10 * 60,
    va_bank: 24 * 3600,
    va_cstore: 24 * 3600,
  },
};
