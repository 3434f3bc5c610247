import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { clientConfig, type AwsClientSettings } from '#shared/aws/settings.ts';
import { traceAwsCalls } from '#shared/aws/tracing.ts';

export function secretsManagerClient(settings: AwsClientSettings): SecretsManagerClient {
  const client = new SecretsManagerClient(clientConfig(settings));
  traceAwsCalls(client);
  return client;
}
