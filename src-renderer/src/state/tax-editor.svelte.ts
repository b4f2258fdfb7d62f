import type { CashRounding } from '../../../src-main/common/cash';
import type { ManagerView } from '../../../src-main/common/manager';
import { formatRateBp, parsePercentBp, type TaxCategory } from '../../../src-main/common/tax';
import type { EditorIssue } from './manager-context';
import { SectionEditor } from './section-editor.svelte';

/**
 * The Tax section (docs/tax.md): PPN's rate and tax base, prices with or without tax, PBJT and the service charge, the
 * store's PKP registration (the struk as tax invoice), the category of a typed line, the cash rounding and the discount
 * limits above which a manager's PIN is needed. Rates are typed as percentages ("12", "12,5"); the server stores basis
 * points and checks every rule (the same one the CLI's `config set-tax` uses), auditing each changed field.
 */
export interface TaxDraft {
  ppnRate: string;
  /** The tax base as a fraction, "11/12". */
  dpp: string;
  pricesIncludeTax: boolean;
  pbjtEnabled: boolean;
  pbjtRate: string;
  serviceEnabled: boolean;
  serviceRate: string;
  defaultCategory: TaxCategory;
  pkpEnabled: boolean;
  sellerName: string;
  sellerAddress: string;
  npwp: string;
  cashRounding: CashRounding;
  lineDiscountLimit: string;
  saleDiscountLimit: string;
}

/** 1200 → "12", 1250 → "12.5": the number as typed, without its % sign. */
export function percentText(bp: number): string {
  return formatRateBp(bp).replace(/%$/, '');
}

/** "11/12" → { num: 11, den: 12 }; undefined for anything that is not two whole numbers with a slash. */
export function parseFraction(text: string): { num: number; den: number } | undefined {
  const m = /^\s*(\d{1,6})\s*\/\s*(\d{1,6})\s*$/.exec(text);
  return m ? { num: Number(m[1]), den: Number(m[2]) } : undefined;
}

/** Each rate field of the draft: its settings path and the section and key it is sent under. */
const RATES = [
  { field: 'ppnRate', path: 'tax.ppn.rateBp' },
  { field: 'pbjtRate', path: 'tax.pbjt.rateBp' },
  { field: 'serviceRate', path: 'tax.service.rateBp' },
  { field: 'lineDiscountLimit', path: 'discounts.lineBp' },
  { field: 'saleDiscountLimit', path: 'discounts.saleBp' },
] as const;

export class TaxEditor extends SectionEditor<TaxDraft> {
  protected readonly fields = {
    'tax.ppn.rateBp': 'ppnRate',
    'tax.ppn.dpp': 'dpp',
    'tax.ppn.dpp.num': 'dpp',
    'tax.ppn.dpp.den': 'dpp',
    'tax.pricesIncludeTax': 'pricesIncludeTax',
    'tax.pbjt.enabled': 'pbjtEnabled',
    'tax.pbjt.rateBp': 'pbjtRate',
    'tax.service.enabled': 'serviceEnabled',
    'tax.service.rateBp': 'serviceRate',
    'tax.defaultCategory': 'defaultCategory',
    'tax.pkp.enabled': 'pkpEnabled',
    'tax.pkp.sellerName': 'sellerName',
    'tax.pkp.address': 'sellerAddress',
    'tax.pkp.npwp': 'npwp',
    'cash.rounding': 'cashRounding',
    'discounts.lineBp': 'lineDiscountLimit',
    'discounts.saleBp': 'saleDiscountLimit',
  } as const;

  protected read({ sale }: ManagerView): TaxDraft {
    const { tax, cash, discounts } = sale;
    return {
      ppnRate: percentText(tax.ppn.rateBp),
      dpp: `${tax.ppn.dpp.num}/${tax.ppn.dpp.den}`,
      pricesIncludeTax: tax.pricesIncludeTax,
      pbjtEnabled: tax.pbjt.enabled,
      pbjtRate: percentText(tax.pbjt.rateBp),
      serviceEnabled: tax.service.enabled,
      serviceRate: percentText(tax.service.rateBp),
      defaultCategory: tax.defaultCategory,
      pkpEnabled: tax.pkp.enabled,
      sellerName: tax.pkp.sellerName,
      sellerAddress: tax.pkp.address,
      npwp: tax.pkp.npwp,
      cashRounding: cash.rounding,
      lineDiscountLimit: percentText(discounts.lineBp),
      saleDiscountLimit: percentText(discounts.saleBp),
    };
  }

  /** The change as the server takes it (`updateSaleSettings`), or the fields typed so that nothing can be sent. */
  patch(): { value: Record<string, Record<string, unknown>> } | { issues: EditorIssue[] } {
    const changed = this.changedFields();
    const d = this.draft;
    const issues: EditorIssue[] = [];
    const tax: Record<string, Record<string, unknown> | unknown> = {};
    const cash: Record<string, unknown> = {};
    const discounts: Record<string, unknown> = {};
    const part = (key: string): Record<string, unknown> => (tax[key] ??= {}) as Record<string, unknown>;
    const rates: Record<string, number> = {};
    for (const { field, path } of RATES) {
      if (!changed.has(field)) continue;
      const bp = parsePercentBp(d[field]);
      // Worded from the field's rule, as the server's refusal of the same field would be.
      if (bp === undefined) issues.push({ field: path, message: 'a percentage such as 12 or 12.5', local: true });
      else rates[field] = bp;
    }
    if (rates.ppnRate !== undefined) part('ppn').rateBp = rates.ppnRate;
    if (changed.has('dpp')) {
      const dpp = parseFraction(d.dpp);
      if (dpp === undefined) issues.push({ field: 'tax.ppn.dpp', message: 'a fraction such as 11/12', local: true });
      else part('ppn').dpp = dpp;
    }
    if (changed.has('pricesIncludeTax')) tax.pricesIncludeTax = d.pricesIncludeTax;
    if (changed.has('pbjtEnabled')) part('pbjt').enabled = d.pbjtEnabled;
    if (rates.pbjtRate !== undefined) part('pbjt').rateBp = rates.pbjtRate;
    if (changed.has('serviceEnabled')) part('service').enabled = d.serviceEnabled;
    if (rates.serviceRate !== undefined) part('service').rateBp = rates.serviceRate;
    if (changed.has('defaultCategory')) tax.defaultCategory = d.defaultCategory;
    if (changed.has('pkpEnabled')) part('pkp').enabled = d.pkpEnabled;
    // Names and addresses are stored as typed but for the spaces at either end (the rule refuses those).
    if (changed.has('sellerName')) part('pkp').sellerName = d.sellerName.trim();
    if (changed.has('sellerAddress')) part('pkp').address = d.sellerAddress.trim();
    if (changed.has('npwp')) part('pkp').npwp = d.npwp.trim();
    if (changed.has('cashRounding')) cash.rounding = d.cashRounding;
    if (rates.lineDiscountLimit !== undefined) discounts.lineBp = rates.lineDiscountLimit;
    if (rates.saleDiscountLimit !== undefined) discounts.saleBp = rates.saleDiscountLimit;
    if (issues.length > 0) return { issues };
    const value: Record<string, Record<string, unknown>> = {};
    if (Object.keys(tax).length > 0) value.tax = tax;
    if (Object.keys(cash).length > 0) value.cash = cash;
    if (Object.keys(discounts).length > 0) value.discounts = discounts;
    return { value };
  }

  protected async commit(): Promise<boolean> {
    const patch = this.patch();
    if ('issues' in patch) return this.refuse(patch.issues);
    if (Object.keys(patch.value).length === 0) return true;
    const outcome = await this.ctx.call((api, token) => api.updateSaleSettings(token, patch.value));
    if (!outcome.ok) return this.fail(outcome.error);
    if (!outcome.value.ok) return this.refuse(outcome.value.issues);
    this.ctx.applyView(outcome.value.view);
    return true;
  }
}
