import type { ChargeFailure } from '../../common/api';
import type { PaymentInstruction, OrderState } from '../../common/order';
import { retrySafety, type GatewayStatus } from '../../common/order-policy';
import { parseStrictJson } from '../../common/strict-json';
import { validateOrderRequest, type FieldIssue, type OrderRequest } from '../../common/order-request';
import type { PaymentKind, PaymentMethod } from '../../common/payment-methods';
import { RETCODE } from '../../common/retcodes';
import type { SigningProfile } from '../bodysign';
import type { SecretStore } from '../ports';
import { parseV1Answer, parseV2Answer, type ParsedAnswer } from './parse-response';
import { gatewayUrl, sendSigned } from './signed-request';

export interface GatewayConfig {
  /** e.g. https://gateway.example or http://127.0.0.1:8787; a trailing slash is dropped (signed-request.ts gatewayUrl). */
  baseUrl: string;
  appId: string;
  signing: SigningProfile;
  /** Deadline of one call (15 s by default). */
  timeoutMs: number;
  /** Path of a status inquiry (the sandbox's `/api/status`); null where the gateway has none. */
  inquiryPath: string | null;
}

export const DEFAULT_TIMEOUT_MS = 15_000;

/** Why a call did not give payment data. Only `not_sent` is certain the gateway never saw the order. */
export type GatewayFailure =
  | { class: 'invalid_input'; message: string; issues: FieldIssue[] }
  | { class: 'rejected'; message: string; retcode?: string; httpStatus: number; duplicate: boolean; raw?: string }
  | { class: 'not_sent'; message: string }
  | { class: 'unknown'; message: string }
  | { class: 'malformed'; message: string; httpStatus: number; raw: string }
  /** Not the gateway's: Loket could not write its order log, so nothing was sent. */
  | { class: 'storage'; message: string }
  /**
   * The gateway failed to take the order (an HTTP 5xx, or no answer and its inquiry does not know the order):
   * nothing was charged, and sending the same order again is safe (the duplicate rule covers a late store).
   */
  | { class: 'outage'; message: string; retcode?: string; httpStatus?: number; raw?: string };

export type CreateResult =
  | {
      ok: true;
      instruction: PaymentInstruction;
      transactionId?: string;
      expiredDate?: string;
      httpStatus: number;
      raw: string;
    }
  | { ok: false; failure: GatewayFailure };

/** The status words of the inquiry (and the callbacks), as order-policy.ts reads them. */
export type InquiryStatus = GatewayStatus;
export type InquiryResult =
  /** `token`: where the answer names the order's payment-page token (the sandbox does), so a found order can still be paid. */
  | {
      ok: true;
      status: InquiryStatus;
      transactionId?: string;
      paidAt?: string;
      token?: string;
      /** The order's payment data, where the inquiry repeats it. */
      instruction?: PaymentInstruction;
      expiredDate?: string;
      /**
       * What the answer says it is about: checked against the order before anything is applied (an answer about
       * another order, or another amount or method, never settles it; OrderService.applyInquiryAnswer).
       */
      merchantTransactionId?: string;
      amount?: number;
      paymentMethod?: string;
      raw: string;
    }
  | { ok: false; failure: GatewayFailure };

type HttpResult =
  | { kind: 'answer'; status: number; text: string; badUtf8?: boolean }
  | { kind: 'not_sent'; message: string }
  | { kind: 'no_answer'; message: string };

export class GatewayClient {
  constructor(
    readonly config: GatewayConfig,
    private readonly secrets: SecretStore,
    private readonly methods: readonly PaymentMethod[],
  ) {}

  /** Validates with the sandbox's own rules and serialises once: these bytes are signed and sent as they are. */
  prepare(
    input: unknown,
  ):
    { ok: true; request: OrderRequest; method: PaymentMethod; bytes: string } | { ok: false; failure: GatewayFailure } {
    const result = validateOrderRequest(input, this.methods);
    if (!result.ok) {
      return {
        ok: false,
        failure: {
          class: 'invalid_input',
          message: result.issues.map((i) => i.message).join('; '),
          issues: result.issues,
        },
      };
    }
    return { ok: true, request: result.value, method: result.method, bytes: JSON.stringify(result.value) };
  }

  paymentPageUrl(token: string): string {
    return gatewayUrl(this.config, `/api/order/${encodeURIComponent(this.config.appId)}/${encodeURIComponent(token)}`);
  }

  /**
   * `kind`: the order's kind (the catalogue's, kept with the order); a successful answer of another kind's shape is
   * malformed. Read from the catalogue by the request's payment_method when not given.
   */
  async create(
    api: 'v1' | 'v2',
    bytes: string,
    kind: PaymentKind | undefined = this.kindOf(bytes),
  ): Promise<CreateResult> {
    const http = await this.post(api === 'v2' ? '/api/transaction' : '/api/create', bytes);
    if (http.kind === 'not_sent') return { ok: false, failure: { class: 'not_sent', message: http.message } };
    if (http.kind === 'no_answer') return { ok: false, failure: { class: 'unknown', message: http.message } };
    const json = http.badUtf8 ? undefined : parseJson(http.text);
    if (json === undefined) return malformedOrRejected(http, 'the answer is not valid JSON');
    const parsed: ParsedAnswer =
      api === 'v2' ? parseV2Answer(json, kind) : parseV1Answer(json, (t) => this.paymentPageUrl(t));
    if (parsed.ok) {
      if (http.status < 200 || http.status >= 300) {
        return {
          ok: false,
          failure: {
            class: 'malformed',
            message: `a success body came with HTTP ${http.status}`,
            httpStatus: http.status,
            raw: http.text,
          },
        };
      }
      const { ok: _ok, ...payment } = parsed;
      return { ok: true, ...payment, httpStatus: http.status, raw: http.text };
    }
    if (parsed.rejected && http.status >= 500 && parsed.retcode !== RETCODE.DUPLICATE_ORDER) {
      // The gateway failing, in its own words: not a refusal of the order, which may be sent again.
      return {
        ok: false,
        failure: {
          class: 'outage',
          message: parsed.message,
          ...(parsed.retcode === undefined ? {} : { retcode: parsed.retcode }),
          httpStatus: http.status,
          raw: http.text,
        },
      };
    }
    if (parsed.rejected) {
      return {
        ok: false,
        failure: {
          class: 'rejected',
          message: parsed.message,
          ...(parsed.retcode === undefined ? {} : { retcode: parsed.retcode }),
          httpStatus: http.status,
          duplicate: parsed.retcode === RETCODE.DUPLICATE_ORDER,
          raw: http.text,
        },
      };
    }
    return malformedOrRejected(http, parsed.malformed);
  }

  private kindOf(bytes: string): PaymentKind | undefined {
    try {
      const method = (JSON.parse(bytes) as { payment_method?: unknown }).payment_method;
      return this.methods.find((m) => m.id === method)?.kind;
    } catch {
      return undefined;
    }
  }

  /** `timeoutMs`: a shorter deadline than the create call's, for a quick check right after a lost answer. */
  async inquire(merchantTransactionId: string, options: { timeoutMs?: number } = {}): Promise<InquiryResult> {
    if (!this.config.inquiryPath)
      return { ok: false, failure: { class: 'not_sent', message: 'no status inquiry is configured for this gateway' } };
    const http = await this.post(
      this.config.inquiryPath,
      JSON.stringify({ merchant_transaction_id: merchantTransactionId }),
      options.timeoutMs ?? this.config.timeoutMs,
    );
    if (http.kind === 'not_sent') return { ok: false, failure: { class: 'not_sent', message: http.message } };
    if (http.kind === 'no_answer') return { ok: false, failure: { class: 'unknown', message: http.message } };
    const json = (http.badUtf8 ? undefined : parseJson(http.text)) as
      { success?: unknown; retcode?: unknown; message?: unknown; data?: Record<string, unknown> } | undefined;
    if (json === undefined || typeof json !== 'object' || json === null)
      return malformedOrRejected(http, 'the inquiry answer is not valid JSON');
    if (json.success !== true || json.retcode !== RETCODE.OK) {
      return {
        ok: false,
        failure: {
          class: 'rejected',
          message: typeof json.message === 'string' ? json.message : `HTTP ${http.status}`,
          ...(typeof json.retcode === 'string' ? { retcode: json.retcode } : {}),
          httpStatus: http.status,
          duplicate: false,
          raw: http.text,
        },
      };
    }
    const status = json.data?.status;
    if (status !== 'PENDING' && status !== 'PAID' && status !== 'EXPIRED' && status !== 'FAILED') {
      return {
        ok: false,
        failure: {
          class: 'malformed',
          message: `unknown status ${JSON.stringify(status)}`,
          httpStatus: http.status,
          raw: http.text,
        },
      };
    }
    const tx = json.data?.transaction_id;
    const paidAt = json.data?.paid_at;
    const mtid = json.data?.merchant_transaction_id;
    const amount = json.data?.amount;
    const method = json.data?.payment_method;
    const token = json.data?.token;
    // Where the inquiry repeats the order's payment data (the sandbox does), it is read like a create answer.
    const payment = json.data?.payment;
    const parsed = payment !== undefined ? parseV2Answer(payment) : undefined;
    return {
      ok: true,
      status,
      ...(typeof tx === 'string' ? { transactionId: tx } : {}),
      ...(typeof paidAt === 'string' ? { paidAt } : {}),
      ...(typeof token === 'string' && token !== '' ? { token } : {}),
      ...(typeof mtid === 'string' ? { merchantTransactionId: mtid } : {}),
      ...(typeof amount === 'number' && Number.isSafeInteger(amount) ? { amount } : {}),
      ...(typeof method === 'string' ? { paymentMethod: method } : {}),
      ...(parsed?.ok
        ? { instruction: parsed.instruction, ...(parsed.expiredDate ? { expiredDate: parsed.expiredDate } : {}) }
        : {}),
      raw: http.text,
    };
  }

  /** Sends through the one signed request (signed-request.ts) and words what happened for the order log. */
  private async post(path: string, bytes: string, timeoutMs = this.config.timeoutMs): Promise<HttpResult> {
    const sent = await sendSigned(this.config, this.secrets, path, bytes, { timeoutMs });
    switch (sent.kind) {
      case 'answer':
        return { kind: 'answer', status: sent.status, text: sent.text, ...(sent.badUtf8 ? { badUtf8: true } : {}) };
      case 'no_secret':
        return { kind: 'not_sent', message: sent.message };
      case 'not_sent':
        return { kind: 'not_sent', message: `could not reach the gateway at ${this.config.baseUrl} (${sent.code})` };
      case 'timeout':
        return { kind: 'no_answer', message: `no answer from the gateway within ${sent.timeoutMs / 1000} s` };
      case 'tls':
      case 'broken':
        return {
          kind: 'no_answer',
          message: `the connection to the gateway broke before an answer came (${sent.code})`,
        };
    }
  }
}

/** An answer that is not strict JSON (a key twice) is unread; broken UTF-8 never gets here (badUtf8). */
function parseJson(text: string): unknown {
  const parsed = parseStrictJson(text);
  return parsed.ok ? parsed.value : undefined;
}

/** A non-JSON 5xx is the gateway failing: an outage, not a refusal (the same order may be sent again). */
function malformedOrRejected(
  http: { status: number; text: string },
  why: string,
): { ok: false; failure: GatewayFailure } {
  if (http.status >= 500) {
    return {
      ok: false,
      failure: {
        class: 'outage',
        message: `the gateway answered HTTP ${http.status}`,
        httpStatus: http.status,
        raw: http.text.slice(0, 2000),
      },
    };
  }
  return {
    ok: false,
    failure: { class: 'malformed', message: why, httpStatus: http.status, raw: http.text.slice(0, 2000) },
  };
}

/** A failure as people and scripts see it (cashier screen, CLI --json): the raw gateway body stays in the order log. */
export function publicFailure(failure: GatewayFailure, orderState?: OrderState): ChargeFailure {
  return {
    class: failure.class,
    retry: retrySafety(
      { class: failure.class, duplicate: failure.class === 'rejected' && failure.duplicate },
      orderState,
    ),
    message: failure.message,
    ...(failure.class === 'invalid_input' ? { issues: failure.issues } : {}),
    ...('retcode' in failure && failure.retcode ? { retcode: failure.retcode } : {}),
    ...('httpStatus' in failure ? { httpStatus: failure.httpStatus } : {}),
  };
}
