/**
 * Functions the capture runs inside the page are sent as their source text. The bundle must not
 * make them call anything outside themselves, such as the helper that keeps functions' names.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleOptions } from '#infra/constructs/easel-function.ts';

const outfile = join(mkdtempSync(join(tmpdir(), 'easel-in-page-')), 'in-page.mjs');
// With the capture function's options: it keeps names, for puppeteer.
const capture = bundleOptions('functions/screenshot/capture-page.ts', ['@sparticuz/chromium', 'sharp']);
// Every module whose functions run in the page, bundled together as the capture bundles them.
const modules = ['in-page.ts', 'consent-in-page.ts', 'redaction/in-page.ts', 'activity-in-page.ts'].map((file) => `export * from './${file}';`).join('\n');
const stdin = { contents: modules, resolveDir: join(import.meta.dirname, '..', '..', 'shared', 'services', 'capture'), loader: 'ts' as const };
await build({
  ...bundleOptions('shared/services/capture/in-page.ts'),
  entryPoints: undefined,
  stdin,
  keepNames: capture.keepNames,
  outfile,
  logLevel: 'silent',
});
const text = readFileSync(outfile, 'utf8');
const functions = Object.entries((await import(pathToFileURL(outfile).href)) as Record<string, unknown>).filter(
  (entry): entry is [string, (...args: never[]) => unknown] => typeof entry[1] === 'function',
);
/** The bundle's name-keeping helper: `var o=(r,e)=>X(r,"name",{value:e,configurable:!0})`. */
const helper = /var ([\w$]+)=\([\w$]+,[\w$]+\)=>[\w$]+\([\w$]+,"name",\{value:/.exec(text)?.[1];

describe('in-page functions as the capture bundle ships them', () => {
  it("finds the bundle's name-keeping helper, so the check below can fail", () => {
    expect(helper).toBeDefined();
    expect(functions.length).toBeGreaterThan(0);
  });

  it.each(functions.map(([name, fn]) => [name, fn] as const))('sends %s as source that calls no helper of the bundle', (_name, fn) => {
    // A call of the helper itself, not of a name that ends like it (querySelector( ends in r().
    const call = new RegExp(`(?<![\\w$.])${helper!.replace('$', '\\$')}\\(`);
    expect(fn.toString()).not.toMatch(call);
  });
});
