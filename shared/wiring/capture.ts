/**
 * The screenshot service of this container, wired from configuration: one browser backend (the
 * bundled Chromium, or a remote one when BROWSER_WS_ENDPOINT is set) reused across invocations,
 * one target guard whose DNS answers the egress proxy shares, and the capture cache.
 */
import { config } from '#shared/config.ts';
import { onShutdown } from '#shared/lifecycle.ts';
import { log, serializeError } from '#shared/log.ts';
import { cachingResolver, systemResolver } from '#shared/net/guard.ts';
import type { Resolver, TargetPolicy } from '#shared/net/guard.ts';
import { LocalChromium, RemoteBrowser } from '#shared/services/capture/browsers.ts';
import type { BrowserBackend } from '#shared/services/capture/browsers.ts';
import { captureCache } from '#shared/wiring/capture-cache.ts';
import { capturePng } from '#shared/services/capture/page-capture.ts';
import { createScreenshotService } from '#shared/services/capture/screenshot-service.ts';
import type { ScreenshotService } from '#shared/services/capture/screenshot-service.ts';
import { createTargetGuard } from '#shared/services/capture/target.ts';
import type { TargetGuard } from '#shared/services/capture/target.ts';

/**
 * How long a checked DNS answer is reused. It must outlast one capture, so the proxy connects to
 * the address the interception check saw; it stays short so a changed record is picked up soon.
 */
const PINNED_ANSWER_MS = 30_000;
/** A hung browser must fail a CDP call well before the invocation ends. */
const PROTOCOL_TIMEOUT_MS = 25_000;
const REMOTE_CONNECT_TIMEOUT_MS = 5_000;
const DESTINATION_CONNECT_TIMEOUT_MS = 10_000;

let backend: BrowserBackend | undefined;
let service: ScreenshotService | undefined;

/** The browser backend of this container (tests reach in to kill its browser). */
export function browserBackend(): BrowserBackend {
  if (backend) return backend;
  const cfg = config();
  const created: BrowserBackend = cfg.capture.remoteEndpoint
    ? new RemoteBrowser({ endpoint: cfg.capture.remoteEndpoint, connectTimeoutMs: REMOTE_CONNECT_TIMEOUT_MS, protocolTimeoutMs: PROTOCOL_TIMEOUT_MS })
    : new LocalChromium({
        executablePath: cfg.capture.chromiumPath,
        singleProcess: cfg.capture.singleProcess,
        egress: { policy: targetPolicy(), resolve: resolver(), connectTimeoutMs: DESTINATION_CONNECT_TIMEOUT_MS },
        protocolTimeoutMs: PROTOCOL_TIMEOUT_MS,
      });
  onShutdown(() => created.close());
  backend = created;
  return created;
}

/** Loopback opens only on the ports the tests or a local run name (config.ts refuses both on Lambda). */
const targetPolicy = (): TargetPolicy => ({ loopbackPorts: [...config().unsafeTestLoopbackPorts, ...config().capture.localPorts] });

let sharedResolver: Resolver | undefined;
const resolver = () => (sharedResolver ??= cachingResolver(systemResolver, PINNED_ANSWER_MS));

let guard: TargetGuard | undefined;
const targetGuard = () => (guard ??= createTargetGuard(targetPolicy(), resolver()));

/** The screenshot service of this container, created on first use. */
export function screenshotService(): ScreenshotService {
  service ??= createScreenshotService({
    browsers: browserBackend(),
    guard: targetGuard(),
    cache: captureCache(),
    timeoutMs: config().capture.timeoutMs,
    cacheTtlSeconds: config().cacheTtlSeconds,
  });
  return service;
}

/**
 * Starts the browser and captures an empty page now rather than on the first request: Chromium's
 * first screenshot costs about twice a later one, and the capture leaves a spare page behind.
 * Called during a Lambda cold start, where the init phase runs at full CPU; a failure is only
 * logged (the first capture retries).
 */
export function warmUp(): Promise<void> {
  return browserBackend()
    .acquire()
    .then((lease) =>
      capturePng(lease, { url: new URL('data:text/html,<title>warm-up</title>'), deviceType: 'desktop', colorScheme: 'light', timeoutMs: 10_000 }, targetGuard()),
    )
    .then(
      () => undefined,
      (error: unknown) => log.warn('browser warm-up failed', { error: serializeError(error) }),
    );
}
