/** The SQS client of this container (the client: aws/sqs.ts; its settings: aws-clients.ts). */
import { SqsClient } from '#shared/aws/sqs.ts';
import { config } from '#shared/config.ts';
import { awsClientSettings } from '#shared/wiring/aws-clients.ts';

export const sqs = new SqsClient(awsClientSettings(config().endpoints.sqs));
