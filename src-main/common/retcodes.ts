/**
 * Result codes. `0000` is the aggregator's (docs/gateway-interface.md); every other code is the sandbox's own
 * convention, documented in docs/sandbox.md. Loket's client treats DUPLICATE_ORDER as
 * "the gateway already has this order", which reconciliation relies on.
 */
export const RETCODE = {
  OK: '0000',
  AUTH_HEADER_MISSING: '1001',
  UNKNOWN_APPID: '1002',
  BAD_APPKEY: '1003',
  BAD_SIGNATURE: '1004',
  MALFORMED_JSON: '2001',
  UNSUPPORTED_MEDIA_TYPE: '2002',
  BODY_TOO_LARGE: '2003',
  FIELD_REQUIRED: '2100',
  FIELD_TYPE: '2101',
  FIELD_TOO_LONG: '2102',
  FIELD_FORMAT: '2103',
  UNSUPPORTED_METHOD: '2201',
  CUSTOMER_NAME_REQUIRED: '2202',
  AMOUNT_OUT_OF_RANGE: '2203',
  DUPLICATE_ORDER: '2301',
  ORDER_NOT_FOUND: '3001',
  ILLEGAL_TRANSITION: '3002',
  FORBIDDEN: '4003',
  NOT_FOUND: '4004',
  METHOD_NOT_ALLOWED: '4005',
  INTERNAL_ERROR: '5000',
  INJECTED_FAULT: '5003',
} as const;

export type Retcode = (typeof RETCODE)[keyof typeof RETCODE];
