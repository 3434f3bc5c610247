/**
 * Secrets Manager access, kept out of shared/aws.ts so only the functions that read a secret
 * carry the client in their bundle.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config } from '#shared/config.ts';

let client: SecretsManagerClient | undefined;

/** The string value of a Secrets Manager secret (the current version). */
export async function readSecretString(arn: string): Promise<string> {
  client ??= new SecretsManagerClient({ region: config().region, maxAttempts: 3 });
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  if (!SecretString) throw new Error(`Secret ${arn} has no string value`);
  return SecretString;
}
