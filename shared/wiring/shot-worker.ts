/** The shot worker's dependencies: the capture's browser and guard, a service that never caches (shots are of the page now), the stores. */
import { config } from '#shared/config.ts';
import { QUEUES } from '#shared/resources.ts';
import { createScreenshotService } from '#shared/services/capture/screenshot-service.ts';
import type { ShotWorkerDeps } from '#shared/services/shots/take-shot.ts';
import type { CaptureCache } from '#shared/store/capture-cache.ts';
import { SourceAppStore } from '#shared/store/source-apps.ts';
import { assetDeps } from '#shared/wiring/assets.ts';
import { browserBackend, targetGuard } from '#shared/wiring/capture.ts';
import { dynamo } from '#shared/wiring/dynamo.ts';
import { shotStores } from '#shared/wiring/release-shots.ts';
import { sourceSecretStore } from '#shared/wiring/source-secrets.ts';

const NO_CACHE: CaptureCache = { get: async () => undefined, put: async () => undefined, purgeUrl: async () => 0, purgeAll: async () => 0 };

/** A lease outlives the invocation that took it, so only a dead worker's lapses. */
const LEASE_MS = (QUEUES.shots.worker.timeout + 30) * 1000;

let deps: ShotWorkerDeps | undefined;

export function shotWorkerDeps(): ShotWorkerDeps {
  const cfg = config();
  deps ??= {
    ...shotStores(),
    ...assetDeps(),
    sourceApps: new SourceAppStore({ dynamo, table: cfg.tables.workspace }),
    secrets: sourceSecretStore(),
    capture: createScreenshotService({
      browsers: browserBackend(),
      guard: targetGuard(),
      cache: NO_CACHE,
      timeoutMs: cfg.capture.timeoutMs,
      cacheTtlSeconds: cfg.cacheTtlSeconds,
    }),
    leaseMs: LEASE_MS,
  };
  return deps;
}
