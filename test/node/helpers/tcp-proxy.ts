/**
 * A TCP proxy on 127.0.0.1 that forwards to `target`, and cuts the link when told: `dropAfter` gives each new
 * connection a number of bytes from the client after which both sides are destroyed mid-stream (a link that dies
 * in the middle of a batch); `cutAll` cuts the open ones now.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Forward everything (the default). */
  pass(): void;
  /** Each new connection is cut after the client sent this many bytes (undefined: not cut). */
  dropAfter(bytes: () => number | undefined): void;
  /** Cuts every open connection now. */
  cutAll(): void;
  readonly stats: { connections: number; cut: number };
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: 'pass' | 'drop' = 'pass';
  let limitOf: () => number | undefined = () => undefined;
  const open = new Set<Socket>();
  const stats = { connections: 0, cut: 0 };

  const server: Server = createServer((client) => {
    stats.connections++;
    const limit = mode === 'drop' ? limitOf() : undefined;
    const upstream = connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    let sent = 0;
    let done = false;
    const end = (cut: boolean) => {
      if (done) return;
      done = true;
      if (cut) stats.cut++;
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('data', (chunk: Buffer) => {
      if (limit !== undefined && sent + chunk.length >= limit) {
        // Forward the part before the cut, then cut: the server gets half a message.
        const part = chunk.subarray(0, Math.max(0, limit - sent));
        if (part.length) upstream.write(part);
        end(true);
        return;
      }
      sent += chunk.length;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    client.on('error', () => end(false));
    upstream.on('error', () => end(false));
    client.on('close', () => end(false));
    upstream.on('close', () => end(false));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the proxy has no port');

  return {
    port: address.port,
    pass: () => void (mode = 'pass'),
    dropAfter(bytes) {
      mode = 'drop';
      limitOf = bytes;
    },
    cutAll() {
      for (const s of [...open]) s.destroy();
      open.clear();
    },
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
