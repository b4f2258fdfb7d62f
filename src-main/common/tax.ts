import { z } from 'zod';
import { mulDivHalfUp, requireSafeInteger } from './money-math';
import { characterCount, textLines } from './settings';
import type { RuleParams } from './reasons';
import { badTextReason } from './strict-json';

/**
 * Indonesian tax on a sale: the settings (the `tax` section of the store's settings), the tax categories of a
 * product, and the tax of one category's sum. docs/tax.md explains them with a worked example per case.
 *
 * Rates are whole basis points (1200 = 12%); the tax-base factor of PPN is a fraction `{ num, den }` (11/12). Every
 * figure is whole rupiah, rounded half-up (x.5 goes up) through money-math, so no float ever holds an amount.
 *
 * The formulas, for the sum S of one category's lines after every discount (r = PPN rate, n/d = DPP factor,
 * p = PBJT rate, s = service-charge rate, all in basis points; round = half-up to whole rupiah):
 *
 *   PPN of a price without tax N:      DPP(N) = round(N·n / d);  PPN(N) = round(DPP(N)·r / 10000)
 *   ppn category, prices exclude tax:  dpp = DPP(S);  ppn = PPN(S);  net = S;  pays S + ppn
 *   ppn category, prices include tax:  N = the largest price without tax with N + PPN(N) ≤ S
 *                                      dpp = DPP(N);  ppn = PPN(N);  net = S − ppn;  pays S
 *   pbjt category, PBJT on, include:   net = S − round(S·p / (10000 + p));  service = round(net·s / 10000)
 *                                      pbjt = (S − net) + round(service·p / 10000);  pays S + service + round(service·p / 10000)
 *   pbjt category, PBJT on, exclude:   service = round(S·s / 10000);  pbjt = round((S + service)·p / 10000);  net = S
 *                                      pays S + service + pbjt
 *   pbjt category, PBJT off:           service = round(S·s / 10000) (0 when the service charge is off); net = S;
 *                                      pays S + service
 *   exempt category:                   net = S; pays S
 *
 * In every case net + ppn + pbjt + service = what the category pays, to the rupiah. PBJT (the regional tax on
 * restaurant food and drink) replaces PPN for the pbjt category, so that category never carries PPN. DPP is PPN's
 * tax base: 0 for the categories without PPN.
 *
 * Why PPN is worked out from the DPP (rounded) and not from the price: the tax office's Coretax checks that the PPN of
 * an invoice is the rate times its DPP, to the rupiah, and a struk is a PKP store's tax invoice. Computing the PPN
 * from the price (round(S·r·n / (10000·d)), or the tax inside S) and the DPP beside it gives a PPN one rupiah off
 * the rate times the printed DPP on about 1 price in 40 (exclusive) or 1 in 10 (inclusive). With prices including
 * tax, N + PPN(N) skips some shelf prices (PPN(N) grows by 1 as N does, so N + PPN(N) grows by 2); for such an S
 * there is no N with N + PPN(N) = S, and the rupiah over (exactly 1) stays in the net: the customer still pays S,
 * PPN is still the rate times the DPP, and the DPP is that of net − 1 (docs/tax.md, "Rounding").
 *
 * Decided here (not in the lead's notes): the settings also hold `defaultCategory`, the category of a free-typed
 * line (ppn unless the store says otherwise), since it is a tax setting the cart needs beside the others.
 */

// ---------------------------------------------------------------- categories

export const TAX_CATEGORIES = ['ppn', 'pbjt', 'exempt'] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

export const TAX_CATEGORY_RULE =
  'ppn (ordinary goods: PPN), pbjt (restaurant food and drink: PBJT and the service charge) or exempt (no tax)';

export const taxCategorySchema = z.enum(TAX_CATEGORIES, { error: TAX_CATEGORY_RULE });

export function isTaxCategory(value: unknown): value is TaxCategory {
  return typeof value === 'string' && (TAX_CATEGORIES as readonly string[]).includes(value);
}

// ---------------------------------------------------------------- settings

const RATE_RULE = 'a whole number of basis points from 0 to 10000 (1200 = 12%)';
const rateBp = z
  .number({ error: RATE_RULE })
  .int({ error: RATE_RULE })
  .min(0, { error: RATE_RULE })
  .max(10_000, { error: RATE_RULE });

const FRACTION_RULE = 'whole numbers with 1 ≤ num ≤ den ≤ 10000 (11/12: the tax base is 11/12 of the price)';
const fractionPart = z
  .number({ error: FRACTION_RULE })
  .int({ error: FRACTION_RULE })
  .min(1, { error: FRACTION_RULE })
  .max(10_000, { error: FRACTION_RULE });
export const fractionSchema = z
  .object({ num: fractionPart, den: fractionPart })
  .strict()
  .refine((f) => f.num <= f.den, { error: FRACTION_RULE });

const ONOFF = 'on or off (true or false)';

/** `params`: the rule's numbers, for a screen's own words (SettingsIssue.params). */
function text(min: number, max: number, rule: string, params: RuleParams) {
  return z
    .string({ error: rule })
    .refine((s) => badTextReason(s) === undefined, {
      error: `${rule}, without control characters`,
      abort: true,
      params,
    })
    .refine((s) => s.trim() === s && characterCount(s) >= min && characterCount(s) <= max, { error: rule, params });
}

const SELLER_RULE = 'at most 60 characters on one line, without spaces at either end';
const ADDRESS_RULE = 'at most 120 characters on at most 3 lines';
const ADDRESS_PARAMS: RuleParams = { max: 120, maxLines: 3 };
const NPWP_RULE =
  "the NPWP's 15 or 16 digits, optionally with dots, dashes or spaces between them (01.234.567.8-901.000)";

/** An NPWP as written on a tax card: 15 digits (the old form) or 16 (the NIK-based form since 2024). */
export function isNpwp(value: string): boolean {
  if (!/^\d[\d.\- ]*\d$/.test(value)) return false;
  const digits = value.replace(/[.\- ]/g, '').length;
  return digits === 15 || digits === 16;
}

export const pkpSettingsSchema = z
  .object({
    /** The store is registered for VAT (Pengusaha Kena Pajak): its struk then serves as the tax invoice. */
    enabled: z.boolean({ error: ONOFF }).default(false),
    sellerName: text(0, 60, SELLER_RULE, { max: 60 }).default(''),
    address: z
      .string({ error: ADDRESS_RULE })
      .refine((s) => textLines(s).every((l) => badTextReason(l) === undefined), {
        error: `${ADDRESS_RULE}, without control characters`,
        abort: true,
        params: ADDRESS_PARAMS,
      })
      .refine((s) => textLines(s).length <= 3 && characterCount(s) <= 120, {
        error: ADDRESS_RULE,
        params: ADDRESS_PARAMS,
      })
      .default(''),
    npwp: z
      .string({ error: NPWP_RULE })
      .refine((s) => s === '' || isNpwp(s), { error: NPWP_RULE })
      .default(''),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (!p.enabled) return;
    const need = (field: 'sellerName' | 'address' | 'npwp', rule: string) => {
      if (p[field].trim() === '')
        ctx.addIssue({ code: 'custom', path: [field], message: `required for a PKP store: ${rule}` });
    };
    need('sellerName', 'the registered name, at most 60 characters');
    need('address', 'the registered address, at most 120 characters on at most 3 lines');
    need('npwp', NPWP_RULE);
  });

export const taxSettingsSchema = z
  .object({
    ppn: z
      .object({ rateBp: rateBp.default(1200), dpp: fractionSchema.default({ num: 11, den: 12 }) })
      .strict()
      .prefault({}),
    /** Shelf prices include the taxes (the default, as Indonesian shelf prices do), or the taxes are added. */
    pricesIncludeTax: z.boolean({ error: ONOFF }).default(true),
    pbjt: z
      .object({ enabled: z.boolean({ error: ONOFF }).default(false), rateBp: rateBp.default(1000) })
      .strict()
      .prefault({}),
    service: z
      .object({ enabled: z.boolean({ error: ONOFF }).default(false), rateBp: rateBp.default(500) })
      .strict()
      .prefault({}),
    pkp: pkpSettingsSchema.prefault({}),
    /** The category of a free-typed line. */
    defaultCategory: taxCategorySchema.default('ppn'),
  })
  .strict();

export type TaxSettings = z.infer<typeof taxSettingsSchema>;
export type PkpSettings = z.infer<typeof pkpSettingsSchema>;

/** PPN 12% × 11/12 (11% effective), prices include tax, PBJT off (10%), service charge off (5%), not PKP. */
export const DEFAULT_TAX_SETTINGS: TaxSettings = taxSettingsSchema.parse({});

/**
 * The tax settings a sale was computed with, as its store keeps them (JSON of a TaxSettings, written at the charge).
 * Parsed by today's schema, so a setting added since takes its default; a stored value that a rule made stricter
 * since would refuse is kept as it was written: it was valid then, and a sale's invoice is never rewritten.
 */
export function storedTaxSettings(json: string): TaxSettings {
  // Read with every view of a sale (each of a charge's events snapshots it): the few settings a store ever had are
  // parsed once each, not once per read.
  const known = storedSettingsSeen.get(json);
  if (known) return known;
  const raw = JSON.parse(json) as unknown;
  const parsed = taxSettingsSchema.safeParse(raw);
  const settings = parsed.success ? parsed.data : (raw as TaxSettings);
  if (storedSettingsSeen.size >= 64) storedSettingsSeen.clear();
  // Shared by every sale read with them: frozen, so no reader can change another's.
  storedSettingsSeen.set(json, deepFreeze(settings));
  return settings;
}
const storedSettingsSeen = new Map<string, TaxSettings>();

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

// ---------------------------------------------------------------- one category's tax

/** The tax of one category's lines, from their sum S after discounts. */
export interface CategoryTax {
  category: TaxCategory;
  /** S: the category's lines after line and sale discounts, at shelf price. */
  sum: number;
  /** The amount without tax and service: S − ppn (prices include tax), S − the PBJT in S, or S. */
  net: number;
  /** PPN's tax base (DPP), printed on the struk; 0 for the categories without PPN. */
  dpp: number;
  ppn: number;
  pbjt: number;
  service: number;
  /** What the customer pays for the category: net + ppn + pbjt + service. */
  total: number;
}

/**
 * The DPP and PPN of a price without tax (a safe integer ≥ 0): DPP = round(price × n/d), PPN = round(DPP × rate),
 * so the PPN is always the rate times the DPP as printed, which is what Coretax checks.
 */
export function ppnOf(price: number, ppn: TaxSettings['ppn']): { dpp: number; ppn: number } {
  const dpp = mulDivHalfUp(price, ppn.dpp.num, ppn.dpp.den);
  return { dpp, ppn: mulDivHalfUp(dpp, ppn.rateBp, 10_000) };
}

/**
 * The price without tax inside a shelf price S that includes PPN: the largest N with N + PPN(N) ≤ S. It starts from
 * the exact share, S − round(S·r·n / (10000·d + r·n)), which is within 3 of N (N + PPN(N) is within 1 of
 * N·(1 + r·n / (10000·d))), and steps to N; N + PPN(N) grows with N, so the steps are few and the answer unique.
 */
export function priceWithoutTax(shelfPrice: number, ppn: TaxSettings['ppn']): number {
  requireSafeInteger('priceWithoutTax', 'shelfPrice', shelfPrice);
  const S = shelfPrice;
  const rn = ppn.rateBp * ppn.dpp.num;
  const withTax = (n: number) => n + ppnOf(n, ppn).ppn;
  let n = S - mulDivHalfUp(S, rn, 10_000 * ppn.dpp.den + rn);
  while (n > 0 && withTax(n) > S) n--;
  while (n < S && withTax(n + 1) <= S) n++;
  return n;
}

/** The tax of a category whose lines sum to `sum` (a safe integer ≥ 0), under `settings`. */
export function categoryTax(category: TaxCategory, sum: number, settings: TaxSettings): CategoryTax {
  requireSafeInteger('categoryTax', 'sum', sum);
  const S = sum;
  const zero = { category, sum: S, net: S, dpp: 0, ppn: 0, pbjt: 0, service: 0, total: S };
  const include = settings.pricesIncludeTax;
  if (category === 'ppn') {
    if (!include) {
      const t = ppnOf(S, settings.ppn);
      return { ...zero, dpp: t.dpp, ppn: t.ppn, total: S + t.ppn };
    }
    const t = ppnOf(priceWithoutTax(S, settings.ppn), settings.ppn);
    return { ...zero, net: S - t.ppn, dpp: t.dpp, ppn: t.ppn, total: S };
  }
  if (category === 'pbjt') {
    const s = settings.service.enabled ? settings.service.rateBp : 0;
    if (!settings.pbjt.enabled) {
      const service = mulDivHalfUp(S, s, 10_000);
      return { ...zero, service, total: S + service };
    }
    const p = settings.pbjt.rateBp;
    if (include) {
      const net = S - mulDivHalfUp(S, p, 10_000 + p);
      const service = mulDivHalfUp(net, s, 10_000);
      const onService = mulDivHalfUp(service, p, 10_000);
      return { ...zero, net, pbjt: S - net + onService, service, total: S + service + onService };
    }
    const service = mulDivHalfUp(S, s, 10_000);
    const pbjt = mulDivHalfUp(S + service, p, 10_000);
    return { ...zero, pbjt, service, total: S + service + pbjt };
  }
  return zero;
}

/**
 * A percentage as people type it — "12", "12%", "12.5", "12,5" (the Indonesian decimal comma), at most two decimals —
 * as basis points (1200, 1250); undefined for anything else. The CLI's flags and the manager's Tax screen read rates
 * with it, so a rate reads the same wherever it is typed; the range (0 to 100%) is the settings schema's rule.
 */
export function parsePercentBp(text: string): number | undefined {
  const m = /^(\d{1,3})(?:[.,](\d{1,2}))?\s*%?$/.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** A rate in basis points as people write it: 1200 → "12%", 1250 → "12.5%", 1 → "0.01%". */
export function formatRateBp(bp: number): string {
  requireSafeInteger('formatRateBp', 'bp', bp);
  const whole = Math.floor(bp / 100);
  const cents = bp % 100;
  if (cents === 0) return `${whole}%`;
  return `${whole}.${String(cents).padStart(2, '0').replace(/0$/, '')}%`;
}
