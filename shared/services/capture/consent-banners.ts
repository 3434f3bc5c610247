/**
 * Cookie-consent dialogs: DuckDuckGo's autoconsent (its rules ship in its standalone build, no
 * network) opts out where it can; known consent containers are hidden where it could not.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Page } from 'puppeteer-core';

/** The standalone autoconsent build, beside the capture function's bundle. */
export const AUTOCONSENT_FILE = 'autoconsent.standalone.js';

/** Consent managers' own containers, hidden when no opt-out succeeded. */
export const CONSENT_CONTAINERS = [
  '#onetrust-consent-sdk',
  '#onetrust-banner-sdk',
  '.onetrust-pc-dark-filter',
  '#CybotCookiebotDialog',
  '#CybotCookiebotDialogBodyUnderlay',
  '#didomi-host',
  '#didomi-popup',
  '.didomi-popup-backdrop',
  '#usercentrics-root',
  '#usercentrics-cmp-ui',
  '#qc-cmp2-container',
  '.qc-cmp2-container',
  '[id^="sp_message_container_"]',
  '#truste-consent-track',
  '.truste_overlay',
  '.fc-consent-root',
  '#cmpbox',
  '#cmpbox2',
  '#iubenda-cs-banner',
  '#BorlabsCookieBox',
  '.cky-consent-container',
  '#cookie-law-info-bar',
  '#axeptio_overlay',
] as const;

const HIDE_CONTAINERS = `${CONSENT_CONTAINERS.join(',')}{display:none !important}`;

let script: string | undefined;

/** The autoconsent script, read once per container. */
export function autoconsentScript(): string {
  if (script !== undefined) return script;
  const require = createRequire(import.meta.url);
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  const path =
    process.env.EASEL_LAMBDA_BUNDLE === 'true'
      ? new URL(`./${AUTOCONSENT_FILE}`, import.meta.url)
      : // The package exports only its module builds; the standalone one sits beside them.
        join(dirname(require.resolve('@duckduckgo/autoconsent')), AUTOCONSENT_FILE);
  script = readFileSync(path, 'utf8');
  return script;
}

/** Before navigation: autoconsent runs in every document of the page, before the page's scripts. */
export async function watchConsent(page: Page): Promise<void> {
  await page.evaluateOnNewDocument(autoconsentScript());
}

/** Lifecycle states in which autoconsent is still working on a dialog it found. */
const BUSY = ['cmpDetected', 'openPopupDetected', 'runningOptOut', 'runningOptIn'];
const SUCCEEDED = ['optOutSucceeded', 'done'];

/**
 * In the page, one round trip: autoconsent's state, and the containers hidden unless it is still
 * busy (and `force` is false) or has succeeded.
 */
const step = (force: boolean) => `(() => {
  const state = globalThis.autoconsentStandalone?.instance?.state?.lifecycle ?? 'absent';
  if (${JSON.stringify(SUCCEEDED)}.includes(state) || (!${force} && ${JSON.stringify(BUSY)}.includes(state))) return state;
  const style = document.createElement('style');
  style.textContent = ${JSON.stringify(HIDE_CONTAINERS)};
  (document.head ?? document.documentElement).append(style);
  return state;
})()`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * After load: waits, within `budgetMs`, for an opt-out autoconsent has started, then hides known
 * consent containers unless it succeeded. A page with no dialog is not waited for.
 */
export async function dismissConsent(page: Page, budgetMs: number): Promise<string> {
  const until = performance.now() + budgetMs;
  // A page that navigated away meanwhile has nothing left to clean.
  const run = (force: boolean) => (page.evaluate(step(force)) as Promise<string>).catch(() => 'absent');
  let state = await run(false);
  while (BUSY.includes(state)) {
    const last = performance.now() + 50 >= until;
    if (!last) await sleep(50);
    state = await run(last);
    if (last) break;
  }
  return state;
}
