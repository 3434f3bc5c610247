/**
 * Cookie-consent dialogs: DuckDuckGo's autoconsent (its rules ship in its package, no network)
 * opts out where it can; known consent containers are hidden where it could not.
 */
import { createRequire } from 'node:module';
import type { CompactCMPRule, IndexedCMPRuleset } from '@duckduckgo/autoconsent';
import type { Page } from 'puppeteer-core';
import { localCleanAssets } from '#shared/services/capture/clean-assets.ts';
import { AUTOCONSENT_FILE, CONSENT_RULES_PARAMETER } from '#shared/services/capture/consent-asset.ts';
import type { ConsentAsset } from '#shared/services/capture/consent-asset.ts';
import { consentStep } from '#shared/services/capture/consent-in-page.ts';
import type { ConsentOutcome } from '#shared/services/capture/consent-in-page.ts';

/** Consent managers' own containers, hidden after load. */
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

let loading: Promise<ConsentAsset> | undefined;

/** Once per container: read from beside the bundle, or built from the package locally. */
function consentAsset(): Promise<ConsentAsset> {
  loading ??= load();
  loading.catch(() => (loading = undefined));
  return loading;
}

async function load(): Promise<ConsentAsset> {
  const local = localCleanAssets();
  if (local) return local.consent();
  const { readFileSync } = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
  return JSON.parse(readFileSync(new URL(`./${AUTOCONSENT_FILE}`, import.meta.url), 'utf8')) as ConsentAsset;
}

const patterns = new Map<string, RegExp>();
const matches = (pattern: string, urls: string[]) => {
  let regex = patterns.get(pattern);
  if (!regex) patterns.set(pattern, (regex = new RegExp(pattern)));
  return urls.some((url) => regex.test(url));
};

/** The same address over http and https, with and without www: where a site commonly redirects. */
function siteAddresses(url: URL): string[] {
  const host = url.hostname.replace(/^www\./, '');
  return ['https', 'http'].flatMap((scheme) =>
    [host, `www.${host}`].map((name) => `${scheme}://${name}${url.port ? `:${url.port}` : ''}${url.pathname}${url.search}`),
  );
}

const shared = new WeakMap<IndexedCMPRuleset, string>();

/**
 * The rules a capture of `url` can use, as JSON: the generic and frame rules, and only the
 * site-specific rules of its own site (most of the rule set), so each document parses and
 * filters a fraction of it. Rules are in autoconsent's order, so its indexes stay valid.
 */
export function consentRulesFor(rules: IndexedCMPRuleset, url: URL): string {
  const { v, s, r, index } = rules;
  const [specificStart, specificEnd] = index.specificRuleRange;
  const [frameStart, frameEnd] = index.frameRuleRange;
  // An order this does not know: hand over everything rather than guess.
  if (index.genericRuleRange[1] !== specificStart || frameStart > specificStart || frameEnd > specificEnd) return JSON.stringify(rules);
  const framed = r.slice(specificStart, Math.max(specificStart, frameEnd));
  const addresses = siteAddresses(url);
  const site = r.slice(Math.max(specificStart, frameEnd), specificEnd).filter((rule: CompactCMPRule) => matches(rule[3], addresses));
  if (site.length === 0) {
    const generic = shared.get(rules);
    if (generic !== undefined) return generic;
  }
  const text = JSON.stringify({
    v,
    // Generic and frame rules use the first strings only.
    s: site.length > 0 ? s : s.slice(0, Math.max(index.genericStringEnd, index.frameStringEnd)),
    r: [...r.slice(0, specificStart), ...framed, ...site],
    index: { ...index, specificRuleRange: [specificStart, specificStart + framed.length + site.length] },
  });
  if (site.length === 0) shared.set(rules, text);
  return text;
}

/** Before navigation: autoconsent runs in every document of the page, before the page's scripts. */
export async function watchConsent(page: Page, url: URL): Promise<void> {
  const { script, rules } = await consentAsset();
  await page.evaluateOnNewDocument(`((${CONSENT_RULES_PARAMETER}) => {${script}})(${JSON.stringify(consentRulesFor(rules, url))})`);
}

/** autoconsent's lifecycle states (its `LifecycleState`), as consentStep reads them. */
const STATES = {
  busy: ['cmpDetected', 'openPopupDetected', 'runningOptOut', 'runningOptIn'],
  searching: ['loading', 'initialized', 'waitingForInitResponse', 'started'],
  succeeded: ['optOutSucceeded', 'done'],
  found: ['openPopupDetected', 'runningOptOut', 'runningOptIn', 'optOutSucceeded', 'optOutFailed', 'optInSucceeded', 'optInFailed', 'done'],
};
const DIALOGS = '[role=dialog],[role=alertdialog],[aria-modal=true],dialog[open]';
const CONSENT_WORDS = 'cookie|consent|gdpr|privacy|datenschutz|tracking';

const GONE: ConsentOutcome = { result: 'none', lifecycle: 'absent', cleared: [] };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * After load: waits, within `budgetMs`, while autoconsent opts out of a dialog it found (or may
 * still find one that speaks of consent), then hides known consent containers and, where a dialog
 * was found, what it left (consent-in-page.ts). A page with no dialog is not waited for.
 */
export async function dismissConsent(page: Page, budgetMs: number): Promise<ConsentOutcome> {
  const until = performance.now() + budgetMs;
  const step = { containers: [...CONSENT_CONTAINERS], ...STATES, dialogs: DIALOGS, words: CONSENT_WORDS };
  // A page that navigated away meanwhile has nothing left to clean.
  const run = (force: boolean) => page.evaluate(consentStep, { ...step, force }).catch(() => GONE);
  let outcome = await run(false);
  while (typeof outcome === 'string') {
    const last = performance.now() + 50 >= until;
    if (!last) await sleep(50);
    outcome = await run(last);
  }
  return outcome;
}
