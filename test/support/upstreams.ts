/**
 * Local stand-ins for the outside world: the tweet syndication API (plain HTTP) and the media
 * hosts (HTTPS with a certificate made for the test by the openssl CLI). Tests reach the media
 * stand-in only through the test-only host mapping (UNSAFE_TEST_MEDIA_HOSTS), never by URL.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MEDIA_HOSTS } from '#shared/net/media-hosts.ts';

/** One canned answer. `raw` takes over the socket to break the protocol on purpose. */
export interface StubAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Body sent in pieces without Content-Length (chunked), pausing `chunkDelayMs` between them. */
  chunks?: Buffer[];
  chunkDelayMs?: number;
  /** Wait before answering at all (a stalled upstream). */
  delayMs?: number;
  raw?: (socket: Socket) => void;
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

export interface StubServer {
  /** Origin to give as a base URL (http stand-ins only). */
  url: string;
  port: number;
  /** Every request, in arrival order. */
  requests: SeenRequest[];
  /** Answers requests for exactly this path (with query) or, if absent, falls back to `fallback`. */
  on(pathAndQuery: string, answer: StubAnswer | ((req: IncomingMessage) => StubAnswer)): void;
  close(): Promise<void>;
}

type Answerer = (req: IncomingMessage) => StubAnswer;

function serve(server: Server, fallback: Answerer): Promise<StubServer> {
  const routes = new Map<string, Answerer>();
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers });
    const answer = (routes.get(req.url ?? '/') ?? fallback)(req);
    const respond = async () => {
      if (answer.raw) return answer.raw(req.socket);
      res.writeHead(answer.status ?? 200, answer.headers ?? {});
      if (answer.chunks) {
        for (const chunk of answer.chunks) {
          if (res.destroyed) return;
          res.write(chunk);
          if (answer.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, answer.chunkDelayMs));
        }
        res.end();
        return;
      }
      res.end(answer.body);
    };
    const start = () => void respond().catch(() => res.destroy());
    if (answer.delayMs) setTimeout(start, answer.delayMs);
    else start();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        requests,
        on: (path, answer) => routes.set(path, typeof answer === 'function' ? answer : () => answer),
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** An HTTP server answering from a route table, 404 for anything unknown. */
export function startStub(fallback: Answerer = () => ({ status: 404, body: 'not here' })): Promise<StubServer> {
  return serve(createHttpServer(), fallback);
}

export interface TestCertificate {
  dir: string;
  keyFile: string;
  certFile: string;
  /** The certificate is its own trust anchor: pass certFile as the CA. */
  dispose(): void;
}

/**
 * A self-signed certificate for the four media hosts, made with the openssl CLI (present on the
 * CI image and on Debian by default). Valid for two days: it only has to outlive one test run.
 */
export function createMediaCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'easel-test-tls-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  const names = MEDIA_HOSTS.map((host) => `DNS:${host}`).join(',');
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=easel-test-media',
        '-addext',
        `subjectAltName=${names}`,
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ],
      { stdio: 'pipe' },
    );
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`The media proxy tests need the openssl CLI to make a test certificate: ${(error as Error).message}`);
  }
  return { dir, keyFile, certFile, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An HTTPS server presenting the test certificate, answering from a route table. */
export function startTlsStub(certificate: TestCertificate, fallback: Answerer = () => ({ status: 404, body: 'not here' })): Promise<StubServer> {
  const server = createHttpsServer({ key: readFileSync(certificate.keyFile), cert: readFileSync(certificate.certFile) });
  return serve(server, fallback);
}

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'tweets');

/** A fixture body from test/fixtures/tweets, as the upstream would send it. */
export function tweetFixture(name: string): string {
  return readFileSync(join(FIXTURES, `${name}.json`), 'utf8');
}
