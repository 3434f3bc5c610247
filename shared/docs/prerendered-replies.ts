/**
 * Replies of the discovery routes: deployed functions read what bundling pre-rendered (rendering is slow
 * and most of the bundle) and put their origin in; the local server and the tests render live.
 */
import { createRequire } from 'node:module';
import { config } from '#shared/config.ts';
import { reply } from '#shared/http/reply.ts';
import type { Reply } from '#shared/http/reply.ts';
import { PLACEHOLDER_ORIGIN, PRERENDERED_DOCUMENTS, PRERENDERED_FOLDER } from '#shared/docs/prerendered-files.ts';
import type { DocumentName, PageName, SitePage } from '#shared/docs/prerendered-files.ts';

/** Discovery headers of every page and document: cacheable for five minutes by anyone. */
export const DISCOVERY_CACHE_CONTROL = 'public, max-age=300';

/** `text/markdown` weighted above zero and at least as high as `text/html`: a browser listing both gets HTML. */
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
 * A pre-rendered file with `baseUrl` in place of the placeholder. PUBLIC_BASE_URL has no
 * character HTML or JSON escapes, so this equals rendering for it.
 */
function readPrerendered(file: string, baseUrl: string): string {
  // require(), not import: an ES import of node:fs also loads its promises API at cold start.
  const { readFileSync } = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
  try {
    return readFileSync(new URL(`./${PRERENDERED_FOLDER}/${file}`, import.meta.url), 'utf8').replaceAll(PLACEHOLDER_ORIGIN, baseUrl);
  } catch (error) {
    throw new Error(`${file} is not beside this function's bundle (${PRERENDERED_FOLDER}/): its route needs \`prerendered\`, which writes it at bundling.`, {
      cause: error,
    });
  }
}

// Once per container, failures not kept. Each loader tests EASEL_LAMBDA_BUNDLE around its
// renderer's import, so the bundler's definition drops the renderer as dead code.
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

/** A site page as HTML, or Markdown when Accept asks; varies on Accept so shared caches keep the two apart. */
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
