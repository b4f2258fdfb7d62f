import type { ChargeFailure } from '../../../src-main/common/api';
import { RETCODE } from '../../../src-main/common/retcodes';
import type { Messages } from '../i18n/i18n.svelte';

export type RefusalReason = keyof Messages['failure']['reasons'];

const BY_RETCODE: Readonly<Record<string, RefusalReason>> = {
  [RETCODE.AUTH_HEADER_MISSING]: 'credentials',
  [RETCODE.UNKNOWN_APPID]: 'credentials',
  [RETCODE.BAD_APPKEY]: 'credentials',
  [RETCODE.BAD_SIGNATURE]: 'credentials',
  [RETCODE.MALFORMED_JSON]: 'request',
  [RETCODE.UNSUPPORTED_MEDIA_TYPE]: 'request',
  [RETCODE.BODY_TOO_LARGE]: 'request',
  [RETCODE.FIELD_REQUIRED]: 'required',
  [RETCODE.FIELD_TYPE]: 'fieldType',
  [RETCODE.FIELD_TOO_LONG]: 'tooLong',
  [RETCODE.FIELD_FORMAT]: 'format',
  [RETCODE.UNSUPPORTED_METHOD]: 'method',
  [RETCODE.CUSTOMER_NAME_REQUIRED]: 'customerName',
  [RETCODE.AMOUNT_OUT_OF_RANGE]: 'amount',
  [RETCODE.DUPLICATE_ORDER]: 'duplicate',
  [RETCODE.ORDER_NOT_FOUND]: 'notFound',
  [RETCODE.NOT_FOUND]: 'address',
  [RETCODE.METHOD_NOT_ALLOWED]: 'address',
  [RETCODE.INTERNAL_ERROR]: 'gateway',
  // INJECTED_FAULT (the sandbox's fault switch) says nothing of its own: its HTTP status decides.
};

/**
 * Why the gateway refused a charge, in words the cashier's screen has in both languages: by its retcode (the
 * sandbox's conventions, docs/sandbox.md), else by its HTTP status. The gateway's own message is only a detail.
 */
export function refusalReason(failure: Pick<ChargeFailure, 'retcode' | 'httpStatus'>): RefusalReason {
  const byCode = failure.retcode ? BY_RETCODE[failure.retcode] : undefined;
  if (byCode) return byCode;
  const status = failure.httpStatus;
  if (status === 401 || status === 403) return 'credentials';
  if (status === 404 || status === 405) return 'address';
  if (status === 429) return 'tooMany';
  if (status !== undefined && status >= 500) return 'gateway';
  if (status === 400 || status === 413 || status === 415 || status === 422) return 'request';
  return 'other';
}

/** The gateway's own words, with its retcode and HTTP status: a detail under the translated reason. */
export function gatewayDetail(failure: Pick<ChargeFailure, 'retcode' | 'httpStatus' | 'message'>): string {
  const codes = [
    failure.retcode ? `retcode ${failure.retcode}` : '',
    failure.httpStatus ? `HTTP ${failure.httpStatus}` : '',
  ].filter(Boolean);
  return codes.length > 0 ? `${failure.message} (${codes.join(', ')})` : failure.message;
}
