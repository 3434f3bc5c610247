/**
 * GET / (the editor page) and GET /editor/{file} (its built files), through their handlers, on an
 * editor built for the test exactly as the local server and the CDK bundling build it.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEditor } from '#editor/build.ts';
import type { EditorBuild } from '#editor/build.ts';
import { resetConfig } from '#shared/config.ts';
import { acceptedEncodings, loadEditor } from '#shared/editor/assets.ts';
import { editorCsp, editorHtml, uploadOrigin } from '#shared/editor/page.ts';
import { handler as getHome } from '#functions/site/get-home.ts';
import { handler as getEditorAsset } from '#functions/site/get-editor-asset.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';
import { expectedEnvelope } from '../support/expectations.ts';

const BASE = 'http://easel.test';
let dir = '';
let built: EditorBuild;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'easel-editor-test-'));
  built = await buildEditor(dir);
  process.env.EDITOR_ASSETS_DIR = dir;
  resetConfig();
}, 60_000);

afterAll(async () => {
  delete process.env.EDITOR_ASSETS_DIR;
  delete process.env.EDITOR_API_URL;
  resetConfig();
  await rm(dir, { recursive: true, force: true });
});

const asset = (file: string, headers: Record<string, string> = {}) =>
  getEditorAsset(apiEvent({ path: `/editor/${file}`, headers, pathParameters: { file } }), lambdaContext());

/** The page's own files: the worker is started by its script, not tagged in the page. */
const fileOf = (extension: string) => built.manifest.files.find((entry) => entry.file.endsWith(extension) && !entry.worker)!;

describe('the editor build', () => {
  it('writes one script, one stylesheet, the export worker and its codecs with content hashes in their names', () => {
    expect(built.manifest.files.map((entry) => entry.file.replace(/-[A-Z0-9]{8}\./, '-<hash>.')).sort()).toEqual([
      'editor-<hash>.css',
      'editor-<hash>.js',
      'export-worker-<hash>.js',
      'mozjpeg_enc-<hash>.wasm',
      'squoosh_oxipng_bg-<hash>.wasm',
      'webp_enc-<hash>.wasm',
      'webp_enc_simd-<hash>.wasm',
    ]);
    expect(built.manifest.files.filter((entry) => entry.worker).map((entry) => entry.file)).toEqual([expect.stringMatching(/^export-worker-[A-Z0-9]{8}\.js$/)]);
  });

  it("names the worker's hashed file in the page's script, beside it, and nowhere in the page", async () => {
    // Prepare
    const worker = built.manifest.files.find((entry) => entry.worker)!;
    const script = await readFile(join(dir, fileOf('.js').file), 'utf8');

    // Assess
    expect(script).toContain(`"./${worker.file}"`);
    expect(built.template).not.toContain(worker.file);
  });

  it('references both from the page with Subresource Integrity, and nothing inline', () => {
    // Prepare
    const { file: css, integrity: cssIntegrity } = fileOf('.css');
    const { file: js, integrity: jsIntegrity } = fileOf('.js');

    // Assess
    expect(built.template).toContain(`<link rel="stylesheet" href="/editor/${css}" integrity="${cssIntegrity}">`);
    expect(built.template).toContain(`<script type="module" src="/editor/${js}" integrity="${jsIntegrity}"></script>`);
    expect(built.template.match(/<script/g)).toHaveLength(1);
    expect(built.template).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
  });

  it('keeps the integrity of each file equal to the sha384 of its bytes', async () => {
    for (const entry of built.manifest.files) {
      const result = await asset(entry.file);
      const bytes = Buffer.from(result.body!, 'base64');

      expect(`sha384-${createHash('sha384').update(bytes).digest('base64')}`).toBe(entry.integrity);
      expect(bytes.length).toBe(entry.bytes);
    }
  });
});

describe('GET /editor/{file}', () => {
  it.each([
    ['br', 'gzip, deflate, br, zstd', (bytes: Buffer) => brotliDecompressSync(bytes)],
    ['gzip', 'gzip, deflate', (bytes: Buffer) => gunzipSync(bytes)],
    [undefined, 'identity', (bytes: Buffer) => bytes],
  ])('answers %s when Accept-Encoding is %j, cacheable for a year', async (encoding, accept, decode) => {
    // Prepare
    const js = fileOf('.js');

    // Act
    const result = await asset(js.file, { 'Accept-Encoding': accept });

    // Assess
    expect(result.statusCode).toBe(200);
    expect(result.isBase64Encoded).toBe(true);
    expect(result.headers).toMatchObject({
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
      Vary: 'Accept-Encoding',
      'X-Content-Type-Options': 'nosniff',
    });
    expect(result.headers?.['Content-Encoding']).toBe(encoding);
    expect(decode(Buffer.from(result.body!, 'base64')).length).toBe(js.bytes);
  });

  it('serves the stylesheet as text/css', async () => {
    const result = await asset(fileOf('.css').file);

    expect(result.headers).toMatchObject({ 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable' });
  });

  it('serves the export worker under a CSP of its own that lets it fetch and compile its codecs, and nothing else', async () => {
    const result = await asset(built.manifest.files.find((entry) => entry.worker)!.file);

    expect(result.headers).toMatchObject({
      'Content-Type': 'text/javascript; charset=utf-8',
      'Content-Security-Policy': "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; frame-ancestors 'none'",
    });
  });

  it('serves the codecs as application/wasm, which streaming compilation requires', async () => {
    const wasm = fileOf('.wasm');
    const result = await asset(wasm.file);

    expect(result.statusCode).toBe(200);
    expect(result.headers).toMatchObject({
      'Content-Type': 'application/wasm',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    });
  });

  it('answers 404 with a hint for a name this build does not have, such as a previous release', async () => {
    const result = await asset('editor-AAAAAAAA.js');

    expect(result.statusCode).toBe(404);
    expect(result.headers?.['Cache-Control']).toBe('no-store');
    expect(JSON.parse(result.body!)).toEqual({ ...expectedEnvelope(BASE, 404, 'not_found'), hint: expect.stringContaining('reload /') });
  });

  it.each(['manifest.json', 'index.html'])('does not serve the build’s own %s', async (file) => {
    expect((await asset(file)).statusCode).toBe(404);
  });

  it.each(['..%2Fpackage.json', '.hidden', 'a/b.js'])('refuses the name %j before looking anything up', async (file) => {
    const result = await asset(file);

    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body!).code).toBe('invalid_request');
  });
});

describe('GET /', () => {
  it('serves the editor page under its CSP, to be revalidated on every load', async () => {
    // Act
    const result = await getHome(apiEvent({ path: '/', headers: { Accept: 'text/html' } }), lambdaContext());

    // Assess
    expect(result.statusCode).toBe(200);
    expect(result.headers).toMatchObject({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-cache',
      Vary: 'Accept',
      'Content-Security-Policy':
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self' https://easel-assets.s3.us-east-1.amazonaws.com; worker-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; require-trusted-types-for 'script'; trusted-types easel-export-worker",
      'X-Frame-Options': 'DENY',
    });
    expect(result.body).toContain('<meta name="easel-api-base" content="">');
    expect(result.body).toContain(`src="/editor/${fileOf('.js').file}"`);
  });

  it('describes the editor in Markdown when asked for it', async () => {
    const result = await getHome(apiEvent({ path: '/', headers: { Accept: 'text/markdown' } }), lambdaContext());

    expect(result.headers).toMatchObject({ 'Content-Type': 'text/markdown; charset=utf-8', Vary: 'Accept' });
    expect(result.body).toContain('## The editor');
  });

  it('names a configured API base in the page and in its CSP, escaped, and the capture time-out in the page', () => {
    // Prepare
    const editor = loadEditor(dir);

    // Act
    const html = editorHtml(editor, 'https://api.example.com/v"1', 20_000);
    const csp = editorCsp({
      editor: { apiBaseUrl: 'https://api.example.com' },
      endpoints: {},
      buckets: { assets: 'bucket-1', cache: 'c' },
      region: 'eu-west-1',
    });

    // Assess
    expect(html).toContain('<meta name="easel-api-base" content="https://api.example.com/v&quot;1">');
    expect(html).toContain('<meta name="easel-capture-timeout-ms" content="20000">');
    expect(csp).toContain("img-src 'self' https://api.example.com;");
    expect(csp).toContain("connect-src 'self' https://api.example.com https://bucket-1.s3.eu-west-1.amazonaws.com;");
  });

  it('lets the page upload to the embedded S3 locally, path-style', () => {
    expect(uploadOrigin({ endpoints: { s3: 'http://127.0.0.1:4568' }, buckets: { assets: 'easel-assets', cache: 'c' }, region: 'us-east-1' })).toBe(
      'http://127.0.0.1:4568',
    );
  });

  it.each([
    ['gzip, deflate, br', ['gzip', 'deflate', 'br']],
    ['br;q=0, gzip;q=0.5', ['gzip']],
    ['', []],
    [undefined, []],
  ])('reads Accept-Encoding %j', (header, encodings) => {
    expect([...acceptedEncodings(header)]).toEqual(encodings);
  });
});
