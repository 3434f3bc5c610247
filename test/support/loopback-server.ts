/** A test's HTTP server on a loopback address, whose close also ends the connections left open. */
import { createServer } from 'node:http';
import type { RequestListener } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LoopbackServer {
  /** http://<host>:<port> */
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** Listens on a free port of `host` (any 127.0.0.0/8 address). */
export async function serveOnLoopback(handler: RequestListener, host = '127.0.0.1'): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = createServer(handler);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
