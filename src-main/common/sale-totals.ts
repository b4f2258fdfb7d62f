import { z } from 'zod';
import { formatRupiah } from './money';
import { allocateLargestRemainder, mulDivFloor, mulDivHalfUp } from './money-math';
import {
  DISCOUNT_AMOUNT_RULE,
  MAX_QTY,
  MAX_UNIT_PRICE,
  PERCENT_RULE,
  QTY_RULE,
  UNIT_PRICE_RULE,
  type Discount,
} from './sale-line';
import { settingsIssues } from './settings';
import {
  TAX_CATEGORIES,
  TAX_CATEGORY_RULE,
  categoryTax,
  formatRateBp,
  isTaxCategory,
  taxSettingsSchema,
  type CategoryTax,
  type TaxCategory,
  type TaxSettings,
} from './tax';

/**
 * The figures of a sale: `computeSale(lines, saleDiscount, taxSettings)`. Pure and total: every input gives either
 * the figures or a list of issues, each naming its field and rule. Core uses it to store a sale's figures (the stored
 * figures are the truth; the server recomputes, never trusting the renderer's), the renderer to show them.
 *
 * For each line:
 *   gross         = unitPrice × qty
 *   lineDiscount  = the amount, or round(gross × valueBp / 10000); never above gross (a larger amount is an issue)
 *   saleDiscount  = the line's share of the sale discount (below)
 *   net           = gross − lineDiscount − saleDiscount  (what the line sells for, at shelf price)
 *   total         = the line's share of its tax category's total (what the customer pays for it, taxes and
 *                   service included); Σ line totals = the sale's total. Refunds are computed from it.
 * The sale discount is an amount, or round(Σ (gross − lineDiscount) × valueBp / 10000) (a percentage of the sum
 * after line discounts); it is shared over the lines in proportion to (gross − lineDiscount) by largest remainder,
 * ties to the earlier line, so the shares sum to it exactly and none takes a line below 0.
 *
 * Per tax category: S = Σ net of its lines, then tax.ts's `categoryTax` (each figure rounded half-up). For the sale:
 *   subtotal = Σ gross;  discounts = Σ lineDiscount + saleDiscount;  Σ S = subtotal − discounts
 *   net, dpp, ppn, pbjt, service = Σ over categories;  total = net + ppn + pbjt + service = Σ category totals.
 * Every figure is a whole number of rupiah. "Rounded" is half-up (x.5 goes up), through money-math.
 *
 * Decided here: the sum of a sale's gross is at most Rp10.000.000.000.000 (ten trillion), which keeps every figure,
 * taxes added, well below 2^53; an empty sale is valid (every figure 0); a line's id must be unique in the sale.
 * Line totals (what a line costs with its taxes) are not in the lead's notes: refunds need them, because with taxes
 * added or a service charge the customer paid more than the line's net.
 */

export const MAX_SALE_SUM = 10_000_000_000_000;

/** What computeSale reads of a line (a full SaleLine has these and more). */
export interface SaleLineAmounts {
  lineId: string;
  unitPrice: number;
  qty: number;
  taxCategory: TaxCategory;
  discount?: Discount | undefined;
}

export interface LineFigures {
  lineId: string;
  taxCategory: TaxCategory;
  qty: number;
  gross: number;
  lineDiscount: number;
  saleDiscount: number;
  net: number;
  total: number;
}

export interface SaleFigures {
  lines: LineFigures[];
  /** The categories the sale has lines of, in the order ppn, pbjt, exempt. */
  categories: CategoryTax[];
  subtotal: number;
  lineDiscounts: number;
  saleDiscount: number;
  discounts: number;
  /** Σ net of the lines: the sale after discounts, at shelf price (Σ of the categories' S). */
  afterDiscounts: number;
  /** The tax base: Σ of the categories' net (without PPN, PBJT and service). */
  net: number;
  dpp: number;
  ppn: number;
  pbjt: number;
  service: number;
  total: number;
}

export type SaleRule =
  'lines' | 'line_id' | 'unit_price' | 'qty' | 'tax_category' | 'discount' | 'sale_discount' | 'too_large' | 'settings';

export interface SaleIssue {
  /** The path of the field: `lines[2].qty`, `saleDiscount`, `tax.ppn.rateBp`. */
  field: string;
  rule: SaleRule;
  /** For a person: "line 3, qty: a whole number from 1 to 9999 (got 0)". Lines are counted from 1. */
  message: string;
}

export type SaleResult = { ok: true; sale: SaleFigures } | { ok: false; issues: SaleIssue[] };

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));
const isWhole = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** A discount's problem against `base`, or undefined; `at` names it for a person ("line 3, discount"). */
function discountProblem(d: unknown, base: number, at: string, of: string): string | undefined {
  if (typeof d !== 'object' || d === null) return `${at}: an amount or a percentage (got ${show(d)})`;
  const disc = d as { kind?: unknown; value?: unknown; valueBp?: unknown };
  if (disc.kind === 'amount') {
    if (!isWhole(disc.value, 0, Number.MAX_SAFE_INTEGER))
      return `${at}: ${DISCOUNT_AMOUNT_RULE} (got ${show(disc.value)})`;
    if (disc.value > base) return `${at}: at most ${of} ${formatRupiah(base)} (got ${formatRupiah(disc.value)})`;
    return undefined;
  }
  if (disc.kind === 'percent')
    return isWhole(disc.valueBp, 0, 10_000) ? undefined : `${at}: ${PERCENT_RULE} (got ${show(disc.valueBp)})`;
  return `${at}: kind is 'amount' or 'percent' (got ${show(disc.kind)})`;
}

function discountAmount(d: Discount, base: number): number {
  return d.kind === 'amount' ? d.value : mulDivHalfUp(base, d.valueBp, 10_000);
}

export function computeSale(
  lines: readonly SaleLineAmounts[],
  saleDiscount: Discount | null | undefined,
  settings: TaxSettings,
): SaleResult {
  const issues: SaleIssue[] = [];
  const parsedSettings = taxSettingsSchema.safeParse(settings);
  if (!parsedSettings.success)
    for (const i of settingsIssues(parsedSettings.error, ['tax']))
      issues.push({ field: i.field, rule: 'settings', message: i.message });
  if (!Array.isArray(lines))
    return { ok: false, issues: [...issues, { field: 'lines', rule: 'lines', message: 'lines: a list of lines' }] };

  const seen = new Set<string>();
  const gross: number[] = [];
  const afterLine: number[] = [];
  const lineDiscounts: number[] = [];
  let subtotal = 0;
  for (const [i, line] of lines.entries()) {
    const at = (f: string) => `line ${i + 1}, ${f}`;
    const field = (f: string) => `lines[${i}].${f}`;
    if (typeof line !== 'object' || line === null) {
      issues.push({ field: `lines[${i}]`, rule: 'lines', message: `line ${i + 1}: a line (got ${show(line)})` });
      continue;
    }
    if (typeof line.lineId !== 'string' || line.lineId === '')
      issues.push({ field: field('lineId'), rule: 'line_id', message: `${at('lineId')}: must not be empty` });
    else if (seen.has(line.lineId))
      issues.push({
        field: field('lineId'),
        rule: 'line_id',
        message: `${at('lineId')}: ${show(line.lineId)} is used by an earlier line; each line has its own id`,
      });
    else seen.add(line.lineId);
    const priceOk = isWhole(line.unitPrice, 0, MAX_UNIT_PRICE);
    if (!priceOk)
      issues.push({
        field: field('unitPrice'),
        rule: 'unit_price',
        message: `${at('unitPrice')}: ${UNIT_PRICE_RULE} (got ${show(line.unitPrice)})`,
      });
    const qtyOk = isWhole(line.qty, 1, MAX_QTY);
    if (!qtyOk)
      issues.push({ field: field('qty'), rule: 'qty', message: `${at('qty')}: ${QTY_RULE} (got ${show(line.qty)})` });
    if (!isTaxCategory(line.taxCategory))
      issues.push({
        field: field('taxCategory'),
        rule: 'tax_category',
        message: `${at('taxCategory')}: ${TAX_CATEGORY_RULE} (got ${show(line.taxCategory)})`,
      });
    const g = priceOk && qtyOk ? line.unitPrice * line.qty : 0;
    let d = 0;
    if (line.discount !== undefined && priceOk && qtyOk) {
      const problem = discountProblem(line.discount, g, at('discount'), "the line's");
      if (problem) issues.push({ field: field('discount'), rule: 'discount', message: problem });
      else d = discountAmount(line.discount, g);
    }
    gross.push(g);
    lineDiscounts.push(d);
    afterLine.push(g - d);
    subtotal += g;
  }
  if (subtotal > MAX_SALE_SUM)
    issues.push({
      field: 'lines',
      rule: 'too_large',
      message: `lines: the sale's sum is at most ${formatRupiah(MAX_SALE_SUM)} (got about ${formatRupiah(subtotal)})`,
    });
  if (issues.length > 0) return { ok: false, issues };

  const afterLineSum = afterLine.reduce((a, b) => a + b, 0);
  let saleDiscountAmount = 0;
  if (saleDiscount !== undefined && saleDiscount !== null) {
    const problem = discountProblem(saleDiscount, afterLineSum, 'saleDiscount', 'the sum after line discounts,');
    if (problem) return { ok: false, issues: [{ field: 'saleDiscount', rule: 'sale_discount', message: problem }] };
    saleDiscountAmount = discountAmount(saleDiscount, afterLineSum);
  }
  const shares = allocateLargestRemainder(saleDiscountAmount, afterLine);
  const tax = parsedSettings.data!;

  const figures: LineFigures[] = lines.map((l, i) => ({
    lineId: l.lineId,
    taxCategory: l.taxCategory,
    qty: l.qty,
    gross: gross[i]!,
    lineDiscount: lineDiscounts[i]!,
    saleDiscount: shares[i]!,
    net: afterLine[i]! - shares[i]!,
    total: 0,
  }));

  const categories: CategoryTax[] = [];
  for (const category of TAX_CATEGORIES) {
    const members = figures.filter((f) => f.taxCategory === category);
    if (members.length === 0) continue;
    const c = categoryTax(
      category,
      members.reduce((a, f) => a + f.net, 0),
      tax,
    );
    categories.push(c);
    const totals = allocateLargestRemainder(
      c.total,
      members.map((f) => f.net),
    );
    members.forEach((f, k) => (f.total = totals[k]!));
  }

  const sum = (key: 'net' | 'dpp' | 'ppn' | 'pbjt' | 'service' | 'total') => categories.reduce((a, c) => a + c[key], 0);
  const lineDiscountSum = lineDiscounts.reduce((a, b) => a + b, 0);
  return {
    ok: true,
    sale: {
      lines: figures,
      categories,
      subtotal,
      lineDiscounts: lineDiscountSum,
      saleDiscount: saleDiscountAmount,
      discounts: lineDiscountSum + saleDiscountAmount,
      afterDiscounts: afterLineSum - saleDiscountAmount,
      net: sum('net'),
      dpp: sum('dpp'),
      ppn: sum('ppn'),
      pbjt: sum('pbjt'),
      service: sum('service'),
      total: sum('total'),
    },
  };
}

// ---------------------------------------------------------------- discount limits

const LIMIT_RULE = 'a whole number of basis points from 0 to 10000 (1000 = 10%)';
const limitBp = z
  .number({ error: LIMIT_RULE })
  .int({ error: LIMIT_RULE })
  .min(0, { error: LIMIT_RULE })
  .max(10_000, { error: LIMIT_RULE });

/**
 * The largest discount a cashier may give without a manager's PIN, as a percentage of the line (its gross) and of
 * the sale (its sum after line discounts). Decided here: 10% each by default; 10000 (100%) turns the check off.
 */
export const discountLimitsSchema = z.object({ lineBp: limitBp.default(1000), saleBp: limitBp.default(1000) }).strict();
export type DiscountLimits = z.infer<typeof discountLimitsSchema>;
export const DEFAULT_DISCOUNT_LIMITS: DiscountLimits = discountLimitsSchema.parse({});

export interface DiscountOverLimit {
  /** `lines[2].discount` or `saleDiscount`. */
  field: string;
  lineId?: string;
  /** The discount as a percentage of its base, in basis points rounded up (so 10.001% shows as above 10%). */
  percentBp: number;
  limitBp: number;
  message: string;
}

/** Whether amount/base is above limitBp/10000, exactly (BigInt: amount × 10000 can pass 2^53). */
function above(amount: number, base: number, limit: number): boolean {
  return BigInt(amount) * 10_000n > BigInt(limit) * BigInt(base);
}

function overLimit(pct: number, of: 'line' | 'sale', limit: number): string {
  return `${formatRateBp(pct)} of the ${of} is above the ${formatRateBp(limit)} a cashier may give; a manager's PIN is needed`;
}

function percentOf(amount: number, base: number): number {
  if (base === 0) return 0;
  const floor = mulDivFloor(amount, 10_000, base);
  return above(amount, base, floor) ? floor + 1 : floor;
}

/**
 * The discounts of a computed sale that are above the limits: each needs a manager's PIN (audited) before the sale
 * may go on. Empty: no PIN needed. A percentage discount is compared by its own rate (10% of Rp15 is Rp2 after
 * rounding, still 10%); an amount by amount / base.
 */
export function discountsOverLimit(
  lines: readonly SaleLineAmounts[],
  saleDiscount: Discount | null | undefined,
  sale: SaleFigures,
  limits: DiscountLimits,
): DiscountOverLimit[] {
  const out: DiscountOverLimit[] = [];
  const check = (d: Discount, amount: number, base: number, limit: number): number | undefined => {
    if (d.kind === 'percent') return d.valueBp > limit ? d.valueBp : undefined;
    return above(amount, base, limit) ? percentOf(amount, base) : undefined;
  };
  lines.forEach((line, i) => {
    const f = sale.lines[i];
    if (!line.discount || !f) return;
    const pct = check(line.discount, f.lineDiscount, f.gross, limits.lineBp);
    if (pct !== undefined)
      out.push({
        field: `lines[${i}].discount`,
        lineId: line.lineId,
        percentBp: pct,
        limitBp: limits.lineBp,
        message: `line ${i + 1}, discount: ${overLimit(pct, 'line', limits.lineBp)}`,
      });
  });
  if (saleDiscount) {
    const base = sale.subtotal - sale.lineDiscounts;
    const pct = check(saleDiscount, sale.saleDiscount, base, limits.saleBp);
    if (pct !== undefined)
      out.push({
        field: 'saleDiscount',
        percentBp: pct,
        limitBp: limits.saleBp,
        message: `saleDiscount: ${overLimit(pct, 'sale', limits.saleBp)}`,
      });
  }
  return out;
}
