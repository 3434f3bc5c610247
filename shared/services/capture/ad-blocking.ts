/** AdGuard's lists in @ghostery/adblocker's engine, built at bundling (infra/assets/ad-engine.ts); it only ever removes requests. */
import { createRequire } from 'node:module';
import { FiltersEngine, Request } from '@ghostery/adblocker';
import type { Page } from 'puppeteer-core';
import { localCleanAssets } from '#shared/services/capture/clean-assets.ts';

export const AD_ENGINE_FILE = 'ad-engine.bin';

let loading: Promise<FiltersEngine> | undefined;

/** The engine, once per container: read from beside the bundle, or built from the lists locally. */
export function adEngine(): Promise<FiltersEngine> {
  loading ??= load();
  loading.catch(() => (loading = undefined));
  return loading;
}

async function load(): Promise<FiltersEngine> {
  const local = localCleanAssets();
  if (local) return FiltersEngine.deserialize(await local.adEngine());
  const { readFileSync } = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
  try {
    return FiltersEngine.deserialize(readFileSync(new URL(`./${AD_ENGINE_FILE}`, import.meta.url)));
  } catch (error) {
    throw new Error(`${AD_ENGINE_FILE} is not beside this function's bundle: its route needs \`adEngine\`, which writes it at bundling.`, { cause: error });
  }
}

/** What the engine needs of a request; puppeteer's resource types are the engine's. */
export interface RequestFacts {
  url: string;
  sourceUrl: string;
  resourceType: string;
}

/** True when the lists block the request. The document being captured itself is never blocked. */
export function isAd(engine: FiltersEngine, request: RequestFacts): boolean {
  if (request.resourceType === 'document') return false;
  const { match } = engine.match(Request.fromRawDetails({ url: request.url, sourceUrl: request.sourceUrl, type: request.resourceType as never }));
  return match;
}

/** Hides the ad slots the lists name; given the DOM's classes, ids and links the engine picks only rules that can apply. */
export async function hideAdSlots(engine: FiltersEngine, page: Page): Promise<void> {
  const url = new URL(page.url());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
  // A string: this runs in the page.
  const dom = (await page.evaluate(`(() => {
    const classes = new Set(), ids = new Set(), hrefs = new Set();
    for (const element of document.querySelectorAll('[class],[id],a[href]')) {
      for (const name of element.classList) classes.add(name);
      if (element.id) ids.add(element.id);
      if (element.href) hrefs.add(String(element.href));
    }
    return { classes: [...classes], ids: [...ids], hrefs: [...hrefs] };
  })()`)) as { classes: string[]; ids: string[]; hrefs: string[] };
  const { styles } = engine.getCosmeticsFilters({
    url: url.href,
    hostname: url.hostname,
    domain: Request.fromRawDetails({ url: url.href }).domain,
    ...dom,
    getBaseRules: true,
    getInjectionRules: false,
    getExtendedRules: false,
  });
  // One evaluation: addStyleTag would add a handle transfer and wait for the sheet's load event.
  if (styles)
    await page.evaluate(
      `(document.head ?? document.documentElement).append(Object.assign(document.createElement('style'), { textContent: ${JSON.stringify(styles)} }))`,
    );
}
