/**
 * The media hosts' stand-in for integration tests: one HTTPS server with a test certificate for
 * all four hosts, and the environment that maps them to it (test-only settings the stack never sets).
 */
import type { IncomingMessage } from 'node:http';
import { MEDIA_HOSTS } from '#shared/net/media-hosts.ts';
import { createMediaCertificate, startTlsStub, type StubAnswer, type StubServer, type TestCertificate } from './upstreams.ts';

export interface MediaUpstream {
  server: StubServer;
  /** Answers `https://<host><path>`; unknown ones get 404. */
  on(url: string, answer: StubAnswer | ((req: IncomingMessage) => StubAnswer)): void;
  /** Settings for the runtime: map every media host to this server and trust its certificate. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startMediaUpstream(): Promise<MediaUpstream> {
  const certificate: TestCertificate = createMediaCertificate();
  const routes = new Map<string, (req: IncomingMessage) => StubAnswer>();
  const server = await startTlsStub(certificate, (req) => {
    const key = `https://${req.headers.host}${req.url}`;
    return routes.get(key)?.(req) ?? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'no such media' };
  });
  return {
    server,
    on: (url, answer) => routes.set(url, typeof answer === 'function' ? answer : () => answer),
    env: {
      UNSAFE_TEST_LOOPBACK_PORTS: String(server.port),
      UNSAFE_TEST_MEDIA_HOSTS: MEDIA_HOSTS.map((host) => `${host}=127.0.0.1:${server.port}`).join(','),
      UNSAFE_TEST_MEDIA_CA_FILE: certificate.certFile,
    },
    close: async () => {
      await server.close();
      certificate.dispose();
    },
  };
}
