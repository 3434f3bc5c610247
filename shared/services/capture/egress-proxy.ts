/** The bundled Chromium's only way out, connecting only to the public address it checked (docs/security.md, "The egress proxy"). */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { log } from '#shared/log.ts';
import { BlockedTargetError, portOf, resolvePublicTarget } from '#shared/net/guard.ts';
import type { Resolver, TargetPolicy } from '#shared/net/guard.ts';

export interface EgressProxyOptions {
  policy: TargetPolicy;
  /** Share it with the request-interception check so both see the same DNS answer. */
  resolve: Resolver;
  connectTimeoutMs: number;
}

export interface EgressProxy {
  /** The value for Chromium's --proxy-server. */
  readonly url: string;
  /** Destinations refused since the proxy started (for logs and tests). */
  readonly refused: number;
  close(): Promise<void>;
}

// Headers that describe one hop, not the message (RFC 9110 §7.6.1); never forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.includes(name)));
}

/** Above Node's 16 KiB: a capture's own headers and cookies reach the target, and a large answer the browser, which takes 256 KiB. */
const MAX_HEADER_BYTES = 256 * 1024;

/** A CONNECT authority as a URL, so the check and the connection read one host and port. */
function authorityUrl(authority: string | undefined): URL | undefined {
  const parts = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+):(\d{1,5})$/i.exec(authority ?? '');
  if (!parts) return undefined;
  try {
    return new URL(`https://${parts[1]}:${parts[2]}/`);
  } catch {
    return undefined;
  }
}

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  let refused = 0;
  const sockets = new Set<Duplex>();
  // Keep-alive towards destinations: pinned addresses make pooling by IP:port safe.
  const agent = new Agent({ keepAlive: true, maxSockets: 32, timeout: 30_000 });

  /** The checked address, or undefined when refused (already logged). */
  const destination = async (url: URL): Promise<{ address: string; family: number } | undefined> => {
    try {
      const [first] = await resolvePublicTarget(url, options.policy, options.resolve);
      return first;
    } catch (error) {
      refused += 1;
      log.info('egress refused', {
        host: url.hostname,
        port: portOf(url),
        reason: error instanceof BlockedTargetError ? error.reason : (error as Error).message,
      });
      return undefined;
    }
  };

  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    // Chromium sends only plain http in absolute form; anything else is not a browser speaking.
    if (target.protocol !== 'http:') {
      res.writeHead(400).end();
      return;
    }
    const port = portOf(target);
    const pinned = await destination(target);
    // Dropping the connection, not a 403, makes Chromium fail with a network error: no error page of ours may end up in a capture.
    if (!pinned || req.socket.destroyed) return void req.socket.destroy();
    const upstream = httpRequest(
      {
        host: pinned.address,
        family: pinned.family,
        port,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: endToEnd(req.headers),
        setHost: false,
        agent,
        maxHeaderSize: MAX_HEADER_BYTES,
      },
      (response) => {
        res.writeHead(response.statusCode ?? 502, response.statusMessage, endToEnd(response.headers));
        response.pipe(res);
        response.on('error', () => res.destroy());
      },
    );
    // Bounds the connect only: a request time-out would also cut a slow first byte (the capture's deadline bounds a slow page).
    upstream.once('socket', (socket: Socket) => {
      if (!socket.connecting) return;
      const giveUp = () => upstream.destroy(new Error('connect timeout'));
      socket.setTimeout(options.connectTimeoutMs, giveUp);
      socket.once('connect', () => {
        socket.setTimeout(0);
        socket.off('timeout', giveUp);
      });
    });
    upstream.on('error', () => (res.headersSent ? res.destroy() : req.socket.destroy()));
    // The browser gave up on the request (page closed, capture over): stop reading for it.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };

  const tunnel = async (req: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const target = authorityUrl(req.url);
    if (!target) return void client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
    const port = portOf(target);
    const pinned = await destination(target);
    if (!pinned) return void client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
    const upstream: Socket = connect({ host: pinned.address, family: pinned.family, port, timeout: options.connectTimeoutMs });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.once('timeout', () => upstream.destroy(new Error('connect timeout')));
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => (upstream.connecting ? client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n') : client.destroy()));
    client.on('close', () => upstream.destroy());
  };

  // A request that fails unexpectedly ends its own connection, never the process.
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => void forward(req, res).catch(() => req.socket.destroy()));
  // Node's own answer to a request it cannot parse left Chromium waiting: end the connection, which it reports at once.
  server.on('clientError', (_error: Error, socket: Duplex) => socket.destroy());
  server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => void tunnel(req, socket, head).catch(() => socket.destroy()));
  // A WebSocket over plain http through a proxy is a CONNECT tunnel; an Upgrade here is not Chromium.
  server.on('upgrade', (_req: IncomingMessage, socket: Duplex) => socket.destroy());
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get refused() {
      return refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
