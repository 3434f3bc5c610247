/** The source apps' secret store this container reads: Secrets Manager under the stack's prefix, or the local folder. */
import { secretsManagerClient } from '#shared/aws/secrets-manager.ts';
import { config } from '#shared/config.ts';
import { localSecrets, secretsManagerSecrets, type SourceSecretStore } from '#shared/store/source-secrets.ts';
import { awsClientSettings } from '#shared/wiring/aws-clients.ts';

let store: SourceSecretStore | undefined;

/** Undefined where neither SOURCE_SECRET_PREFIX nor LOCAL_SECRETS_DIR is set. */
export function sourceSecretStore(): SourceSecretStore | undefined {
  const where = config().sourceSecrets;
  if (where === undefined) return undefined;
  store ??= 'dir' in where ? localSecrets(where.dir) : secretsManagerSecrets(secretsManagerClient(awsClientSettings(undefined)), where.prefix);
  return store;
}
