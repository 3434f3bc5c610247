/** The discovery documents as text for an origin: pre-rendered at bundling, rendered live locally and in tests. */
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
