import { PRINT_PROBLEMS, type PrintProblem } from '../common/reasons';

/**
 * Why a printer did not print, as its adapter classified it (the network printer's ReceiptPrinterError carries a
 * `reason`); an OS printer's failure, which carries none, is `system` when `system` is said, else `error`.
 */
export function printProblemOf(err: unknown, options: { system?: boolean } = {}): PrintProblem {
  const problem = (err as { reason?: unknown } | null)?.reason;
  if ((PRINT_PROBLEMS as readonly unknown[]).includes(problem)) return problem as PrintProblem;
  return options.system ? 'system' : 'error';
}
