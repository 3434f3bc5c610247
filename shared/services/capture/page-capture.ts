/** One capture on a lent browser: clean state, device emulated, every request guarded, one PNG, state thrown away. */
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { HttpError, InvalidRequestError, InvalidUrlError, UpstreamFailedError, UpstreamTimeoutError, UpstreamUnavailableError } from '#shared/errors.ts';
import { log, serializeError } from '#shared/log.ts';
import { versionOf } from '#shared/services/capture/browsers.ts';
import type { BrowserLease } from '#shared/services/capture/browsers.ts';
import { prepare } from '#shared/services/capture/clean-capture.ts';
import { CaptureTimeout, Deadline, ignore } from '#shared/services/capture/deadline.ts';
import { DEVICES, userAgentFor } from '#shared/services/capture/devices.ts';
import type { ColorScheme, DeviceProfile, DeviceType } from '#shared/services/capture/devices.ts';
import { firstInvalidSelector, hideMatches, isVisible } from '#shared/services/capture/in-page.ts';
import { DEFAULT_OPTIONS, selectorsOf } from '#shared/services/capture/options.ts';
import type { CaptureCredentials, CaptureOptions } from '#shared/services/capture/options.ts';
import { prepareView, signIn, stillMotion } from '#shared/services/capture/page-options.ts';
import { photograph, readAheadFor, SCREENSHOT_RESERVE_MS } from '#shared/services/capture/photograph.ts';
import { captureReport } from '#shared/services/capture/report.ts';
import type { TargetGuard } from '#shared/services/capture/target.ts';
import { quietAfterLoad, SETTLE, settle, watchPage } from '#shared/services/capture/settle.ts';
import type { SettleParameters } from '#shared/services/capture/settle.ts';
import { Traffic } from '#shared/services/capture/traffic.ts';
import { blockWorkers } from '#shared/services/capture/workers.ts';
import type { CaptureReport } from '#shared/schemas/screenshot.ts';
import type { Redaction } from '#shared/schemas/redaction.ts';
import type { CaptureExtent } from '#shared/store/capture-cache.ts';

/** The service always settles; the alternatives exist for `npm run bench` to compare against. */
export type WaitStrategy =
  | ({ kind: 'settle' } & SettleParameters)
  | { kind: 'lifecycle'; event: 'load' | 'domcontentloaded' | 'networkidle0' | 'networkidle2' }
  | { kind: 'load-quiet'; quietMs: number; maxMs: number };

export const DEFAULT_WAIT: WaitStrategy = { kind: 'settle', ...SETTLE };

export interface CaptureRequest {
  url: URL;
  deviceType: DeviceType;
  colorScheme: ColorScheme;
  /** The whole capture (set-up, load, settle, screenshot) must fit in this; otherwise 408. */
  timeoutMs: number;
  signal?: AbortSignal;
  wait?: WaitStrategy;
  options?: CaptureOptions;
  /** Headers for the target's origin and cookies for its host; never logged. */
  credentials?: CaptureCredentials;
}

export interface CaptureOutput {
  png: Uint8Array;
  /** The drawn document's address: the target's, or where a redirect or a click took the page. */
  url: string;
  extent?: CaptureExtent;
  report: CaptureReport;
  /** With `redact`: the boxes drawn over what was found, in image px. */
  redactions?: Redaction[];
}

const downloadsDenied = new WeakSet<Browser>();

interface Opened {
  context: BrowserContext;
  page: Page;
}

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

/** One never-used page per browser, made after a capture so the next need not wait for a context and renderer. */
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

/** A fresh context is closed; the shared default one (single-process Chromium) has its pages closed and each origin's data cleared. */
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

async function retire(browser: Browser): Promise<void> {
  if (!browser.connected) return;
  const gone = new Promise<void>((resolve) => browser.once('disconnected', () => resolve()));
  browser.process()?.kill('SIGKILL');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([gone, new Promise((resolve) => (timer = setTimeout(resolve, 5_000)))]);
  clearTimeout(timer);
}

/** The PNG: 408 past the time-out, 400 on a refused redirect or bad selector, 404 when nothing matches, 503 when a remote browser drops. */
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
    const wait = request.wait ?? DEFAULT_WAIT;
    const device = deviceFor(request.deviceType, options);
    const agent =
      options.userAgent === undefined ? userAgentFor(request.deviceType, await deadline.race(versionOf(lease.browser))) : { userAgent: options.userAgent };
    [traffic.clean] = await deadline.race(
      Promise.all([
        prepare(page, options, request.url),
        // Checked on the blank page, so a bad selector costs no navigation.
        assertSelectors(page, options),
        page.setViewport(device),
        page.setUserAgent(agent),
        page.emulateMediaFeatures([
          { name: 'prefers-color-scheme', value: request.colorScheme },
          { name: 'prefers-reduced-motion', value: options.reducedMotion ? 'reduce' : 'no-preference' },
        ]),
        signIn(page, traffic, request.credentials, request.url),
        // Service workers could answer requests without them reaching interception.
        page.setBypassServiceWorker(true),
        blockWorkers(page),
        wait.kind === 'settle' ? watchPage(page, wait) : undefined,
        page.setRequestInterception(true),
      ]),
    );
    // Settling, not `load`, decides when the page is ready (a stalled font holds `load` back for good); only a missing document times out.
    const waitUntil = wait.kind === 'lifecycle' ? wait.event : wait.kind === 'load-quiet' ? 'load' : 'domcontentloaded';
    await navigate(page, request.url, waitUntil, deadline, () => wait.kind === 'settle' && traffic?.document?.complete === true);
    if (wait.kind === 'load-quiet')
      await deadline.race(quietAfterLoad(page, traffic, wait.quietMs, Math.min(wait.maxMs, deadline.remaining() - SCREENSHOT_RESERVE_MS)));
    const ahead = readAheadFor(page, options);
    // A full page with nothing to do before its scroll-through settles after it only.
    const settleAfterScroll =
      wait.kind === 'settle' && options.fullPage && !options.blockBanners && !options.blockAds && options.waitForSelector === undefined && options.delay === 0;
    if (wait.kind === 'settle' && !settleAfterScroll) await deadline.race(settle(page, traffic, deadline.remaining() - SCREENSHOT_RESERVE_MS, wait));
    const cleaned = await deadline.race(traffic.clean.settle(Math.max(0, deadline.remaining() - SCREENSHOT_RESERVE_MS)));
    await prepareView(page, traffic, options, deadline);
    // A click may have sent the page to an address the guard refused.
    if (traffic.mainBlocked) throw refusedRedirect(traffic.mainBlocked);
    if (options.waitForSelector !== undefined) await deadline.race(waitVisible(page, options.waitForSelector, deadline, request.timeoutMs));
    if (options.delay > 0) await deadline.race(new Promise((resolve) => setTimeout(resolve, options.delay)));
    if (options.hideSelectors.length > 0) await deadline.race(page.evaluate(hideMatches, options.hideSelectors));
    await stillMotion(page, options, deadline);
    const picture = await photograph(page, traffic, options, device, deadline, ahead);
    const requests = { total: traffic.seen, refused: traffic.refused, blockedAds: traffic.blockedAds };
    const found = await captureReport({ page, traffic, area: picture.area, deadline, consent: cleaned.consent?.result, requests });
    const report = picture.unread ? { ...found, unread: picture.unread } : found;
    return {
      png: picture.png,
      url: drawnUrl(page, request.url),
      ...(picture.extent ? { extent: picture.extent } : {}),
      report,
      ...(picture.redactions ? { redactions: picture.redactions } : {}),
    };
  } catch (error) {
    throw await classify(error, lease, request, guard, traffic);
  } finally {
    deadline.dispose();
    // Clean-up does not delay the response; the lease waits for it and for the next spare page.
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

/** To the target until `waitUntil`, or near the time-out on with what is drawn if `arrived()` (a stalled script holds the parser); else 408. */
async function navigate(
  page: Page,
  url: URL,
  waitUntil: 'load' | 'domcontentloaded' | 'networkidle0' | 'networkidle2',
  deadline: Deadline,
  arrived: () => boolean,
) {
  const navigation = page.goto(url.href, { waitUntil, timeout: 0 });
  // Left behind when the picture is taken without it; it ends with the page.
  navigation.catch(ignore);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), Math.max(0, deadline.remaining() - SCREENSHOT_RESERVE_MS))));
  try {
    if ((await deadline.race(Promise.race([navigation, late]))) === 'late' && !arrived()) await deadline.race(navigation);
  } finally {
    clearTimeout(timer);
  }
}

function refusedRedirect({ url, verdict }: NonNullable<Traffic['mainBlocked']>, cause?: unknown): InvalidUrlError {
  return new InvalidUrlError('Redirect to a refused target', `The page went to ${url.hostname}, refused: ${verdict.reason}.`, cause);
}

/** The address of the document in the picture, without its fragment; the target's if the page shows none of its own. */
function drawnUrl(page: Page, target: URL): string {
  try {
    const url = new URL(page.url());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return target.href;
    url.hash = '';
    return url.href;
  } catch {
    return target.href;
  }
}

function deviceFor(type: DeviceType, options: CaptureOptions): DeviceProfile {
  const profile = DEVICES[type];
  return { ...profile, deviceScaleFactor: options.scale ?? profile.deviceScaleFactor, ...options.viewport };
}

/** 400 naming the field of the first selector the browser's querySelector refuses. */
async function assertSelectors(page: Page, options: Partial<CaptureOptions>): Promise<void> {
  const selectors = selectorsOf(options);
  if (selectors.length === 0) return;
  const invalid = await page.evaluate(
    firstInvalidSelector,
    selectors.map((entry) => entry.selector),
  );
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

const PROXY_REFUSALS = /net::ERR_(TUNNEL_CONNECTION_FAILED|EMPTY_RESPONSE|CONNECTION_CLOSED|PROXY_CONNECTION_FAILED)/;

async function classify(error: unknown, lease: BrowserLease, request: CaptureRequest, guard: TargetGuard, traffic?: Traffic): Promise<HttpError> {
  if (error instanceof HttpError) return error;
  if (traffic?.mainBlocked) return refusedRedirect(traffic.mainBlocked, error);
  if (error instanceof CaptureTimeout || (error as Error).name === 'TimeoutError') {
    return new UpstreamTimeoutError(
      `The page did not finish loading within the ${request.timeoutMs} ms capture time-out; retry later or capture a lighter page.`,
      error,
    );
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
    origin: 'target',
  });
}
