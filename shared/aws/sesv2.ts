import { SESv2Client } from '@aws-sdk/client-sesv2';
import { clientConfig, type AwsClientSettings } from '#shared/aws/settings.ts';
import { traceAwsCalls } from '#shared/aws/tracing.ts';

export function sesv2Client(settings: AwsClientSettings): SESv2Client {
  const client = new SESv2Client(clientConfig(settings));
  traceAwsCalls(client);
  return client;
}
