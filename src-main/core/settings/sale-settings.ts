import { cashSettingsSchema, DEFAULT_CASH_SETTINGS, type CashSettings } from '../../common/cash';
import { DEFAULT_DISCOUNT_LIMITS, discountLimitsSchema, type DiscountLimits } from '../../common/sale-totals';
import { settingsIssues, type SettingsIssue } from '../../common/settings';
import { DEFAULT_TAX_SETTINGS, taxSettingsSchema, type TaxSettings } from '../../common/tax';
import type { SaleSettings } from '../../common/manager';
import type { AuditActor } from '../audit/audit-log';
import type { SettingsBooks } from './save-change';
import type { SettingsStore } from './settings-store';

export type { SaleSettings } from '../../common/manager';

/**
 * The sale's settings, each its own key of the settings table (beside `settings`): `tax` (common/tax.ts: PPN, prices
 * with or without tax, PBJT, the service charge, PKP, the default category), `cash` (common/cash.ts: the cash
 * rounding, the pay-out limit) and `discounts` (common/sale-totals.ts: the limits above which a manager's PIN is
 * needed). Kept apart from `settings` so that a store's older settings need no change; none stored: the defaults.
 * Stored values that are not valid are an error naming each problem, never silently replaced (as `settings` are).
 */

export const TAX_KEY = 'tax';
export const CASH_KEY = 'cash';
export const DISCOUNTS_KEY = 'discounts';

function load<T>(
  store: SettingsStore,
  key: string,
  parse: (v: unknown) => { success: boolean; data?: T; error?: unknown },
  fallback: T,
): T {
  const stored = store.get<unknown>(key);
  if (stored === undefined) return fallback;
  const parsed = parse(stored);
  if (!parsed.success) {
    const problems = settingsIssues(parsed.error as never, [key])
      .map((i) => i.message)
      .join('; ');
    throw new Error(
      `the stored ${key} settings are not valid (${problems}); set them again with npm run cli -- config set-tax`,
    );
  }
  return parsed.data as T;
}

export function loadTaxSettings(store: SettingsStore): TaxSettings {
  return load(store, TAX_KEY, (v) => taxSettingsSchema.safeParse(v), DEFAULT_TAX_SETTINGS);
}

export function loadCashSettings(store: SettingsStore): CashSettings {
  return load(store, CASH_KEY, (v) => cashSettingsSchema.safeParse(v), DEFAULT_CASH_SETTINGS);
}

export function loadDiscountLimits(store: SettingsStore): DiscountLimits {
  return load(store, DISCOUNTS_KEY, (v) => discountLimitsSchema.safeParse(v), DEFAULT_DISCOUNT_LIMITS);
}

export function loadSaleSettings(store: SettingsStore): SaleSettings {
  return { tax: loadTaxSettings(store), cash: loadCashSettings(store), discounts: loadDiscountLimits(store) };
}

export type SaleSettingsChange =
  { ok: true; before: SaleSettings; after: SaleSettings; changed: string[] } | { ok: false; issues: SettingsIssue[] };

/**
 * Checks a change to the sale's settings (a partial object per section, merged over what is stored) and, when valid,
 * stores it. `changed` lists the fields that changed (`tax.ppn.rateBp`), for the audit log.
 */
export function changeSaleSettings(store: SettingsStore, patch: SaleSettingsPatch): SaleSettingsChange {
  const before = loadSaleSettings(store);
  const issues: SettingsIssue[] = [];
  const merge = (a: unknown, b: unknown): unknown =>
    isObject(a) && isObject(b)
      ? Object.fromEntries(
          [...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, k in b ? merge(a[k], b[k]) : a[k]]),
        )
      : b;
  const tax = taxSettingsSchema.safeParse(merge(before.tax, patch.tax ?? {}));
  if (!tax.success) issues.push(...settingsIssues(tax.error, ['tax']));
  const cash = cashSettingsSchema.safeParse(merge(before.cash, patch.cash ?? {}));
  if (!cash.success) issues.push(...settingsIssues(cash.error, ['cash']));
  const discounts = discountLimitsSchema.safeParse(merge(before.discounts, patch.discounts ?? {}));
  if (!discounts.success) issues.push(...settingsIssues(discounts.error, ['discounts']));
  if (!tax.success || !cash.success || !discounts.success) return { ok: false, issues };
  const after: SaleSettings = { tax: tax.data, cash: cash.data, discounts: discounts.data };
  const changed = diffPaths(before, after);
  if (changed.some((f) => f.startsWith('tax.'))) store.set(TAX_KEY, after.tax);
  if (changed.some((f) => f.startsWith('cash.'))) store.set(CASH_KEY, after.cash);
  if (changed.some((f) => f.startsWith('discounts.'))) store.set(DISCOUNTS_KEY, after.discounts);
  return { ok: true, before, after, changed };
}

/** A change to the sale's settings: a partial object per section. */
export interface SaleSettingsPatch {
  tax?: Record<string, unknown>;
  cash?: Record<string, unknown>;
  discounts?: Record<string, unknown>;
}

/**
 * Checks, stores and audits a change to the sale's settings in one IMMEDIATE transaction (or inside the caller's):
 * each changed field is one `settings.changed` entry (its path, from and to), written with the change or not at all.
 * The one way both the CLI's `config set-tax` and the manager's Tax screen change them, so a change reads the same
 * in the audit log whoever made it; a refusal changes nothing and names each field with its rule.
 */
export function saveSaleSettings(
  books: SettingsBooks,
  actor: AuditActor,
  patch: SaleSettingsPatch,
): SaleSettingsChange {
  const write = books.db.transaction((): SaleSettingsChange => {
    const result = changeSaleSettings(books.settings, patch);
    if (!result.ok) return result;
    for (const field of result.changed)
      books.audit.record({
        actor,
        action: 'settings.changed',
        field,
        detail: { from: valueAt(result.before, field), to: valueAt(result.after, field) },
      });
    return result;
  });
  return books.db.inTransaction ? write() : write.immediate();
}

function valueAt(root: unknown, path: string): unknown {
  let v: unknown = root;
  for (const key of path.split('.')) v = (v as Record<string, unknown> | undefined)?.[key];
  return v ?? null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The paths of the leaves that differ between a and b. */
export function diffPaths(a: unknown, b: unknown, prefix = ''): string[] {
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => diffPaths(a[k], b[k], prefix === '' ? k : `${prefix}.${k}`));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [prefix];
}
