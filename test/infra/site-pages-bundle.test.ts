import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EaselFunction } from '#infra/constructs/easel-function.ts';
import { PRERENDERED_FOLDER } from '#shared/docs/prerendered.ts';
import { renderSitePage } from '#shared/docs/site.ts';
import { ROUTES, ROUTE_LIST } from '#shared/routes.ts';

const ORIGIN = 'https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com';
const ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  PUBLIC_BASE_URL: ORIGIN,
  WORKSPACE_TABLE: 'w',
  CACHE_TABLE: 'c',
  RATE_TABLE: 'r',
  ASSETS_BUCKET: 'ab',
  CACHE_BUCKET: 'cb',
  DELETION_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/1/q',
  AWS_REGION: 'us-east-1',
  LOG_LEVEL: 'silent',
};

/** Calls the bundled handler of `asset` for `path` in a process of its own, as Lambda would load it. */
function invoke(asset: string, path: string, accept: string): { statusCode: number; headers: Record<string, string>; body: string } {
  const script = `
    const { handler } = await import(${JSON.stringify(join(asset, 'index.mjs'))});
    const result = await handler({ version: '2.0', routeKey: 'GET ${path}', rawPath: '${path}', rawQueryString: '', headers: { accept: '${accept}' },
      requestContext: { http: { method: 'GET', path: '${path}', sourceIp: '203.0.113.1' }, requestId: 'r' }, isBase64Encoded: false },
      { awsRequestId: 'r', getRemainingTimeInMillis: () => 5000 });
    process.stdout.write(JSON.stringify(result));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: ENV, encoding: 'utf8' }));
}

// Bundles the functions of /docs and /docs/errors for real, as `cdk synth` does (esbuild, then
// the pre-rendering as a bundling hook), and runs what Lambda would receive.
describe.each([
  ['home', ROUTES.getHome, '/'],
  ['docs', ROUTES.getDocs, '/docs'],
  ['errors', ROUTES.getErrorDocs, '/docs/errors'],
] as const)('the %s page function bundle', (name, row, path) => {
  const outdir = mkdtempSync(join(tmpdir(), 'easel-site-bundle-'));
  let asset: string;

  beforeAll(() => {
    // Prepare + Act
    const app = new App({ outdir });
    new EaselFunction(new Stack(app, 'SiteBundle'), 'Page', {
      entry: row.handler,
      memorySize: row.memory,
      timeout: row.timeout,
      environment: {},
      editorAssets: 'editorAssets' in row ? row.editorAssets : undefined,
      sitePages: row.sitePages,
      description: 'bundle test',
    });
    app.synth();
    const assets = readdirSync(outdir).filter((entry) => entry.startsWith('asset.') && existsSync(join(outdir, entry, 'index.mjs')));
    expect(assets).toHaveLength(1);
    asset = join(outdir, assets[0]!);
  }, 120_000);

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('holds every site page beside index.mjs, in HTML and Markdown', () => {
    expect(readdirSync(join(asset, PRERENDERED_FOLDER)).sort()).toEqual(['docs.html', 'docs.md', 'errors.html', 'errors.md', 'home.html', 'home.md']);
  });

  it('carries no renderer: neither marked nor the pages\' sources', () => {
    const bundle = readFileSync(join(asset, 'index.mjs'), 'utf8');
    const map = JSON.parse(readFileSync(join(asset, 'index.mjs.map'), 'utf8')) as { sources: string[] };

    expect(map.sources.filter((source) => /node_modules\/marked\/|shared\/docs\/(site|html|reference|operations)\.ts$/.test(source))).toEqual([]);
    expect(bundle).not.toContain('marked');
  });

  it('serves the page as the sources render it for its origin, in Markdown and (but /, the editor) HTML', () => {
    const expected = renderSitePage(name, ORIGIN);

    const markdown = invoke(asset, path, 'text/markdown');
    expect(markdown).toMatchObject({ statusCode: 200, headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
    expect(markdown.body).toBe(expected.markdown);
    if (name === 'home') return;
    const html = invoke(asset, path, 'text/html');
    expect(html).toMatchObject({ statusCode: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
    expect(html.body).toBe(expected.html);
  });

  it('reads the page from the file', () => {
    // Prepare: a mark only the file holds
    appendFileSync(join(asset, PRERENDERED_FOLDER, `${name}.md`), '<!-- from the file -->');

    // Act
    const { body } = invoke(asset, path, 'text/markdown');

    // Assess
    expect(body.endsWith('<!-- from the file -->')).toBe(true);
  });

  it('answers 500 with the envelope, and says why in its log, when the page is missing', () => {
    // Prepare
    rmSync(join(asset, PRERENDERED_FOLDER), { recursive: true });

    // Act
    const { statusCode, body } = invoke(asset, path, 'text/markdown');

    // Assess
    expect(statusCode).toBe(500);
    expect(JSON.parse(body)).toMatchObject({ code: 'internal_error', status: 500 });
  });
});

describe('the route table', () => {
  it('pre-renders the pages of exactly the routes that serve them', () => {
    expect(ROUTE_LIST.filter((row) => row.sitePages).map((row) => `${row.method} ${row.path}`)).toEqual(['GET /', 'GET /docs', 'GET /docs/errors']);
  });
});
