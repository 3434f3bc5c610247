import { s3Client } from '#shared/aws/s3.ts';
import { config } from '#shared/config.ts';
import { awsClientSettings } from '#shared/wiring/aws-clients.ts';

export const s3 = s3Client(awsClientSettings(config().endpoints.s3));
