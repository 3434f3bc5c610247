/** A source app's `secretReference`: a Secrets Manager secret under the stack's prefix, or a local file; read on each use, never cached, logged or returned. */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { guard } from '#shared/store/outage.ts';

export interface SourceSecretStore {
  /** The secret's text, or undefined when no secret has this reference. */
  read(reference: string): Promise<string | undefined>;
  /** Where a missing secret should be put, for the hint. */
  describe(reference: string): string;
}

/** The characters of a Secrets Manager name: a reference with others cannot name a secret. */
const SECRET_NAME = /^[A-Za-z0-9/_+=.@-]{1,512}$/;

const WHAT = 'The secret store';

/** Secrets named `<prefix><reference>`; the function may read only that prefix (docs/deploy.md). */
export function secretsManagerSecrets(client: SecretsManagerClient, prefix: string): SourceSecretStore {
  return {
    async read(reference) {
      const name = `${prefix}${reference}`;
      if (!SECRET_NAME.test(name)) return undefined;
      try {
        const { SecretString } = await guard(WHAT, () => client.send(new GetSecretValueCommand({ SecretId: name })));
        return SecretString;
      } catch (error) {
        if ((error as { name?: string }).name === 'ResourceNotFoundException') return undefined;
        throw error;
      }
    },
    describe: (reference) => `Secrets Manager, named ${prefix}${reference}`,
  };
}

/** A reference's file: its hash, so no reference can name a path. */
const fileOf = (dir: string, reference: string) => join(dir, `${createHash('sha256').update(reference).digest('hex')}.json`);

/** The local runtime's store: one file per secret in a folder only its owner may read. */
export function localSecrets(dir: string): SourceSecretStore {
  return {
    async read(reference) {
      try {
        return await readFile(fileOf(dir, reference), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    describe: (reference) => `the local secret store (${dir}), written with npm run admin -- put-secret --name ${reference}`,
  };
}

/** Writes (or replaces) a local secret, readable by its owner only; written whole, then renamed into place. */
export async function writeLocalSecret(dir: string, reference: string, text: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = fileOf(dir, reference);
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, text, { mode: 0o600 });
  await rename(partial, file);
}
