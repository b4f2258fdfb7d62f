import type { ChargeFailure } from '../../common/api';
import type { CashIssue, CashRounding, TenderInput, TenderStep } from '../../common/cash';
import { planTenders } from '../../common/tender-kinds/plan';
import type {
  ChargeSaleInput,
  ChargeSaleResult,
  SaleFieldIssue,
  SaleQuote,
  SaleTender,
  SoldLine,
} from '../../common/sale';
import type { Product } from '../../common/product';
import { tenderKind } from '../../common/tender-kinds';

/** A charge's tenders as they will be written: what each pays, and the input it came from. */
export interface PlannedTender {
  tender: Omit<SaleTender, 'no'>;
  step: TenderStep;
  input: TenderInput;
}

export type ChargePlan = { ok: true; tenders: PlannedTender[] } | { ok: false; result: ChargeSaleResult };

/**
 * The tenders of a charge (docs/tenders.md), checked before anything is written or sent: given as `tenders`, or a
 * `methodId` for one gateway tender of the whole sale; each kind's own limit (one gateway tender per sale: one order on
 * the customer display at a time); together they must pay all of the sale (common/cash.ts, planTenders).
 */
export function planCharge(input: ChargeSaleInput, total: number, rounding: CashRounding): ChargePlan {
  const inputs: TenderInput[] =
    input.tenders ?? (input.methodId !== undefined ? [{ kind: 'gateway', methodId: input.methodId }] : []);
  if (inputs.length === 0)
    return refusedPlan([
      {
        field: 'tenders',
        rule: 'required',
        message: 'tenders: how the sale is paid (methodId, or one or more tenders)',
      },
    ]);
  if (input.tenders !== undefined && input.methodId !== undefined)
    return refusedPlan([
      { field: 'methodId', rule: 'one_of', message: 'methodId: give methodId or tenders, not both' },
    ]);
  for (const spec of new Set(inputs.map((t) => tenderKind(t.kind)))) {
    const limit = spec.perSale;
    if (limit && inputs.filter((t) => t.kind === spec.kind).length > limit.max)
      return refusedPlan([{ field: 'tenders', rule: limit.rule, message: limit.message }]);
  }
  const plan = planTenders(total, inputs, rounding);
  if (!plan.ok) return refusedPlan(plan.issues.map(cashIssue));
  if (!plan.plan.complete)
    return refusedPlan([
      {
        field: 'tenders',
        rule: 'incomplete',
        message: `tenders: Rp${plan.plan.due} of the sale is still due; the tenders must pay all of it`,
      },
    ]);
  return {
    ok: true,
    tenders: plan.plan.steps.map((step, i) => {
      const tenderInput = inputs[i]!;
      // The step is of the input's kind (planTenders asked that kind's module for it).
      const spec = tenderKind(tenderInput.kind) as { tenderOf(s: TenderStep, i: TenderInput): Omit<SaleTender, 'no'> };
      return { tender: spec.tenderOf(step, tenderInput), step, input: tenderInput };
    }),
  };
}

/** The cart's lines as sold: the catalogue's category read in one go for the whole cart. */
export function soldLinesOf(
  quote: Extract<SaleQuote, { ok: true }>,
  catalogue: ReadonlyMap<string, Product>,
): Omit<SoldLine, 'lineNo'>[] {
  return quote.lines.map((l, i) => {
    const f = quote.figures.lines[i]!;
    const sold: Omit<SoldLine, 'lineNo'> = {
      lineId: l.lineId,
      name: l.name,
      category: l.productId ? (catalogue.get(l.productId)?.category ?? '') : '',
      unitPrice: l.unitPrice,
      qty: l.qty,
      taxCategory: l.taxCategory,
      gross: f.gross,
      lineDiscount: f.lineDiscount,
      saleDiscount: f.saleDiscount,
      net: f.net,
      total: f.total,
    };
    if (l.productId !== undefined) sold.productId = l.productId;
    if (l.sku !== undefined) sold.sku = l.sku;
    if (l.barcode !== undefined) sold.barcode = l.barcode;
    if (l.fixedDenomination) sold.itemId = l.fixedDenomination.itemId;
    if (l.discount !== undefined) sold.discount = l.discount;
    return sold;
  });
}

/** A refusal before anything was written or sent: each field's issue, nothing charged. */
export function refused(issues: SaleFieldIssue[]): Extract<ChargeSaleResult, { ok: false }> {
  const failure: ChargeFailure = {
    class: 'invalid_input',
    retry: 'final',
    message: issues.map((i) => i.message).join('; '),
    issues: [],
  };
  return { ok: false, saleId: null, sale: null, failure, issues };
}

function refusedPlan(issues: SaleFieldIssue[]): ChargePlan {
  return { ok: false, result: refused(issues) };
}

function cashIssue(issue: CashIssue): SaleFieldIssue {
  return { field: issue.field, rule: issue.rule, message: issue.message };
}
