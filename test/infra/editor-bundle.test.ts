import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EaselStack } from '#infra/stack.ts';
import type { EditorManifest } from '#shared/editor/assets.ts';
import { ROUTES, ROUTE_LIST } from '#shared/routes.ts';
import { deployedEnv, invokeBundledGet, removeCdkOutdirs, sharedRowAsset, wholeTemplate } from '../support/cdk.ts';

// Bundles the site function that serves / for real, as `cdk synth` does (esbuild, then the
// editor build as a bundling hook), and looks inside the asset Lambda would receive.
describe('the editor page function bundle', () => {
  let asset: string;
  let manifest: EditorManifest;

  beforeAll(async () => {
    // Prepare + Act
    asset = await sharedRowAsset(ROUTES.getHome);
    manifest = JSON.parse(readFileSync(join(asset, 'editor', 'manifest.json'), 'utf8')) as EditorManifest;
  }, 120_000);

  afterAll(removeCdkOutdirs);

  it("holds the built editor beside index.mjs: hashed files and the export worker's codecs, their compressed copies and the page template", () => {
    // Assess: the WebAssembly ships with the function that serves /editor/{file}
    expect(manifest.files.map((entry) => entry.file.replace(/-[A-Z0-9]{8}\./, '-<hash>.')).sort()).toEqual([
      'editor-<hash>.css',
      'editor-<hash>.js',
      'export-worker-<hash>.js',
      'mozjpeg_enc-<hash>.wasm',
      'squoosh_oxipng_bg-<hash>.wasm',
      'webp_enc-<hash>.wasm',
      'webp_enc_simd-<hash>.wasm',
    ]);
    expect(manifest.files.filter((entry) => entry.file.endsWith('.wasm')).map((entry) => entry.contentType)).toEqual(Array(4).fill('application/wasm'));
    for (const entry of manifest.files) {
      const bytes = readFileSync(join(asset, 'editor', entry.file));
      expect(`sha384-${createHash('sha384').update(bytes).digest('base64')}`).toBe(entry.integrity);
      for (const suffix of ['.br', '.gz']) expect(existsSync(join(asset, 'editor', entry.file + suffix)), entry.file + suffix).toBe(true);
    }
    expect(readdirSync(join(asset, 'editor')).sort()).toEqual(
      ['index.html', 'manifest.json', ...manifest.files.flatMap((entry) => [entry.file, `${entry.file}.br`, `${entry.file}.gz`])].sort(),
    );
  });

  it('serves the page naming those files when the bundled handler runs', () => {
    // Act: the bundle as Lambda would load it, in a process of its own, with no EDITOR_ASSETS_DIR
    const result = invokeBundledGet(asset, { path: '/', accept: 'text/html' }, deployedEnv({ ASSETS_BUCKET: 'assets-bucket' }));

    // Assess
    expect(result.statusCode).toBe(200);
    expect(result.headers['Content-Security-Policy']).toContain("connect-src 'self' https://assets-bucket.s3.us-east-1.amazonaws.com; worker-src 'self';");
    // The worker is started by the page's script and fetches its codecs, so only the page's own script and stylesheet have tags.
    for (const entry of manifest.files.filter((file) => !file.worker && !file.file.endsWith('.wasm')))
      expect(result.body).toContain(`/editor/${entry.file}" integrity="${entry.integrity}"`);
    expect(manifest.files.filter((file) => file.worker)).toHaveLength(1);
  });
});

describe('the route table', () => {
  it('ships the editor with exactly the routes that serve it', () => {
    expect(ROUTE_LIST.filter((row) => row.editorAssets).map((row) => `${row.method} ${row.path}`)).toEqual(['GET /', 'GET /editor/{file}']);
  });
});

describe('EaselStack and the editor', () => {
  const outdirs: string[] = [];
  afterAll(() => {
    for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
  });

  /** The EDITOR_API_URL of every function of a stack synthesized without bundling. */
  function editorApiUrls(editorApiUrl?: string): unknown[] {
    const outdir = mkdtempSync(join(tmpdir(), 'easel-editor-stack-'));
    outdirs.push(outdir);
    const stack = new EaselStack(new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } }), 'Easel', { editorApiUrl });
    const functions = Object.values(wholeTemplate(stack).findResources('AWS::Lambda::Function')) as {
      Properties: { Environment?: { Variables?: Record<string, unknown> } };
    }[];
    return functions.map((fn) => fn.Properties.Environment?.Variables?.EDITOR_API_URL);
  }

  it('gives the functions editorApiUrl as EDITOR_API_URL, without a trailing slash', () => {
    expect(new Set(editorApiUrls('https://api.example.com/'))).toEqual(new Set(['https://api.example.com']));
  });

  it('sets no EDITOR_API_URL by default, so the page calls its own origin', () => {
    expect(new Set(editorApiUrls())).toEqual(new Set([undefined]));
  });
});
