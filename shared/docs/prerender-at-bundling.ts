/**
 * `node shared/docs/prerender-at-bundling.ts <folder>`: writes the pages and documents the
 * discovery functions serve, for the placeholder origin. The stack's bundling runs it as a
 * command hook into each such function's asset.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLACEHOLDER_ORIGIN, PRERENDERED_DOCUMENTS, PRERENDERED_PAGES } from '#shared/docs/prerendered-files.ts';
import type { DocumentName } from '#shared/docs/prerendered-files.ts';
import { renderDocument } from '#shared/docs/render-discovery-documents.ts';
import { renderSitePage } from '#shared/docs/render-site-pages.ts';

/** Writes every page and document into `folder` (created if need be); returns the files written. */
export function writePrerendered(folder: string): string[] {
  mkdirSync(folder, { recursive: true });
  const written: string[] = [];
  const write = (file: string, text: string) => {
    writeFileSync(join(folder, file), text);
    written.push(join(folder, file));
  };
  for (const name of PRERENDERED_PAGES) {
    const { markdown, html } = renderSitePage(name, PLACEHOLDER_ORIGIN);
    write(`${name}.md`, markdown);
    write(`${name}.html`, html);
  }
  for (const [name, file] of Object.entries(PRERENDERED_DOCUMENTS) as [DocumentName, string][]) write(file, renderDocument(name, PLACEHOLDER_ORIGIN));
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2];
  if (!folder) {
    process.stderr.write('usage: node shared/docs/prerender-at-bundling.ts <folder>\n');
    process.exit(2);
  }
  writePrerendered(resolve(folder));
}
