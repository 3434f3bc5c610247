/** Dependencies of the release and source-app services, built on first use. */
import { dynamo } from '#shared/wiring/dynamo.ts';
import { config } from '#shared/config.ts';
import { productSurfaceStore } from '#shared/wiring/identity.ts';
import type { ReleaseDeps } from '#shared/services/releases.ts';
import type { SourceAppDeps } from '#shared/services/source-apps.ts';
import { ReleaseStore } from '#shared/store/releases.ts';
import { SourceAppStore } from '#shared/store/source-apps.ts';

let releases: ReleaseDeps | undefined;
let sourceApps: SourceAppDeps | undefined;

export function releaseDeps(): ReleaseDeps {
  releases ??= {
    releases: new ReleaseStore({ dynamo, table: config().tables.workspace }),
    productSurfaceExists: async (workspaceId, productSurfaceId) => (await productSurfaceStore().getProductSurface(workspaceId, productSurfaceId)) !== undefined,
  };
  return releases;
}

export function sourceAppDeps(): SourceAppDeps {
  sourceApps ??= { sourceApps: new SourceAppStore({ dynamo, table: config().tables.workspace }) };
  return sourceApps;
}
