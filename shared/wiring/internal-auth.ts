/** The internal-secret check on Secrets Manager, in a file of its own so only 'internal' rows bundle the client. */
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { secretsManagerClient } from '#shared/aws/secrets-manager.ts';
import { awsClientSettings } from '#shared/wiring/aws-clients.ts';
import type { HttpMiddleware } from '#shared/http/handler.ts';
import { internalAuth as internalAuthWith } from '#shared/http/internal-auth.ts';
import type { InternalAuthOptions } from '#shared/http/internal-auth.ts';

let client: SecretsManagerClient | undefined;

export async function readSecretString(arn: string): Promise<string> {
  // No endpoint override: locally the secret is configured by value (INTERNAL_SECRET), never read.
  client ??= secretsManagerClient(awsClientSettings(undefined));
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  if (!SecretString) throw new Error(`Secret ${arn} has no string value`);
  return SecretString;
}

export const internalAuth = (options: Pick<InternalAuthOptions, 'operationId'>): HttpMiddleware => internalAuthWith({ ...options, read: readSecretString });
