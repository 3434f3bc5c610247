/** Bundles minify class names away unless a package needs them; logged and returned errors still say what they are. */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleOptions, PROJECT_ROOT } from '#infra/constructs/easel-function.ts';

mkdirSync(join(PROJECT_ROOT, 'test-output'), { recursive: true });
const dir = mkdtempSync(join(PROJECT_ROOT, 'test-output', 'error-names-'));
const ENTRY = 'test/fixtures/error-names/entry.ts';

type ErrorClass = new (...args: unknown[]) => Error;
let bundled: Record<string, ErrorClass>;

describe('error classes in a bundle built as the stack builds it', () => {
  beforeAll(async () => {
    const outfile = join(dir, 'index.mjs');
    await build({ ...bundleOptions(ENTRY), outfile, logLevel: 'silent' });
    const exports = (await import(pathToFileURL(outfile).href)) as Record<string, unknown>;
    bundled = Object.fromEntries(
      Object.entries(exports).filter((entry): entry is [string, ErrorClass] => typeof entry[1] === 'function' && entry[1].prototype instanceof Error),
    );
  });

  it('minifies names, as every function without a package that reads them does', () => {
    // Assess: the premise of the next test; with names kept it would pass without explicit names.
    expect(bundleOptions(ENTRY).keepNames).toBe(false);
    expect(Object.values(bundled).some((Class) => Class.name.length <= 2)).toBe(true);
  });

  it('names each error after its class', () => {
    // Prepare: arguments every constructor accepts (messages, options objects, lists).
    const args = ['message', ['GET']];

    // Act
    const names = Object.entries(bundled).map(([exported, Class]) => [exported, Reflect.construct(Class, args).name]);

    // Assess
    expect(names.length).toBeGreaterThan(20);
    expect(names).toEqual(names.map(([exported]) => [exported, exported]));
  });

  it('keeps names in the capture bundle, whose puppeteer names its errors from their constructors', () => {
    // Act
    const options = bundleOptions('functions/screenshot/capture-page.ts', ['@sparticuz/chromium', 'sharp']);

    // Assess
    expect(options.keepNames).toBe(true);
  });
});
