/** The container's screenshot service: one browser across invocations, one target guard whose DNS answers the egress proxy shares. */
import { config } from '#shared/config.ts';
import { onShutdown } from '#shared/lifecycle.ts';
import { log, serializeError } from '#shared/log.ts';
import { cachingResolver, systemResolver } from '#shared/net/guard.ts';
import type { Resolver, TargetPolicy } from '#shared/net/guard.ts';
import { LocalChromium, RemoteBrowser } from '#shared/services/capture/browsers.ts';
import type { BrowserBackend } from '#shared/services/capture/browsers.ts';
import { captureCache } from '#shared/wiring/capture-cache.ts';
import { chromiumExecutable } from '#shared/wiring/chromium.ts';
import { withCaptureMetrics } from '#shared/services/capture/capture-metrics.ts';
import { capturePng } from '#shared/services/capture/page-capture.ts';
import { createScreenshotService } from '#shared/services/capture/screenshot-service.ts';
import type { ScreenshotService } from '#shared/services/capture/screenshot-service.ts';
import { createTargetGuard } from '#shared/services/capture/target.ts';
import type { TargetGuard } from '#shared/services/capture/target.ts';

/** Outlasts one capture, so the proxy connects where the check looked; short, so changed records are seen. */
const PINNED_ANSWER_MS = 30_000;
/** A hung browser must fail a CDP call well before the invocation ends. */
const PROTOCOL_TIMEOUT_MS = 25_000;
const REMOTE_CONNECT_TIMEOUT_MS = 5_000;
const DESTINATION_CONNECT_TIMEOUT_MS = 10_000;

let backend: BrowserBackend | undefined;
let service: ScreenshotService | undefined;

/** Exported for tests, which kill its browser. */
export function browserBackend(): BrowserBackend {
  if (backend) return backend;
  const cfg = config();
  const created: BrowserBackend = cfg.capture.remoteEndpoint
    ? new RemoteBrowser({ endpoint: cfg.capture.remoteEndpoint, connectTimeoutMs: REMOTE_CONNECT_TIMEOUT_MS, protocolTimeoutMs: PROTOCOL_TIMEOUT_MS })
    : new LocalChromium({
        executable: chromiumExecutable(),
        fonts: cfg.capture.fonts,
        singleProcess: cfg.capture.singleProcess,
        egress: { policy: targetPolicy(), resolve: resolver(), connectTimeoutMs: DESTINATION_CONNECT_TIMEOUT_MS },
        protocolTimeoutMs: PROTOCOL_TIMEOUT_MS,
      });
  onShutdown(() => created.close());
  backend = created;
  return created;
}

/** Loopback opens only on ports tests or a local run name; config.ts refuses both on Lambda. */
const targetPolicy = (): TargetPolicy => ({ loopbackPorts: [...config().unsafeTestLoopbackPorts, ...config().capture.localPorts] });

let sharedResolver: Resolver | undefined;
const resolver = () => (sharedResolver ??= cachingResolver(systemResolver, PINNED_ANSWER_MS));

let guard: TargetGuard | undefined;
export const targetGuard = (): TargetGuard => (guard ??= createTargetGuard(targetPolicy(), resolver()));

export function screenshotService(): ScreenshotService {
  const browsers = browserBackend();
  service ??= withCaptureMetrics(
    createScreenshotService({
      browsers,
      guard: targetGuard(),
      cache: captureCache(),
      timeoutMs: config().capture.timeoutMs,
      cacheTtlSeconds: config().cacheTtlSeconds,
    }),
    browsers.strategy,
  );
  return service;
}

/** Launches the browser, so a request's capture finds it started or starting. A failure is only logged (the capture launches again). */
export function prelaunch(): Promise<void> {
  return browserBackend()
    .acquire()
    .then(
      (lease) => lease.release(),
      (error: unknown) => log.warn('browser prelaunch failed', { error: serializeError(error) }),
    );
}

/** Launches the browser and captures an empty page when no request waits: Chromium's first screenshot is the slowest. Failures are logged. */
export function warmUp(): Promise<void> {
  return browserBackend()
    .acquire()
    .then((lease) =>
      capturePng(
        lease,
        { url: new URL('data:text/html,<title>warm-up</title>'), deviceType: 'desktop', colorScheme: 'light', timeoutMs: 10_000 },
        targetGuard(),
      ),
    )
    .then(
      () => undefined,
      (error: unknown) => log.warn('browser warm-up failed', { error: serializeError(error) }),
    );
}
