import type { IncomingMessage } from 'node:http';

/** Beyond this an oversized body is no longer drained: the connection is dropped. */
export const DEFAULT_DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

export type BodyRead = { kind: 'ok'; bytes: Buffer } | { kind: 'too_large'; received: number } | { kind: 'aborted' };

/**
 * Reads a request body up to `limit` bytes. An oversized body is drained (not buffered) so the
 * client still receives the 413 answer instead of a reset mid-upload.
 */
export function readBody(
  req: IncomingMessage,
  limit: number,
  drainLimit: number = DEFAULT_DRAIN_LIMIT_BYTES,
): Promise<BodyRead> {
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
    if (Number.isFinite(declared) && declared > drainLimit) {
      req.resume();
      settle({ kind: 'too_large', received: declared });
      return;
    }
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) chunks.push(chunk);
      else if (received > drainLimit) {
        settle({ kind: 'too_large', received });
        req.destroy();
      }
    });
    req.on('end', () =>
      settle(received > limit ? { kind: 'too_large', received } : { kind: 'ok', bytes: Buffer.concat(chunks) }),
    );
    req.on('error', () => settle({ kind: 'aborted' }));
    req.on('close', () => settle({ kind: 'aborted' }));
  });
}
