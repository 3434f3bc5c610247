import { dynamo, s3 } from '#shared/aws.ts';
import { config } from '#shared/config.ts';
import { createDeletionWorker } from '#shared/services/asset-deletion.ts';

const cfg = config();

/** Deletion-queue worker: deletes the object of each queued asset and marks the asset deleted. */
export const handler = createDeletionWorker({ dynamo, s3, table: cfg.tables.workspace, bucket: cfg.buckets.assets });
