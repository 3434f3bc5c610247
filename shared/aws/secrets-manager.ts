import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { clientConfig, type AwsClientSettings } from '#shared/aws/settings.ts';

export const secretsManagerClient = (settings: AwsClientSettings): SecretsManagerClient => new SecretsManagerClient(clientConfig(settings));
