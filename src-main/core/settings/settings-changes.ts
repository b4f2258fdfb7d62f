import type { PaymentMethod } from '../../common/payment-methods';
import {
  DEFAULT_CALLBACK_LISTENER,
  DEFAULT_GATEWAY_SETTINGS,
  MODES,
  gatewayTransportProblem,
  settingsIssues,
  settingsSchema,
  storeMethodsSchema,
  type LoketMode,
  type LoketSettings,
  type SettingsIssue,
  type SettingsLang,
} from '../../common/settings';
import { reason, type Reason } from '../../common/reasons';
import { enableMethod } from './method-import';

/**
 * The manager's changes to the settings, as pure functions: the current settings and one section's patch in,
 * the next settings and the list of fields that changed out (what the caller stores and audits), or every
 * problem with the field it is about. Nothing here reads or writes anything; the caller stores `next`.
 *
 * Field names are paths in `LoketSettings` (`storeName`, `gateway.baseUrl`, `printer.port`). The changed list
 * never holds a secret: secrets are not settings (the appkey and signing secret live in the SecretStore), and
 * URL values are audited with any query values masked, in case a relay's address carries a token.
 */
export interface FieldChange {
  field: string;
  /** null where the field was absent. */
  from: unknown;
  /** null where the field is now absent. */
  to: unknown;
}

export type ChangeResult =
  { ok: true; next: LoketSettings; changed: FieldChange[] } | { ok: false; issues: SettingsIssue[] };

export type SettingsSection = 'store' | 'gateway' | 'printer' | 'display' | 'language' | 'access' | 'backup';
export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  'store',
  'gateway',
  'printer',
  'display',
  'language',
  'access',
  'backup',
];

// ---------------------------------------------------------------- patches (every field optional; null clears an optional one)

export interface StorePatch {
  storeName?: string;
  /** null or '' removes it. */
  storeAddress?: string | null;
  terminalId?: string;
  timeZone?: string;
  /** '' for none. */
  receiptHeader?: string;
  receiptFooter?: string;
}

export interface CallbackListenerPatch {
  host?: string;
  port?: number;
  path?: string;
  /** The `notification_url` the gateway calls; null or '' removes it (the listener's own URL is used). */
  publicUrl?: string | null;
}

/** Over the configured gateway, or, where none is configured yet, over defaults (then baseUrl and appId are needed). */
export interface GatewayPatch {
  baseUrl?: string;
  appId?: string;
  signing?: { key?: 'appkey' | 'secret'; encoding?: 'hex' | 'base64' };
  timeoutMs?: number;
  /** null: the gateway has no status inquiry (polling and the inquiry probe are off). */
  inquiryPath?: string | null;
  /** The zone of the gateway's `expired_date`. */
  timeZone?: string;
  /** null: no callback listener of its own. */
  callbackListener?: CallbackListenerPatch | null;
  /** Live mode over a plain http:// address (not this machine's): the manager allows it on purpose. */
  allowHttp?: boolean;
}

export interface PrinterPatch {
  kind?: 'none' | 'network' | 'system';
  host?: string | null;
  port?: number | null;
  paper?: 58 | 80;
  systemName?: string | null;
}

export interface DisplayPatch {
  idleMessage?: string;
  lang?: SettingsLang;
}

export interface LanguagePatch {
  lang: SettingsLang;
}

export interface AccessPatch {
  requireCashierPin?: boolean;
  managerIdleMinutes?: number;
}

export interface BackupPatch {
  /** null or '' turns the second copy off. */
  copyTo?: string | null;
}

export interface SectionPatches {
  store: StorePatch;
  /** null removes the gateway (refused in live mode). */
  gateway: GatewayPatch | null;
  printer: PrinterPatch;
  display: DisplayPatch;
  language: LanguagePatch;
  access: AccessPatch;
  backup: BackupPatch;
}

const PATCH_KEYS: Record<SettingsSection, readonly string[]> = {
  store: ['storeName', 'storeAddress', 'terminalId', 'timeZone', 'receiptHeader', 'receiptFooter'],
  gateway: ['baseUrl', 'appId', 'signing', 'timeoutMs', 'inquiryPath', 'timeZone', 'callbackListener', 'allowHttp'],
  printer: ['kind', 'host', 'port', 'paper', 'systemName', 'autoPrint'],
  display: ['idleMessage', 'lang'],
  language: ['lang'],
  access: ['requireCashierPin', 'managerIdleMinutes'],
  backup: ['copyTo'],
};

/** The settings fields each section owns: the changed list is the difference over these. */
const SECTION_FIELDS: Record<SettingsSection, readonly (keyof LoketSettings)[]> = {
  store: ['storeName', 'storeAddress', 'terminalId', 'timeZone', 'receiptHeader', 'receiptFooter'],
  gateway: ['gateway', 'callbackListener'],
  printer: ['printer'],
  display: ['display'],
  language: ['lang'],
  access: ['access'],
  backup: ['backup'],
};

// ---------------------------------------------------------------- one function per section

export const changeStore = (current: LoketSettings, patch: StorePatch): ChangeResult =>
  changeSection(current, 'store', patch);
export const changeGateway = (current: LoketSettings, patch: GatewayPatch | null): ChangeResult =>
  changeSection(current, 'gateway', patch);
export const changePrinter = (current: LoketSettings, patch: PrinterPatch): ChangeResult =>
  changeSection(current, 'printer', patch);
export const changeDisplay = (current: LoketSettings, patch: DisplayPatch): ChangeResult =>
  changeSection(current, 'display', patch);
export const changeLanguage = (current: LoketSettings, patch: LanguagePatch): ChangeResult =>
  changeSection(current, 'language', patch);
export const changeAccess = (current: LoketSettings, patch: AccessPatch): ChangeResult =>
  changeSection(current, 'access', patch);

/**
 * One section's change. `patch` may come straight from an HTTP body or the CLI: its shape is checked here
 * (unknown keys are problems), its values by the settings schema after merging, so a rule reads the same
 * wherever it is broken.
 */
export function changeSection(current: LoketSettings, section: SettingsSection, patch: unknown): ChangeResult {
  if (!SETTINGS_SECTIONS.includes(section))
    return refuse('section', `section: one of ${SETTINGS_SECTIONS.join(', ')} (got ${JSON.stringify(section)})`);
  if (section === 'gateway' && patch === null) return removeGateway(current);
  if (!isPlainObject(patch)) return refuse(section, `${section}: the changes must be an object of fields`);
  const unknown = unknownKeys(patch, PATCH_KEYS[section], section === 'gateway' ? 'gateway' : sectionPath(section));
  if (unknown.length > 0) return { ok: false, issues: unknown };

  const draft = structuredClone(current) as Record<string, unknown>;
  switch (section) {
    case 'store':
      for (const [key, value] of Object.entries(patch)) {
        if (key === 'storeAddress' && (value === null || value === '')) delete draft.storeAddress;
        else draft[key] = ['storeName', 'terminalId', 'timeZone'].includes(key) ? trimmed(value) : value;
      }
      break;
    case 'gateway': {
      const { callbackListener, signing, ...fields } = patch;
      const gateway: Record<string, unknown> = { ...(current.gateway ?? DEFAULT_GATEWAY_SETTINGS) };
      for (const [key, value] of Object.entries(fields)) {
        if (key === 'baseUrl' && typeof value === 'string') gateway.baseUrl = value.trim().replace(/\/+$/, '');
        else if (key === 'inquiryPath' && (value === '' || value === null)) gateway.inquiryPath = null;
        else gateway[key] = key === 'appId' || key === 'timeZone' ? trimmed(value) : value;
      }
      if (signing !== undefined) {
        if (!isPlainObject(signing)) return refuse('gateway.signing', 'gateway.signing: an object { key, encoding }');
        const bad = unknownKeys(signing, ['key', 'encoding'], 'gateway.signing');
        if (bad.length > 0) return { ok: false, issues: bad };
        gateway.signing = { ...(gateway.signing as object), ...signing };
      }
      draft.gateway = gateway;
      if (callbackListener === null) draft.callbackListener = null;
      else if (callbackListener !== undefined) {
        if (!isPlainObject(callbackListener))
          return refuse('callbackListener', 'callbackListener: an object { host, port, path, publicUrl }, or none');
        const bad = unknownKeys(callbackListener, ['host', 'port', 'path', 'publicUrl'], 'callbackListener');
        if (bad.length > 0) return { ok: false, issues: bad };
        const listener: Record<string, unknown> = { ...(current.callbackListener ?? DEFAULT_CALLBACK_LISTENER) };
        for (const [key, value] of Object.entries(callbackListener)) {
          if (key === 'publicUrl' && (value === null || value === '')) delete listener.publicUrl;
          else listener[key] = typeof value === 'string' ? value.trim() : value;
        }
        draft.callbackListener = listener;
      }
      break;
    }
    case 'printer': {
      const printer: Record<string, unknown> = { ...current.printer };
      for (const [key, value] of Object.entries(patch)) {
        if (value === null || (value === '' && key !== 'kind')) delete printer[key];
        else printer[key] = key === 'host' || key === 'systemName' ? trimmed(value) : value;
      }
      draft.printer = printer;
      break;
    }
    case 'display':
      draft.display = { ...current.display, ...patch };
      break;
    case 'language':
      if (!('lang' in patch)) return refuse('lang', "lang: required, 'id' (Bahasa Indonesia) or 'en' (English)");
      draft.lang = patch.lang;
      break;
    case 'access':
      draft.access = { ...current.access, ...patch };
      break;
    case 'backup':
      draft.backup = { copyTo: patch.copyTo === '' || patch.copyTo === null ? null : trimmed(patch.copyTo) };
      break;
  }
  const result = validated(current, draft, SECTION_FIELDS[section]);
  // Live mode keeps to TLS unless the manager allows plain http on purpose (see gatewayTransportProblem).
  const transport =
    result.ok && result.next.mode === 'live' && result.next.gateway && gatewayTransportProblem(result.next.gateway);
  if (transport) return refuse('gateway.baseUrl', transport);
  return result;
}

function removeGateway(current: LoketSettings): ChangeResult {
  if (current.mode === 'live')
    return refuse(
      'gateway',
      'gateway: cannot be removed in live mode: switch to training first, then remove the gateway',
      reason('settings.remove_gateway_live'),
    );
  if (current.gateway === null) return { ok: true, next: current, changed: [] };
  return validated(current, { ...current, gateway: null }, SECTION_FIELDS.gateway);
}

// ---------------------------------------------------------------- training ↔ live

/**
 * Training ↔ live. Either way is refused while any order is open (creating, awaiting_payment or unknown): its
 * confirmation would arrive in the other mode's books. To live also needs a configured gateway and `confirm`
 * equal to that gateway's base URL (the manager types the gateway's address: a switch that names where real
 * money will go, not a click). Switching to the mode already set is no change.
 *
 * It does not check the credentials: test the connection (core/gateway/probe.ts) before offering the switch.
 */
export function modeSwitch(current: LoketSettings, to: LoketMode, openOrders: number, confirm: string): ChangeResult {
  if (!MODES.includes(to)) return refuse('mode', `mode: 'training' or 'live' (got ${JSON.stringify(to)})`);
  if (to === current.mode) return { ok: true, next: current, changed: [] };
  const issues: SettingsIssue[] = [];
  if (!Number.isInteger(openOrders) || openOrders < 0)
    throw new TypeError(`modeSwitch: openOrders must be a count of orders (got ${openOrders})`);
  if (openOrders > 0) {
    const orders = openOrders === 1 ? '1 order is' : `${openOrders} orders are`;
    issues.push({
      field: 'mode',
      message:
        `mode: ${orders} still open (being created, awaiting payment or unknown) in ${current.mode} mode; ` +
        `finish ${openOrders === 1 ? 'it' : 'them'} first: wait for payment or expiry, cancel, or resolve the unknown ` +
        `ones in the order list, then switch to ${to}`,
      reason: reason('mode.open_orders', { count: openOrders, mode: current.mode, to }),
    });
  }
  if (to === 'live') {
    const gateway = current.gateway;
    if (gateway === null) {
      issues.push({
        field: 'gateway',
        message:
          'gateway: live mode needs a gateway: set its base URL, appid and appkey first, and test the connection',
        reason: reason('mode.needs_gateway'),
      });
    } else if (normaliseUrl(confirm) !== normaliseUrl(gateway.baseUrl)) {
      issues.push({
        field: 'confirm',
        message: `confirm: to switch to live, type the gateway's base URL exactly: ${gateway.baseUrl}`,
        reason: reason('mode.confirm', { baseUrl: gateway.baseUrl }),
      });
    }
    const transport = gateway && gatewayTransportProblem(gateway);
    if (transport) issues.push({ field: 'gateway.baseUrl', message: transport });
  }
  if (issues.length > 0) return { ok: false, issues };
  return validated(current, { ...current, mode: to }, ['mode']);
}

// ---------------------------------------------------------------- payment methods

/**
 * Enables or disables one method of the store's list; the first change copies the bundled catalogue
 * (`bundled`) into the settings, so the store's list is what the cashier sees from then on.
 */
export function toggleMethod(
  current: LoketSettings,
  bundled: readonly PaymentMethod[],
  id: string,
  enabled: boolean,
): ChangeResult {
  const from = current.paymentMethods ?? bundled;
  const result = enableMethod(from, id, enabled);
  if (!result.ok) return result;
  if (!result.changed) return { ok: true, next: current, changed: [] };
  const checked = validated(current, { ...current, paymentMethods: result.methods }, []);
  if (!checked.ok) return checked;
  return { ...checked, changed: [{ field: `paymentMethods.${id}.enabled`, from: !enabled, to: enabled }] };
}

/** The store's list replaced by an imported one (see method-import.ts); audited as a summary, not every row. */
export function replaceMethods(current: LoketSettings, methods: readonly PaymentMethod[]): ChangeResult {
  const parsed = storeMethodsSchema.safeParse(methods);
  if (!parsed.success) return { ok: false, issues: settingsIssues(parsed.error, ['paymentMethods']) };
  return methodListChange(current, parsed.data);
}

/** Back to the bundled catalogue of resources/. */
export function resetMethods(current: LoketSettings): ChangeResult {
  if (current.paymentMethods === null) return { ok: true, next: current, changed: [] };
  return methodListChange(current, null);
}

function methodListChange(current: LoketSettings, methods: PaymentMethod[] | null): ChangeResult {
  const checked = validated(current, { ...current, paymentMethods: methods }, []);
  if (!checked.ok) return checked;
  const summary = (list: readonly PaymentMethod[] | null) =>
    list === null ? null : { ids: list.map((m) => m.id), enabled: list.filter((m) => m.enabled).map((m) => m.id) };
  const same = JSON.stringify(current.paymentMethods) === JSON.stringify(checked.next.paymentMethods);
  return {
    ...checked,
    changed: same ? [] : [{ field: 'paymentMethods', from: summary(current.paymentMethods), to: summary(methods) }],
  };
}

// ---------------------------------------------------------------- helpers

function validated(current: LoketSettings, draft: unknown, fields: readonly (keyof LoketSettings)[]): ChangeResult {
  const parsed = settingsSchema.safeParse(draft);
  if (!parsed.success) return { ok: false, issues: settingsIssues(parsed.error) };
  const next = parsed.data;
  const changed: FieldChange[] = [];
  for (const field of fields) diff(current[field], next[field], field, changed);
  return { ok: true, next, changed };
}

/** Leaf-by-leaf differences of two settings values; an object that appears or goes lists its leaves. */
function diff(a: unknown, b: unknown, path: string, out: FieldChange[]): void {
  if (isPlainObject(a) || isPlainObject(b)) {
    if ((a === null || a === undefined || isPlainObject(a)) && (b === null || b === undefined || isPlainObject(b))) {
      const x = (a ?? {}) as Record<string, unknown>;
      const y = (b ?? {}) as Record<string, unknown>;
      for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) diff(x[key], y[key], `${path}.${key}`, out);
      return;
    }
  }
  if (JSON.stringify(a ?? null) !== JSON.stringify(b ?? null))
    out.push({ field: path, from: auditValue(path, a), to: auditValue(path, b) });
}

/** URL values are audited with their query values masked (a relay's address may carry a token). */
function auditValue(field: string, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && /Url$/.test(field)) {
    const q = value.indexOf('?');
    if (q < 0) return value;
    const [query, hash = ''] = value.slice(q + 1).split('#', 2) as [string, string?];
    const masked = query
      .split('&')
      .map((pair) => (pair.includes('=') ? `${pair.slice(0, pair.indexOf('='))}=***` : pair))
      .join('&');
    return `${value.slice(0, q)}?${masked}${hash ? `#${hash}` : ''}`;
  }
  return value;
}

function normaliseUrl(url: unknown): string {
  return typeof url === 'string' ? url.trim().replace(/\/+$/, '') : '';
}

function trimmed(value: unknown): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sectionPath(section: SettingsSection): string {
  return section === 'store' || section === 'language' ? '' : section;
}

function unknownKeys(patch: Record<string, unknown>, allowed: readonly string[], at: string): SettingsIssue[] {
  return Object.keys(patch)
    .filter((k) => !allowed.includes(k))
    .map((k) => {
      const field = at === '' ? k : `${at}.${k}`;
      return {
        field,
        message: `${field}: not a setting Loket knows (this section has: ${allowed.join(', ')})`,
        reason: reason('settings.unknown_field', { field }),
      };
    });
}

function refuse(field: string, message: string, why?: Reason): ChangeResult {
  return { ok: false, issues: [{ field, message, ...(why ? { reason: why } : {}) }] };
}
