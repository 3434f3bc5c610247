/** A test's HTTP server on a loopback address, whose close also ends the connections left open. */
import { createServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';
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

/**
 * Two servers on one port, 127.0.0.1 (`target`) and 127.0.0.2 (`second`), so one
 * UNSAFE_TEST_LOOPBACK_PORTS entry opens both origins.
 */
export async function listenPair(handler: (origin: 'target' | 'second') => RequestListener): Promise<{ servers: Server[]; port: number }> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const target = createServer(handler('target'));
    await new Promise<void>((resolve, reject) => target.once('error', reject).listen(0, '127.0.0.1', resolve));
    const port = (target.address() as AddressInfo).port;
    const second = createServer(handler('second'));
    const bound = await new Promise<boolean>((resolve) => second.once('error', () => resolve(false)).listen(port, '127.0.0.2', () => resolve(true)));
    if (bound) return { servers: [target, second], port };
    await new Promise((resolve) => target.close(resolve));
  }
  throw new Error('no port free on both 127.0.0.1 and 127.0.0.2');
}
