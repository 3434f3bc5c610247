/**
 * How page capture fails and recovers: slow pages, dead browsers, unreachable targets, and the
 * single-process mode Lambda runs in. A short capture time-out keeps the slow cases short.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachingResolver, systemResolver } from '#shared/net/guard.ts';
import { LocalChromium } from '#shared/services/capture/browsers.ts';
import { capturePng } from '#shared/services/capture/page-capture.ts';
import { createTargetGuard } from '#shared/services/capture/target.ts';
import { call, freshClient } from '../support/client.ts';
import { startTestRuntime } from '../support/local.ts';
import type { TestRuntime } from '../support/local.ts';
import { pngSize, startTargetPages } from '../support/target-pages.ts';
import type { TargetPages } from '../support/target-pages.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { readPixels } from '../support/images.ts';
import { collectedLogLines } from '../support/secret-audit.ts';

const TIMEOUT_MS = 4_000;

let runtime: TestRuntime;
let pages: TargetPages;
let closedPort: number;
let backend: typeof import('#shared/wiring/capture.ts');

/** A loopback port nothing listens on. */
async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  pages = await startTargetPages();
  closedPort = await unusedPort();
  // The closed port is opted in too: the target is allowed, it just does not answer.
  process.env.UNSAFE_TEST_LOOPBACK_PORTS = `${pages.port},${closedPort}`;
  process.env.CAPTURE_TIMEOUT_MS = String(TIMEOUT_MS);
  runtime = await startTestRuntime();
  backend = await import('#shared/wiring/capture.ts');
});

afterAll(async () => {
  await runtime?.dispose();
  await pages?.close();
  delete process.env.UNSAFE_TEST_LOOPBACK_PORTS;
  delete process.env.CAPTURE_TIMEOUT_MS;
});

const capture = (body: unknown) => call(runtime.url, '/api/screenshot', { body, from: freshClient() });

const envelope = (status: number, code: string) => expectedEnvelope(runtime.url, status, code);

describe('POST /api/screenshot: failures', () => {
  it('answers 408 upstream_timeout when the page does not finish loading within the capture time-out', async () => {
    // Act
    const started = Date.now();
    const response = await capture({ url: `${pages.origin}/never?key=${randomUUID()}` });

    // Assess
    expect(response.status).toBe(408);
    expect(response.body).toEqual({ ...envelope(408, 'upstream_timeout'), hint: expect.stringContaining(`${TIMEOUT_MS} ms capture time-out`) });
    expect(response.headers['x-ratelimit-limit']).toBe('20');
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS);
  });

  it('answers 408 upstream_timeout when the server accepts the request and never answers it', async () => {
    const started = Date.now();
    const response = await capture({ url: `${pages.origin}/silent?key=${randomUUID()}` });

    expect(response.status).toBe(408);
    expect(response.body).toEqual({ ...envelope(408, 'upstream_timeout'), hint: expect.stringContaining(`${TIMEOUT_MS} ms capture time-out`) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS);
  });

  it('photographs a whole document whose parser a stalled script holds, 1 s before the time-out, and reports it pending', async () => {
    // Act
    const response = await capture({ url: `${pages.origin}/parser-stall?key=${randomUUID()}` });

    // Assess: what was parsed before the script is drawn
    expect(response.status).toBe(200);
    expect(response.body.report).toMatchObject({ status: 200, settled: false, pending: { requests: 1 } });
    expect((await readPixels(response.body.screenshot)).at(10, 10)).toEqual([0, 160, 0]);
  });

  it('answers 408 upstream_timeout naming the selector when waitForSelector never shows', async () => {
    // Act
    const response = await capture({ url: `${pages.origin}/plain?title=no-app`, waitForSelector: '#app' });

    // Assess
    expect(response.status).toBe(408);
    expect(response.body).toEqual({
      ...envelope(408, 'upstream_timeout'),
      hint: `No element matching waitForSelector "#app" was visible within the ${TIMEOUT_MS} ms capture time-out; check the selector, or capture without it.`,
    });
  });

  it('answers 500 upstream_failed when the target does not accept the connection', async () => {
    // Act
    const response = await capture({ url: `http://127.0.0.1:${closedPort}/` });

    // Assess
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      ...envelope(500, 'upstream_failed'),
      hint: expect.stringMatching(/^The page could not be loaded \(net::ERR_[A-Z_]+\)\.$/),
    });
  });

  it("logs a target that fails to load as the target's failure, its URL without query string or fragment, and counts it apart from the service's faults", async () => {
    // Act
    const response = await capture({ url: `http://127.0.0.1:${closedPort}/reset?token=s3cr3t-${randomUUID()}#frag` });

    // Assess: the caller's answer is the contract's
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ ...envelope(500, 'upstream_failed'), hint: expect.stringMatching(/^The page could not be loaded/) });
    const lines = collectedLogLines()
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.requestId === response.headers['x-request-id']);
    expect(JSON.stringify(lines)).not.toMatch(/s3cr3t|token=|#frag/);
    expect(lines.find((line) => line.msg === 'request failed')).toMatchObject({
      level: 'warn',
      status: 500,
      origin: 'target',
      error: {
        code: 'upstream_failed',
        cause: { message: expect.stringMatching(new RegExp(`^net::ERR_[A-Z_]+ at http://127\\.0\\.0\\.1:${closedPort}/reset$`)) },
      },
    });
    expect(lines.filter((line) => 'ServerErrors' in line)).toEqual([expect.objectContaining({ ServerErrors: 1, Origin: 'target', Operation: 'capturePage' })]);
  });

  it('relaunches the browser when it was killed between captures', async () => {
    // Prepare
    expect((await capture({ url: `${pages.origin}/plain?title=before-kill` })).status).toBe(200);
    const killed = backend.browserBackend().current()!;
    const gone = new Promise((resolve) => killed.once('disconnected', resolve));
    killed.process()!.kill('SIGKILL');
    await gone;

    // Act
    const response = await capture({ url: `${pages.origin}/plain?title=after-kill` });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ cached: false, strategy: 'local-chromium' });
    expect(pngSize(Buffer.from(response.body.screenshot, 'base64'))).toEqual({ width: 1920, height: 1080 });
    const relaunched = backend.browserBackend().current();
    expect(relaunched).toBeDefined();
    expect(relaunched).not.toBe(killed);
  });

  it('answers 500 upstream_failed when the browser dies during a capture, and recovers for the next one', async () => {
    // Prepare: kill the browser once it is loading the never-ending page
    const key = randomUUID();
    const pending = capture({ url: `${pages.origin}/never?key=${key}` });
    await expect.poll(() => pages.hits.some((hit) => hit.path === `/never?key=${key}`)).toBe(true);
    backend.browserBackend().current()!.process()!.kill('SIGKILL');

    // Act
    const response = await pending;
    const next = await capture({ url: `${pages.origin}/plain?title=after-crash` });

    // Assess
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ ...envelope(500, 'upstream_failed'), hint: 'The capture browser stopped during the capture; retry.' });
    expect(next.status).toBe(200);
  });
});

describe('single-process Chromium (as on Lambda)', () => {
  let chromium: LocalChromium;
  const guard = () => createTargetGuard({ loopbackPorts: [pages.port] }, cachingResolver(systemResolver, 30_000));

  beforeAll(() => {
    chromium = new LocalChromium({
      singleProcess: true,
      egress: { policy: { loopbackPorts: [pages.port] }, resolve: cachingResolver(systemResolver, 30_000), connectTimeoutMs: 5_000 },
      protocolTimeoutMs: 20_000,
    });
  });

  afterAll(async () => {
    await chromium?.close();
  });

  const shoot = async (path: string) =>
    capturePng(await chromium.acquire(), { url: new URL(`${pages.origin}${path}`), deviceType: 'desktop', colorScheme: 'light', timeoutMs: 10_000 }, guard());

  it('wipes cookies and storage between captures in the one shared context', async () => {
    // Prepare
    await shoot('/stateful');
    const before = pages.reports.length;

    // Act
    await shoot('/report?mode=single');

    // Assess
    await expect.poll(() => pages.reports.length).toBeGreaterThan(before);
    expect(Object.fromEntries(pages.reports.at(-1)!)).toEqual({ cookie: '', local: '', session: '' });
    expect(pages.hits.filter((hit) => hit.path === '/report?mode=single').map((hit) => hit.headers.cookie)).toEqual([undefined]);
  });

  it('fails the capture whose browser is killed with 500 upstream_failed, and the capture queued behind it succeeds on a new browser', async () => {
    // Prepare: one capture stuck loading, one waiting for the browser (one at a time in this mode)
    const key = randomUUID();
    const stuck = shoot(`/never?key=${key}`).then(
      () => undefined,
      (error: unknown) => error,
    );
    await expect.poll(() => pages.hits.some((hit) => hit.path === `/never?key=${key}`)).toBe(true);
    const queued = shoot('/plain?title=queued');
    const killed = chromium.current()!;

    // Act
    killed.process()!.kill('SIGKILL');

    // Assess
    expect(await stuck).toMatchObject({ status: 500, code: 'upstream_failed', hint: 'The capture browser stopped during the capture; retry.' });
    expect(pngSize((await queued).png)).toEqual({ width: 1920, height: 1080 });
    expect(chromium.current()).not.toBe(killed);
  });

  it('runs concurrent captures one after the other', async () => {
    // Act
    const shots = await Promise.all([shoot('/plain?title=one'), shoot('/plain?title=two'), shoot('/scheme')]);

    // Assess
    expect(shots.map((shot) => pngSize(shot.png))).toEqual(Array(3).fill({ width: 1920, height: 1080 }));
  });
});
