/**
 * The reason rule for a manager's manual change (common/order-policy.ts, `reasonSchema`: trimmed, 3 to 200
 * characters), copied here so that the renderer's bundle does not carry zod; a test keeps the two equal.
 */
export const REASON_MIN = 3;
export const REASON_MAX = 200;

export type ReasonProblem = 'too_short' | 'too_long';

/** What breaks the rule in `text`, if anything: the server would refuse it. */
export function reasonProblem(text: string): ReasonProblem | undefined {
  const n = text.trim().length;
  if (n < REASON_MIN) return 'too_short';
  if (n > REASON_MAX) return 'too_long';
  return undefined;
}
