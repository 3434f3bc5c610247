/** The S3 client of this container (the client: aws/s3.ts; its settings: aws-clients.ts). */
import { S3Client } from '#shared/aws/s3.ts';
import { config } from '#shared/config.ts';
import { awsClientSettings } from '#shared/wiring/aws-clients.ts';

export const s3 = new S3Client(awsClientSettings(config().endpoints.s3));
