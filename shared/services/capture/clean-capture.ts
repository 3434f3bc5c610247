/** Clean captures (docs/capture.md): `prepare` before navigation, `blocks` from the interception, `settle` after load. */
import type { Page } from 'puppeteer-core';
import type { RequestFacts } from '#shared/services/capture/ad-blocking.ts';
import { dismissConsent, watchConsent } from '#shared/services/capture/consent-banners.ts';
import type { ConsentOutcome } from '#shared/services/capture/consent-banners.ts';

export interface CleanOptions {
  blockBanners?: boolean;
  blockAds?: boolean;
}

/** The longest a found consent dialog is given to be opted out of before it is hidden instead. */
export const CONSENT_BUDGET_MS = 2_000;

export interface CleanReport {
  consent?: ConsentOutcome;
}

export interface CleanCapture {
  /** True when the request is an ad or tracker to drop; never lets through what the guard refuses. */
  blocks(request: RequestFacts): boolean;
  settle(budgetMs: number): Promise<CleanReport>;
}

const NOTHING: CleanCapture = { blocks: () => false, settle: async () => ({}) };

export async function prepare(page: Page, options: CleanOptions, url: URL): Promise<CleanCapture> {
  if (!options.blockAds && !options.blockBanners) return NOTHING;
  // Loaded on first use: the engine's code and list stay out of captures that do not ask for it.
  const ads = options.blockAds ? await import('#shared/services/capture/ad-blocking.ts') : undefined;
  const [engine] = await Promise.all([ads?.adEngine(), options.blockBanners ? watchConsent(page, url) : undefined]);
  return {
    blocks: (request) => (ads && engine ? ads.isAd(engine, request) : false),
    async settle(budgetMs) {
      const [consent] = await Promise.all([
        options.blockBanners ? dismissConsent(page, Math.min(budgetMs, CONSENT_BUDGET_MS)) : undefined,
        ads && engine ? ads.hideAdSlots(engine, page).catch(() => undefined) : undefined,
      ]);
      return consent ? { consent } : {};
    },
  };
}
