import { SQSClient } from '@aws-sdk/client-sqs';
import { clientConfig, type AwsClientSettings } from '#shared/aws/settings.ts';
import { traceAwsCalls } from '#shared/aws/tracing.ts';

export function sqsClient(settings: AwsClientSettings): SQSClient {
  const client = new SQSClient(clientConfig(settings));
  traceAwsCalls(client);
  return client;
}
