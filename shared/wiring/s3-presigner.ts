/**
 * The S3 presigner of this container: URLs as the S3 client of s3.ts would sign them (same
 * region, endpoint and path style), without that client (aws/s3-presigner.ts), on the
 * credentials of the DynamoDB client.
 */
import { S3Presigner } from '#shared/aws/s3-presigner.ts';
import { config } from '#shared/config.ts';
import { credentials } from '#shared/wiring/aws-clients.ts';

const cfg = config();

export const s3Presigner = new S3Presigner({ region: cfg.region, endpoint: cfg.endpoints.s3, credentials });
