/**
 * LOCAL_CAPTURE_PORTS: the local server captures loopback pages on the ports it names (its own,
 * here, as the README's quick start does) and on no other loopback port.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, freshClient } from '../support/client.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { pngSize, startListener, type Listener } from '../support/target-pages.ts';

let runtime: TestRuntime;
let unlisted: Listener;

/** A loopback port free right now, for the runtime to listen on and name in LOCAL_CAPTURE_PORTS. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  unlisted = await startListener();
  const port = await freePort();
  process.env.LOCAL_CAPTURE_PORTS = String(port);
  runtime = await startTestRuntime({ port });
});

afterAll(async () => {
  await runtime?.dispose();
  await unlisted?.close();
  delete process.env.LOCAL_CAPTURE_PORTS;
});

const capture = (url: string) => call(runtime.url, '/api/screenshot', { body: { url }, from: freshClient() });

describe('POST /api/screenshot with LOCAL_CAPTURE_PORTS', () => {
  it('captures a page of the local server on the port it names', async () => {
    // Act
    const response = await capture(`${runtime.url}/docs`);

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      screenshot: expect.any(String),
      url: `${runtime.url}/docs`,
      cached: false,
      strategy: 'local-chromium',
      deviceType: 'desktop',
      colorScheme: 'light',
      report: expect.objectContaining({ status: 200, fontsReady: true }),
    });
    expect(pngSize(Buffer.from(response.body.screenshot, 'base64'))).toEqual({ width: 1920, height: 1080 });
  });

  it('refuses a loopback port it does not name with 400 invalid_url, without connecting', async () => {
    // Act
    const response = await capture(`${unlisted.origin}/`);

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual(expectedEnvelope(runtime.url, 400, 'invalid_url'));
    expect(response.body.hint).toBe('127.0.0.1 is a loopback address; only publicly reachable hosts can be captured.');
    expect(unlisted.connections).toBe(0);
  });
});
