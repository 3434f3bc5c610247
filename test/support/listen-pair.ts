/** Two local origins on one port, 127.0.0.1 and 127.0.0.2 (another site), so one UNSAFE_TEST_LOOPBACK_PORTS opens both. */
import { createServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type PairHost = 'first' | 'second';

export interface PairServers {
  port: number;
  /** Ends open connections and closes both servers. */
  close(): Promise<void>;
}

/** Listens with `handlerFor('first')` on 127.0.0.1 and `handlerFor('second')` on 127.0.0.2, on a port free on both. */
export async function listenPair(handlerFor: (host: PairHost) => RequestListener): Promise<PairServers> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const first = createServer(handlerFor('first'));
    await new Promise<void>((resolve, reject) => first.once('error', reject).listen(0, '127.0.0.1', resolve));
    const port = (first.address() as AddressInfo).port;
    const second = createServer(handlerFor('second'));
    const bound = await new Promise<boolean>((resolve) => second.once('error', () => resolve(false)).listen(port, '127.0.0.2', () => resolve(true)));
    if (bound) return track([first, second], port);
    await new Promise((resolve) => first.close(resolve));
  }
  throw new Error('no port free on both 127.0.0.1 and 127.0.0.2');
}

function track(servers: Server[], port: number): PairServers {
  const sockets = new Set<Socket>();
  for (const server of servers) {
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
  }
  return {
    port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}
