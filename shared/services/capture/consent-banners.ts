/** Consent dialogs refused (autoconsent's rules, else their own controls) or hidden; nothing that accepts, subscribes or pays is clicked. */
import { createRequire } from 'node:module';
import type { CompactCMPRule, IndexedCMPRuleset } from '@duckduckgo/autoconsent';
import type { Page } from 'puppeteer-core';
import { UNWATCHED_SCHEDULERS } from '#shared/services/capture/activity-in-page.ts';
import { localCleanAssets } from '#shared/services/capture/clean-assets.ts';
import { AUTOCONSENT_FILE, CONSENT_RULES_PARAMETER } from '#shared/services/capture/consent-asset.ts';
import type { ConsentAsset } from '#shared/services/capture/consent-asset.ts';
import { clearLeftovers, consentClick, consentHide, consentLook } from '#shared/services/capture/consent-in-page.ts';
import type { ConsentControl } from '#shared/services/capture/consent-in-page.ts';
import { nextMove, verdict } from '#shared/services/capture/consent-moves.ts';
import type { ConsentMemory, ConsentResult } from '#shared/services/capture/consent-moves.ts';

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

/** The rules for `url` as JSON: generic, frame and only its own site's (most of the set), in autoconsent's order so its indexes hold. */
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

/** The schedulers autoconsent calls by name: given the page's own, its searching does not hold settling up. */
const SCHEDULERS = 'setTimeout, clearTimeout, setInterval, clearInterval, requestAnimationFrame, cancelAnimationFrame';

export async function watchConsent(page: Page, url: URL): Promise<void> {
  const { script, rules } = await consentAsset();
  const parameters = `${CONSENT_RULES_PARAMETER}, { ${SCHEDULERS} }`;
  await page.evaluateOnNewDocument(`((${parameters}) => {${script}})(${JSON.stringify(consentRulesFor(rules, url))}, ${UNWATCHED_SCHEDULERS})`);
}

export interface ConsentOutcome {
  /** What the report says: `opted-out`, `closed`, `hidden`, `shown` or `none` (docs/capture.md). */
  result: ConsentResult;
  /** autoconsent's lifecycle state at the end, `absent` where it never ran. */
  lifecycle: string;
  /** The controls found and clicked here (autoconsent's own clicks are not listed), in order. */
  clicked: ConsentControl[];
  /** What the dialog left and was undone: `backdrop` (each), `html|body overflow`, `html|body position`, `blur` (each). */
  cleared: string[];
}

const GONE: ConsentOutcome = { result: 'none', lifecycle: 'absent', clicked: [], cleared: [] };
const POLL_MS = 50;
/** How long a refused or closed dialog is given to leave (an exit animation) before it is hidden. */
const LEAVING_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** After load, within `budgetMs`: lets autoconsent refuse, refuses or closes the rest, hides what is left and undoes what it left. */
export async function dismissConsent(page: Page, budgetMs: number): Promise<ConsentOutcome> {
  const until = performance.now() + budgetMs;
  const containers = [...CONSENT_CONTAINERS];
  const memory: ConsentMemory = { tried: [], clicked: [], graceOver: false };
  let leaving: number | undefined;
  try {
    for (;;) {
      const look = await page.evaluate(consentLook, containers);
      const move = performance.now() + POLL_MS >= until ? 'finish' : nextMove(look, memory);
      if (move === 'finish') {
        await page.evaluate(consentHide, { containers, dialogs: look.dialogs > 0 });
        const after = look.known + look.dialogs > 0 ? await page.evaluate(consentLook, containers) : look;
        const result = verdict(look, after, memory);
        const cleared = result === 'shown' || result === 'none' ? [] : await page.evaluate(clearLeftovers);
        return { result, lifecycle: look.lifecycle, clicked: memory.clicked, cleared };
      }
      if ('click' in move) {
        memory.tried.push(move.click);
        if (await page.evaluate(consentClick, move.click)) {
          memory.clicked.push(move.click);
          memory.graceOver = false;
          leaving = undefined;
        }
        // A control that removes its dialog at once is seen at the next look.
        continue;
      }
      if (move.wait === 'leaving') leaving ??= performance.now() + LEAVING_MS;
      await sleep(POLL_MS);
      memory.graceOver = leaving !== undefined && performance.now() >= leaving;
    }
  } catch {
    // A page that navigated away meanwhile has nothing left to clean.
    return GONE;
  }
}
