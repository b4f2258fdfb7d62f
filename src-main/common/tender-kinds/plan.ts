import { requireSafeInteger } from '../money-math';
import type { CashIssue, CashRounding, TenderInput, TenderResult, TenderStep } from '../cash';
import { TENDER_KINDS } from '../sale';
import { isTenderKind, tenderKind } from './index';

export interface TenderPlan {
  steps: TenderStep[];
  total: number;
  /** Σ applied: total + rounding when complete. */
  applied: number;
  rounding: number;
  change: number;
  /** Still due after the last tender. */
  due: number;
  complete: boolean;
}

export type TenderPlanResult = { ok: true; plan: TenderPlan } | { ok: false; issues: CashIssue[] };

/**
 * The tenders of a sale of `total`, in order: what each pays, what is still due after it, the change and the
 * rounding line. Complete when nothing is due. Every tender is checked (one issue each at most); a tender after the
 * sale is paid is an issue.
 */
export function planTenders(total: number, tenders: readonly TenderInput[], mode: CashRounding): TenderPlanResult {
  requireSafeInteger('planTenders', 'total', total);
  const steps: TenderStep[] = [];
  const issues: CashIssue[] = [];
  let due = total;
  for (const [i, t] of tenders.entries()) {
    const at = `tenders[${i}].`;
    const kind = (t as { kind?: unknown } | null)?.kind;
    if (!isTenderKind(kind)) {
      issues.push({
        field: `${at}kind`,
        rule: 'kind',
        message: `${at}kind: ${orList(TENDER_KINDS.map((k) => `'${k}'`))} (got ${show(kind)})`,
      });
      continue;
    }
    // Each kind plans its own step (tender-kinds/<kind>.ts); the input's shape is its kind's.
    const result = (
      tenderKind(kind).step as (due: number, input: TenderInput, r: CashRounding, at: string) => TenderResult
    )(due, t, mode, at);
    if (!result.ok) {
      issues.push(result.issue);
      continue;
    }
    steps.push(result.step);
    due = result.step.dueAfter;
  }
  if (issues.length > 0) return { ok: false, issues };
  const sum = (k: 'applied' | 'rounding' | 'change') => steps.reduce((a, s) => a + s[k], 0);
  return {
    ok: true,
    plan: {
      steps,
      total,
      applied: sum('applied'),
      rounding: sum('rounding'),
      change: sum('change'),
      due,
      complete: due === 0,
    },
  };
}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));

/** 'a', 'b' or 'c'. */
const orList = (xs: readonly string[]): string =>
  xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}`;
