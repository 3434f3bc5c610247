/**
 * The discovery documents as text, for an origin: what /openapi.json, /llms.txt and
 * /llms-full.txt answer. ./prerender-at-bundling.ts writes them at bundling;
 * ./prerendered-replies.ts renders with this only where nothing was pre-rendered (the local
 * server, the tests).
 */
import { llmsFullTxt, llmsTxt } from '#shared/docs/llms.ts';
import { openApiDocument } from '#shared/docs/openapi.ts';
import type { DocumentName } from '#shared/docs/prerendered-files.ts';

export function renderDocument(name: DocumentName, baseUrl: string): string {
  switch (name) {
    case 'openapi':
      // Indented, so that `curl …/openapi.json | head` shows its start rather than one long line.
      return `${JSON.stringify(openApiDocument(baseUrl), null, 2)}\n`;
    case 'llms':
      return llmsTxt(baseUrl);
    case 'llmsFull':
      return llmsFullTxt(baseUrl);
  }
}
