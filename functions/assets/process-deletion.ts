import { createDeletionWorker } from '#shared/services/asset-deletion.ts';
import { deletionDeps } from '#shared/wiring/assets.ts';

/** Deletion-queue worker: deletes the object of each queued asset and marks the asset deleted. */
export const handler = createDeletionWorker(deletionDeps());
