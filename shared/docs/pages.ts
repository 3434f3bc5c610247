/**
 * The site pages as replies: /, /docs and /docs/errors, as HTML or, when asked for, as their
 * Markdown. Rendering the guide takes ≈ 60 ms (marked over 150 KB of Markdown) and the renderer is
 * most of a site function's bundle, so deployed functions do neither: the stack's bundling writes
 * every page beside the bundle for a placeholder origin (./prerender.ts), and a function reads its
 * page once and puts its own origin in. The bundler defines EASEL_LAMBDA_BUNDLE, which leaves the
 * renderer (./site.ts) out of the bundle; the local server and the tests, running the sources,
 * render with it.
 */
import { createRequire } from 'node:module';
import { config } from '#shared/config.ts';
import { reply } from '#shared/http/reply.ts';
import type { Reply } from '#shared/http/reply.ts';
import { PLACEHOLDER_ORIGIN, PRERENDERED_FOLDER } from '#shared/docs/prerendered.ts';
import type { PageName, SitePage } from '#shared/docs/prerendered.ts';

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
 * The page as the bundling wrote it beside this bundle, with `baseUrl` put in for the placeholder.
 * PUBLIC_BASE_URL is an origin with no character HTML escapes (config.ts), so putting it in
 * verbatim gives what rendering for it gives (test/unit/site.test.ts holds the two equal).
 */
function readPrerendered(name: PageName, baseUrl: string): SitePage {
  // require(), not import: an ES import of node:fs also loads its promises API (≈ 3 ms of a cold start).
  const { readFileSync } = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
  const read = (extension: string) => {
    const file = new URL(`./${PRERENDERED_FOLDER}/${name}.${extension}`, import.meta.url);
    try {
      return readFileSync(file, 'utf8').replaceAll(PLACEHOLDER_ORIGIN, baseUrl);
    } catch (error) {
      throw new Error(`The ${name} page is not beside this function's bundle (${PRERENDERED_FOLDER}/): its route needs sitePages, which renders it at bundling.`, { cause: error });
    }
  };
  return { markdown: read('md'), html: read('html') };
}

// The pages depend only on the table and the origin: read or render each once per container.
const pages = new Map<string, SitePage>();

async function page(name: PageName, baseUrl: string): Promise<SitePage> {
  const key = `${name} ${baseUrl}`;
  let entry = pages.get(key);
  if (!entry) {
    if (process.env.EASEL_LAMBDA_BUNDLE !== 'true') {
      // Inside this branch, which the bundler's definition makes dead, so no bundle carries the renderer.
      const { renderSitePage } = await import('#shared/docs/site.ts');
      entry = renderSitePage(name, baseUrl);
    } else {
      entry = readPrerendered(name, baseUrl);
    }
    pages.set(key, entry);
  }
  return entry;
}

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
