/** The set-up every editor suite shares: one runtime, one browser and one working folder for the file. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { LocalOptions } from '#infra/local/runtime.ts';
import { launchBrowser } from '../../support/browser.ts';
import { startTestRuntime, type TestRuntime } from '../../support/local.ts';
import { serveOnLoopback, type LoopbackServer } from '../../support/loopback-server.ts';
import { editorOpener } from './editor-page.ts';

export interface EditorSuiteOptions {
  /** Names the working folder (easel-e2e-<name>-…). */
  name: string;
  /** Runs before the runtime starts (stand-ins and settings it reads at start); what it returns runs after the runtime stops. */
  before?: () => Promise<(() => Promise<void>) | void>;
  /** The pages the file captures: started before the runtime, which may reach its port (UNSAFE_TEST_LOOPBACK_PORTS), and closed after it. */
  site?: () => Promise<LoopbackServer>;
  /** Settings the runtime reads at start, set before it starts. */
  env?: Record<string, string>;
  /** The runtime's options, read once `before` has run. */
  runtimeOptions?: () => LocalOptions;
}

/** A `site` that answers every path with one HTML page. */
export function onePage(html: string): () => Promise<LoopbackServer> {
  return () => serveOnLoopback((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
}

/**
 * Registers the file's hooks: before all, `before`, the site, the runtime, the working folder and
 * the browser; after each test, the contexts it opened are closed; after all, the rest in reverse.
 * Hooks the file registers after this call run after these before-hooks and before these after-hooks.
 */
export function useEditorSuite({ name, before, site: startSite, env, runtimeOptions }: EditorSuiteOptions) {
  let runtime: TestRuntime | undefined;
  let site: LoopbackServer | undefined;
  let browser: Browser | undefined;
  let workdir = '';
  let teardown: (() => Promise<void>) | void;
  const editors = editorOpener(
    () => browser!,
    () => workdir,
  );

  beforeAll(async () => {
    teardown = await before?.();
    site = await startSite?.();
    Object.assign(process.env, env, site ? { UNSAFE_TEST_LOOPBACK_PORTS: String(site.port) } : {});
    runtime = await startTestRuntime(runtimeOptions?.());
    workdir = await mkdtemp(join(tmpdir(), `easel-e2e-${name}-`));
    browser = await launchBrowser();
  }, 120_000);

  afterEach(() => editors.closeAll());

  afterAll(async () => {
    await browser?.close();
    await runtime?.dispose();
    await site?.close();
    await teardown?.();
    if (workdir) await rm(workdir, { recursive: true, force: true });
  });

  return {
    runtime: () => runtime!,
    browser: () => browser!,
    workdir: () => workdir,
    /** The `site` option's server. */
    site: () => site!,
    open: editors.open,
    track: editors.track,
  };
}
