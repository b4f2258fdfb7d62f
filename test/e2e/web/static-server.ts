// A tiny static file server for the built renderer, so the web tests exercise exactly what electron-vite emits
// without depending on the app's own web host.
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, isAbsolute, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

export interface StaticServer {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

export async function startStaticServer(rootDir: string): Promise<StaticServer> {
  // Compare real paths, so a symlink inside the root cannot point the server outside it.
  const root = await realpath(rootDir);
  const server = createServer((request, response) => {
    serve(root, request, response).catch((error: unknown) => {
      console.error('[static-server]', error);
      if (!response.headersSent) send(response, 500, 'Internal Server Error');
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Browsers keep connections alive; without this, close() would wait for them to time out.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function serve(root: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    return send(response, 405, 'Method Not Allowed');
  }
  const file = await resolveFile(root, request.url ?? '/');
  if (file === 'bad-request') return send(response, 400, 'Bad Request');
  if (file === 'forbidden') return send(response, 403, 'Forbidden');
  if (file === null) return send(response, 404, 'Not Found');

  response.writeHead(200, {
    'Content-Type': contentTypes[extname(file.path).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': String(file.size),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
  if (request.method === 'HEAD') return void response.end();
  await pipeline(createReadStream(file.path), response);
}

/** The file a request path names inside root, 'forbidden' if it tries to leave root, null if there is none. */
async function resolveFile(
  root: string,
  requestUrl: string,
): Promise<{ path: string; size: number } | null | 'forbidden' | 'bad-request'> {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(requestUrl, 'http://localhost').pathname);
  } catch {
    return 'bad-request';
  }
  // The URL parser already collapses '..' segments, but encoded separators and NUL only appear after decoding.
  if (pathname.includes('\0')) return 'forbidden';
  let candidate = join(root, pathname);
  if (!isInside(root, candidate)) return 'forbidden';

  let real: string;
  try {
    real = await realpath(candidate);
    if ((await stat(real)).isDirectory()) {
      candidate = join(real, 'index.html');
      real = await realpath(candidate);
    }
  } catch {
    return null;
  }
  if (!isInside(root, real)) return 'forbidden';
  const info = await stat(real);
  return info.isFile() ? { path: real, size: info.size } : null;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!isAbsolute(rel) && rel.split(sep)[0] !== '..');
}

function send(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  response.end(message);
}
