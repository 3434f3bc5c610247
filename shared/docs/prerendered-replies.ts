/**
 * The replies of the discovery routes: the site pages (/, /docs and /docs/errors, as HTML or, when
 * asked for, their Markdown) and the documents (/openapi.json, /llms.txt, /llms-full.txt).
 * Rendering them is slow and the renderers are most of a discovery function's bundle, so deployed
 * functions do neither: the stack's bundling writes everything beside the bundle for a placeholder
 * origin (./prerender-at-bundling.ts), and a function reads what it serves once and puts its own
 * origin in. The bundler defines EASEL_LAMBDA_BUNDLE, which leaves the renderers
 * (./render-site-pages.ts, ./render-discovery-documents.ts) out of the bundle; the local server
 * and the tests, running the sources, render with them.
 */
import { createRequire } from 'node:module';
import { config } from '#shared/config.ts';
import { reply } from '#shared/http/reply.ts';
import type { Reply } from '#shared/http/reply.ts';
import { PLACEHOLDER_ORIGIN, PRERENDERED_DOCUMENTS, PRERENDERED_FOLDER } from '#shared/docs/prerendered-files.ts';
import type { DocumentName, PageName, SitePage } from '#shared/docs/prerendered-files.ts';

/** Discovery headers of every page and document: cacheable for five minutes by anyone. */
export const DISCOVERY_CACHE_CONTROL = 'public, max-age=300';

/**
 * Whether the caller asked for Markdown: `text/markdown` in Accept with a weight above zero
 * and at least that of `text/html` (a browser that also lists Markdown still gets HTML).
 */
export function wantsMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  const weights: Record<string, number> = {};
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights[type] = Math.max(weights[type] ?? 0, Number.isFinite(weight) ? weight : 0);
  }
  const markdown = weights['text/markdown'] ?? 0;
  return markdown > 0 && markdown >= (weights['text/html'] ?? 0);
}

/**
 * A file the bundling wrote beside this bundle, with `baseUrl` put in for the placeholder.
 * PUBLIC_BASE_URL is an origin with no character that HTML or JSON escapes (config.ts), so putting
 * it in verbatim gives what rendering for it gives (test/unit/site.test.ts holds the two equal).
 */
function readPrerendered(file: string, baseUrl: string): string {
  // require(), not import: an ES import of node:fs also loads its promises API (≈ 3 ms of a cold start).
  const { readFileSync } = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
  try {
    return readFileSync(new URL(`./${PRERENDERED_FOLDER}/${file}`, import.meta.url), 'utf8').replaceAll(PLACEHOLDER_ORIGIN, baseUrl);
  } catch (error) {
    throw new Error(`${file} is not beside this function's bundle (${PRERENDERED_FOLDER}/): its route needs \`prerendered\`, which writes it at bundling.`, { cause: error });
  }
}

// Each depends only on the route table and the origin: read or rendered once per container (a
// failure is not kept). Each loader tests EASEL_LAMBDA_BUNDLE itself, around the import of its
// renderer: the bundler's definition makes that branch dead, so no bundle carries a renderer.
const loaded = new Map<string, Promise<unknown>>();

function once<T>(key: string, load: () => Promise<T>): Promise<T> {
  let entry = loaded.get(key) as Promise<T> | undefined;
  if (!entry) {
    entry = load();
    entry.catch(() => loaded.delete(key));
    loaded.set(key, entry);
  }
  return entry;
}

const page = (name: PageName, baseUrl: string): Promise<SitePage> =>
  once(`page ${name} ${baseUrl}`, async () => {
    if (process.env.EASEL_LAMBDA_BUNDLE !== 'true') return (await import('#shared/docs/render-site-pages.ts')).renderSitePage(name, baseUrl);
    return { markdown: readPrerendered(`${name}.md`, baseUrl), html: readPrerendered(`${name}.html`, baseUrl) };
  });

const document = (name: DocumentName, baseUrl: string): Promise<string> =>
  once(`document ${name} ${baseUrl}`, async () => {
    if (process.env.EASEL_LAMBDA_BUNDLE !== 'true') return (await import('#shared/docs/render-discovery-documents.ts')).renderDocument(name, baseUrl);
    return readPrerendered(PRERENDERED_DOCUMENTS[name], baseUrl);
  });

/**
 * A site page as a reply: HTML, or Markdown when the Accept header asks for it. Always varies
 * on Accept, so a shared cache keeps the two apart.
 */
export async function sitePage(name: PageName, accept: string | undefined, baseUrl: string = config().publicBaseUrl): Promise<Reply> {
  const headers = { 'Cache-Control': DISCOVERY_CACHE_CONTROL, Vary: 'Accept' };
  const { markdown, html } = await page(name, baseUrl);
  return wantsMarkdown(accept)
    ? reply.text(markdown, 'text/markdown; charset=utf-8', 200, { headers })
    : reply.text(html, 'text/html; charset=utf-8', 200, { headers });
}

const DOCUMENT_TYPES: Record<DocumentName, string> = {
  openapi: 'application/json; charset=utf-8',
  llms: 'text/markdown; charset=utf-8',
  llmsFull: 'text/markdown; charset=utf-8',
};

/** A document as a reply, cacheable for five minutes: the same text for every request of a container. */
export async function documentReply(name: DocumentName, baseUrl: string = config().publicBaseUrl): Promise<Reply> {
  return reply.text(await document(name, baseUrl), DOCUMENT_TYPES[name], 200, { headers: { 'Cache-Control': DISCOVERY_CACHE_CONTROL } });
}
