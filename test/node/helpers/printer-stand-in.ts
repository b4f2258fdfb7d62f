import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** A receipt printer stand-in on 127.0.0.1: takes each connection's bytes, then closes, like a printer on port 9100. */
export async function printerStandIn(): Promise<{ port: number; jobs: Buffer[]; close(): Promise<void> }> {
  const jobs: Buffer[] = [];
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => jobs.push(Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    jobs,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
