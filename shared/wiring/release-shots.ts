/** The stores of a release's shots, and what reading them takes: the table only. */
import { config } from '#shared/config.ts';
import type { ShotReadDeps } from '#shared/services/shots/read.ts';
import { ReleaseStore } from '#shared/store/releases.ts';
import { ShotStore } from '#shared/store/shots.ts';
import { dynamo } from '#shared/wiring/dynamo.ts';

let stores: { releases: ReleaseStore; shots: ShotStore } | undefined;

export function shotStores(): { releases: ReleaseStore; shots: ShotStore } {
  const table = config().tables.workspace;
  stores ??= { releases: new ReleaseStore({ dynamo, table }), shots: new ShotStore({ dynamo, table }) };
  return stores;
}

export const shotReadDeps = (): ShotReadDeps => ({ ...shotStores(), publicBaseUrl: config().publicBaseUrl });
