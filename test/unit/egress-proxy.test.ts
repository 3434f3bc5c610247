import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cachingResolver } from '#shared/net/guard.ts';
import type { Resolver } from '#shared/net/guard.ts';
import { startEgressProxy } from '#shared/services/capture/egress-proxy.ts';
import type { EgressProxy } from '#shared/services/capture/egress-proxy.ts';
import { startListener, startTargetPages } from '../support/target-pages.ts';
import type { Listener, TargetPages } from '../support/target-pages.ts';

let pages: TargetPages;
let forbidden: Listener;
let proxy: EgressProxy | undefined;

beforeAll(async () => {
  pages = await startTargetPages();
  forbidden = await startListener();
});

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

afterAll(async () => {
  await pages.close();
  await forbidden.close();
});

/** Names resolve from a table; IP literals never reach a resolver. */
const table =
  (answers: Record<string, string[]>): Resolver =>
  async (host) =>
    (answers[host] ?? []).map((address) => ({ address, family: 4 }));

async function start(resolve: Resolver = table({}), connectTimeoutMs = 2_000): Promise<EgressProxy> {
  proxy = await startEgressProxy({ policy: { loopbackPorts: [pages.port] }, resolve, connectTimeoutMs });
  return proxy;
}

/** A plain-http request the way Chromium sends it to a proxy: absolute form. */
function viaProxy(target: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string } | { error: string }> {
  const { port } = new URL(proxy!.url);
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: target, headers: { host: new URL(target).host, ...headers } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

/** A CONNECT tunnel the way Chromium opens one for https and WebSockets; then a GET through it. */
function tunnel(authority: string, host = authority): Promise<{ status: number; response?: string }> {
  const { port } = new URL(proxy!.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'CONNECT', path: authority });
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        return resolve({ status: res.statusCode ?? 0 });
      }
      socket.write(`GET /plain?title=tunnel HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      let response = '';
      socket.on('data', (chunk: Buffer) => (response += chunk));
      socket.on('end', () => resolve({ status: 200, response }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('egress proxy', () => {
  it('forwards plain http to an allowed destination', async () => {
    // Prepare
    await start();

    // Act
    const result = await viaProxy(`${pages.origin}/plain?title=forwarded`);

    // Assess
    expect(result).toEqual({ status: 200, body: expect.stringContaining('forwarded') });
  });

  it('waits past its connect time-out for a server that is slow to send its first byte', async () => {
    // Prepare: connecting takes a millisecond, the answer starts after four connect time-outs
    await start(table({}), 150);

    // Act
    const result = await viaProxy(`${pages.origin}/late?delay=600`);

    // Assess: the page, where a socket time-out would have cut the connection
    expect(result).toMatchObject({ status: 200, body: expect.stringContaining('<h1>late</h1>') });
  });

  it('drops a plain-http request to a refused address without answering, and never connects there', async () => {
    // Prepare
    await start(table({ 'internal.example': ['127.0.0.1'] }));

    // Act
    const results = [await viaProxy(`${forbidden.origin}/`), await viaProxy(`http://internal.example:${forbidden.port}/`)];

    // Assess: a network error in the browser, never a page of ours in a capture
    expect(results).toEqual([{ error: 'ECONNRESET' }, { error: 'ECONNRESET' }]);
    expect(forbidden.connections).toBe(0);
    expect(proxy!.refused).toBe(2);
  });

  it('tunnels CONNECT to an allowed destination', async () => {
    // Prepare
    await start();

    // Act
    const result = await tunnel(`127.0.0.1:${pages.port}`);

    // Assess
    expect(result.status).toBe(200);
    expect(result.response).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*tunnel/);
  });

  it.each([
    ['a loopback port that is not opted in', () => `127.0.0.1:${forbidden.port}`],
    ['an IPv6 loopback', () => `[::1]:${forbidden.port}`],
    ['the metadata address', () => '169.254.169.254:80'],
    ['a name resolving to loopback', () => `localhost:${forbidden.port}`],
  ])('answers CONNECT to %s with 403', async (_case, authority) => {
    // Prepare
    await start(table({ localhost: ['127.0.0.1'] }));

    // Act
    const result = await tunnel(authority());

    // Assess
    expect(result).toEqual({ status: 403 });
    expect(forbidden.connections).toBe(0);
  });

  it.each([
    ['a port out of range', 'example.com:70000'],
    ['a malformed IPv6 literal', '[a:b]:443'],
  ])('answers CONNECT to %s with 400 and keeps serving', async (_case, authority) => {
    // Prepare
    await start();

    // Act
    const refused = await tunnel(authority);
    const next = await viaProxy(`${pages.origin}/plain?title=still-serving`);

    // Assess
    expect(refused).toEqual({ status: 400 });
    expect(next).toEqual({ status: 200, body: expect.stringContaining('still-serving') });
  });

  it('does not connect for a client that left while its destination was being resolved', async () => {
    // Prepare: a slow look-up, and a destination the policy would allow
    const destination = await startListener();
    let answer!: () => void;
    const slow: Resolver = () => new Promise((resolve) => (answer = () => resolve([{ address: '127.0.0.1', family: 4 }])));
    proxy = await startEgressProxy({ policy: { loopbackPorts: [destination.port] }, resolve: slow, connectTimeoutMs: 2_000 });
    const { port } = new URL(proxy.url);
    const req = httpRequest({ host: '127.0.0.1', port, path: `http://slow.example:${destination.port}/` });
    req.on('error', () => undefined);
    req.end();
    await new Promise((resolve) => setTimeout(resolve, 50));

    // Act: the client goes away, then the answer arrives
    req.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer();
    await new Promise((resolve) => setTimeout(resolve, 100));

    // Assess
    const reached = destination.connections;
    await destination.close();
    expect(reached).toBe(0);
  });

  it('checks the name again at connect time, refusing it when it now resolves to a private address', async () => {
    // Prepare: whatever an earlier check saw, the name now answers a loopback address
    const rebinding = table({ 'rebind.example': ['127.0.0.2'] });
    await start(rebinding);

    // Act
    const result = await tunnel(`rebind.example:${forbidden.port}`);

    // Assess
    expect(result).toEqual({ status: 403 });
    expect(forbidden.connections).toBe(0);
  });

  it('reuses the answer the pre-request check saw when both share a caching resolver', async () => {
    // Prepare: the first answer is the allowed page server; every later answer is private
    let lookups = 0;
    const flipping: Resolver = async () => [{ address: lookups++ === 0 ? '127.0.0.1' : '10.255.255.1', family: 4 }];
    const shared = cachingResolver(flipping, 30_000);
    await shared('pinned.example'); // the interception check
    await start(shared);

    // Act
    const result = await viaProxy(`http://pinned.example:${pages.port}/plain?title=pinned`);

    // Assess
    expect(result).toEqual({ status: 200, body: expect.stringContaining('pinned') });
    expect(lookups).toBe(1);
  });

  it('does not forward hop-by-hop headers', async () => {
    // Prepare
    await start();

    // Act
    await viaProxy(`${pages.origin}/plain?title=hop`, { 'proxy-authorization': 'Basic x', connection: 'keep-alive, x-hop', 'x-hop': '1', 'x-end': '2' });

    // Assess
    const headers: IncomingHttpHeaders = pages.hits.find((hit) => hit.path === '/plain?title=hop')!.headers;
    expect(headers['proxy-authorization']).toBeUndefined();
    expect(headers['x-hop']).toBeUndefined();
    expect(headers['x-end']).toBe('2');
  });

  it('refuses requests that are not a browser speaking to a proxy', async () => {
    // Prepare
    await start();
    const { port } = new URL(proxy!.url);

    // Act: origin-form and an https absolute form
    const statuses = await Promise.all(
      ['/plain', `https://127.0.0.1:${pages.port}/plain`].map(
        (path) =>
          new Promise<number>((resolve) => {
            const req = httpRequest({ host: '127.0.0.1', port, path }, (res) => resolve(res.statusCode ?? 0));
            req.on('error', () => resolve(0));
            req.end();
          }),
      ),
    );

    // Assess
    expect(statuses).toEqual([400, 400]);
  });
});
