import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { z } from 'zod';
import type { Order } from '../../common/order';
import { GATEWAY_STATUS_STATE } from '../../common/order-policy';
import { RETCODE, type Retcode } from '../../common/retcodes';
import { verifyBodySign, type SigningProfile } from '../bodysign';
import type { OrderLog } from '../orders/order-log';
import type { OrderService } from '../payments/order-service';
import { readBody } from '../http/read-body';
import { decodeStrictUtf8, parseStrictJsonBytes } from '../http/strict-json-bytes';
import { REDACTED_ANSWER, redactAnswer } from '../gateway/signed-request';
import { CallbackIssues, type NewCallbackIssue } from '../reports/callback-issues';
import { CallbackReceipts } from './callback-receipts';

/**
 * Loket's callback listener (docs/orders.md, "How Loket learns "paid""): receives the gateway's POSTs to
 * `notification_url`, proves them authentic over the raw bytes, drops replays, and applies only forward
 * state changes through OrderService.
 *
 * The gateway retries until it gets a 2xx, so the HTTP status is how Loket tells it "done" or "try
 * again". 2xx means Loket has processed the callback (applied, or ignored because it was not a forward
 * change); any non-2xx means Loket did not take the fact in, and a retry is welcome or at least harmless.
 */
export interface CallbackListenerOptions {
  /** Loopback unless a relay on another host must reach it. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** e.g. `/callbacks/gateway`; only POST on exactly this path is served. */
  path: string;
  appId: string;
  /** The HMAC key: the appkey or the separate signing secret, whichever the signing profile names. */
  key: string;
  encoding: SigningProfile['encoding'];
  orders: OrderService;
  log: OrderLog;
  /**
   * Where receipts are remembered, to drop replays. It must be on the log's connection, so that a receipt
   * and the change it causes are one transaction (a store on another connection is refused at the first
   * callback with a 500, before anything is written). Default: a store on the log's connection and clock.
   */
  receipts?: CallbackReceipts;
  /**
   * Where authentic callbacks that could not be applied are recorded for the manager's attention queue (an
   * unknown order, another amount, a status that is not a forward change), once per distinct body. Default: a
   * store on the log's connection and clock.
   */
  issues?: CallbackIssues;
  /** Default 16 KiB; a real callback is a few hundred bytes. */
  bodyLimitBytes?: number;
  /** One line per callback that did not apply cleanly; never carries the key or a signature. */
  report?: (line: string) => void;
}

export interface CallbackListener {
  /** The URL to give the gateway as `notification_url`. */
  readonly url: string;
  close(): Promise<void>;
}

export const DEFAULT_CALLBACK_BODY_LIMIT = 16 * 1024;

/** Past this an oversized body is no longer drained for a polite 413: the connection is dropped. */
const DRAIN_LIMIT_BYTES = 1024 * 1024;

const requiredString = (what: string) =>
  z.string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'is required' : `must be ${what}`) });

const optionalString = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((v) => v ?? undefined);

/**
 * The sandbox's callback payload (docs/sandbox.md, "Callbacks"). Unknown fields are dropped, and null
 * counts as absent, as the sandbox itself treats request fields.
 */
export const callbackPayloadSchema = z.object({
  merchant_transaction_id: requiredString('a string')
    .min(1, 'must not be empty')
    .max(36, 'must be at most 36 characters'),
  status: z.enum(['PAID', 'EXPIRED', 'FAILED'], {
    error: (iss) =>
      iss.input === undefined || iss.input === null ? 'is required' : 'must be one of PAID, EXPIRED, FAILED',
  }),
  amount: z
    .number({
      error: (iss) => (iss.input === undefined || iss.input === null ? 'is required' : 'must be a JSON whole number'),
    })
    .int('must be a whole number')
    .positive('must be positive'),
  transaction_id: optionalString(100),
  payment_method: optionalString(64),
  paid_at: optionalString(40),
});

export type CallbackPayload = z.infer<typeof callbackPayloadSchema>;

type Answer = {
  status: number;
  body: { success: boolean; retcode: Retcode | string; message: string };
  headers?: Record<string, string>;
};

const ok = (message: string): Answer => ({ status: 200, body: { success: true, retcode: RETCODE.OK, message } });
const fail = (status: number, retcode: Retcode, message: string, headers?: Record<string, string>): Answer => ({
  status,
  body: { success: false, retcode, message },
  ...(headers ? { headers } : {}),
});

/** The request handler alone, for a host that mounts it on a server of its own. */
export function createCallbackHandler(
  options: Omit<CallbackListenerOptions, 'host' | 'port'>,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  if (!options.key) throw new Error('callback listener: key is required (the appkey or the signing secret)');
  if (!options.appId) throw new Error('callback listener: appId is required');
  if (!options.path.startsWith('/'))
    throw new Error(`callback listener: path must start with "/" (got ${JSON.stringify(options.path)})`);
  const limit = options.bodyLimitBytes ?? DEFAULT_CALLBACK_BODY_LIMIT;
  const report = options.report ?? (() => undefined);
  const receipts = options.receipts ?? new CallbackReceipts(options.log.db, options.log.clock);
  const issues = options.issues ?? new CallbackIssues(options.log.db, options.log.clock);

  return async (req, res) => {
    try {
      const answer = await handle(req, options, receipts, issues, limit, report);
      send(res, answer);
    } catch (err) {
      // The detail goes to the report only: an answer must never carry internals.
      report(`callback listener: internal error: ${(err as Error)?.message ?? String(err)}`);
      send(
        res,
        fail(500, RETCODE.INTERNAL_ERROR, 'internal error in Loket; the callback was not applied, retry later'),
      );
    }
  };
}

export async function startCallbackListener(options: CallbackListenerOptions): Promise<CallbackListener> {
  const handler = createCallbackHandler(options);
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer((req, res) => void handler(req, res));
  // A gateway sends a few hundred bytes at once; anything slower is a stuck or hostile client.
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  server.on('clientError', (_err: Error, socket: Socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostPart}:${address.port}${options.path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(
  req: IncomingMessage,
  options: Omit<CallbackListenerOptions, 'host' | 'port'>,
  receipts: CallbackReceipts,
  issues: CallbackIssues,
  limit: number,
  report: (line: string) => void,
): Promise<Answer> {
  if (pathOf(req.url) !== options.path) {
    req.resume();
    return fail(404, RETCODE.NOT_FOUND, 'no such endpoint');
  }
  if (req.method !== 'POST') {
    req.resume();
    return fail(405, RETCODE.METHOD_NOT_ALLOWED, `method ${req.method ?? ''} is not allowed here; use POST`, {
      allow: 'POST',
    });
  }

  const read = await readBody(req, limit, DRAIN_LIMIT_BYTES);
  if (read.kind === 'aborted') return fail(400, RETCODE.MALFORMED_JSON, 'the request body was cut off');
  if (read.kind === 'too_large')
    return fail(413, RETCODE.BODY_TOO_LARGE, `body: at most ${limit} bytes`, { connection: 'close' });
  const raw = read.bytes;

  // Authenticity first, over the bytes exactly as they came: nothing from an unsigned body is parsed,
  // stored or acted on. The answer says which header failed, never what was expected.
  const appid = req.headers.appid;
  const bodysign = req.headers.bodysign;
  if (typeof appid !== 'string' || appid === '' || typeof bodysign !== 'string' || bodysign === '') {
    return fail(401, RETCODE.AUTH_HEADER_MISSING, 'headers appid and bodysign: are required');
  }
  if (appid !== options.appId) return fail(401, RETCODE.UNKNOWN_APPID, 'header appid: unknown application id');
  if (!verifyBodySign(raw, options.key, options.encoding, bodysign)) {
    return fail(401, RETCODE.BAD_SIGNATURE, 'header bodysign: does not match the body');
  }

  // The gateway sends JSON: anything else is refused before it is read (as the sandbox refuses a request).
  const contentType = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (contentType !== 'application/json')
    return fail(415, RETCODE.UNSUPPORTED_MEDIA_TYPE, 'header content-type: must be application/json');

  // Strictly (common/strict-json.ts): broken UTF-8 or a key twice could make one body mean two things.
  const strict = parseStrictJsonBytes(raw);
  if (!strict.ok) return fail(400, RETCODE.MALFORMED_JSON, `body: ${strict.message}`);
  // Nothing the gateway echoes of the key is kept (the payload goes into the order's history).
  const text = redactAnswer(decodeStrictUtf8(raw)!, [options.key]);
  const json: unknown = text === REDACTED_ANSWER ? undefined : JSON.parse(text);
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return fail(400, RETCODE.FIELD_TYPE, 'body: must be a JSON object');
  const parsed = callbackPayloadSchema.safeParse(json);
  if (!parsed.success) {
    // As the sandbox does: every problem, each naming its field; the retcode is the first one's.
    const retcode = parsed.error.issues[0]!.message === 'is required' ? RETCODE.FIELD_REQUIRED : RETCODE.FIELD_TYPE;
    return fail(400, retcode, parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  }
  const payload = parsed.data;
  const id = payload.merchant_transaction_id;
  const bodySha256 = createHash('sha256').update(raw).digest('hex');

  // Everything from here to the answer runs synchronously (better-sqlite3), so no other callback handled
  // by this process can slip between reading the order, recording the receipt and changing the state.
  const order = options.log.get(id);
  if (!order) {
    // Decision: 404, and no receipt. Loket logs every order before its request leaves, so
    // an authentic callback for an id we lack is not a race that resolves itself: this listener is attached
    // to the wrong order log (another terminal, a moved or restored data directory, a misrouted relay).
    // That is fixable, and after the fix a retry can still land, whereas a 200 would make the gateway drop
    // an authentic payment notice that nobody in Loket could act on (there is no order to flag). Retries
    // change nothing here, and the gateway's delivery log keeps showing the callback as undelivered.
    report(`callback for unknown order ${JSON.stringify(id)} (status ${payload.status}); answered 404`);
    // For the manager's attention queue, once per body; the answer stays 404 whatever the recording does.
    recordIssue(
      issues,
      { orderId: id, status: payload.status, reason: 'unknown_order', amount: payload.amount, bodySha256 },
      report,
    );
    return fail(404, RETCODE.ORDER_NOT_FOUND, `merchant_transaction_id: no order ${JSON.stringify(id)} here`);
  }
  if (order.state === 'creating') {
    // The gateway's answer to the create call has not been applied yet; a retry after it has will apply.
    return fail(409, RETCODE.ILLEGAL_TRANSITION, `order ${id} is still being created; retry later`);
  }
  if (payload.amount !== order.amount) {
    recordIssue(
      issues,
      { orderId: id, status: payload.status, reason: 'amount_mismatch', amount: payload.amount, bodySha256 },
      report,
    );
    return amountMismatch(options.log, order, payload, bodySha256, report);
  }

  const meta = {
    source: 'callback' as const,
    reason: `gateway callback: ${payload.status}${payload.transaction_id ? ` (transaction ${payload.transaction_id})` : ''}`,
  };
  // Signed, for this order and its amount, but naming another payment method: applied (the signature and the amount
  // say this order's money moved; refusing would leave a paid sale open), and noted for the manager, whose figures
  // by method would otherwise be wrong without anyone knowing.
  const otherMethod = payload.payment_method !== undefined && payload.payment_method !== order.methodId;
  // The receipt and the change it causes commit together: a failure in between must not leave a
  // receipt that makes the gateway's retry look like a replay.
  const result = options.log.atomically(() => {
    // On another connection the receipt would commit on its own: refuse (500, the gateway retries) rather
    // than break the guarantee above.
    if (!receipts.inTransaction)
      throw new Error("callback receipts are not on the order log's connection; the callback was not applied");
    if (
      !receipts.record({
        bodySha256,
        orderId: id,
        status: payload.status,
        outcome: `received ${payload.status} while ${order.state}`,
      })
    ) {
      return undefined;
    }
    const applied = options.orders.applyGatewayStatus(
      id,
      payload.status,
      meta,
      { callback: payload, bodySha256 },
      payload.transaction_id,
    );
    if (otherMethod)
      options.orders.noteMismatch(
        applied.order,
        'callback',
        ['payment_method'],
        {
          merchantTransactionId: id,
          amount: payload.amount,
          paymentMethod: payload.payment_method!,
          status: payload.status,
        },
        true,
        meta,
        { bodySha256 },
      );
    if (applied.applied === 'unchanged' && applied.order.state !== GATEWAY_STATUS_STATE[payload.status]) {
      // Not forward (EXPIRED after PAID, PAID after FAILED…): the state stays, but the contradiction is kept
      // in the order's history, and as an issue for the manager's attention queue, in the receipt's
      // transaction: a replay of this body is dropped as a replay, so it must not be lost in between.
      options.log.note(id, {
        ...meta,
        reason: `gateway callback reported ${payload.status} while the order is ${applied.order.state}; ignored, only forward changes apply`,
        payload: { callback: payload, bodySha256 },
      });
      issues.record({ orderId: id, status: payload.status, reason: 'not_forward', amount: payload.amount, bodySha256 });
    }
    return applied;
  });
  if (!result) return ok(`callback for order ${id} was already processed; nothing changed`);
  switch (result.applied) {
    case 'changed':
      return ok(`order ${id} is now ${result.order.state}`);
    case 'late_payment':
      report(`late payment on ${order.state} order ${id}: flagged for the manager`);
      return ok(`order ${id} is ${result.order.state}; the payment was kept and flagged for the manager`);
    case 'closed':
      return ok(`order ${id} was cancelled in Loket; the gateway's ${payload.status} is recorded`);
    case 'unchanged': {
      const reported = GATEWAY_STATUS_STATE[payload.status];
      if (result.order.state === reported) return ok(`order ${id} was already ${reported}; nothing changed`);
      // Noted on the order and recorded as an issue above, with the receipt.
      return ok(`order ${id} is ${result.order.state}; ${payload.status} is not a forward change and was ignored`);
    }
  }
}

/**
 * The callback does not describe the order we sent, so it must not settle it. No receipt is recorded,
 * so each retry gets the same 409 (the gateway keeps showing it undelivered); the note is written once
 * per distinct body so the retries do not flood the order's history.
 */
function amountMismatch(
  log: OrderLog,
  order: Order,
  payload: CallbackPayload,
  bodySha256: string,
  report: (line: string) => void,
): Answer {
  const seen = log
    .events(order.id)
    .some((e) => e.type === 'note' && (e.payload as { bodySha256?: unknown } | undefined)?.bodySha256 === bodySha256);
  if (!seen) {
    log.note(order.id, {
      source: 'callback',
      reason: `gateway callback ${payload.status} reports amount ${payload.amount}, but the order is for ${order.amount}; not applied`,
      payload: { callback: payload, bodySha256, expectedAmount: order.amount },
    });
    report(`callback for order ${order.id}: amount ${payload.amount} does not match ${order.amount}; not applied`);
  }
  return fail(
    409,
    RETCODE.ILLEGAL_TRANSITION,
    `amount: ${payload.amount} does not match the order's amount; the callback was not applied`,
  );
}

/**
 * Records a refused authentic callback for the attention queue. A failure to record is reported and swallowed:
 * the gateway gets the same refusal either way (and retries), so the record never blocks or changes its answer.
 */
function recordIssue(issues: CallbackIssues, issue: NewCallbackIssue, report: (line: string) => void): void {
  try {
    issues.record(issue);
  } catch (err) {
    report(
      `callback for order ${JSON.stringify(issue.orderId)}: could not record the issue: ${(err as Error)?.message ?? String(err)}`,
    );
  }
}

function pathOf(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? '', 'http://listener.invalid').pathname;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, answer: Answer): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...answer.headers,
  });
  res.end(text);
}
