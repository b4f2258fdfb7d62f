import { OrderRuleError, type ApiErrorCode } from '../../common/order-policy';
import { reason, type Reason } from '../../common/reasons';

/**
 * A rule of the manager's books broken by the caller (docs/end-of-day.md): a query that makes no sense, a day
 * already closed or not begun, an attention action that does not fit. Each carries its API error code, so
 * `toApiError` (common/api.ts) reports it in the caller's words, as it does the order rules.
 */
export class ReportRuleError extends OrderRuleError {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    why: Reason,
  ) {
    super(message);
    this.name = 'ReportRuleError';
    this.because(why);
  }
}

/** A day, a range, a filter or a page the books cannot answer: `invalid_arguments`, naming the field. */
export function invalidQuery(field: string, rule: string): ReportRuleError {
  return new ReportRuleError('invalid_arguments', `${field}: ${rule}`, reason('books.bad_query', { field }));
}

/** A refusal in the present state of the books (a closed day, an item already dealt with): `conflict`. */
export function refused(message: string, why: Reason): ReportRuleError {
  return new ReportRuleError('conflict', message, why);
}
