/**
 * A local server that answers each request as a test scripts it — an error, a page that is not
 * the service's, silence, half a body, a dropped connection — for holding Easel's AWS clients
 * (shared/aws/) to the SDK's retries, time-outs and error shapes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** How the server answers one request, given its body. */
export type Answer = (request: IncomingMessage, response: ServerResponse, body: string) => void;

export interface FailingServer {
  endpoint: string;
  /** The requests received since the last script() (headers and body). */
  readonly seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  /** Answers the next requests in this order, the last one again for every request after. */
  script(...answers: Answer[]): void;
  close(): Promise<void>;
}

export async function startFailingServer(): Promise<FailingServer> {
  let answers: Answer[] = [];
  const seen: FailingServer['seen'] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
      answer(request, response, body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    script(...sequence) {
      answers = sequence;
      seen.length = 0;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The endpoint of a loopback port that was free a moment ago: connecting to it is refused. */
export async function refusingEndpoint(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A failing server for the enclosing suite: started before its tests, closed after them. */
export function useFailingServer(): FailingServer {
  let server: FailingServer | undefined;
  beforeAll(async () => {
    server = await startFailingServer();
  });
  afterAll(() => server?.close());
  const started = () => {
    if (!server) throw new Error('The failing server starts in beforeAll: use it inside a test.');
    return server;
  };
  return {
    get endpoint() {
      return started().endpoint;
    },
    get seen() {
      return started().seen;
    },
    script: (...answers) => started().script(...answers),
    close: () => started().close(),
  };
}
