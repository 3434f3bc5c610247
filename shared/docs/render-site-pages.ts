/**
 * Renders the site pages (/, /docs, /docs/errors) as Markdown and HTML. Deployed functions read
 * them pre-rendered and never load this module, which is most of their bundle.
 */
import { FULL_ROUTE_LIST } from '#shared/docs/operations.ts';
import { API_KEY_HEADER, PAGES, PRODUCT, SESSION_COOKIE, SUMMARY, absolute, authLabel, publicRoutes, tagsOf } from '#shared/docs/catalog.ts';
import type { DocRoute } from '#shared/docs/catalog.ts';
import { layout, renderMarkdown } from '#shared/docs/markdown-to-html.ts';
import type { PageName, SitePage } from '#shared/docs/prerendered-files.ts';
import { identitySections } from '#shared/docs/identity.ts';
import { blocks, code, heading, link, text, withoutAnchors } from '#shared/docs/markdown.ts';
import {
  authenticationSection,
  envelopeSections,
  errorCodeSections,
  errorCodesTable,
  limitsSection,
  operationAnchor,
  operationsSection,
} from '#shared/docs/reference.ts';

/** The links every start page offers, with what is behind each. */
export function startLinks(baseUrl: string): string {
  return [
    `- ${link('API guide', absolute(baseUrl, PAGES.docs))}: authentication, every operation with its parameters, responses, errors and an example, and the limits.`,
    `- ${link('Error reference', absolute(baseUrl, PAGES.errors))}: the error envelope and every error code, what it means and how to resolve it.`,
    `- ${link('OpenAPI 3.1 description', absolute(baseUrl, PAGES.openapi))}: machine-readable, generated from the route table the service runs on.`,
    `- ${link('Full reference for language models', absolute(baseUrl, PAGES.llmsFull))}: the guide and the error reference in one Markdown file.`,
  ].join('\n');
}

/** Operations as link lists per tag, each linking to its section of the guide. */
export function operationLinks(baseUrl: string, rows: readonly DocRoute[], depth: number): string {
  return blocks(
    tagsOf(rows).map((tag) =>
      blocks(
        heading(depth, text(tag.name)),
        tag.routes
          .map(
            (row) =>
              `- ${link(row.summary, `${absolute(baseUrl, PAGES.docs)}#${operationAnchor(row)}`)}: ${code(`${row.method} ${row.path}`)}, ${authLabel(row)}.`,
          )
          .join('\n'),
      ),
    ),
  );
}

/** What the editor at / does, with the operations behind each part linked to the guide. */
export function editorSection(baseUrl: string, depth: number): string {
  const op = (id: string, label: string) => link(code(label), `${absolute(baseUrl, PAGES.docs)}#${id}`);
  return blocks(
    heading(depth, 'The editor', 'editor'),
    `${link('The editor', absolute(baseUrl, PAGES.home))} is this service's own screenshot beautifier: it runs in the browser and does its work through the operations below.`,
    [
      `- **Sources.** Capture a web page (desktop or phone, light or dark, optionally bypassing the cache) with ${op('capturePage', 'POST /api/screenshot')}, with progress while it loads, the error's message and hint when it fails, and a countdown when the per-minute limit is reached. Load a tweet by its URL or id with ${op('getTweet', 'GET /api/tweet/{id}')} and draw it as a card (author, avatar, text, photos, date; light or dark), every image fetched through ${op('getImageProxy', 'GET /api/image-proxy')} so the canvas stays exportable. Or open an image with the file picker, by dropping it on the page, or by pasting it.`,
      '- **Compose.** Background (gradient presets, a solid colour, or none for transparency), padding, corner radius, shadow, an optional browser-window frame, aspect ratios of the usual social formats or free, and scale 1×, 2× or 3×. Every change redraws at once; the settings survive a reload and travel in the page address, so a link shares them.',
      `- **Export.** PNG, JPEG or WebP at high, medium or low quality through ${op('postExport', 'POST /api/export')}, downloaded with its size and dimensions shown, or copied to the clipboard as PNG. Signed in, or with an organization API key pasted into the page (kept in that tab's memory only), "Save to workspace" stores the export as an asset through ${op('createAssetUpload', 'POST /api/v1/assets/upload-url')}, the signed PUT and ${op('completeAssetUpload', 'POST /api/v1/assets/{assetId}/complete')}, and links it with ${op('getAssetDownloadUrl', 'GET /api/v1/assets/{assetId}/download-url')}.`,
    ].join('\n'),
    "The page can call this origin or another one of the same deployment; calls with a session cookie from another origin need that origin in the deployment's editor origins. It loads nothing from third parties and runs under a strict Content-Security-Policy.",
  );
}

/** The home page: the editor, what Easel is and where to go next. */
export function homeMarkdown(baseUrl: string, routes: readonly DocRoute[] = FULL_ROUTE_LIST): string {
  const rows = publicRoutes(routes);
  return blocks(
    heading(1, PRODUCT),
    `> ${SUMMARY}`,
    `Everything is served from ${code(baseUrl)}: in a browser, ${code(PAGES.home)} is the screenshot editor. Requests and responses are JSON unless an operation says otherwise, and every failure is one JSON error envelope whose \`documentation\` link explains its code.`,
    editorSection(baseUrl, 2),
    heading(2, 'Start here', 'start'),
    startLinks(baseUrl),
    heading(2, 'Authentication at a glance', 'authentication'),
    [
      '- Utilities and discovery documents: no credentials. An `Authorization` header grants nothing.',
      `- Workspace operations: an organization API key in \`${API_KEY_HEADER}\` with the scope the operation names, or a signed-in session whose member holds that permission.`,
      `- Shell operations: the \`${SESSION_COOKIE}\` session cookie only; API keys are refused.`,
    ].join('\n'),
    heading(2, 'Operations', 'operations'),
    operationLinks(baseUrl, rows, 3),
  );
}

/** The API guide: authentication, every operation, errors in brief, limits. */
export function docsMarkdown(baseUrl: string, routes: readonly DocRoute[] = FULL_ROUTE_LIST): string {
  const rows = publicRoutes(routes);
  return blocks(
    heading(1, `${PRODUCT} API guide`, 'top'),
    `> ${SUMMARY}`,
    `Base URL: ${code(baseUrl)}. This guide, the ${link('OpenAPI description', absolute(baseUrl, PAGES.openapi))} and the ${link('llms.txt', absolute(baseUrl, PAGES.llms))} files are generated from the same route table and schemas the service validates requests with.`,
    [
      '- [Authentication](#authentication)',
      '- [Roles and permissions](#roles-and-permissions)',
      '- [Plans, features and quotas](#plans)',
      '- [API keys and sessions](#credentials)',
      '- [Operations](#operations)',
      '- [Errors](#errors)',
      '- [Limits](#limits)',
    ].join('\n'),
    authenticationSection(baseUrl, rows, 2),
    identitySections(2),
    operationsSection(baseUrl, rows, 2),
    heading(2, 'Errors', 'errors'),
    `Every failure is the JSON error envelope (\`error\`, \`code\`, \`message\`, \`hint\`, \`status\`, \`documentation\`), some with extra fields. The ${link('error reference', absolute(baseUrl, PAGES.errors))} explains each code; \`documentation\` in the envelope links straight to it.`,
    errorCodesTable(baseUrl),
    limitsSection(rows, 2),
  );
}

/** The error reference: the envelope, the extended envelopes, and one anchor per code. */
export function errorsMarkdown(baseUrl: string): string {
  return blocks(
    heading(1, `${PRODUCT} error reference`, 'top'),
    `Every failing response carries one JSON envelope. Its \`documentation\` field links to the section of this page named after its \`code\`: \`${absolute(baseUrl, PAGES.errors)}#<code>\`. The ${link('API guide', absolute(baseUrl, PAGES.docs))} lists which statuses each operation answers with.`,
    envelopeSections(baseUrl, 2),
    heading(2, 'Codes', 'codes'),
    'Codes are stable: branch on them. Messages and hints may change.',
    errorCodesTable(baseUrl),
    errorCodeSections(baseUrl, 2),
  );
}

const TITLES: Record<PageName, string> = {
  home: `${PRODUCT}: screenshot editor`,
  docs: `${PRODUCT} API guide`,
  errors: `${PRODUCT} error reference`,
};

const SOURCES: Record<PageName, (baseUrl: string) => string> = {
  home: (baseUrl) => homeMarkdown(baseUrl),
  docs: (baseUrl) => docsMarkdown(baseUrl),
  errors: errorsMarkdown,
};

/** Renders a page for `baseUrl`: its Markdown, and the HTML of it in the site's layout. */
export function renderSitePage(name: PageName, baseUrl: string): SitePage {
  const source = SOURCES[name](baseUrl);
  return { markdown: withoutAnchors(source), html: layout({ title: TITLES[name], body: renderMarkdown(source), baseUrl }) };
}
