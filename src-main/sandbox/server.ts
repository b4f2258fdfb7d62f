import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import QRCode from 'qrcode';
import { buildQrisPayload } from '../common/emvco';
import { DEFAULT_GATEWAY_TIME_ZONE, formatGatewayDate } from '../common/gateway-time';
import { retcodeForRule, validateOrderRequest, type FieldRule } from '../common/order-request';
import { kindSpec } from '../common/payment-kinds';
import type { PaymentKind, PaymentMethod } from '../common/payment-methods';
import { RETCODE } from '../common/retcodes';
import { DEFAULT_SIGNING_PROFILE, signingKey, verifyBodySign, type SigningProfile } from '../core/bodysign';
import { loadPaymentCatalogue } from '../core/catalogue';
import { CallbackDispatcher, DEFAULT_CALLBACK_POLICY, type CallbackPolicy } from './callbacks';
import { realSandboxClock, type SandboxClock, type Timer } from './clock';
import { FaultSwitches, faultSettingsSchema } from './faults';
import { isLoopbackAddress } from '../core/http/loopback';
import { parseStrictJsonBytes } from '../core/http/strict-json-bytes';
import { isJsonContentType, readBody, sendError, sendHtml, sendInternalError, sendJson } from './http-io';
import {
  DEFAULT_TTL_SECONDS,
  OrderBook,
  smsDetails,
  type PaymentData,
  type SandboxOrder,
  type SandboxStatus,
} from './orders';
import { renderNotFoundPage, renderPaymentPage } from './payment-page';
import { statusFacts, v1SuccessBody, v2SuccessBody } from './responses';

/** Fixed defaults so the curl examples in docs/sandbox.md work as written. Not secrets: a sandbox's. */
export const SANDBOX_DEFAULTS = {
  host: '127.0.0.1',
  port: 8787,
  appId: 'loket-sandbox',
  appKey: 'sandbox-appkey-not-secret',
  bodyLimitBytes: 64 * 1024,
} as const;

export interface SandboxOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  appId?: string;
  appKey?: string;
  signing?: SigningProfile;
  methods?: PaymentMethod[];
  ttlSeconds?: Partial<Record<PaymentKind, number>>;
  /** The zone of `expired_date` and `paid_at`. */
  timeZone?: string;
  bodyLimitBytes?: number;
  callbacks?: Partial<CallbackPolicy>;
  merchant?: { name: string; city: string; postalCode: string; nmid: string; pan: string };
  log?: (line: string) => void;
  /** Real time by default; a test passes its own to step expiry, callback retries and latency. */
  clock?: SandboxClock;
  /**
   * The host the customer's phone reaches the sandbox by, for the URLs it hands out (payment page, QR image,
   * back_url): the machine's LAN address when it listens on the LAN. Defaults to the address it listens on.
   */
  publicHost?: string;
  /**
   * Who may use the control endpoints (/sandbox/*: fault switches, the orders with customers' details, paying,
   * expiring): anyone who reaches the server (the default, for a standalone sandbox), or only this machine. The
   * embedded sandbox of browser mode on the LAN serves payment pages to phones but keeps its controls to Loket.
   */
  controlFrom?: 'any' | 'loopback';
}

export interface SandboxHandle {
  readonly url: string;
  readonly appId: string;
  readonly orders: OrderBook;
  readonly faults: FaultSwitches;
  readonly callbacks: CallbackDispatcher;
  /** Moves a PENDING order on, as the simulation endpoints do. */
  settle(mtid: string, to: Exclude<SandboxStatus, 'PENDING'>): SandboxOrder;
  close(): Promise<void>;
}

const DEFAULT_MERCHANT = {
  name: 'LOKET SANDBOX STORE',
  city: 'JAKARTA',
  postalCode: '10110',
  nmid: 'ID1026000000001',
  pan: '9360001400000000019',
};

/** A path segment with broken percent-encoding names nothing; decoding it must not throw. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '\u0000invalid';
  }
}

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly retcode: (typeof RETCODE)[keyof typeof RETCODE],
    message: string,
  ) {
    super(message);
  }
}

const RULE_STATUS: Record<FieldRule, number> = {
  required: 400,
  type: 400,
  max_length: 400,
  format: 400,
  unsupported_method: 422,
  customer_name_required: 422,
  amount_range: 422,
};

function sendMalformed(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end('{"success":true,"retcode":"0000","message":"Transaction cre');
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const appId = options.appId ?? SANDBOX_DEFAULTS.appId;
  const appKey = options.appKey ?? SANDBOX_DEFAULTS.appKey;
  const signing = options.signing ?? DEFAULT_SIGNING_PROFILE;
  const key = signingKey(signing, appKey);
  const methods = options.methods ?? loadPaymentCatalogue();
  const ttl = { ...DEFAULT_TTL_SECONDS, ...options.ttlSeconds };
  const timeZone = options.timeZone ?? DEFAULT_GATEWAY_TIME_ZONE;
  const bodyLimit = options.bodyLimitBytes ?? SANDBOX_DEFAULTS.bodyLimitBytes;
  const merchant = options.merchant ?? DEFAULT_MERCHANT;
  const log = options.log ?? (() => undefined);
  const host = options.host ?? SANDBOX_DEFAULTS.host;
  const clock = options.clock ?? realSandboxClock;

  const orders = new OrderBook();
  const faults = new FaultSwitches();
  const callbacks = new CallbackDispatcher(
    { ...DEFAULT_CALLBACK_POLICY, ...options.callbacks },
    { appId, key, encoding: signing.encoding },
    log,
    clock,
  );
  const expiryTimers = new Map<string, Timer>();
  // Injected latency must not hold close() up: closing ends every pause at once.
  const pauses = new Set<() => void>();
  const pause = (ms: number) =>
    ms <= 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const done = () => {
            timer.cancel();
            pauses.delete(done);
            resolve();
          };
          const timer = clock.schedule(done, ms);
          pauses.add(done);
        });
  let baseUrl = '';
  /** Where the customer's phone reaches the sandbox: the URLs handed out in answers use it. */
  let publicUrl = '';

  const pagePath = (token: string) => `/api/order/${encodeURIComponent(appId)}/${token}`;

  function settle(mtid: string, to: Exclude<SandboxStatus, 'PENDING'>): SandboxOrder {
    const order = orders.get(mtid);
    if (!order)
      throw new HttpProblem(404, RETCODE.ORDER_NOT_FOUND, `merchant_transaction_id: no order ${JSON.stringify(mtid)}`);
    // An order past its expiry cannot be paid or failed any more; expiring it is this very call.
    if (to !== 'EXPIRED') expireIfDue(order);
    if (order.status !== 'PENDING') {
      throw new HttpProblem(
        409,
        RETCODE.ILLEGAL_TRANSITION,
        `order ${mtid} is ${order.status}; only a PENDING order can become ${to}`,
      );
    }
    order.status = to;
    order.statusChangedAt = clock.now();
    if (to === 'PAID') order.paidAt = order.statusChangedAt;
    expiryTimers.get(mtid)?.cancel();
    expiryTimers.delete(mtid);
    log(`order ${mtid} -> ${to}`);
    if (order.request.notification_url) callbacks.send(order.request.notification_url, statusFacts(order, timeZone));
    return order;
  }

  function expireIfDue(order: SandboxOrder): void {
    if (order.status === 'PENDING' && clock.now().getTime() >= order.expiresAt.getTime())
      settle(order.request.merchant_transaction_id, 'EXPIRED');
  }

  function scheduleExpiry(order: SandboxOrder): void {
    const mtid = order.request.merchant_transaction_id;
    const timer = clock.schedule(
      () => {
        expiryTimers.delete(mtid);
        // Timers may wake a little early; then wait again rather than leave the order PENDING for good.
        if (order.status === 'PENDING' && clock.now().getTime() < order.expiresAt.getTime()) scheduleExpiry(order);
        else expireIfDue(order);
      },
      Math.max(1, order.expiresAt.getTime() - clock.now().getTime()),
    );
    expiryTimers.set(mtid, timer);
  }

  function paymentData(
    method: PaymentMethod,
    req: SandboxOrder['request'],
    token: string,
    transactionId: string,
  ): PaymentData {
    const page = publicUrl + pagePath(token);
    const qrisUrl = `${publicUrl}/api/qris/${token}.png`;
    const qris = () =>
      buildQrisPayload({
        merchantName: merchant.name,
        merchantCity: merchant.city,
        postalCode: merchant.postalCode,
        nmid: merchant.nmid,
        merchantPan: merchant.pan,
        amount: req.amount,
        billNumber: transactionId,
        terminalLabel: 'LOKET',
      });
    return kindSpec(method.kind).sandbox.payment({
      method,
      request: req,
      pageUrl: page,
      qrisUrl,
      qrString: qris,
      newVirtualAccount: () => orders.newVirtualAccount(method.id),
      smsDetails: () => smsDetails(method),
    });
  }

  function authenticate(req: IncomingMessage, body: Buffer): void {
    for (const header of ['appkey', 'appid', 'bodysign']) {
      const value = req.headers[header];
      if (typeof value !== 'string' || value === '') {
        throw new HttpProblem(401, RETCODE.AUTH_HEADER_MISSING, `header ${header}: is required`);
      }
    }
    if (req.headers.appid !== appId)
      throw new HttpProblem(401, RETCODE.UNKNOWN_APPID, 'header appid: unknown application id');
    const given = Buffer.from(req.headers.appkey as string);
    const expected = Buffer.from(appKey);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new HttpProblem(401, RETCODE.BAD_APPKEY, 'header appkey: does not match the application id');
    }
    if (!verifyBodySign(body, key, signing.encoding, req.headers.bodysign as string)) {
      throw new HttpProblem(
        401,
        RETCODE.BAD_SIGNATURE,
        'header bodysign: does not match the body (HMAC-SHA256 over the exact body bytes, ' +
          `${signing.encoding}, keyed with the ${signing.key === 'appkey' ? 'appkey' : 'signing secret'})`,
      );
    }
  }

  /** Reads, authenticates and parses a signed JSON body; the shared front half of /api/* POSTs. */
  async function signedJson(req: IncomingMessage): Promise<unknown> {
    const read = await readBody(req, bodyLimit);
    if (read.kind === 'aborted') throw new HttpProblem(400, RETCODE.MALFORMED_JSON, 'the request body was cut off');
    if (read.kind === 'too_large')
      throw new HttpProblem(413, RETCODE.BODY_TOO_LARGE, `body: at most ${bodyLimit} bytes (got ${read.received})`);
    authenticate(req, read.bytes);
    if (!isJsonContentType(req)) {
      throw new HttpProblem(
        415,
        RETCODE.UNSUPPORTED_MEDIA_TYPE,
        `header content-type: must be application/json (got ${JSON.stringify(req.headers['content-type'] ?? '')})`,
      );
    }
    // Strict: broken UTF-8 and a key given twice are malformed, not read one of two ways (common/strict-json.ts).
    const parsed = parseStrictJsonBytes(read.bytes);
    if (!parsed.ok) throw new HttpProblem(400, RETCODE.MALFORMED_JSON, `body: ${parsed.message}`);
    return parsed.value;
  }

  async function createOrder(req: IncomingMessage, res: ServerResponse, api: 'v1' | 'v2'): Promise<void> {
    const body = await signedJson(req);
    // Taken after authentication, so a refused request does not use up a switch's count.
    const fault = faults.take();
    if (fault.http_status !== null) {
      throw new HttpProblem(
        fault.http_status,
        RETCODE.INJECTED_FAULT,
        `sandbox fault: injected HTTP ${fault.http_status}; the order was not stored`,
      );
    }
    if (fault.drop_before_store && (api === 'v1' || api === 'v2')) {
      req.socket.destroy();
      return;
    }
    const result = validateOrderRequest(body, methods, { acceptDisabled: true });
    if (!result.ok) {
      const first = result.issues[0]!;
      throw new HttpProblem(
        RULE_STATUS[first.rule],
        retcodeForRule(first.rule),
        result.issues.map((i) => i.message).join('; '),
      );
    }
    const request = result.value;
    const existing = orders.get(request.merchant_transaction_id);
    if (existing) {
      throw new HttpProblem(
        409,
        RETCODE.DUPLICATE_ORDER,
        `merchant_transaction_id: ${JSON.stringify(request.merchant_transaction_id)} is already used by order ` +
          `${existing.transactionId}; no second order was created`,
      );
    }
    const now = clock.now();
    const token = orders.newToken();
    const transactionId = orders.newTransactionId(now);
    const order: SandboxOrder = {
      api,
      token,
      transactionId,
      request,
      method: result.method,
      status: 'PENDING',
      createdAt: now,
      statusChangedAt: now,
      expiresAt: new Date(now.getTime() + ttl[result.method.kind] * 1000),
      payment: paymentData(result.method, request, token, transactionId),
    };
    orders.add(order);
    scheduleExpiry(order);
    log(`order ${request.merchant_transaction_id} created (${api}, ${request.payment_method}, ${request.amount})`);

    await pause(fault.latency_ms);
    if (fault.drop_after_store) {
      req.socket.destroy();
      return;
    }
    if (fault.malformed_json) return sendMalformed(res);
    sendJson(res, 200, api === 'v2' ? v2SuccessBody(order, timeZone) : v1SuccessBody(order));
  }

  async function inquiry(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await signedJson(req);
    const fault = faults.take();
    if (fault.http_status !== null)
      throw new HttpProblem(
        fault.http_status,
        RETCODE.INJECTED_FAULT,
        `sandbox fault: injected HTTP ${fault.http_status}`,
      );
    const mtid = (body as { merchant_transaction_id?: unknown } | null)?.merchant_transaction_id;
    if (typeof mtid !== 'string' || mtid === '') {
      throw new HttpProblem(400, RETCODE.FIELD_REQUIRED, 'merchant_transaction_id: is required (a string)');
    }
    const order = orders.get(mtid);
    if (!order)
      throw new HttpProblem(404, RETCODE.ORDER_NOT_FOUND, `merchant_transaction_id: no order ${JSON.stringify(mtid)}`);
    expireIfDue(order);
    await pause(fault.latency_ms);
    if (fault.drop_after_store) {
      req.socket.destroy();
      return;
    }
    if (fault.malformed_json) return sendMalformed(res);
    sendJson(res, 200, { success: true, retcode: RETCODE.OK, message: 'Order found', data: orderSummary(order) });
  }

  function orderSummary(order: SandboxOrder) {
    return {
      ...statusFacts(order, timeZone),
      api: order.api,
      token: order.token,
      expired_date: formatGatewayDate(order.expiresAt, timeZone),
      created_at: formatGatewayDate(order.createdAt, timeZone),
      payment_page: publicUrl + pagePath(order.token),
      // [ours] The payment data as the create call answered it, so a client that lost that answer can still
      // show the customer the same kind of instruction (a QRIS code, not a page link).
      ...(order.api === 'v2' ? { payment: v2SuccessBody(order, timeZone) } : {}),
    };
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const allow = (methodsAllowed: string[]) => {
      if (!methodsAllowed.includes(method)) {
        req.resume();
        throw new HttpProblem(
          405,
          RETCODE.METHOD_NOT_ALLOWED,
          `${method} is not allowed on ${path}; use ${methodsAllowed.join(' or ')}`,
        );
      }
    };
    let m: RegExpExecArray | null;

    if (path.startsWith('/sandbox/') && options.controlFrom === 'loopback' && !isLoopback(req.socket.remoteAddress)) {
      req.resume();
      throw new HttpProblem(403, RETCODE.FORBIDDEN, 'the sandbox is controlled from this machine only');
    }
    if (path === '/api/transaction') return (allow(['POST']), createOrder(req, res, 'v2'));
    if (path === '/api/create') return (allow(['POST']), createOrder(req, res, 'v1'));
    if (path === '/api/status') return (allow(['POST']), inquiry(req, res));
    if ((m = /^\/api\/order\/([^/]+)\/([^/]+)$/.exec(path))) {
      allow(['GET', 'HEAD']);
      const order = safeDecode(m[1]!) === appId ? orders.byPageToken(m[2]!) : undefined;
      if (!order) return sendHtml(res, 404, renderNotFoundPage());
      expireIfDue(order);
      return sendHtml(res, 200, await renderPaymentPage(order, timeZone, `${pagePath(order.token)}/pay`));
    }
    if ((m = /^\/api\/order\/([^/]+)\/([^/]+)\/pay$/.exec(path))) {
      allow(['POST']);
      req.resume();
      const order = safeDecode(m[1]!) === appId ? orders.byPageToken(m[2]!) : undefined;
      if (!order) return sendHtml(res, 404, renderNotFoundPage());
      expireIfDue(order);
      if (order.status === 'PENDING') settle(order.request.merchant_transaction_id, 'PAID');
      res.writeHead(303, { location: pagePath(order.token) }).end();
      return;
    }
    if ((m = /^\/api\/qris\/([0-9a-f]+)\.png$/.exec(path))) {
      allow(['GET']);
      const order = orders.byPageToken(m[1]!);
      if (!order?.payment.qrString) throw new HttpProblem(404, RETCODE.NOT_FOUND, 'no QR image at this address');
      const png = await QRCode.toBuffer(order.payment.qrString, {
        type: 'png',
        margin: 2,
        width: 360,
        errorCorrectionLevel: 'M',
      });
      res
        .writeHead(200, { 'content-type': 'image/png', 'content-length': png.length, 'cache-control': 'no-store' })
        .end(png);
      return;
    }
    if (path === '/health') {
      allow(['GET']);
      return sendJson(res, 200, { success: true, retcode: RETCODE.OK, message: 'sandbox gateway up', app_id: appId });
    }
    if (path === '/sandbox/orders') {
      allow(['GET']);
      const all = orders.all();
      all.forEach(expireIfDue);
      return sendJson(res, 200, {
        success: true,
        retcode: RETCODE.OK,
        message: `orders: ${all.length}`,
        data: all.map(orderSummary),
      });
    }
    if ((m = /^\/sandbox\/orders\/([^/]+)$/.exec(path))) {
      allow(['GET']);
      const mtid = safeDecode(m[1]!);
      const order = orders.get(mtid);
      if (!order)
        throw new HttpProblem(
          404,
          RETCODE.ORDER_NOT_FOUND,
          `merchant_transaction_id: no order ${JSON.stringify(mtid)}`,
        );
      expireIfDue(order);
      const attempts = callbacks.attempts.filter((a) => a.merchant_transaction_id === mtid);
      return sendJson(res, 200, {
        success: true,
        retcode: RETCODE.OK,
        message: 'Order found',
        data: { ...orderSummary(order), callbacks: attempts },
      });
    }
    if ((m = /^\/sandbox\/orders\/([^/]+)\/(pay|expire|fail)$/.exec(path))) {
      allow(['POST']);
      req.resume();
      const to = ({ pay: 'PAID', expire: 'EXPIRED', fail: 'FAILED' } as const)[m[2] as 'pay' | 'expire' | 'fail'];
      const order = settle(safeDecode(m[1]!), to);
      return sendJson(res, 200, {
        success: true,
        retcode: RETCODE.OK,
        message: `Order is now ${to}`,
        data: orderSummary(order),
      });
    }
    if (path === '/sandbox/faults') {
      allow(['GET', 'PUT', 'DELETE']);
      if (method === 'PUT') {
        const read = await readBody(req, bodyLimit);
        if (read.kind !== 'ok') throw new HttpProblem(413, RETCODE.BODY_TOO_LARGE, `body: at most ${bodyLimit} bytes`);
        let json: unknown;
        try {
          json = JSON.parse(read.bytes.toString('utf8') || '{}');
        } catch (err) {
          throw new HttpProblem(400, RETCODE.MALFORMED_JSON, `body: is not valid JSON (${(err as Error).message})`);
        }
        const parsed = faultSettingsSchema.safeParse(json);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          throw new HttpProblem(400, RETCODE.FIELD_FORMAT, `${issue.path.join('.') || 'body'}: ${issue.message}`);
        }
        faults.set(parsed.data);
      } else {
        req.resume();
        if (method === 'DELETE') faults.clear();
      }
      return sendJson(res, 200, {
        success: true,
        retcode: RETCODE.OK,
        message: 'Fault switches',
        data: faults.settings,
      });
    }
    if (path === '/sandbox/callbacks') {
      allow(['GET']);
      return sendJson(res, 200, {
        success: true,
        retcode: RETCODE.OK,
        message: `callback attempts: ${callbacks.attempts.length}`,
        data: callbacks.attempts,
      });
    }
    req.resume();
    throw new HttpProblem(404, RETCODE.NOT_FOUND, `no endpoint ${method} ${path}; see docs/sandbox.md`);
  }

  const server: Server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (err instanceof HttpProblem) {
        const headers: Record<string, string> = err.status === 413 ? { connection: 'close' } : {};
        if (err.status === 405) headers.allow = /use (.+)$/.exec(err.message)?.[1]?.replaceAll(' or ', ', ') ?? '';
        sendError(res, err.status, err.retcode, err.message, headers);
      } else {
        log(`internal error: ${(err as Error)?.stack ?? String(err)}`);
        sendInternalError(res);
      }
    });
  });
  // A malformed request line or header never reaches route(); answer it plainly instead of hanging.
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? SANDBOX_DEFAULTS.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const listening = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // A wildcard address is not one a client can call: talk to it on loopback.
  const shownHost = listening === '0.0.0.0' ? '127.0.0.1' : listening === '[::]' ? '[::1]' : listening;
  baseUrl = `http://${shownHost}:${address.port}`;
  publicUrl = options.publicHost ? `http://${options.publicHost}:${address.port}` : baseUrl;

  return {
    url: baseUrl,
    appId,
    orders,
    faults,
    callbacks,
    settle,
    close: async () => {
      callbacks.close();
      for (const done of [...pauses]) done();
      for (const t of expiryTimers.values()) t.cancel();
      expiryTimers.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6: the one rule browser mode uses too. */
export const isLoopback = isLoopbackAddress;
