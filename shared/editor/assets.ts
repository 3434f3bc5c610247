/** The built editor (editor/build.ts's folder), read once per container and served from memory. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { config } from '#shared/config.ts';
import { NotFoundError } from '#shared/errors.ts';
import { reply } from '#shared/http/reply.ts';
import type { Reply } from '#shared/http/reply.ts';

export const ASSET_PATH = '/editor/';
/** Neither is served itself. */
export const MANIFEST_FILE = 'manifest.json';
export const PAGE_TEMPLATE = 'index.html';
/** Filled in per configuration when the page is served. */
export const API_BASE_PLACEHOLDER = '%API_BASE%';
export const CAPTURE_TIMEOUT_PLACEHOLDER = '%CAPTURE_TIMEOUT_MS%';
/** The one Trusted Types policy the page may create: it vouches for the export worker's URL only. */
export const EXPORT_WORKER_POLICY = 'easel-export-worker';
/** A worker runs under its own script's CSP: the export worker fetches and compiles its codecs' WebAssembly from this origin, nothing else. */
export const EXPORT_WORKER_CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; frame-ancestors 'none'";
/** Content-hashed names never change meaning. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

export type Encoding = 'br' | 'gzip';

export interface EditorAsset {
  /** With its content hash: `editor-5KXQ2Z3M.js`. */
  file: string;
  contentType: string;
  bytes: number;
  /** Subresource Integrity (sha384). */
  integrity: string;
  /** Precompressed copies beside it: `<file>.br`, `<file>.gz`. */
  encodings: Encoding[];
  /** Started by the page's script as a worker, so the page has no tag for it. */
  worker?: true;
}

export interface EditorManifest {
  version: 1;
  files: EditorAsset[];
}

interface LoadedAsset {
  asset: EditorAsset;
  bodies: Partial<Record<Encoding | 'identity', Buffer>>;
}

export interface LoadedEditor {
  dir: string;
  template: string;
  assets: ReadonlyMap<string, LoadedAsset>;
}

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

export function editorDir(): string {
  // Bundled, import.meta.url is the function's index.mjs, with editor/ beside it.
  return config().editor.assetsDir ?? fileURLToPath(new URL('./editor/', import.meta.url));
}

const loaded = new Map<string, LoadedEditor>();

export function loadEditor(dir: string = editorDir()): LoadedEditor {
  const cached = loaded.get(dir);
  if (cached) return cached;
  const manifestPath = join(dir, MANIFEST_FILE);
  if (!existsSync(manifestPath)) {
    throw new Error(`No built editor in ${dir}: run \`node editor/build.ts <folder>\` and set EDITOR_ASSETS_DIR, or deploy with the route's editorAssets.`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as EditorManifest;
  const assets = new Map<string, LoadedAsset>();
  for (const asset of manifest.files) {
    const bodies: LoadedAsset['bodies'] = { identity: readFileSync(join(dir, asset.file)) };
    for (const encoding of asset.encodings) bodies[encoding] = readFileSync(join(dir, asset.file + SUFFIX[encoding]));
    assets.set(asset.file, { asset, bodies });
  }
  const editor = { dir, template: readFileSync(join(dir, PAGE_TEMPLATE), 'utf8'), assets };
  loaded.set(dir, editor);
  return editor;
}

/** The codings accepted with q > 0. */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    if (name !== '' && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  return accepted;
}

/** Precompressed when accepted, as API Gateway and Lambda do not compress; 404 for a name the manifest lacks (a previous build's). */
export function editorAsset(file: string, acceptEncoding: string | undefined, editor: LoadedEditor = loadEditor()): Reply {
  const entry = editor.assets.get(file);
  if (!entry) {
    throw new NotFoundError(
      `No editor file ${file}`,
      'Editor files are named after their content and change with every release: reload / to get the current names.',
    );
  }
  const accepted = acceptedEncodings(acceptEncoding);
  const encoding = (['br', 'gzip'] as const).find((candidate) => entry.bodies[candidate] && accepted.has(candidate));
  const headers: Record<string, string> = { 'Cache-Control': IMMUTABLE, Vary: 'Accept-Encoding' };
  if (encoding) headers['Content-Encoding'] = encoding;
  if (entry.asset.worker) headers['Content-Security-Policy'] = EXPORT_WORKER_CSP;
  return reply.binary(entry.bodies[encoding ?? 'identity']!, entry.asset.contentType, 200, { headers });
}
