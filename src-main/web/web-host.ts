import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, parseApiCall, type ApiHandlers, type DisplayState, type LiveEvent } from '../common/api';
import { readBody } from '../core/http/read-body';
import { readStatic } from './static-files';
import { bearerToken, isAllowedHost, newAccessToken, PAGE_CSP, sameSecret, SECURITY_HEADERS } from './security';

/** What browser mode serves: the API every host implements, plus the live channel and the display. */
export interface WebApp extends ApiHandlers {
  subscribe(listener: (event: LiveEvent) => void): () => void;
  displayState(): DisplayState;
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
}

export interface WebHost {
  readonly url: string;
  readonly cashierUrl: string;
  readonly displayUrl: string;
  close(): Promise<void>;
}

const BODY_LIMIT = 64 * 1024;
const HEARTBEAT_MS = 15_000;

const ERROR_STATUS: Record<ApiError['code'], number> = {
  unknown_method: 404,
  invalid_arguments: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  internal: 500,
};

/**
 * Browser mode's HTTP host: the built renderer, the typed API as `POST /api/call/{method}` (bearer
 * token), server-sent events for live order updates, and a read-only customer display channel with its
 * own key. Every request's Host header must be ours (DNS rebinding).
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
      json(res, 500, {
        ok: false,
        error: { code: 'internal', message: 'Internal error in Loket; the log has the details.' },
      });
    });
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!isAllowedHost(req.headers.host, port)) {
      req.resume();
      return json(res, 421, {
        ok: false,
        error: { code: 'forbidden', message: "This address is not Loket's: open the URL Loket printed." },
      });
    }
    const url = new URL(req.url ?? '/', 'http://loket.invalid');
    const path = url.pathname;
    const method = req.method ?? 'GET';

    if (path.startsWith('/api/')) {
      const given =
        bearerToken(req.headers.authorization) ?? (path === '/api/events' ? url.searchParams.get('token') : null);
      if (!sameSecret(given, token)) {
        req.resume();
        return json(res, 401, {
          ok: false,
          error: {
            code: 'forbidden',
            message: 'The access token is missing or wrong: open the cashier URL Loket printed at start.',
          },
        });
      }
      if (path === '/api/events' && method === 'GET') return openStream(req, res, (send) => app.subscribe(send));
      const m = /^\/api\/call\/([A-Za-z]+)$/.exec(path);
      if (!m) return notFound(req, res);
      if (method !== 'POST') {
        req.resume();
        return json(
          res,
          405,
          { ok: false, error: { code: 'invalid_arguments', message: 'Use POST.' } },
          { allow: 'POST' },
        );
      }
      return call(m[1]!, req, res);
    }

    if (path.startsWith('/display/')) {
      req.resume();
      // The customer display may only read: there is no way to create or change anything here.
      if (method !== 'GET')
        return json(
          res,
          405,
          { ok: false, error: { code: 'forbidden', message: 'The customer display is read-only.' } },
          { allow: 'GET' },
        );
      if (!sameSecret(url.searchParams.get('key'), displayKey)) {
        return json(res, 401, {
          ok: false,
          error: {
            code: 'forbidden',
            message: 'The display key is missing or wrong: open the display URL Loket printed at start.',
          },
        });
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
      return json(res, 405, { ok: false, error: { code: 'invalid_arguments', message: 'Use GET.' } }, { allow: 'GET' });
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
      return json(res, 413, {
        ok: false,
        error: { code: 'invalid_arguments', message: `The request is larger than ${BODY_LIMIT} bytes.` },
      });
    if (type !== 'application/json')
      return json(res, 415, {
        ok: false,
        error: { code: 'invalid_arguments', message: 'content-type must be application/json.' },
      });
    let args: unknown;
    try {
      args = (JSON.parse(read.bytes.toString('utf8') || '{}') as { args?: unknown }).args ?? [];
    } catch {
      return json(res, 400, {
        ok: false,
        error: { code: 'invalid_arguments', message: 'The request body is not valid JSON.' },
      });
    }
    try {
      const parsed = parseApiCall(name, args);
      const handler = app[parsed.method] as (...a: unknown[]) => unknown;
      const result = await handler.apply(app, parsed.args);
      return json(res, 200, { ok: true, result: result ?? null });
    } catch (err) {
      if (err instanceof ApiError)
        return json(res, ERROR_STATUS[err.code], { ok: false, error: { code: err.code, message: err.message } });
      if ((err as Error)?.name === 'IllegalTransitionError') {
        return json(res, 409, { ok: false, error: { code: 'conflict', message: (err as Error).message } });
      }
      throw err;
    }
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

  function notFound(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    json(res, 404, { ok: false, error: { code: 'not_found', message: 'Nothing here.' } });
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
  const shown =
    address.family === 'IPv6' ? `[${address.address}]` : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
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
