import { describe, expect, it } from 'vitest';
import { docsMarkdown, errorsMarkdown, homeMarkdown, renderSitePage } from '#shared/docs/render-site-pages.ts';
import { wantsMarkdown } from '#shared/docs/prerendered-replies.ts';
import { PLACEHOLDER_ORIGIN, PRERENDERED_DOCUMENTS, PRERENDERED_PAGES } from '#shared/docs/prerendered-files.ts';
import type { DocumentName } from '#shared/docs/prerendered-files.ts';
import { renderDocument } from '#shared/docs/render-discovery-documents.ts';
import { llmsFullTxt, llmsTxt } from '#shared/docs/llms.ts';
import { renderMarkdown } from '#shared/docs/markdown-to-html.ts';
import { toEnvelope } from '#shared/http/envelope.ts';
import { ERROR_CODE_LIST, NotFoundError, RateLimitedError } from '#shared/errors.ts';
import type { HttpHandler } from '#shared/http/handler.ts';
import { FULL_ROUTE_LIST } from '#shared/docs/operations.ts';
import { handler as getHome } from '#functions/site/get-home.ts';
import { handler as getDocs } from '#functions/site/get-docs.ts';
import { handler as getErrorDocs } from '#functions/site/get-error-docs.ts';
import { handler as getLlms } from '#functions/discovery/get-llms.ts';
import { handler as getLlmsFull } from '#functions/discovery/get-llms-full.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';
import { FIXTURE_ROUTES } from './docs-routes.fixture.ts';

const BASE = 'http://easel.test';
const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const listed = FULL_ROUTE_LIST.filter((row) => row.listed);

function call(handler: HttpHandler, path: string, headers: Record<string, string> = {}) {
  return handler(apiEvent({ path, headers }), lambdaContext());
}

/** Every id attribute of an HTML document. */
function ids(html: string): string[] {
  return [...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]!);
}

const PAGES: [string, HttpHandler, string][] = [
  ['/', getHome, '# Easel\n'],
  ['/docs', getDocs, '# Easel API guide\n'],
  ['/docs/errors', getErrorDocs, '# Easel error reference\n'],
];

// / serves the editor as HTML (test/unit/editor-site.test.ts); its Markdown is a site page like the others.
const REFERENCE_PAGES = PAGES.filter(([path]) => path !== '/');

describe('site pages', () => {
  it.each(REFERENCE_PAGES)('serves %s as HTML by default, under the strict page CSP', async (path, handler) => {
    const result = await call(handler, path);

    expect(result).toMatchObject({
      statusCode: 200,
      isBase64Encoded: false,
      headers: expect.objectContaining({
        'Content-Type': 'text/html; charset=utf-8',
        Vary: 'Accept',
        'Cache-Control': 'public, max-age=300',
        'Content-Security-Policy': HTML_CSP,
        'X-Content-Type-Options': 'nosniff',
      }),
    });
    expect(result.body).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(result.body).toContain('<style>');
    expect(result.body).not.toMatch(/<script|<link |src=/i);
  });

  it.each(PAGES)('serves %s as Markdown when Accept asks for text/markdown', async (path, handler, start) => {
    const result = await call(handler, path, { Accept: 'text/markdown' });

    expect(result).toMatchObject({
      statusCode: 200,
      headers: expect.objectContaining({
        'Content-Type': 'text/markdown; charset=utf-8',
        Vary: 'Accept',
        'Cache-Control': 'public, max-age=300',
      }),
    });
    expect(result.body!.startsWith(start)).toBe(true);
    expect(result.body).not.toMatch(/\{#[\w.:-]+\}$/m);
  });

  it('gives /docs/errors an h2 anchor for every error code', async () => {
    const { body } = await call(getErrorDocs, '/docs/errors');

    for (const code of ERROR_CODE_LIST) expect(body).toContain(`<h2 id="${code}">`);
  });

  it('resolves the documentation link of an error envelope to an anchor on /docs/errors', async () => {
    const { body } = await call(getErrorDocs, '/docs/errors');
    const envelope = toEnvelope(new NotFoundError(), BASE).body;

    expect(envelope.documentation).toBe(`${BASE}/docs/errors#not_found`);
    expect(ids(body!)).toContain(envelope.documentation.split('#')[1]);
  });

  it('describes the envelope fields and every extended envelope on /docs/errors', async () => {
    const { body } = await call(getErrorDocs, '/docs/errors', { Accept: 'text/markdown' });

    for (const field of [
      'error',
      'code',
      'message',
      'hint',
      'status',
      'documentation',
      'retryAfter',
      'currentPlan',
      'requiredPlan',
      'feature',
      'limit',
      'quota',
    ]) {
      expect(body).toContain(`| \`${field}\` |`);
    }
    expect(body).toContain(JSON.stringify(toEnvelope(new RateLimitedError({ limit: 20, windowSeconds: 60, retryAfter: 42, headers: {} }), BASE).body, null, 2));
  });

  it('gives every listed operation an anchor named after its operation id on /docs', async () => {
    const { body } = await call(getDocs, '/docs');
    const anchors = ids(body!);

    for (const row of listed) expect(anchors).toContain(row.operationId);
    expect(new Set(anchors).size).toBe(anchors.length);
  });

  it('covers authentication, every operation, the errors and the limits on /docs', async () => {
    const { body } = await call(getDocs, '/docs', { Accept: 'text/markdown' });

    expect(body).toContain('## Authentication');
    expect(body).toContain('`X-API-Key: <API_KEY>`');
    expect(body).toContain('`easel.session_token`');
    expect(body).toContain('An `Authorization` header is never read');
    for (const row of listed) expect(body).toContain(`\`${row.method} ${row.path}\``);
    for (const code of ERROR_CODE_LIST) expect(body).toContain(`[\`${code}\`](${BASE}/docs/errors#${code})`);
    expect(body).toContain('## Limits');
  });

  it('links the home page to the guide, the error reference and the machine-readable documents', async () => {
    const { body } = await call(getHome, '/', { Accept: 'text/markdown' });

    for (const path of ['/docs', '/docs/errors', '/openapi.json', '/llms-full.txt']) expect(body).toContain(`](${BASE}${path})`);
  });

  it('describes the editor on the Markdown home page, linking each operation it uses to the guide', async () => {
    const { body } = await call(getHome, '/', { Accept: 'text/markdown' });

    expect(body).toContain('## The editor\n');
    for (const operationId of ['capturePage', 'getTweet', 'getImageProxy', 'postExport', 'createAssetUpload', 'completeAssetUpload', 'getAssetDownloadUrl']) {
      expect(body).toContain(`](${BASE}/docs#${operationId})`);
    }
  });
});

describe('pre-rendered site pages', () => {
  // Deployed functions serve the pages rendered for the placeholder origin, with theirs put in.
  it.each(
    PRERENDERED_PAGES.flatMap((name) =>
      [
        'http://127.0.0.1:3000',
        'https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com',
        'https://api.example.com/easel',
        'https://xn--bcher-kva.example:8443',
      ].map((origin) => [name, origin] as const),
    ),
  )('renders %s for %s exactly as the origin put into the placeholder rendering', (name, origin) => {
    const placeholder = renderSitePage(name, PLACEHOLDER_ORIGIN);
    const direct = renderSitePage(name, origin);

    expect(placeholder.html.replaceAll(PLACEHOLDER_ORIGIN, origin)).toBe(direct.html);
    expect(placeholder.markdown.replaceAll(PLACEHOLDER_ORIGIN, origin)).toBe(direct.markdown);
  });

  it.each(
    (Object.keys(PRERENDERED_DOCUMENTS) as DocumentName[]).flatMap((name) =>
      ['http://127.0.0.1:3000', 'https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com', 'https://xn--bcher-kva.example:8443'].map(
        (origin) => [name, origin] as const,
      ),
    ),
  )('renders the %s document for %s exactly as the origin put into the placeholder rendering', (name, origin) => {
    expect(renderDocument(name, PLACEHOLDER_ORIGIN).replaceAll(PLACEHOLDER_ORIGIN, origin)).toBe(renderDocument(name, origin));
  });

  it('uses an origin that appears nowhere else and that no one can own', () => {
    expect(new URL(PLACEHOLDER_ORIGIN).hostname.endsWith('.invalid')).toBe(true);
    for (const name of PRERENDERED_PAGES) expect(renderSitePage(name, 'https://other.test').html).not.toContain('easel-origin');
    for (const name of Object.keys(PRERENDERED_DOCUMENTS) as DocumentName[]) expect(renderDocument(name, 'https://other.test')).not.toContain('easel-origin');
  });
});

describe('wantsMarkdown', () => {
  it.each([
    ['text/markdown', true],
    ['text/markdown, text/html;q=0.9', true],
    ['text/plain, text/markdown;q=0.5', true],
    [undefined, false],
    ['', false],
    ['*/*', false],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
    ['text/html, text/markdown;q=0.8', false],
    ['text/markdown;q=0', false],
  ])('answers %j with %s', (accept, expected) => {
    expect(wantsMarkdown(accept)).toBe(expected);
  });
});

describe('site markdown', () => {
  it('leaves unlisted and internal rows out of every page and document', () => {
    const routes = [...FULL_ROUTE_LIST, ...FIXTURE_ROUTES];
    for (const text of [homeMarkdown(BASE, routes), docsMarkdown(BASE, routes), llmsTxt(BASE, routes), llmsFullTxt(BASE, routes)]) {
      expect(text).toContain('/api/screenshot');
      expect(text).not.toContain('/internal/cache/purge');
      expect(text).not.toContain('/api/hidden');
    }
  });

  it('states the rules of each input field from its schema', () => {
    const docs = docsMarkdown(BASE, [...FULL_ROUTE_LIST, ...FIXTURE_ROUTES]);

    expect(docs).toContain('| `title` | string | yes | length 1 to 160 characters |');
    expect(docs).toContain('| `deviceType` | string | no | one of `desktop`, `mobile`; default `desktop` |');
    expect(docs).toContain('| `id` | path | string | yes | pattern `^[0-9]+$` | Numeric status ID. |');
    expect(docs).toContain('| `limit` | query | integer | no | 1 to 100; default `50` |');
    expect(docs).toContain('| Request rate | `POST /api/screenshot` | 20 requests per minute per IP address |');
  });

  it('escapes schema-derived text in the HTML', () => {
    const html = renderMarkdown(docsMarkdown(BASE, [...FULL_ROUTE_LIST, ...FIXTURE_ROUTES]));

    expect(html).toContain('markup such as &lt;b&gt; is rejected');
    expect(html).not.toContain('<b>');
  });

  it('shows raw HTML in Markdown as text instead of passing it through', () => {
    expect(renderMarkdown('Hello <script>alert(1)</script>\n\n<div onclick="x">y</div>')).toBe(
      '<p>Hello &lt;script&gt;alert(1)&lt;/script&gt;</p>\n&lt;div onclick=&quot;x&quot;&gt;y&lt;/div&gt;',
    );
  });

  it('turns heading attributes into ids and slugs the other headings, uniquely', () => {
    expect(renderMarkdown('## `not_found` {#not_found}\n\n## Start here\n\n## Start here')).toBe(
      '<h2 id="not_found"><code>not_found</code></h2>\n<h2 id="start-here">Start here</h2>\n<h2 id="start-here-2">Start here</h2>\n',
    );
  });
});

describe('llms.txt', () => {
  it('is Markdown in the llms.txt shape: title, summary, sections of absolute links', async () => {
    const result = await call(getLlms, '/llms.txt');

    expect(result).toMatchObject({
      statusCode: 200,
      headers: expect.objectContaining({ 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': 'public, max-age=300' }),
    });
    const body = result.body!;
    expect(body.startsWith('# Easel\n\n> ')).toBe(true);
    expect(body.match(/^## .+$/gm)).toEqual(['## Docs', '## Operations', '## Optional']);
    const links = [...body.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(0);
    for (const url of links) expect(url).toMatch(/^http:\/\/easel\.test\//);
    for (const path of ['/docs', '/docs/errors', '/openapi.json', '/llms-full.txt']) expect(links).toContain(`${BASE}${path}`);
  });

  it('links every listed operation to its section of the guide', async () => {
    const { body } = await call(getLlms, '/llms.txt');

    for (const row of listed) expect(body).toContain(`](${BASE}/docs#${row.operationId}): \`${row.method} ${row.path}\``);
  });
});

describe('llms-full.txt', () => {
  it('is the full Markdown reference: authentication, every operation, every error code, limits', async () => {
    const result = await call(getLlmsFull, '/llms-full.txt');

    expect(result).toMatchObject({
      statusCode: 200,
      headers: expect.objectContaining({ 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': 'public, max-age=300' }),
    });
    const body = result.body!;
    expect(body.startsWith('# Easel API reference\n\n> ')).toBe(true);
    expect(body).toContain('## Authentication');
    for (const row of listed) expect(body).toContain(`\`${row.method} ${row.path}\` · operation \`${row.operationId}\``);
    expect(body).toContain('### The error envelope');
    for (const code of ERROR_CODE_LIST) expect(body).toContain(`#### \`${code}\``);
    expect(body).toContain('## Limits');
    expect(body).not.toMatch(/\{#[\w.:-]+\}$/m);
  });

  it('states request body constraints derived from the schemas', () => {
    const full = llmsFullTxt(BASE, [...FULL_ROUTE_LIST, ...FIXTURE_ROUTES]);

    expect(full).toContain('**Request body** (`application/json`, required, at most 65536 bytes, fields not listed here are rejected)');
    expect(full).toContain('| `sourceUrls` | array of string (uri) | no | at most 20 items |');
    expect(full).toContain('- **Plan:** feature asset:delete, minimum plan pro, quota api:write:minute.');
  });
});

describe('errors page markdown', () => {
  it('names every code once as a heading with its own anchor', () => {
    const markdown = errorsMarkdown(BASE);

    for (const code of ERROR_CODE_LIST) expect(markdown.split(`## \`${code}\` {#${code}}`)).toHaveLength(2);
  });
});
