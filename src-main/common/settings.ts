import { z } from 'zod';
import { DEFAULT_GATEWAY_TIME_ZONE } from './gateway-time';
import { kindSpec } from './payment-kinds';
import { PAYMENT_KINDS, paymentCatalogueSchema, type PaymentKind } from './payment-methods';
import type { Reason, RuleParams } from './reasons';

/**
 * Loket's non-secret settings, stored in the order database (the appkey and signing secret live in the
 * SecretStore, never here). Shared with the renderer for the manager's settings screen.
 *
 * Every rule's message is the rule in plain words without the field's name; `settingsIssues` (below) puts
 * the field in front, so the manager reads "storeName: 1 to 40 characters".
 */

// ---------------------------------------------------------------- rules shared by several fields

/** Characters as a person counts them (code points: an emoji is one), as the order validator counts them. */
export function characterCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The lines of a text, whatever the line ends (a spreadsheet or Windows writes \r\n). */
export function textLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

// C0 and C1 control characters: an ESC in a receipt text would be an ESC/POS command on the printer.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_NEWLINES = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** A zone `Intl.DateTimeFormat` accepts (an IANA name such as Asia/Jakarta; it ignores letter case). */
export function isTimeZone(zone: string): boolean {
  if (zone.trim() !== zone || zone === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const TIME_ZONE_RULE = 'a time zone name such as Asia/Jakarta, Asia/Makassar or Asia/Jayapura';
const timeZoneSchema = z.string({ error: TIME_ZONE_RULE }).refine(isTimeZone, { error: TIME_ZONE_RULE });

/** One line of text of min..max characters, without control characters. */
function line(min: number, max: number) {
  const rule = min === 0 ? `at most ${max} characters on one line` : `${min} to ${max} characters on one line`;
  const params: RuleParams = { min, max };
  return z
    .string({ error: rule })
    .refine((s) => !CONTROL.test(s), {
      error: `${rule}, without control characters (tabs, escape codes)`,
      abort: true,
      params,
    })
    .refine((s) => characterCount(s) >= min && characterCount(s) <= max, { error: rule, params });
}

/** Text of up to `maxLines` lines (of at most `lineWidth` characters each, and `total` in all). */
function lines(rule: string, check: { maxLines: number; lineWidth?: number; total?: number }) {
  const params: RuleParams = {
    maxLines: check.maxLines,
    ...(check.lineWidth === undefined ? {} : { lineWidth: check.lineWidth }),
    ...(check.total === undefined ? {} : { max: check.total }),
  };
  return z
    .string({ error: rule })
    .refine((s) => !CONTROL_BUT_NEWLINES.test(s), {
      error: `${rule}, without control characters (tabs, escape codes)`,
      abort: true,
      params,
    })
    .refine(
      (s) =>
        textLines(s).length <= check.maxLines &&
        (check.total === undefined || characterCount(s) <= check.total) &&
        (check.lineWidth === undefined || textLines(s).every((l) => characterCount(l) <= check.lineWidth!)),
      { error: rule, params },
    );
}

const IPV4 = z.ipv4();
const IPV6 = z.ipv6();
const HOSTNAME_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/** A hostname (RFC 1123: letters, digits and hyphens, in dot-separated labels) or an IPv4 or IPv6 address. */
export function isHostOrIp(host: string): boolean {
  if (IPV4.safeParse(host).success || IPV6.safeParse(host).success) return true;
  // All digits and dots but not an IPv4 address (999.1.1.1): a typo, not a hostname.
  if (/^[\d.]+$/.test(host)) return false;
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  return name.length >= 1 && name.length <= 253 && name.split('.').every((l) => HOSTNAME_LABEL.test(l));
}

const HOST_RULE = 'a hostname or an IP address (e.g. printer.local or 192.168.1.50)';
const hostSchema = z.string({ error: HOST_RULE }).refine(isHostOrIp, { error: HOST_RULE });

/** A whole number from min to max; every refusal carries the rule's numbers, for the screen's own words. */
function wholeNumber(min: number, max: number, rule: string) {
  return z
    .number({ error: rule })
    .refine((n) => Number.isInteger(n) && n >= min && n <= max, { error: rule, params: { min, max } });
}

/** http(s) URLs never carry a user name or password: credentials go in the keychain, not in settings. */
function hasNoUserInfo(url: string): boolean {
  return !/^https?:\/\/[^/?#]*@/i.test(url);
}

/**
 * A kind's lifetime in seconds. A kind added to the registry since the settings were saved gets its module's
 * lifetime, so a new kind needs no settings migration.
 */
const kindLifetime = (kind: PaymentKind) =>
  wholeNumber(30, 7 * 24 * 3600, 'a whole number of seconds from 30 to 604800 (7 days)').default(
    kindSpec(kind).lifetimeSeconds,
  );
const kindSeconds = z.object(
  Object.fromEntries(PAYMENT_KINDS.map((k) => [k, kindLifetime(k)])) as Record<
    PaymentKind,
    ReturnType<typeof kindLifetime>
  >,
);

// ---------------------------------------------------------------- the gateway

const BASE_URL_RULE = 'an http(s) address without a query, user name or password, e.g. https://gateway.example';
const PATH_RULE = 'a path starting with /, e.g. /api/status';

export const gatewaySettingsSchema = z
  .object({
    baseUrl: z
      .string({ error: BASE_URL_RULE })
      .regex(/^https?:\/\/[^\s/?#]+(?::\d+)?(\/[^\s?#]*)?$/, { error: BASE_URL_RULE })
      .refine(hasNoUserInfo, { error: BASE_URL_RULE }),
    appId: z
      .string({ error: '1 to 100 characters' })
      .min(1, { error: '1 to 100 characters' })
      .max(100, { error: '1 to 100 characters' })
      // It travels in an HTTP header, where control characters cannot go.
      .refine((s) => !CONTROL.test(s), { error: '1 to 100 characters, without control characters' }),
    signing: z
      .object({
        key: z.enum(['appkey', 'secret'], {
          error: "'appkey' (sign with the appkey) or 'secret' (with a separate signing secret)",
        }),
        encoding: z.enum(['hex', 'base64'], { error: "'hex' or 'base64'" }),
      })
      .strict(),
    timeoutMs: wholeNumber(1000, 120_000, 'a whole number of milliseconds from 1000 (1 s) to 120000 (2 min)'),
    /** The aggregator's status inquiry, where it has one (the sandbox: /api/status); null turns polling off. */
    inquiryPath: z
      .string({ error: `${PATH_RULE}, or none` })
      .regex(/^\/\S*$/, { error: `${PATH_RULE}, or none` })
      .nullable(),
    /** The zone of the gateway's `expired_date`. */
    timeZone: timeZoneSchema,
    /**
     * A plain http:// base URL (not this machine's) in live mode, allowed by the manager on purpose: the gateway's
     * answers — "paid" among them — are unsigned, and over plain http anyone on the way can change them. Off: live
     * mode refuses such a URL (gatewayTransportProblem).
     */
    allowHttp: z.boolean({ error: 'on or off (true or false)' }).optional(),
  })
  .strict();

/** Whether a URL names this machine (127.0.0.0/8, ::1, localhost): its traffic never crosses a network. */
export function isLoopbackUrl(url: string): boolean {
  const m = /^https?:\/\/(\[[^\]]*\]|[^/:?#]+)/i.exec(url);
  const host = (m?.[1] ?? '').toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Why live mode may not use this gateway address, or undefined: a plain http:// URL to another machine, unless the
 * manager allowed it (`allowHttp`). The gateway's answers are not signed, so only TLS keeps them from being changed
 * on the way; a status answer saying "paid" is money.
 */
export function gatewayTransportProblem(gateway: { baseUrl: string; allowHttp?: boolean }): string | undefined {
  if (!/^http:\/\//i.test(gateway.baseUrl) || isLoopbackUrl(gateway.baseUrl) || gateway.allowHttp === true)
    return undefined;
  return (
    `gateway.baseUrl: live mode needs an https:// address (${gateway.baseUrl} is plain http, and the gateway's ` +
    'answers are not signed: anyone on the way could turn one into "paid"); use the gateway\'s https address, or ' +
    'allow plain http on purpose (gateway.allowHttp)'
  );
}

const PUBLIC_URL_RULE = 'an http(s) address the gateway can reach (a relay or a tunnel), at most 2048 characters';

export const callbackListenerSchema = z
  .object({
    host: z.string({ error: HOST_RULE }).refine((h) => h === '0.0.0.0' || h === '::' || isHostOrIp(h), {
      error: `${HOST_RULE} to listen on (0.0.0.0: every interface)`,
    }),
    port: wholeNumber(0, 65535, 'a port number from 0 to 65535 (0 picks a free one)'),
    path: z.string({ error: PATH_RULE }).regex(/^\/\S*$/, { error: 'a path starting with /, e.g. /loket/callback' }),
    /** The URL the gateway should call, when it differs from host:port (a relay or a tunnel): `notification_url`. */
    publicUrl: z
      .string({ error: PUBLIC_URL_RULE })
      .regex(/^https?:\/\/\S+$/, { error: PUBLIC_URL_RULE })
      .max(2048, { error: PUBLIC_URL_RULE })
      .refine(hasNoUserInfo, { error: `${PUBLIC_URL_RULE}, without a user name or password` })
      .optional(),
  })
  .strict();

// ---------------------------------------------------------------- printer, display, access

export const PAPER_WIDTHS = [58, 80] as const;
export type PaperWidth = (typeof PAPER_WIDTHS)[number];

export const printerSettingsSchema = z
  .object({
    /** none: receipts print from the browser's dialog; network: ESC/POS over TCP; system: a printer of the OS. */
    kind: z.enum(['none', 'network', 'system'], {
      error: "'none', 'network' (an ESC/POS printer on the network) or 'system' (a printer of this computer)",
    }),
    host: hostSchema.optional(),
    port: wholeNumber(1, 65535, 'a port number from 1 to 65535 (ESC/POS printers usually listen on 9100)').optional(),
    paper: z.literal(PAPER_WIDTHS, { error: '58 or 80 (the paper width in mm)' }),
    /** The system printer's name as the OS shows it; absent: the default printer. */
    systemName: line(1, 128).optional(),
    /** Print the receipt by itself, once, when the sale on the cashier's screen is paid. */
    autoPrint: z.boolean({ error: 'on or off (true or false)' }).default(false),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.kind !== 'network') return;
    if (p.host === undefined)
      ctx.addIssue({ code: 'custom', path: ['host'], message: `required for a network printer: ${HOST_RULE}` });
    if (p.port === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['port'],
        message: 'required for a network printer: a port number from 1 to 65535 (usually 9100)',
      });
  });

export const LANGS = ['id', 'en'] as const;
export type SettingsLang = (typeof LANGS)[number];
const langSchema = z.enum(LANGS, { error: "'id' (Bahasa Indonesia) or 'en' (English)" });

export const displaySettingsSchema = z
  .object({
    /** What the customer display shows between sales; empty: its own welcome, in the display's language. */
    idleMessage: line(0, 80),
    /** The customer display's language (customers may read another than the cashier). */
    lang: langSchema,
  })
  .strict();

export const accessSettingsSchema = z
  .object({
    requireCashierPin: z.boolean({ error: 'true or false' }),
    /** The manager screen locks itself after this many idle minutes. */
    managerIdleMinutes: wholeNumber(1, 60, 'a whole number of minutes from 1 to 60'),
  })
  .strict();

/** A store's own list: the catalogue's rules, plus at least one method the cashier can use. */
export const storeMethodsSchema = paymentCatalogueSchema.refine((methods) => methods.some((m) => m.enabled), {
  error: 'at least one payment method must be enabled (else the till cannot take payment)',
});

// ---------------------------------------------------------------- all settings

export const MODES = ['training', 'live'] as const;
export type LoketMode = (typeof MODES)[number];

export const RECEIPT_TEXT_RULE = 'at most 3 lines of at most 32 characters (what fits a 58 mm receipt)';

export const settingsSchema = z
  .object({
    /** training: the embedded sandbox, orders in training/loket.db; live: the configured gateway. */
    mode: z.enum(MODES, { error: "'training' or 'live'" }),
    storeName: line(1, 40),
    /** Printed under the store's name; may span lines. */
    storeAddress: lines('at most 120 characters on at most 3 lines', { maxLines: 3, total: 120 }).optional(),
    /** 1–8 capital letters or digits; the prefix of every merchant_transaction_id of this terminal. */
    terminalId: z
      .string({ error: 'must be 1 to 8 capital letters or digits' })
      .regex(/^[A-Z0-9]{1,8}$/, { error: 'must be 1 to 8 capital letters or digits' }),
    /** The store's zone: times are stored in UTC and shown in this zone. */
    timeZone: timeZoneSchema,
    /** Lines printed at the top and the bottom of every receipt ('' for none). */
    receiptHeader: lines(RECEIPT_TEXT_RULE, { maxLines: 3, lineWidth: 32 }),
    receiptFooter: lines(RECEIPT_TEXT_RULE, { maxLines: 3, lineWidth: 32 }),
    /** The store's language: receipts, and the screens' default. */
    lang: langSchema,
    display: displaySettingsSchema,
    printer: printerSettingsSchema,
    access: accessSettingsSchema,
    /** A second folder every backup is also copied to (a USB disk, a network share); null: none. */
    backup: z
      .object({
        copyTo: z
          .string({ error: 'an absolute folder path, or none' })
          .max(500, { error: 'at most 500 characters' })
          .refine((p) => /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(p), { error: 'an absolute folder path' })
          .nullable(),
      })
      .strict(),
    /** null: the bundled catalogue in resources/; a list: the store's own (after an import or an enable/disable). */
    paymentMethods: storeMethodsSchema.nullable(),
    /** The gateway for live mode; null: none configured yet (training mode only). */
    gateway: gatewaySettingsSchema.nullable(),
    callbackListener: callbackListenerSchema.nullable(),
    /** Deadline for methods whose answer has no expired_date. */
    fallbackTtlSeconds: kindSeconds,
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.mode === 'live' && s.gateway === null)
      ctx.addIssue({
        code: 'custom',
        path: ['mode'],
        message: 'live needs a configured gateway (set the gateway first)',
      });
  });

export type LoketSettings = z.infer<typeof settingsSchema>;
export type GatewaySettings = z.infer<typeof gatewaySettingsSchema>;
export type CallbackListenerSettings = z.infer<typeof callbackListenerSchema>;
export type PrinterSettings = z.infer<typeof printerSettingsSchema>;
export type DisplaySettings = z.infer<typeof displaySettingsSchema>;
export type AccessSettings = z.infer<typeof accessSettingsSchema>;

export const DEFAULT_GATEWAY_SETTINGS: Omit<GatewaySettings, 'baseUrl' | 'appId'> = {
  signing: { key: 'appkey', encoding: 'hex' },
  timeoutMs: 15_000,
  inquiryPath: null,
  timeZone: DEFAULT_GATEWAY_TIME_ZONE,
};

export const DEFAULT_CALLBACK_LISTENER: CallbackListenerSettings = {
  host: '127.0.0.1',
  port: 0,
  path: '/loket/callback',
};

export const DEFAULT_SETTINGS: LoketSettings = {
  mode: 'training',
  storeName: 'Toko Loket',
  terminalId: 'T01',
  timeZone: 'Asia/Jakarta',
  receiptHeader: '',
  receiptFooter: '',
  lang: 'id',
  display: { idleMessage: '', lang: 'id' },
  printer: { kind: 'none', paper: 58, autoPrint: false },
  access: { requireCashierPin: false, managerIdleMinutes: 5 },
  backup: { copyTo: null },
  paymentMethods: null,
  gateway: null,
  callbackListener: null,
  // Each kind's own (common/payment-kinds/): 15 min for QRIS and e-wallets, 10 for carrier billing, 24 h for codes.
  fallbackTtlSeconds: Object.fromEntries(PAYMENT_KINDS.map((k) => [k, kindSpec(k).lifetimeSeconds])) as Record<
    PaymentKind,
    number
  >,
};

// ---------------------------------------------------------------- problems in plain words

/**
 * One problem with a setting: `field` is its path (`gateway.baseUrl`), `message` names it and the rule (English:
 * the CLI and the log). A screen words the field's rule itself, from `field` and `params` (the rule's numbers);
 * a refusal that is not one field's rule (open orders, the switch to live) carries its `reason`.
 */
export interface SettingsIssue {
  field: string;
  message: string;
  params?: RuleParams;
  reason?: Reason;
}

/**
 * A zod error of these schemas as problems a manager can read: "storeName: 1 to 40 characters". `prefix`
 * is the path of the value that was parsed (['gateway'] for a gateway parsed alone). An unknown key is a
 * problem of its own, named by its full path.
 */
export function settingsIssues(error: z.ZodError, prefix: readonly (string | number)[] = []): SettingsIssue[] {
  const out: SettingsIssue[] = [];
  for (const issue of error.issues) {
    const path = [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const field = [...path, key].join('.');
        out.push({ field, message: `${field}: not a setting Loket knows` });
      }
      continue;
    }
    const field = path.length === 0 ? 'settings' : path.join('.');
    const params = issue.code === 'custom' ? ruleParams(issue.params) : undefined;
    out.push({ field, message: `${field}: ${issue.message}`, ...(params ? { params } : {}) });
  }
  return out;
}

/** The numbers a rule put on its issue (line, lines, wholeNumber above), and nothing else. */
function ruleParams(params: unknown): RuleParams | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const out: RuleParams = {};
  for (const key of ['min', 'max', 'maxLines', 'lineWidth'] as const) {
    const value = (params as Record<string, unknown>)[key];
    if (typeof value === 'number') out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
