/**
 * `node shared/docs/prerender.ts <folder>`: renders the site pages that functions serve from files
 * (./prerendered.ts) into `<folder>/<page>.html` and `.md`, for
 * the placeholder origin that the serving function replaces with its own (./pages.ts). The stack's
 * bundling runs it as a command hook into each such function's asset, as it runs the editor build.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLACEHOLDER_ORIGIN, PRERENDERED_PAGES } from '#shared/docs/prerendered.ts';
import { renderSitePage } from '#shared/docs/site.ts';

/** Writes every pre-rendered page into `folder` (created if need be); returns the files written. */
export function writePrerenderedPages(folder: string): string[] {
  mkdirSync(folder, { recursive: true });
  return PRERENDERED_PAGES.flatMap((name) => {
    const { markdown, html } = renderSitePage(name, PLACEHOLDER_ORIGIN);
    const files = [join(folder, `${name}.md`), join(folder, `${name}.html`)];
    writeFileSync(files[0]!, markdown);
    writeFileSync(files[1]!, html);
    return files;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2];
  if (!folder) {
    process.stderr.write('usage: node shared/docs/prerender.ts <folder>\n');
    process.exit(2);
  }
  writePrerenderedPages(resolve(folder));
}
