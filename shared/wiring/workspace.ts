/**
 * Dependencies of the workspace services in this container: the shared SDK clients and the
 * configured table, bucket and queue, built once at first use.
 */
import { dynamo, s3, sqs } from '#shared/aws.ts';
import { config } from '#shared/config.ts';
import { identityStore } from '#shared/wiring/identity.ts';
import { rateTableLimiter } from '#shared/wiring/rate-limit.ts';
import type { AssetDeps } from '#shared/services/assets.ts';
import type { ReleaseDeps } from '#shared/services/releases.ts';
import type { SourceAppDeps } from '#shared/services/source-apps.ts';
import { ReleaseStore } from '#shared/store/releases.ts';
import { SourceAppStore } from '#shared/store/source-apps.ts';

let assets: AssetDeps | undefined;
let releases: ReleaseDeps | undefined;
let sourceApps: SourceAppDeps | undefined;

/** Counters of per-workspace quotas, in the rate table. */
export const quotaLimiter = rateTableLimiter;

/** Asset services: the workspace table, the assets bucket and the deletion queue. */
export function assetDeps(): AssetDeps {
  assets ??= { dynamo, s3, sqs, table: config().tables.workspace, bucket: config().buckets.assets, deletionQueueUrl: config().queues.deletion };
  return assets;
}

/** Release services: the workspace table, and product surfaces through the identity store. */
export function releaseDeps(): ReleaseDeps {
  releases ??= {
    releases: new ReleaseStore({ dynamo, table: config().tables.workspace }),
    productSurfaceExists: async (workspaceId, productSurfaceId) =>
      (await identityStore().getProductSurface(workspaceId, productSurfaceId)) !== undefined,
  };
  return releases;
}

/** Source-app services: the workspace table. */
export function sourceAppDeps(): SourceAppDeps {
  sourceApps ??= { sourceApps: new SourceAppStore({ dynamo, table: config().tables.workspace }) };
  return sourceApps;
}
