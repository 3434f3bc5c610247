/** When the picture is taken: once no request holds it up and the page's own work has stopped (docs/capture.md, "Settling"). */
import type { Page } from 'puppeteer-core';
import { ACTIVITY_KEY, readActivity, watchActivity } from '#shared/services/capture/activity-in-page.ts';
import type { PageActivity } from '#shared/services/capture/activity-in-page.ts';
import { ignore } from '#shared/services/capture/deadline.ts';
import type { Traffic } from '#shared/services/capture/traffic.ts';

/** The quiet window, the most the page's own work may hold the picture up, and how soon a timer must be due to count. */
export interface SettleParameters {
  quietMs: number;
  activityMs: number;
  horizonMs: number;
}

export const SETTLE: Readonly<SettleParameters> = { quietMs: 50, activityMs: 2_000, horizonMs: 1_000 };

export async function watchPage(page: Page, parameters: SettleParameters = SETTLE): Promise<void> {
  await page.evaluateOnNewDocument(watchActivity, ACTIVITY_KEY, parameters.horizonMs);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The watcher's reading; null where the page cannot be read (between documents) or has no watcher. */
const readPage = (page: Page) => page.evaluate(readActivity, ACTIVITY_KEY).catch(() => null);

const still = (activity: PageActivity | null, quietMs: number) =>
  activity === null || (activity.timers === 0 && activity.frames === 0 && activity.stillMs >= quietMs);

/** Waits for the network and the page to be still (the page's work at most `activityMs`), then for fonts; never fails (see `pageState`). */
export async function settle(page: Page, traffic: Traffic, budgetMs: number, parameters: SettleParameters = SETTLE): Promise<void> {
  const { quietMs, activityMs } = parameters;
  const end = performance.now() + Math.max(0, budgetMs);
  let activityEnd = Number.POSITIVE_INFINITY;
  for (;;) {
    const seen = traffic.seen;
    await traffic.quiet(quietMs, end - performance.now());
    if (traffic.busy || performance.now() >= end) return;
    const activity = await readPage(page);
    const calm = still(activity, quietMs);
    // Settled only if no request started while the page was read.
    if (calm && traffic.seen === seen && !traffic.busy) return fonts(page, traffic, end);
    if (!calm) activityEnd = Math.min(activityEnd, performance.now() + activityMs);
    if (performance.now() >= activityEnd) return;
    // Read again once the page could have been still for the window, or a window on while it has work pending.
    const wait = activity && activity.timers + activity.frames === 0 ? quietMs - activity.stillMs : quietMs;
    await sleep(Math.min(Math.max(wait, 10), end - performance.now(), activityEnd - performance.now()));
  }
}

/** The network alone quiet for `quietMs` (at most `budgetMs`), then web fonts: what `npm run bench` compares settling with. */
export async function quietAfterLoad(page: Page, traffic: Traffic, quietMs: number, budgetMs: number): Promise<void> {
  const end = performance.now() + Math.max(0, budgetMs);
  await traffic.quiet(quietMs, budgetMs);
  await fonts(page, traffic, end);
}

export async function pageState(
  page: Page,
  traffic: Traffic,
  quietMs = SETTLE.quietMs,
): Promise<{ settled: boolean; pending?: { requests: number; changing: boolean } }> {
  const changing = !still(await readPage(page), quietMs);
  if (traffic.pending === 0 && !changing) return { settled: true };
  return { settled: false, pending: { requests: traffic.pending, changing } };
}

/** The page's web fonts, within what is left; not when a request stalled (it may be a font). */
async function fonts(page: Page, traffic: Traffic, end: number): Promise<void> {
  const left = end - performance.now();
  if (left <= 0 || traffic.pending > 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    // A string, not a function: this runs in the page, where `document` exists (it does not in Node's types).
    page.evaluate('document.fonts.ready.then(() => true)').catch(ignore),
    new Promise((resolve) => (timer = setTimeout(resolve, left))),
  ]);
  clearTimeout(timer);
}
