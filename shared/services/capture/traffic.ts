/** Every request of one captured page, decided by the target guard, and waiting until they settle. */
import type { HTTPRequest, Page } from 'puppeteer-core';
import { log } from '#shared/log.ts';
import type { CleanCapture } from '#shared/services/capture/clean-capture.ts';
import { ignore } from '#shared/services/capture/deadline.ts';
import type { TargetGuard, Verdict } from '#shared/services/capture/target.ts';

/**
 * Loaded (docs/capture.md, "When the picture is taken"): `load`, then `quietMs` with nothing in
 * flight to catch data fetched right after it, capped at `maxMs` so an open long poll still gets
 * captured; then web fonts within the same budget.
 */
export const SETTLE = { quietMs: 50, maxMs: 1_000 } as const;

/** Requests that may stay open for the page's whole life; settling does not wait for them. */
const OPEN_ENDED = new Set(['eventsource', 'websocket', 'ping', 'media']);

/** Every request of one page: the guard's decision, what is in flight, which origins were used. */
export class Traffic {
  readonly origins = new Set<string>();
  /** Requests the page has made so far, those the guard refused and those dropped as ads. */
  seen = 0;
  refused = 0;
  blockedAds = 0;
  mainBlocked?: { url: URL; verdict: Exclude<Verdict, { allowed: true }> };
  /** Ads and trackers to drop (blockAds), asked before the guard: it only ever removes a request. */
  clean?: CleanCapture;
  /** The request's headers, added only to requests to this origin after the guard allowed them. */
  private extra?: { origin: string; headers: [string, string][] };
  private readonly inflight = new Set<HTTPRequest>();
  private readonly listeners = new Set<() => void>();
  private readonly page: Page;
  private readonly guard: TargetGuard;

  constructor(page: Page, guard: TargetGuard) {
    this.page = page;
    this.guard = guard;
    page.on('request', (request) => void this.decide(request));
    page.on('requestfinished', (request) => this.settled(request));
    page.on('requestfailed', (request) => this.settled(request));
  }

  private async decide(request: HTTPRequest): Promise<void> {
    this.seen += 1;
    if (request.isInterceptResolutionHandled()) return;
    let url: URL;
    try {
      url = new URL(request.url());
    } catch {
      return void request.abort('failed').catch(ignore);
    }
    // In-page data needs no network: data:, blob: and about: never leave the browser.
    if (url.protocol === 'data:' || url.protocol === 'blob:' || url.protocol === 'about:') return void request.continue().catch(ignore);
    if (this.clean?.blocks({ url: url.href, sourceUrl: request.frame()?.url() ?? this.page.url(), resourceType: request.resourceType() })) {
      this.blockedAds += 1;
      return void request.abort('blockedbyclient').catch(ignore);
    }
    const verdict = await this.guard.verdict(url);
    if (verdict.allowed) {
      this.origins.add(url.origin);
      if (!OPEN_ENDED.has(request.resourceType())) {
        this.inflight.add(request);
        this.changed();
      }
      return void this.proceed(request, url).catch(ignore);
    }
    // Each redirect hop of the navigation is a new request here, so a hop to a private address stops here.
    if (request.isNavigationRequest() && request.frame() === this.page.mainFrame()) this.mainBlocked = { url, verdict };
    this.refused += 1;
    log.info('capture request blocked', { host: url.hostname, type: request.resourceType(), reason: verdict.reason });
    await request.abort(verdict.kind === 'unresolvable' ? 'namenotresolved' : 'blockedbyclient').catch(ignore);
  }

  /** Sends `headers` with every request to `origin` (scheme, host and port) and to no other. */
  sendToOrigin(origin: string, headers: Record<string, string>): void {
    this.extra = { origin, headers: Object.entries(headers) };
  }

  /**
   * Continues an allowed request, with the extra headers when it goes to their origin. A redirect
   * hop comes here as a new request with only the browser's own headers, so it is judged alone.
   */
  private proceed(request: HTTPRequest, url: URL): Promise<void> {
    if (!this.extra || url.origin !== this.extra.origin) return request.continue();
    const names = new Set(this.extra.headers.map(([name]) => name.toLowerCase()));
    const own = Object.entries(request.headers()).filter(([name]) => !names.has(name.toLowerCase()));
    return request.continue({ headers: Object.fromEntries([...own, ...this.extra.headers]) });
  }

  private settled(request: HTTPRequest): void {
    if (this.inflight.delete(request)) this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** True while a request that settling waits for is in flight. */
  get busy(): boolean {
    return this.inflight.size > 0;
  }

  /** Resolves once nothing has been in flight for `quietMs`, or after `budgetMs` regardless. */
  quiet(quietMs: number, budgetMs: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        clearTimeout(cap);
        this.listeners.delete(check);
        resolve();
      };
      const check = () => {
        clearTimeout(timer);
        if (this.inflight.size === 0) timer = setTimeout(done, quietMs);
      };
      const cap = setTimeout(done, budgetMs);
      this.listeners.add(check);
      check();
    });
  }
}

/** Waits until nothing is in flight for `quietMs` (at most `budgetMs`), then for web fonts within what is left. */
export async function settle(page: Page, traffic: Traffic, quietMs: number, budgetMs: number): Promise<void> {
  if (budgetMs <= 0) return;
  const until = performance.now() + budgetMs;
  await traffic.quiet(quietMs, budgetMs);
  const left = until - performance.now();
  if (left <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    // A string, not a function: this runs in the page, where `document` exists (it does not in Node's types).
    page.evaluate('document.fonts.ready.then(() => true)').catch(ignore),
    new Promise((resolve) => (timer = setTimeout(resolve, left))),
  ]);
  clearTimeout(timer);
}
