/**
 * The built editor as the service finds it: a folder holding `manifest.json`, the page template
 * `index.html` and the content-hashed files the template references (with brotli and gzip
 * copies), written by editor/build.ts. In a deployed function the folder is `editor/` beside the
 * bundle (the stack's bundling puts it there); the local server builds one at start and names it
 * in EDITOR_ASSETS_DIR. Read once per container, then served from memory.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { config } from '#shared/config.ts';
import { NotFoundError } from '#shared/errors.ts';
import { reply } from '#shared/http/reply.ts';
import type { Reply } from '#shared/http/reply.ts';

/** Where the page finds its files: GET /editor/{file}. */
export const ASSET_PATH = '/editor/';
/** The build's list of served files, and the page template; neither is served itself. */
export const MANIFEST_FILE = 'manifest.json';
export const PAGE_TEMPLATE = 'index.html';
/** Stands in the template for the API base URL, filled in per configuration when the page is served. */
export const API_BASE_PLACEHOLDER = '%API_BASE%';
/** Content-hashed names never change meaning, so browsers and CDNs may keep them for a year without asking. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

export type Encoding = 'br' | 'gzip';

/** One served file, as the manifest lists it. */
export interface EditorAsset {
  /** Name under /editor/, with its content hash: `editor-5KXQ2Z3M.js`. */
  file: string;
  contentType: string;
  bytes: number;
  /** Subresource Integrity value (sha384) the page's tags carry. */
  integrity: string;
  /** Precompressed copies beside it: `<file>.br`, `<file>.gz`. */
  encodings: Encoding[];
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

/** The folder the built editor is read from. */
export function editorDir(): string {
  // Bundled, import.meta.url is the function's index.mjs; editor/ sits beside it in the asset.
  return config().editor.assetsDir ?? fileURLToPath(new URL('./editor/', import.meta.url));
}

const loaded = new Map<string, LoadedEditor>();

/**
 * The built editor in `dir`, read on first use.
 * @throws Error when the folder holds no built editor (a deployment without the assets, or a local run that did not build)
 */
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

/** The codings an Accept-Encoding header accepts (q > 0), e.g. `gzip, deflate, br`. */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    if (name !== '' && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  return accepted;
}

/**
 * A built file as a reply: brotli or gzip when the client takes them (API Gateway and Lambda do
 * not compress), cacheable for a year.
 * @throws NotFoundError for a name the manifest does not list (such as a previous build's hash)
 */
export function editorAsset(file: string, acceptEncoding: string | undefined, editor: LoadedEditor = loadEditor()): Reply {
  const entry = editor.assets.get(file);
  if (!entry) {
    throw new NotFoundError(`No editor file ${file}`, 'Editor files are named after their content and change with every release: reload / to get the current names.');
  }
  const accepted = acceptedEncodings(acceptEncoding);
  const encoding = (['br', 'gzip'] as const).find((candidate) => entry.bodies[candidate] && accepted.has(candidate));
  const headers: Record<string, string> = { 'Cache-Control': IMMUTABLE, Vary: 'Accept-Encoding' };
  if (encoding) headers['Content-Encoding'] = encoding;
  return reply.binary(entry.bodies[encoding ?? 'identity']!, entry.asset.contentType, 200, { headers });
}
