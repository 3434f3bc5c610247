/**
 * /llms.txt (the llms.txt convention: title, summary blockquote, notes, H2 link sections) and
 * /llms-full.txt (the whole reference in one Markdown file).
 */
import { ERROR_CODES, ERROR_CODE_LIST } from '#shared/errors.ts';
import { FULL_ROUTE_LIST } from '#shared/docs/operations.ts';
import { API_KEY_HEADER, PAGES, PRODUCT, SESSION_COOKIE, SUMMARY, absolute, publicRoutes } from '#shared/docs/catalog.ts';
import type { DocRoute } from '#shared/docs/catalog.ts';
import { identitySections } from '#shared/docs/identity.ts';
import { blocks, heading, link, withoutAnchors } from '#shared/docs/markdown.ts';
import { authenticationSection, envelopeSections, errorCodeSections, errorCodesTable, limitsSection, operationsSection } from '#shared/docs/reference.ts';
import { operationLinks } from '#shared/docs/render-site-pages.ts';

function notes(baseUrl: string): string {
  return blocks(
    `Base URL: ${baseUrl}. Bodies are JSON unless an operation says otherwise. Anonymous utilities and these documents need no credentials (an \`Authorization\` header grants nothing); workspace operations under /api/v1 take an organization API key in the \`${API_KEY_HEADER}\` header with the scope each names; shell operations take the \`${SESSION_COOKIE}\` session cookie only.`,
    `Every failure is one JSON envelope (\`error\`, \`code\`, \`message\`, \`hint\`, \`status\`, \`documentation\`); branch on \`code\`. \`documentation\` links to ${absolute(baseUrl, PAGES.errors)}#<code>.`,
    'The site pages below are HTML by default and Markdown when requested with `Accept: text/markdown`.',
  );
}

/** The llms.txt overview: what Easel is, then links to the docs and to every operation. */
export function llmsTxt(baseUrl: string, routes: readonly DocRoute[] = FULL_ROUTE_LIST): string {
  const rows = publicRoutes(routes);
  return `${blocks(
    heading(1, PRODUCT),
    `> ${SUMMARY}`,
    notes(baseUrl),
    heading(2, 'Docs'),
    [
      `- ${link('API guide', absolute(baseUrl, PAGES.docs))}: authentication, every operation with parameters, responses, errors and an example, and the limits.`,
      `- ${link('Error reference', absolute(baseUrl, PAGES.errors))}: the error envelope, the extended envelopes and every error code with how to resolve it.`,
      `- ${link('OpenAPI 3.1 description', absolute(baseUrl, PAGES.openapi))}: the machine-readable interface, generated from the same route table.`,
      `- ${link('Full reference', absolute(baseUrl, PAGES.llmsFull))}: everything in the guide and the error reference as one Markdown file.`,
    ].join('\n'),
    heading(2, 'Operations'),
    'Grouped by tag; each links to its section of the API guide.',
    operationLinks(baseUrl, rows, 3),
    heading(2, 'Optional'),
    [
      `- ${link('Editor', absolute(baseUrl, PAGES.home))}: the screenshot editor in the browser; as Markdown, what it does and which operations it uses.`,
      ...ERROR_CODE_LIST.map(
        (errorCode) =>
          `- ${link(`Error code \`${errorCode}\``, `${absolute(baseUrl, PAGES.errors)}#${errorCode}`)}: ${ERROR_CODES[errorCode].title} (HTTP ${ERROR_CODES[errorCode].statuses.join(', ')}).`,
      ),
    ].join('\n'),
  )}\n`;
}

/** The full reference: authentication, every operation, the errors and the limits in one file. */
export function llmsFullTxt(baseUrl: string, routes: readonly DocRoute[] = FULL_ROUTE_LIST): string {
  const rows = publicRoutes(routes);
  const source = blocks(
    heading(1, `${PRODUCT} API reference`),
    `> ${SUMMARY}`,
    notes(baseUrl),
    `The machine-readable description is ${absolute(baseUrl, PAGES.openapi)} (OpenAPI 3.1). The error reference is ${absolute(baseUrl, PAGES.errors)}.`,
    authenticationSection(baseUrl, rows, 2),
    identitySections(2),
    operationsSection(baseUrl, rows, 2),
    heading(2, 'Errors', 'errors'),
    envelopeSections(baseUrl, 3),
    heading(3, 'Codes', 'codes'),
    errorCodesTable(baseUrl),
    errorCodeSections(baseUrl, 4),
    limitsSection(rows, 2),
  );
  return `${withoutAnchors(source)}\n`;
}
