import { randomBytes } from 'node:crypto';
import type { ConnectionReport } from '../../common/manager';
import { SEED_LIMITS } from '../../common/order-request';
import { reason } from '../../common/reasons';
import { RETCODE } from '../../common/retcodes';
import type { SecretStore } from '../ports';
import type { GatewayConfig } from './client';
import { gatewayUrl, redact, sendSigned, type SignedRequestResult } from './signed-request';

/**
 * "Test connection": is the gateway reachable, is the appid known, is the signature accepted, without
 * creating anything billable.
 *
 * The choice. Every request the gateway authenticates proves the three facts, so the probe sends one the
 * gateway must authenticate and then refuse:
 *
 * - With a status inquiry configured (`inquiryPath`), it asks for the status of an order that cannot exist:
 *   `LOKET-PROBE-` + 24 random hex digits. Loket's own ids are `<terminal>-<yyyymmdd>-…`, so no order of any
 *   terminal can have it. An inquiry creates nothing, on any gateway; an authenticated "not found" proves
 *   reachability, appid and signature. Preferred for that reason.
 * - Without one, it sends a correctly signed V2 create (`/api/transaction`) that breaks two documented field
 *   rules of the aggregator's interface: `item_name` of 26 characters (the seed's limit is 25) and `amount` 0
 *   (the seed: a positive amount). The gateway must refuse it for a field rule after authenticating. Two rules
 *   rather than one, so that a gateway lax about one of them (truncating the name, say) still refuses.
 *
 * Residual risk, both ways: a refusal proves the credentials only if the gateway authenticates before it
 * checks the body or looks the order up. The sandbox does (docs/sandbox.md: headers, appid, appkey,
 * signature, then content type, JSON, fields); a gateway that checks fields first would refuse the probe
 * for its fields with any credentials, and the probe would say "ok" wrongly. Only a refusal with a field-rule
 * or not-found retcode counts as ok (never a bare HTTP 400/404), which narrows that to gateways speaking the
 * sandbox's retcodes. And a gateway that accepted the invalid create anyway would hold an order
 * `LOKET-PROBE-…` of amount 0 that nobody can pay: the report says so plainly (verdict `unexpected`) and
 * asks the manager to cancel it at the gateway. The first real order remains the final proof.
 */
export type { ConnectionReport, ProbeVerdict } from '../../common/manager';

export interface ProbeOptions {
  /** Deadline of the probe; the gateway's own timeout by default. */
  timeoutMs?: number;
}

export const PROBE_ID_PREFIX = 'LOKET-PROBE-';

/** The refusals that come after authentication and mean "your request broke a field rule" (docs/sandbox.md). */
const FIELD_RULE_RETCODES = new Set<string>([
  RETCODE.FIELD_REQUIRED,
  RETCODE.FIELD_TYPE,
  RETCODE.FIELD_TOO_LONG,
  RETCODE.FIELD_FORMAT,
  RETCODE.UNSUPPORTED_METHOD,
  RETCODE.CUSTOMER_NAME_REQUIRED,
  RETCODE.AMOUNT_OUT_OF_RANGE,
]);

/** The probe's create: valid JSON with every required field, breaking two field rules. */
export function invalidCreateBody(probeId: string): string {
  const itemName = 'Loket connection test'.padEnd(SEED_LIMITS.item_name + 1, '.');
  return JSON.stringify({
    user_id: 'loket-probe',
    merchant_transaction_id: probeId,
    payment_method: 'qris_dynamic',
    amount: 0,
    item_name: itemName,
  });
}

export async function testConnection(
  config: GatewayConfig,
  secrets: SecretStore,
  options: ProbeOptions = {},
): Promise<ConnectionReport> {
  const probeId = PROBE_ID_PREFIX + randomBytes(12).toString('hex');
  const method: ConnectionReport['method'] = config.inquiryPath ? 'inquiry' : 'invalid_create';
  const path = method === 'inquiry' ? config.inquiryPath! : '/api/transaction';
  const bytes =
    method === 'inquiry' ? JSON.stringify({ merchant_transaction_id: probeId }) : invalidCreateBody(probeId);
  let result: SignedRequestResult;
  let known: (string | undefined)[];
  try {
    result = await sendSigned(config, secrets, path, bytes, options);
    known = await Promise.all([secrets.get('appkey'), secrets.get('signing-secret')]);
  } catch (err) {
    // The SecretStore itself failed (a locked keychain): its error names the store, never a value.
    return {
      method,
      probeId,
      reachable: null,
      appIdKnown: null,
      signatureAccepted: null,
      verdict: 'no_secret',
      reason: reason('probe.secrets_unreadable'),
      message: say(
        `Could not read the credentials from ${secrets.description} (${(err as Error).message}),`,
        'so Loket did not contact the gateway. Unlock or repair the keychain, then test again.',
      ),
    };
  }
  const report = classify(result, { config, method, path, probeId });
  // Belt and braces: whatever a gateway echoed, no secret leaves in the report.
  const hide = (text: string) => redact(text, known);
  return {
    ...report,
    message: hide(report.message),
    ...(report.detail !== undefined ? { detail: hide(report.detail) } : {}),
  };
}

interface ProbeContext {
  config: GatewayConfig;
  method: ConnectionReport['method'];
  path: string;
  probeId: string;
}

/** Sentences joined: the report's message, in plain words. */
function say(...sentences: (string | false | undefined)[]): string {
  return sentences.filter((x): x is string => typeof x === 'string' && x !== '').join(' ');
}

const NOT_LEARNED = { appIdKnown: null, signatureAccepted: null } as const;
const AUTHENTICATED = { appIdKnown: true, signatureAccepted: true } as const;

function classify(result: SignedRequestResult, ctx: ProbeContext): ConnectionReport {
  const { config, method, probeId } = ctx;
  const where = `the gateway at ${config.baseUrl}`;
  const failed = { method, probeId, ...NOT_LEARNED, reachable: false } as const;
  const baseUrl = config.baseUrl;

  switch (result.kind) {
    case 'no_secret':
      return {
        ...failed,
        // Nothing was sent: whether the gateway is reachable was not tried.
        reachable: null,
        verdict: 'no_secret',
        reason: reason(result.secret === 'appkey' ? 'probe.no_appkey' : 'probe.no_signing_secret'),
        message:
          result.secret === 'appkey'
            ? say(
                `No appkey is stored yet, so Loket did not contact ${where}.`,
                'Enter the appkey the gateway gave you, then test again.',
              )
            : say(
                'The signing profile signs with a separate signing secret, and none is stored,',
                `so Loket did not contact ${where}.`,
                'Enter the signing secret (or sign with the appkey), then test again.',
              ),
      };
    case 'not_sent':
      return {
        ...failed,
        verdict: 'unreachable',
        reason: reason('probe.not_sent', { baseUrl, code: result.code }),
        message: say(
          `Could not reach ${where} (${result.code}: ${notSentWords(result.code)}).`,
          "Check the base URL and this computer's network connection, then test again.",
        ),
      };
    case 'tls':
      return {
        ...failed,
        verdict: 'unreachable',
        reason: reason('probe.tls', { baseUrl, code: result.code }),
        message: say(
          `Reached ${config.baseUrl}, but its TLS certificate was not accepted (${result.code}).`,
          "Check the base URL (the host name must match the certificate); if it is right, ask the gateway's support.",
        ),
      };
    case 'timeout':
      return {
        ...failed,
        verdict: 'unreachable',
        reason: reason('probe.timeout', { baseUrl, seconds: Number(seconds(result.timeoutMs)) }),
        message: say(
          `No answer from ${where} within ${seconds(result.timeoutMs)} s.`,
          'The gateway may be down or the address wrong; check the base URL and the network, then test again.',
        ),
      };
    case 'broken':
      return {
        ...failed,
        verdict: 'unreachable',
        reason: reason('probe.broken', { baseUrl, code: result.code }),
        message: say(
          `The connection to ${where} broke before an answer came (${result.code}).`,
          'Check the base URL (http or https?) and the network, then test again.',
        ),
      };
    case 'answer':
      return classifyAnswer(result, ctx);
  }
}

function classifyAnswer(
  answer: { status: number; text: string; badUtf8?: true; location?: string },
  ctx: ProbeContext,
): ConnectionReport {
  const { config, method, probeId, path } = ctx;
  const where = `the gateway at ${config.baseUrl}`;
  const baseUrl = config.baseUrl;
  // An answer in broken UTF-8 is not read as if it said something (the same rule as the client's).
  const json = answer.badUtf8 ? undefined : parseObject(answer.text);
  const retcode = typeof json?.retcode === 'string' ? json.retcode : undefined;
  const detail = typeof json?.message === 'string' ? json.message.slice(0, 300) : undefined;
  const base = {
    method,
    probeId,
    reachable: true,
    httpStatus: answer.status,
    ...(retcode !== undefined ? { retcode } : {}),
    ...(detail !== undefined ? { detail } : {}),
  };
  const theirWords = detail !== undefined && `The gateway said: "${detail}".`;
  const status = `HTTP ${answer.status}${retcode ? `, retcode ${retcode}` : ''}`;
  const signingKey = config.signing.key === 'appkey' ? 'the appkey' : 'a separate signing secret';
  const profile = `key: ${signingKey}, encoding: ${config.signing.encoding}`;
  const tryInquiry = method === 'inquiry' ? 'the status inquiry path' : 'the base URL';

  if (answer.status === 401 || answer.status === 403) {
    if (retcode === RETCODE.UNKNOWN_APPID)
      return {
        ...base,
        appIdKnown: false,
        signatureAccepted: null,
        verdict: 'unknown_appid',
        reason: reason('probe.unknown_appid', { baseUrl, appId: config.appId }),
        message: say(
          `Reached ${where}, but it does not know the appid "${config.appId}".`,
          'Check the appid (letter case counts) against what the gateway gave you.',
          theirWords,
        ),
      };
    if (retcode === RETCODE.BAD_APPKEY)
      return {
        ...base,
        appIdKnown: true,
        signatureAccepted: null,
        verdict: 'bad_key',
        reason: reason('probe.bad_key', { baseUrl, appId: config.appId }),
        message: say(
          `Reached ${where}; it knows the appid "${config.appId}", but the appkey stored is not the one it has for it.`,
          'Enter the appkey again, exactly as the gateway gave it.',
          theirWords,
        ),
      };
    if (retcode === RETCODE.BAD_SIGNATURE)
      return {
        ...base,
        appIdKnown: true,
        signatureAccepted: false,
        verdict: 'bad_signature',
        reason: reason('probe.bad_signature', {
          baseUrl,
          key: config.signing.key,
          encoding: config.signing.encoding,
        }),
        message: say(
          `Reached ${where}; the appid and appkey are accepted, but the signature (bodysign) is not.`,
          `Check the signing profile (now ${profile}) against the gateway's instructions` +
            (config.signing.key === 'secret' ? ', and the signing secret.' : '.'),
          theirWords,
        ),
      };
    return {
      ...base,
      ...NOT_LEARNED,
      verdict: 'refused',
      reason: reason('probe.refused', { baseUrl, status: answer.status, ...(retcode ? { retcode } : {}) }),
      message: say(
        `Reached ${where}, but it did not accept the credentials (${status}).`,
        `Check the appid, the appkey and the signing profile (${profile}).`,
        theirWords,
      ),
    };
  }

  if (json?.success === true) {
    // Authenticated, but answered as if the probe were real: say so loudly, never "ok".
    return {
      ...base,
      ...AUTHENTICATED,
      verdict: 'unexpected',
      reason:
        method === 'inquiry'
          ? reason('probe.inquiry_found', { baseUrl, probeId, path })
          : reason('probe.create_accepted', { baseUrl, probeId }),
      message:
        method === 'inquiry'
          ? say(
              `Reached ${where} and the credentials were accepted,`,
              `but it says it has an order ${probeId}, which Loket never created.`,
              `Check that the status inquiry path (${path}) is the gateway's, and tell the gateway's support.`,
            )
          : say(
              `Reached ${where} and the credentials were accepted, but the gateway ACCEPTED a test order it should`,
              `have refused (${probeId}, amount 0, a name over ${SEED_LIMITS.item_name} characters).`,
              'Cancel that order at the gateway and tell its support; if the gateway has a status inquiry,',
              'configure its path, so that the test uses it instead.',
            ),
    };
  }
  if (
    retcode !== undefined &&
    answer.status >= 400 &&
    answer.status < 500 &&
    (retcode === RETCODE.ORDER_NOT_FOUND || FIELD_RULE_RETCODES.has(retcode))
  ) {
    return {
      ...base,
      ...AUTHENTICATED,
      verdict: 'ok',
      reason:
        method === 'inquiry'
          ? reason('probe.ok_inquiry', { baseUrl, probeId })
          : reason('probe.ok_create', { baseUrl, probeId, retcode }),
      message: say(
        `Connected: ${where} answered and accepted the appid, the appkey and the signature.`,
        method === 'inquiry'
          ? `Loket asked for the status of an order that cannot exist (${probeId}) and the gateway answered "not found", as it should.`
          : say(
              `Loket sent a correctly signed order that breaks the interface's field rules`,
              `(${probeId}: amount 0, a name over ${SEED_LIMITS.item_name} characters)`,
              `and the gateway refused it for that (retcode ${retcode}), as it should.`,
            ),
        'Nothing was created.',
      ),
    };
  }
  const unexpected = { ...base, ...NOT_LEARNED, verdict: 'unexpected' } as const;
  if (answer.status >= 300 && answer.status < 400)
    return {
      ...unexpected,
      reason: reason('probe.redirect', {
        baseUrl,
        status: answer.status,
        ...(answer.location ? { location: answer.location } : {}),
      }),
      message: say(
        `Reached ${where}, but it answered with a redirect (HTTP ${answer.status}${answer.location ? ` to ${answer.location}` : ''}).`,
        'Check the base URL: https instead of http, or a missing path.',
      ),
    };
  if (answer.status >= 500)
    return {
      ...unexpected,
      reason: reason('probe.server_error', { baseUrl, status: answer.status, ...(retcode ? { retcode } : {}) }),
      message: say(
        `Reached ${where}, but it failed to answer (${status}): it may be down for maintenance.`,
        'Try again later.',
        theirWords,
      ),
    };
  if (json === undefined)
    return {
      ...unexpected,
      reason: reason('probe.not_json', {
        baseUrl,
        status: answer.status,
        url: gatewayUrl(config, path),
        inquiry: method === 'inquiry',
      }),
      message: say(
        `Reached ${config.baseUrl}, but ${gatewayUrl(config, path)} answered HTTP ${answer.status}`,
        `with something that is not the gateway's JSON. Check ${tryInquiry}.`,
      ),
    };
  if (retcode === RETCODE.NOT_FOUND || retcode === RETCODE.METHOD_NOT_ALLOWED)
    return {
      ...unexpected,
      reason: reason('probe.no_endpoint', { baseUrl, path, status: answer.status, inquiry: method === 'inquiry' }),
      message: say(`Reached ${where}, but it has no endpoint ${path} (${status}).`, `Check ${tryInquiry}.`, theirWords),
    };
  return {
    ...unexpected,
    reason: reason('probe.unexpected', { baseUrl, status: answer.status, ...(retcode ? { retcode } : {}) }),
    message: say(
      `Reached ${where}, but its answer was not one the test expects (${status}${retcode ? '' : ', no retcode'});`,
      'the credentials could not be confirmed.',
      theirWords,
    ),
  };
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

function notSentWords(code: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'nothing is listening at that address and port';
    case 'ENOTFOUND':
      return 'no such host name';
    case 'EAI_AGAIN':
      return 'the host name could not be looked up right now';
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return 'no route to that network';
    case 'ERR_INVALID_URL':
      return 'the base URL is not a valid address';
    default:
      return 'the connection could not be made';
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
