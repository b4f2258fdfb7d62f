import type { IncomingMessage, ServerResponse } from 'node:http';
export { readBody, type BodyRead } from '../core/http/read-body';
import { RETCODE, type Retcode } from '../common/retcodes';

export function isJsonContentType(req: IncomingMessage): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json';
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  extraHeaders: Record<string, string> = {},
): void {
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

/** Loket's error shape (docs/sandbox.md, "Errors"): `{success:false, retcode, message}`. */
export function sendError(
  res: ServerResponse,
  status: number,
  retcode: Retcode,
  message: string,
  extraHeaders: Record<string, string> = {},
): void {
  sendJson(res, status, { success: false, retcode, message }, extraHeaders);
}

export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  extraHeaders: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; script-src 'unsafe-inline'",
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
