/**
 * One capture on a lent browser: clean state, device emulated, every request decided by the target
 * guard, one PNG of the settled viewport (or of the page or one element, by the options), state
 * thrown away.
 */
import type { Browser, BrowserContext, HTTPRequest, Page } from 'puppeteer-core';
import { HttpError, InvalidRequestError, InvalidUrlError, NotFoundError, UpstreamFailedError, UpstreamTimeoutError, UpstreamUnavailableError } from '#shared/errors.ts';
import { log, serializeError } from '#shared/log.ts';
import { versionOf } from '#shared/services/capture/browsers.ts';
import type { BrowserLease } from '#shared/services/capture/browsers.ts';
import { prepare } from '#shared/services/capture/clean-capture.ts';
import type { CleanCapture } from '#shared/services/capture/clean-capture.ts';
import { DEVICES, userAgentFor } from '#shared/services/capture/devices.ts';
import type { ColorScheme, DeviceProfile, DeviceType } from '#shared/services/capture/devices.ts';
import { documentBox, firstInvalidSelector, hideMatches, isVisible, scrollThrough } from '#shared/services/capture/in-page.ts';
import { DEFAULT_OPTIONS, selectorsOf } from '#shared/services/capture/options.ts';
import type { CaptureOptions } from '#shared/services/capture/options.ts';
import { MAX_CAPTURE_HEIGHT_PX, MAX_CAPTURE_PIXELS } from '#shared/schemas/screenshot.ts';
import type { CaptureExtent } from '#shared/store/capture-cache.ts';
import type { TargetGuard, Verdict } from '#shared/services/capture/target.ts';

/**
 * Loaded (docs/capture.md, "When the picture is taken"): `load`, then `quietMs` with nothing in
 * flight to catch data fetched right after it, capped at `maxMs` so an open long poll still gets
 * captured; then web fonts within the same budget.
 */
export const SETTLE = { quietMs: 50, maxMs: 1_000 } as const;

/** The service always settles; the alternatives exist so `npm run bench` can compare them. */
export type WaitStrategy =
  | { kind: 'settle'; quietMs: number; maxMs: number }
  | { kind: 'lifecycle'; event: 'load' | 'domcontentloaded' | 'networkidle0' | 'networkidle2' };

export const DEFAULT_WAIT: WaitStrategy = { kind: 'settle', ...SETTLE };

// Keep this much of the time-out for taking and encoding the screenshot after settling.
const SCREENSHOT_RESERVE_MS = 1_000;

export interface CaptureRequest {
  url: URL;
  deviceType: DeviceType;
  colorScheme: ColorScheme;
  /** The whole capture (set-up, load, settle, screenshot) must fit in this; otherwise 408. */
  timeoutMs: number;
  /** Aborts the capture (the invocation is about to time out). */
  signal?: AbortSignal;
  wait?: WaitStrategy;
  options?: CaptureOptions;
}

export interface CaptureOutput {
  png: Uint8Array;
  /** Set for a full-page capture. */
  extent?: CaptureExtent;
}

class CaptureTimeout extends Error {
  override name = 'CaptureTimeout';
}

const ignore = () => undefined;

/** A time limit several steps share; racing a step against it never leaves a rejection unhandled. */
class Deadline {
  private readonly end: number;
  private readonly expired: Promise<never>;
  private timer?: NodeJS.Timeout;

  constructor(ms: number, signal?: AbortSignal) {
    this.end = performance.now() + ms;
    this.expired = new Promise<never>((_, reject) => {
      this.timer = setTimeout(() => reject(new CaptureTimeout(`capture exceeded ${ms} ms`)), ms);
      signal?.addEventListener('abort', () => reject(new CaptureTimeout('capture aborted')), { once: true });
    });
    this.expired.catch(ignore);
  }

  race<T>(step: Promise<T>): Promise<T> {
    step.catch(ignore);
    return Promise.race([step, this.expired]);
  }

  remaining(): number {
    return Math.max(0, this.end - performance.now());
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}

/** Requests that may stay open for the page's whole life; settling does not wait for them. */
const OPEN_ENDED = new Set(['eventsource', 'websocket', 'ping', 'media']);

/** Every request of one page: the guard's decision, what is in flight, which origins were used. */
class Traffic {
  readonly origins = new Set<string>();
  /** Requests the page has made so far. */
  seen = 0;
  mainBlocked?: { url: URL; verdict: Exclude<Verdict, { allowed: true }> };
  /** Ads and trackers to drop (blockAds), asked before the guard: it only ever removes a request. */
  clean?: CleanCapture;
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
      return void request.abort('blockedbyclient').catch(ignore);
    }
    const verdict = await this.guard.verdict(url);
    if (verdict.allowed) {
      this.origins.add(url.origin);
      if (!OPEN_ENDED.has(request.resourceType())) {
        this.inflight.add(request);
        this.changed();
      }
      return void request.continue().catch(ignore);
    }
    // Each redirect hop of the navigation is a new request here, so a hop to a private address stops here.
    if (request.isNavigationRequest() && request.frame() === this.page.mainFrame()) this.mainBlocked = { url, verdict };
    log.info('capture request blocked', { host: url.hostname, type: request.resourceType(), reason: verdict.reason });
    await request.abort(verdict.kind === 'unresolvable' ? 'namenotresolved' : 'blockedbyclient').catch(ignore);
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

const downloadsDenied = new WeakSet<Browser>();

interface Opened {
  context: BrowserContext;
  page: Page;
}

/** A fresh page in a fresh context (or, in reset mode, in the wiped default context). */
async function create(lease: BrowserLease): Promise<Opened> {
  if (lease.isolation === 'context') {
    const context = await lease.browser.createBrowserContext({ downloadBehavior: { policy: 'deny' } });
    return { context, page: await context.newPage() };
  }
  const context = lease.browser.defaultBrowserContext();
  if (!downloadsDenied.has(lease.browser)) {
    // A fresh context gets this as an option; the default context is set once per browser.
    const session = await lease.browser.target().createCDPSession();
    await session.send('Browser.setDownloadBehavior', { behavior: 'deny' }).finally(() => session.detach().catch(ignore));
    downloadsDenied.add(lease.browser);
  }
  return { context, page: await context.newPage() };
}

/**
 * One never-used page per browser, made after a capture so the next one need not wait for a
 * context and renderer; nothing has been loaded in it.
 */
const spares = new WeakMap<Browser, Promise<Opened>>();

async function open(lease: BrowserLease): Promise<Opened> {
  const spare = spares.get(lease.browser);
  spares.delete(lease.browser);
  const ready = await spare?.catch(() => undefined);
  if (ready && !ready.page.isClosed() && lease.browser.connected) return ready;
  // A spare whose page died still holds its own context open.
  if (ready && lease.isolation === 'context') void ready.context.close().catch(ignore);
  return create(lease);
}

function prepareSpare(lease: BrowserLease): Promise<void> {
  if (!lease.browser.connected || spares.has(lease.browser)) return Promise.resolve();
  const spare = create(lease);
  spares.set(lease.browser, spare);
  return spare.then(ignore, () => void spares.delete(lease.browser));
}

/**
 * A fresh context is closed; the shared default context (single-process Chromium) has every
 * page closed and cookies, HTTP cache and all storage of each origin used cleared.
 */
async function discard(lease: BrowserLease, context: BrowserContext, page: Page, origins: ReadonlySet<string>): Promise<void> {
  if (lease.isolation === 'context') return context.close();
  try {
    await wipe(page, origins);
  } catch {
    // The capture's page may be gone (closed by its own script, or crashed): wipe from a new one.
    const helper = await context.newPage();
    await wipe(helper, origins);
  }
  // Popups the page opened live in the same context: close every page.
  await Promise.all((await context.pages()).map((open) => open.close().catch(ignore)));
}

/** Through a page's session: the Storage domain refuses the browser target. */
async function wipe(page: Page, origins: ReadonlySet<string>): Promise<void> {
  const session = await page.createCDPSession();
  try {
    await Promise.all([
      session.send('Network.clearBrowserCookies'),
      session.send('Network.clearBrowserCache'),
      ...[...origins].map((origin) => session.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' })),
    ]);
  } finally {
    await session.detach().catch(ignore);
  }
}

/** Ends a browser whose shared state could not be wiped, and waits until it is gone. */
async function retire(browser: Browser): Promise<void> {
  if (!browser.connected) return;
  const gone = new Promise<void>((resolve) => browser.once('disconnected', () => resolve()));
  browser.process()?.kill('SIGKILL');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([gone, new Promise((resolve) => (timer = setTimeout(resolve, 5_000)))]);
  clearTimeout(timer);
}

/**
 * The viewport (or page, or element) as PNG bytes. 408 past the time-out, 400 on a redirect to a
 * refused address or an invalid selector, 404 when `selector` matches nothing, 503 when a remote
 * browser drops, else 500.
 */
export async function capturePng(lease: BrowserLease, request: CaptureRequest, guard: TargetGuard): Promise<CaptureOutput> {
  const deadline = new Deadline(request.timeoutMs, request.signal);
  // Kept apart from the race so a page that opens after the deadline is still cleaned up.
  const opening = open(lease);
  let traffic: Traffic | undefined;
  try {
    const { page } = await deadline.race(opening);
    traffic = new Traffic(page, guard);
    // A dialog would block the page's scripts, and with them the load event, until the time-out.
    page.on('dialog', (dialog) => void dialog.dismiss().catch(ignore));
    // A window that slipped past the popup blocker is not intercepted: close it at once.
    page.on('popup', (popup) => void popup?.close().catch(ignore));
    const options = request.options ?? DEFAULT_OPTIONS;
    const device = { ...DEVICES[request.deviceType], deviceScaleFactor: options.scale ?? DEVICES[request.deviceType].deviceScaleFactor };
    const agent = userAgentFor(request.deviceType, await deadline.race(versionOf(lease.browser)));
    // Independent CDP calls, sent together rather than one round trip after another.
    [traffic.clean] = await deadline.race(
      Promise.all([
        prepare(page, options, request.url),
        // Checked on the blank page, so a bad selector costs no navigation.
        assertSelectors(page, options),
        page.setViewport(device),
        page.setUserAgent({ userAgent: agent.userAgent, userAgentMetadata: agent.userAgentMetadata, platform: agent.platform }),
        page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: request.colorScheme }]),
        // Service workers could answer requests without them reaching interception.
        page.setBypassServiceWorker(true),
        page.setRequestInterception(true),
      ]),
    );
    const wait = request.wait ?? DEFAULT_WAIT;
    await deadline.race(page.goto(request.url.href, { waitUntil: wait.kind === 'lifecycle' ? wait.event : 'load', timeout: 0 }));
    const loaded = traffic.seen;
    // A full page with nothing to do before its scroll-through settles once, after it.
    const settleAfterScroll = wait.kind === 'settle' && options.fullPage && !options.blockBanners && !options.blockAds && options.waitForSelector === undefined && options.delay === 0;
    if (wait.kind === 'settle' && !settleAfterScroll) await deadline.race(settle(page, traffic, wait.quietMs, Math.min(wait.maxMs, deadline.remaining() - SCREENSHOT_RESERVE_MS)));
    await deadline.race(traffic.clean.settle(Math.max(0, deadline.remaining() - SCREENSHOT_RESERVE_MS)));
    if (options.waitForSelector !== undefined) await deadline.race(waitVisible(page, options.waitForSelector, deadline, request.timeoutMs));
    if (options.delay > 0) await deadline.race(new Promise((resolve) => setTimeout(resolve, options.delay)));
    if (options.hideSelectors.length > 0) await deadline.race(page.evaluate(hideMatches, options.hideSelectors));
    return await photograph(page, traffic, options, device, deadline, settleAfterScroll ? { since: loaded, orInFlight: true } : { since: traffic.seen, orInFlight: false });
  } catch (error) {
    throw await classify(error, lease, request, guard, traffic);
  } finally {
    deadline.dispose();
    // Clean-up does not delay the response; the lease waits for it and for the next spare page,
    // made only once the state is wiped.
    const origins = traffic?.origins ?? new Set<string>();
    void opening
      .then(
        ({ context, page }) => discard(lease, context, page, origins),
        () => undefined,
      )
      .then(() => prepareSpare(lease))
      .catch(async (error: unknown) => {
        log.warn('capture clean-up failed', { error: serializeError(error) });
        // A default context that could not be wiped must not serve another capture.
        if (lease.isolation === 'reset') await retire(lease.browser);
      })
      .finally(() => lease.release());
  }
}

/**
 * The picture the options ask for: the viewport, the page to its end (scrolled through first, at
 * most the maximum height, then settled if the page made requests since `settled.since`, or still
 * has some in flight when `orInFlight`) or one element's box.
 */
async function photograph(page: Page, traffic: Traffic, options: CaptureOptions, device: DeviceProfile, deadline: Deadline, settled: { since: number; orInFlight: boolean }): Promise<CaptureOutput> {
  // CSS pixels: the image's height and pixel count caps, at this width and scale.
  const maxHeight = Math.floor(Math.min(MAX_CAPTURE_HEIGHT_PX, MAX_CAPTURE_PIXELS / (device.width * device.deviceScaleFactor)) / device.deviceScaleFactor);
  let pageHeight = 0;
  if (options.fullPage) {
    pageHeight = await deadline.race(page.evaluate(scrollThrough, maxHeight));
    // What the scroll started loading (lazy images, the next page of a feed), if anything.
    if (traffic.seen !== settled.since || (settled.orInFlight && traffic.busy)) await deadline.race(settle(page, traffic, SETTLE.quietMs, Math.min(SETTLE.maxMs, deadline.remaining() - SCREENSHOT_RESERVE_MS)));
  }
  if (options.selector !== undefined) {
    const box = await deadline.race(page.evaluate(documentBox, options.selector));
    if (!box || box.width < 1 || box.height < 1) {
      throw new NotFoundError(
        'No element matches the selector',
        `No element with a visible box matches selector ${JSON.stringify(options.selector)} once the page is ready; check it against the page, or wait for it with waitForSelector.`,
      );
    }
    const clip = { x: Math.max(0, box.x), y: Math.max(0, box.y), width: box.width, height: Math.min(box.height, maxHeight) };
    return { png: await deadline.race(page.screenshot({ type: 'png', clip, captureBeyondViewport: true })) };
  }
  if (options.fullPage) {
    const height = Math.max(1, Math.min(pageHeight, maxHeight));
    const clip = { x: 0, y: 0, width: device.width, height };
    const png = await deadline.race(page.screenshot({ type: 'png', clip, captureBeyondViewport: true }));
    return { png, extent: { truncated: pageHeight > maxHeight, capturedHeight: height } };
  }
  return { png: await deadline.race(page.screenshot({ type: 'png', captureBeyondViewport: false })) };
}

/** 400 naming the field of the first selector the browser's querySelector refuses. */
async function assertSelectors(page: Page, options: Partial<CaptureOptions>): Promise<void> {
  const selectors = selectorsOf(options);
  if (selectors.length === 0) return;
  const invalid = await page.evaluate(firstInvalidSelector, selectors.map((entry) => entry.selector));
  const entry = selectors[invalid];
  if (entry) throw new InvalidRequestError(`Invalid ${entry.field}`, `${entry.field} is not a valid CSS selector: ${JSON.stringify(entry.selector)}.`);
}

/** Polls in the page until a match is visible; 408 naming the selector when the time-out comes first. */
async function waitVisible(page: Page, selector: string, deadline: Deadline, timeoutMs: number): Promise<void> {
  try {
    await page.waitForFunction(isVisible, { polling: 50, timeout: Math.max(1, deadline.remaining() - SCREENSHOT_RESERVE_MS) }, selector);
  } catch (error) {
    if ((error as Error).name !== 'TimeoutError') throw error;
    throw new UpstreamTimeoutError(
      `No element matching waitForSelector ${JSON.stringify(selector)} was visible within the ${timeoutMs} ms capture time-out; check the selector, or capture without it.`,
      error,
    );
  }
}

async function settle(page: Page, traffic: Traffic, quietMs: number, budgetMs: number): Promise<void> {
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

const PROXY_REFUSALS = /net::ERR_(TUNNEL_CONNECTION_FAILED|EMPTY_RESPONSE|CONNECTION_CLOSED|PROXY_CONNECTION_FAILED)/;

async function classify(error: unknown, lease: BrowserLease, request: CaptureRequest, guard: TargetGuard, traffic?: Traffic): Promise<HttpError> {
  if (error instanceof HttpError) return error;
  if (traffic?.mainBlocked) {
    const { url, verdict } = traffic.mainBlocked;
    return new InvalidUrlError('Redirect to a refused target', `The page redirected to ${url.hostname}, refused: ${verdict.reason}.`, error);
  }
  if (error instanceof CaptureTimeout || (error as Error).name === 'TimeoutError') {
    return new UpstreamTimeoutError(`The page did not finish loading within the ${request.timeoutMs} ms capture time-out; retry later or capture a lighter page.`, error);
  }
  if (!lease.browser.connected) {
    return lease.strategy === 'remote-cdp'
      ? new UpstreamUnavailableError('The remote capture browser went away during the capture; retry later.', error)
      : new UpstreamFailedError({ hint: 'The capture browser stopped during the capture; retry.', cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  const netError = /net::ERR_[A-Z_]+/.exec(message)?.[0];
  // The proxy refuses by dropping the connection; if the target is refused now, say so (DNS rebinding).
  if (lease.proxied && netError && PROXY_REFUSALS.test(netError)) {
    const verdict = await guard.verdict(request.url);
    if (!verdict.allowed) return new InvalidUrlError('Target address not allowed', `${request.url.hostname} is refused: ${verdict.reason}.`, error);
  }
  return new UpstreamFailedError({
    hint: netError ? `The page could not be loaded (${netError}).` : 'The page could not be captured; retry later.',
    cause: error,
  });
}
