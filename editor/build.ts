/**
 * Builds editor/src into content-hashed files with compressed copies, SRI tags and a manifest.
 * The local server and the CDK bundling hook both run it, so both serve the same build.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { build } from 'esbuild';
import type { BuildOptions } from 'esbuild';
import { ASSET_PATH, MANIFEST_FILE, PAGE_TEMPLATE } from '#shared/editor/assets.ts';
import type { EditorAsset, EditorManifest } from '#shared/editor/assets.ts';

const SOURCE = resolve(import.meta.dirname, 'src');
const ASSETS_MARK = '<!--easel:assets-->';
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  // WebAssembly.compileStreaming and instantiateStreaming accept no other type.
  '.wasm': 'application/wasm',
};
/** Every evergreen browser of the last two years or so. */
const TARGETS = ['chrome111', 'edge111', 'firefox113', 'safari16.4'];

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export interface EditorBuild {
  manifest: EditorManifest;
  /** Still holding the API base placeholder. */
  template: string;
}

/** Builds into `outdir` (emptied first). */
export async function buildEditor(outdir: string): Promise<EditorBuild> {
  const out = resolve(outdir);
  const options = {
    bundle: true,
    format: 'esm',
    target: TARGETS,
    minify: true,
    // No source maps: one more file to serve, and the code is in this repository.
    sourcemap: false,
    legalComments: 'none',
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    outdir: out,
    write: false,
    logLevel: 'silent',
    // The codecs' WebAssembly: copied beside the scripts, which import their hashed names.
    loader: { '.wasm': 'file' },
  } satisfies BuildOptions;
  // The worker first: the page's script names its hashed file, so that name is part of the page's hash.
  const worker = await build({ ...options, entryPoints: { 'export-worker': join(SOURCE, 'export', 'export-worker.ts') } });
  const workerFile = basename(worker.outputFiles.find((output) => output.path.endsWith('.js'))!.path);
  const page = await build({ ...options, entryPoints: { editor: join(SOURCE, 'main.ts') }, define: { EXPORT_WORKER_FILE: JSON.stringify(`./${workerFile}`) } });
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });

  const files: EditorAsset[] = [];
  // Both entries import the same WebAssembly files: written once.
  const outputs = new Map([...page.outputFiles, ...worker.outputFiles].map((output) => [basename(output.path), output]));
  for (const [file, output] of outputs) {
    const extension = file.slice(file.lastIndexOf('.'));
    const contentType = CONTENT_TYPES[extension];
    if (!contentType) throw new Error(`esbuild wrote ${file}, which the editor does not know how to serve`);
    const body = Buffer.from(output.contents);
    const [br, gz] = await Promise.all([
      brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
      gzipped(body, { level: 9 }),
    ]);
    await Promise.all([writeFile(join(out, file), body), writeFile(join(out, `${file}.br`), br), writeFile(join(out, `${file}.gz`), gz)]);
    files.push({
      file,
      contentType,
      bytes: body.length,
      integrity: `sha384-${createHash('sha384').update(body).digest('base64')}`,
      encodings: ['br', 'gzip'],
      ...(file === workerFile ? { worker: true as const } : {}),
    });
  }
  files.sort((a, b) => a.file.localeCompare(b.file));

  const tags = [
    ...files
      .filter((asset) => asset.file.endsWith('.css'))
      .map((asset) => `<link rel="stylesheet" href="${ASSET_PATH}${asset.file}" integrity="${escapeAttribute(asset.integrity)}">`),
    ...files
      .filter((asset) => asset.file.endsWith('.js') && !asset.worker)
      .map((asset) => `<script type="module" src="${ASSET_PATH}${asset.file}" integrity="${escapeAttribute(asset.integrity)}"></script>`),
  ].join('\n');
  const source = await readFile(join(SOURCE, PAGE_TEMPLATE), 'utf8');
  if (!source.includes(ASSETS_MARK)) throw new Error(`${PAGE_TEMPLATE} lacks the ${ASSETS_MARK} mark where the tags go`);
  const template = source.replace(ASSETS_MARK, tags);
  const manifest: EditorManifest = { version: 1, files };
  await writeFile(join(out, PAGE_TEMPLATE), template);
  await writeFile(join(out, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifest, template };
}

// `node editor/build.ts <outdir>`: what the CDK bundling hook runs.
if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const outdir = process.argv[2];
  if (!outdir) {
    process.stderr.write('usage: node editor/build.ts <outdir>\n');
    process.exit(2);
  }
  const { manifest } = await buildEditor(outdir);
  for (const asset of manifest.files) process.stderr.write(`editor: ${asset.file} ${asset.bytes} bytes\n`);
}
