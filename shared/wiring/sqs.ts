import { sqsClient } from '#shared/aws/sqs.ts';
import { config } from '#shared/config.ts';
import { awsClientSettings } from '#shared/wiring/aws-clients.ts';

export const sqs = sqsClient(awsClientSettings(config().endpoints.sqs));
