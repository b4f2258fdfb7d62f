/**
 * A gateway that holds each new order at its door until the test lets it through, in front of a real one (the
 * sandbox): a charge stays in flight for as long as a test needs, without a timer. Everything else (the status
 * inquiry, the payment page) passes straight through.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldRequest {
  path: string;
  body: string;
}

export interface HoldingGateway {
  readonly url: string;
  /** Resolves with the next order request that reaches the door (at once if one waits already). */
  arrived(): Promise<HeldRequest>;
  /** Lets every held request through to the real gateway; resolves once each has its answer (delivered or not). */
  release(): Promise<void>;
  close(): Promise<void>;
}

const ORDER_PATHS = new Set(['/api/transaction', '/api/create']);

export async function holdingGateway(target: string): Promise<HoldingGateway> {
  const upstream = new URL(target);
  const held: { req: IncomingMessage; body: Buffer; res: ServerResponse }[] = [];
  const seen: HeldRequest[] = [];
  const waiting: ((r: HeldRequest) => void)[] = [];

  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> =>
    new Promise((resolve) => {
      const up = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: upstream.host, 'content-length': String(body.length) },
        },
        (answer) => {
          res.on('error', () => undefined);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('end', () => resolve());
          answer.on('error', () => resolve());
        },
      );
      up.on('error', () => {
        res.destroy();
        resolve();
      });
      up.end(body);
    });

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = (req.url ?? '/').split('?')[0]!;
      if (req.method !== 'POST' || !ORDER_PATHS.has(path)) return void forward(req, body, res);
      held.push({ req, body, res });
      const request = { path, body: body.toString('utf8') };
      const next = waiting.shift();
      if (next) next(request);
      else seen.push(request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrived: () => {
      const first = seen.shift();
      return first ? Promise.resolve(first) : new Promise((resolve) => waiting.push(resolve));
    },
    release: async () => {
      const all = held.splice(0);
      await Promise.all(all.map((h) => forward(h.req, h.body, h.res)));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
