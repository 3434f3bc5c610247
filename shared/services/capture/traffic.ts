/** Every request of one captured page, decided by the target guard, and when they are all answered. */
import type { HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import { log } from '#shared/log.ts';
import type { CleanCapture } from '#shared/services/capture/clean-capture.ts';
import { ignore } from '#shared/services/capture/deadline.ts';
import type { TargetGuard, Verdict } from '#shared/services/capture/target.ts';

/** A request not begun to be answered in this long no longer holds the picture up (a stalled font); the document always does. */
export const STALL_MS = 2_000;

/** Requests that may stay open for the page's whole life; settling does not wait for them. */
const OPEN_ENDED = new Set(['eventsource', 'websocket', 'ping', 'media']);

export class Traffic {
  readonly origins = new Set<string>();
  /** Requests the page has made so far, those the guard refused and those dropped as ads. */
  seen = 0;
  refused = 0;
  blockedAds = 0;
  mainBlocked?: { url: URL; verdict: Exclude<Verdict, { allowed: true }> };
  /** The status of the last answer to a navigation of the page's main frame (its own, a redirect's, a click's), and whether it has all arrived. */
  document?: { status: number; complete: boolean };
  /** Ads and trackers to drop (blockAds), asked before the guard: it only ever removes a request. */
  clean?: CleanCapture;
  /** The request's headers, added only to requests to this origin after the guard allowed them. */
  private extra?: { origin: string; headers: [string, string][] };
  /** Requests settling waits for: when each was sent, and whether its answer has begun. */
  private readonly inflight = new Map<HTTPRequest, { sentAt: number; answered: boolean }>();
  private readonly listeners = new Set<() => void>();
  private lastChange = performance.now();
  private readonly page: Page;
  private readonly guard: TargetGuard;

  constructor(page: Page, guard: TargetGuard) {
    this.page = page;
    this.guard = guard;
    page.on('request', (request) => void this.decide(request));
    page.on('response', (response) => this.answered(response));
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
        // A navigation of the main frame is the document itself: never given up on as stalled.
        this.inflight.set(request, { sentAt: performance.now(), answered: this.isDocument(request) });
        this.changed();
      }
      return void this.proceed(request, url).catch(ignore);
    }
    // Each redirect hop of the navigation is a new request here, so a hop to a private address stops here.
    if (this.isDocument(request)) this.mainBlocked = { url, verdict };
    this.refused += 1;
    log.info('capture request blocked', { host: url.hostname, type: request.resourceType(), reason: verdict.reason });
    await request.abort(verdict.kind === 'unresolvable' ? 'namenotresolved' : 'blockedbyclient').catch(ignore);
  }

  /** Sends `headers` with every request to `origin` (scheme, host and port) and to no other. */
  sendToOrigin(origin: string, headers: Record<string, string>): void {
    this.extra = { origin, headers: Object.entries(headers) };
  }

  /** With the extra headers to their origin only: a redirect hop comes here anew with the browser's own headers, judged alone. */
  private proceed(request: HTTPRequest, url: URL): Promise<void> {
    if (!this.extra || url.origin !== this.extra.origin) return request.continue();
    const names = new Set(this.extra.headers.map(([name]) => name.toLowerCase()));
    const own = Object.entries(request.headers()).filter(([name]) => !names.has(name.toLowerCase()));
    return request.continue({ headers: Object.fromEntries([...own, ...this.extra.headers]) });
  }

  private isDocument(request: HTTPRequest): boolean {
    return request.isNavigationRequest() && request.frame() === this.page.mainFrame();
  }

  private answered(response: HTTPResponse): void {
    const request = response.request();
    const entry = this.inflight.get(request);
    if (entry) entry.answered = true;
    if (this.isDocument(request)) this.document = { status: response.status(), complete: false };
  }

  private settled(request: HTTPRequest): void {
    if (this.document && this.isDocument(request)) this.document.complete = true;
    if (this.inflight.delete(request)) this.changed();
  }

  private changed(): void {
    this.lastChange = performance.now();
    for (const listener of this.listeners) listener();
  }

  /** Requests settling waits for that are in flight, stalled ones included. */
  get pending(): number {
    return this.inflight.size;
  }

  /** Requests still holding the picture up, when the next stalls, and (with none) since when nothing has. */
  private holding(now: number): { count: number; nextStall: number; since: number } {
    let count = 0;
    let nextStall = Number.POSITIVE_INFINITY;
    let since = this.lastChange;
    for (const { sentAt, answered } of this.inflight.values()) {
      if (!answered && now - sentAt >= STALL_MS) {
        since = Math.max(since, sentAt + STALL_MS);
        continue;
      }
      count += 1;
      if (!answered) nextStall = Math.min(nextStall, sentAt + STALL_MS);
    }
    return { count, nextStall, since };
  }

  get busy(): boolean {
    return this.holding(performance.now()).count > 0;
  }

  /** Resolves once nothing holding the picture up has been in flight for `quietMs`, or after `budgetMs` regardless. */
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
        const now = performance.now();
        const { count, nextStall, since } = this.holding(now);
        // Looked at again when the oldest unanswered request turns stalled.
        if (count === 0) timer = setTimeout(done, Math.max(0, since + quietMs - now));
        else if (Number.isFinite(nextStall)) timer = setTimeout(check, nextStall - now + 1);
      };
      const cap = setTimeout(done, Math.max(0, budgetMs));
      this.listeners.add(check);
      check();
    });
  }
}
