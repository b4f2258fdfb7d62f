import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Download } from '../app-host';
import {
  dispatchApiCall,
  internalError,
  type ApiEnvelope,
  type ApiErrorCode,
  type ApiHandlers,
  type DisplayState,
  type LiveEvent,
} from '../common/api';
import { isLoopbackAddress } from '../core/http/loopback';
import { readBody } from '../core/http/read-body';
import { readStatic } from './static-files';
import {
  bearerToken,
  isAllowedHost,
  isOwnOrigin,
  newAccessToken,
  PAGE_CSP,
  sameSecret,
  SECURITY_HEADERS,
} from './security';
import { parseStrictJsonBytes } from '../core/http/strict-json-bytes';

/** What browser mode serves: the API every host implements, plus the live channel and the display. */
export interface WebApp extends ApiHandlers {
  subscribe(listener: (event: LiveEvent) => void): () => void;
  displayState(): DisplayState;
  /** An export prepared with prepareExport, taken once; undefined when there is none (or it expired). */
  takeDownload(id: string): Download | undefined;
}

export interface WebHostOptions {
  app: WebApp;
  /** The built renderer (out/renderer). */
  staticDir: string;
  host?: string;
  port?: number;
  /** Defaults to a fresh random token per start. */
  token?: string;
  displayKey?: string;
  log?: (line: string) => void;
  /** Where `log` is kept (the data folder's loket.log): an unexpected error names it to the caller. */
  logFile?: string;
}

export interface WebHost {
  readonly url: string;
  readonly cashierUrl: string;
  readonly displayUrl: string;
  close(): Promise<void>;
}

const BODY_LIMIT = 64 * 1024;
export const CASHIER_ON_THIS_MACHINE_ONLY =
  "The cashier's and the manager's screens answer only on this machine (plain HTTP on the network would show " +
  'their token and PIN to anyone on it): open the cashier URL Loket printed, on the till itself.';
const HEARTBEAT_MS = 15_000;

const ERROR_STATUS: Record<ApiErrorCode, number> = {
  unknown_method: 404,
  invalid_arguments: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  // The manager's screens locked (idle, or never unlocked): the screen asks for the PIN again.
  locked: 423,
  unavailable: 503,
  internal: 500,
};

/**
 * Browser mode's HTTP host: the built renderer, the typed API as `POST /api/call/{method}` (bearer
 * token), server-sent events for live order updates, and a read-only customer display channel with its
 * own key. Every request's Host header must be ours (DNS rebinding). The API answers this machine only
 * (a loopback peer); the pages and the display channel answer the network too when bound to it (`--lan`).
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { app } = options;
  const token = options.token ?? newAccessToken();
  const displayKey = options.displayKey ?? newAccessToken();
  const log = options.log ?? (() => undefined);
  const streams = new Set<ServerResponse>();
  let port = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(`web: internal error: ${(err as Error)?.stack ?? String(err)}`);
      json(res, 500, { ok: false, error: internalError(options.logFile) } satisfies ApiEnvelope<never>);
    });
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!isAllowedHost(req.headers.host, port)) {
      req.resume();
      return fail(res, 421, 'forbidden', "This address is not Loket's: open the URL Loket printed.");
    }
    const url = new URL(req.url ?? '/', 'http://loket.invalid');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    // Defence in depth behind the token and the Host check: a page of another origin gets nothing, even with
    // a stolen token (browsers send Origin on cross-origin requests, and on every POST and EventSource).
    if (
      (path.startsWith('/api/') || path.startsWith('/display/')) &&
      !isOwnOrigin(req.headers.origin, req.headers.host)
    ) {
      req.resume();
      return fail(res, 403, 'forbidden', "This request comes from another site's page: Loket answers only its own.");
    }

    if (path.startsWith('/api/')) {
      // The cashier's token, the manager's PIN and every order cross this connection in clear (plain HTTP): only
      // this machine may use them (docs/browser-mode.md, "On the LAN"). The customer display's read-only channel
      // is what the network may reach.
      if (!isLoopbackAddress(req.socket.remoteAddress)) {
        req.resume();
        return fail(res, 403, 'forbidden', CASHIER_ON_THIS_MACHINE_ONLY);
      }
      const given =
        bearerToken(req.headers.authorization) ?? (path === '/api/events' ? url.searchParams.get('token') : null);
      if (!sameSecret(given, token)) {
        req.resume();
        return fail(
          res,
          401,
          'forbidden',
          'The access token is missing or wrong: open the cashier URL Loket printed at start.',
        );
      }
      if (path === '/api/events' && method === 'GET') return openStream(req, res, (send) => app.subscribe(send));
      const download = /^\/api\/download\/([A-Za-z0-9_-]{16,64})$/.exec(path);
      if (download && method === 'GET') return sendDownload(download[1]!, req, res);
      const m = /^\/api\/call\/([A-Za-z]+)$/.exec(path);
      if (!m) return notFound(req, res);
      if (method !== 'POST') {
        req.resume();
        return fail(res, 405, 'invalid_arguments', 'Use POST.', { allow: 'POST' });
      }
      return call(m[1]!, req, res);
    }

    if (path.startsWith('/display/')) {
      req.resume();
      // The customer display may only read: there is no way to create or change anything here.
      if (method !== 'GET') return fail(res, 405, 'forbidden', 'The customer display is read-only.', { allow: 'GET' });
      if (!sameSecret(url.searchParams.get('key'), displayKey)) {
        return fail(
          res,
          401,
          'forbidden',
          'The display key is missing or wrong: open the display URL Loket printed at start.',
        );
      }
      if (path === '/display/state') return json(res, 200, { ok: true, result: app.displayState() });
      if (path === '/display/events') {
        return openStream(req, res, (send) => {
          send({ type: 'display', state: app.displayState() });
          return app.subscribe((event) => {
            if (event.type === 'display') send(event);
          });
        });
      }
      return notFound(req, res);
    }

    if (method !== 'GET' && method !== 'HEAD') {
      req.resume();
      return fail(res, 405, 'invalid_arguments', 'Use GET.', { allow: 'GET' });
    }
    const file = await readStatic(options.staticDir, path);
    if (!file) return notFound(req, res);
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': file.type,
      'content-length': file.body.length,
      'cache-control': path === '/' || path.endsWith('.html') ? 'no-store' : 'public, max-age=3600',
      ...(file.type.startsWith('text/html') ? { 'content-security-policy': PAGE_CSP } : {}),
    });
    res.end(method === 'HEAD' ? undefined : file.body);
  }

  async function call(name: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const read = await readBody(req, BODY_LIMIT);
    if (read.kind === 'aborted') return;
    if (read.kind === 'too_large')
      return fail(res, 413, 'invalid_arguments', `The request is larger than ${BODY_LIMIT} bytes.`);
    if (type !== 'application/json')
      return fail(res, 415, 'invalid_arguments', 'content-type must be application/json.');
    const parsed = read.bytes.length === 0 ? ({ ok: true, value: {} } as const) : parseStrictJsonBytes(read.bytes);
    if (!parsed.ok) return fail(res, 400, 'invalid_arguments', `The request body ${parsed.message}.`);
    const args = (parsed.value as { args?: unknown } | null)?.args ?? [];
    const envelope = await dispatchApiCall(
      app,
      name,
      args,
      (method, err) => log(`web: ${method} failed: ${(err as Error)?.stack ?? String(err)}`),
      options.logFile ? { logFile: options.logFile } : {},
    );
    return json(res, envelope.ok ? 200 : ERROR_STATUS[envelope.error.code], envelope);
  }

  function openStream(
    _req: IncomingMessage,
    res: ServerResponse,
    subscribe: (send: (event: LiveEvent) => void) => () => void,
  ): void {
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write('retry: 2000\n\n');
    streams.add(res);
    const unsubscribe = subscribe((event) => {
      if (!res.writableEnded) res.write(`data: ${JSON.stringify(event)}\n\n`);
    });
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    // The response's close, not the request's: a request whose (empty) body was read is 'closed' at once.
    res.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(res);
    });
  }

  /** An export prepared with prepareExport, streamed once as an attachment (the browser saves it as a file). */
  async function sendDownload(id: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    req.resume();
    const download = app.takeDownload(id);
    if (!download)
      return fail(res, 404, 'not_found', 'This export is gone (fetched already, or too old): export again.');
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': download.contentType,
      'content-disposition': `attachment; filename="${download.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
      'cache-control': 'no-store',
    });
    try {
      await download.write(res);
    } catch (err) {
      // The headers are gone: a cut-off file is the only signal left, and the log has the reason.
      log(`web: export ${download.filename} failed: ${(err as Error).message}`);
      res.destroy();
    }
  }

  function notFound(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    fail(res, 404, 'not_found', 'Nothing here.');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  port = address.port;
  // The URLs printed are the cashier's, so this machine's own address when bound to every address.
  const shown =
    address.address === '0.0.0.0'
      ? '127.0.0.1'
      : address.address === '::'
        ? '[::1]'
        : address.family === 'IPv6'
          ? `[${address.address}]`
          : address.address;
  const url = `http://${shown}:${port}`;
  log(`web: serving ${options.staticDir} on ${url}`);

  return {
    url,
    cashierUrl: `${url}/#/cashier?token=${token}`,
    displayUrl: `${url}/#/display?key=${displayKey}`,
    close: async () => {
      for (const res of streams) res.end();
      streams.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function fail(
  res: ServerResponse,
  status: number,
  code: ApiErrorCode,
  message: string,
  extra: Record<string, string> = {},
): void {
  json(res, status, { ok: false, error: { code, message } } satisfies ApiEnvelope<never>, extra);
}

function json(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...extra,
  });
  res.end(text);
}
