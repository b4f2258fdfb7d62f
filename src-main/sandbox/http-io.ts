import type { IncomingMessage, ServerResponse } from 'node:http';
import { RETCODE, type Retcode } from '../common/retcodes';

/** Beyond this the sandbox stops draining an oversized body and drops the connection. */
const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

export type BodyRead = { kind: 'ok'; bytes: Buffer } | { kind: 'too_large'; received: number } | { kind: 'aborted' };

/**
 * Reads a request body up to `limit` bytes. An oversized body is drained (not buffered) so the
 * client still receives the 413 answer instead of a reset mid-upload.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (r: BodyRead) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > DRAIN_LIMIT_BYTES) {
      req.resume();
      settle({ kind: 'too_large', received: declared });
      return;
    }
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) chunks.push(chunk);
      else if (received > DRAIN_LIMIT_BYTES) {
        settle({ kind: 'too_large', received });
        req.destroy();
      }
    });
    req.on('end', () => settle(received > limit ? { kind: 'too_large', received } : { kind: 'ok', bytes: Buffer.concat(chunks) }));
    req.on('error', () => settle({ kind: 'aborted' }));
    req.on('close', () => settle({ kind: 'aborted' }));
  });
}

export function isJsonContentType(req: IncomingMessage): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json';
}

export function sendJson(res: ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...extraHeaders,
  });
  res.end(text);
}

/** The error shape of DESIGN.md §5: `{success:false, retcode, message}`. */
export function sendError(
  res: ServerResponse,
  status: number,
  retcode: Retcode,
  message: string,
  extraHeaders: Record<string, string> = {},
): void {
  sendJson(res, status, { success: false, retcode, message }, extraHeaders);
}

export function sendHtml(res: ServerResponse, status: number, html: string, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; script-src 'unsafe-inline'",
    ...extraHeaders,
  });
  res.end(html);
}

export function sendInternalError(res: ServerResponse): void {
  sendError(res, 500, RETCODE.INTERNAL_ERROR, 'internal error in the sandbox gateway; the sandbox log has the details');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
