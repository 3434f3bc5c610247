import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '#infra/admin/connection.ts';
import { seedDemo } from '#infra/local/seed.ts';
import { startTestRuntime, type TestRuntime } from '../support/local.ts';
import { startTargetPages, type TargetPages } from '../support/target-pages.ts';
import { runScript } from '../support/script.ts';

let pages: TargetPages;
let runtime: TestRuntime;
let apiKey: string;
let notEasel: Server;
let notEaselUrl: string;

beforeAll(async () => {
  // The page to capture is served on loopback, which only this test-only setting lets a capture reach.
  pages = await startTargetPages();
  process.env.UNSAFE_TEST_LOOPBACK_PORTS = String(pages.port);
  runtime = await startTestRuntime();
  const db = connect(runtime.env);
  apiKey = (await seedDemo(db.store)).apiKey;
  db.close();
  // A web server that is not Easel: 200 and a line of text for everything.
  notEasel = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello'));
  await new Promise<void>((resolve) => notEasel.listen(0, '127.0.0.1', resolve));
  notEaselUrl = `http://127.0.0.1:${(notEasel.address() as AddressInfo).port}`;
});

afterAll(async () => {
  delete process.env.UNSAFE_TEST_LOOPBACK_PORTS;
  await new Promise((resolve) => notEasel?.close(resolve));
  await runtime?.dispose();
  await pages?.close();
});

/** `npm run smoke -- <args>`: its exit code and the lines it printed. */
async function smoke(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; lines: string[]; stderr: string }> {
  const { code, stdout, stderr } = await runScript('infra/tools/smoke.ts', args, env);
  return { code, lines: stdout.trimEnd().split('\n'), stderr };
}

/** A check's line without its time, which varies: [status, name, detail]. */
const parts = (line: string) => {
  const match = /^(ok|skip|FAIL) +(.+?) +\d+ ms {2}(.*)$/.exec(line);
  expect(match, line).not.toBeNull();
  return match!.slice(1);
};

describe('npm run smoke', () => {
  it('passes every check against the local server, capturing a page and listing releases with the key', async () => {
    // Act
    const { code, lines, stderr } = await smoke(['--base', runtime.url, '--capture-url', `${pages.origin}/plain`], { EASEL_API_KEY: apiKey });

    // Assess
    expect(stderr).toBe('');
    expect(lines[0]).toBe(`Smoke check of ${runtime.url}`);
    expect(lines.slice(1, -1).map(parts)).toEqual([
      ['ok', 'discovery /openapi.json', expect.stringMatching(/^OpenAPI 3\.1\.\d+, \d+ paths$/)],
      ['ok', 'discovery /llms.txt', '# Easel'],
      ['ok', 'envelope 404 + documentation', `not_found, ${runtime.url}/docs/errors#not_found resolves`],
      ['ok', 'capture', `${pages.origin}/plain → PNG 1920×1080 (local-chromium)`],
      ['ok', 'export', expect.stringMatching(/^PNG 64×48 → WebP, \d+ bytes$/)],
      ['ok', 'releases (EASEL_API_KEY)', '0 release(s) on the first page'],
    ]);
    expect(lines.at(-1)).toBe('6 ok, 0 skipped, 0 failed');
    expect(code).toBe(0);
    // The capture really went to the page.
    expect(pages.hits.some((hit) => hit.path === '/plain')).toBe(true);
  }, 90_000);

  it('skips the capture with the reason when this machine cannot reach the page, and releases without a key', async () => {
    // Prepare: a port nothing listens on.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    // Act
    const { code, lines } = await smoke(['--base', runtime.url, '--capture-url', `http://127.0.0.1:${port}/`]);

    // Assess
    const checks = lines.slice(1, -1).map(parts);
    expect(checks.map(([status]) => status)).toEqual(['ok', 'ok', 'ok', 'skip', 'ok', 'skip']);
    expect(checks[3]).toEqual([
      'skip',
      'capture',
      `this machine cannot reach http://127.0.0.1:${port}/ (ECONNREFUSED); pass --capture-url to capture another page`,
    ]);
    expect(checks[5]).toEqual(['skip', 'releases (EASEL_API_KEY)', 'EASEL_API_KEY is not set']);
    expect(lines.at(-1)).toBe('4 ok, 2 skipped, 0 failed');
    expect(code).toBe(0);
  }, 60_000);

  it('fails with exit code 1, saying what each answer was, when the server is not Easel', async () => {
    // Act
    const { code, lines } = await smoke(['--base', notEaselUrl, '--capture-url', notEaselUrl]);

    // Assess
    expect(lines.slice(1, -1).map(parts)).toEqual([
      ['FAIL', 'discovery /openapi.json', 'GET /openapi.json: 200, not JSON: hello'],
      ['FAIL', 'discovery /llms.txt', 'GET /llms.txt: 200, "hello"'],
      ['FAIL', 'envelope 404 + documentation', expect.stringMatching(/^GET \/smoke-check-[0-9a-f]{8}: 200, not JSON: hello$/)],
      ['FAIL', 'capture', `POST /api/screenshot ${notEaselUrl}: 200, not JSON: hello`],
      ['FAIL', 'export', 'POST /api/export: 200 text/plain, not an image'],
      ['skip', 'releases (EASEL_API_KEY)', 'EASEL_API_KEY is not set'],
    ]);
    expect(lines.at(-1)).toBe('0 ok, 1 skipped, 5 failed');
    expect(code).toBe(1);
  }, 60_000);

  it('refuses a --base that is not an http URL with exit code 2', async () => {
    const { code, stderr } = await smoke(['--base', 'localhost:3000']);

    expect(stderr).toBe('--base must be an http(s) URL, not "localhost:3000"\n');
    expect(code).toBe(2);
  });
});
