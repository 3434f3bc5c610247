/**
 * The internal-secret check on this container's Secrets Manager client: what a handler whose row
 * has auth 'internal' passes to route() as `uses.internalAuth`. Kept out of wiring/aws.ts so only
 * the functions that read a secret carry the client in their bundle.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config } from '#shared/config.ts';
import { internalAuth as internalAuthWith } from '#shared/http/internal-auth.ts';

let client: SecretsManagerClient | undefined;

/** The string value of a Secrets Manager secret (the current version). */
export async function readSecretString(arn: string): Promise<string> {
  client ??= new SecretsManagerClient({ region: config().region, maxAttempts: 3 });
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  if (!SecretString) throw new Error(`Secret ${arn} has no string value`);
  return SecretString;
}

/** The internal-secret middleware of a row, reading an ARN-configured secret from Secrets Manager. */
export const internalAuth = (operationId: string) => internalAuthWith(operationId, { read: readSecretString });
