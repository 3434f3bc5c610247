/**
 * Credentials for the clients in aws/: the environment's (what Lambda hands every function:
 * AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), else a fallback, cached until five
 * minutes before it expires: the container endpoint in a deployed function, the SDK's whole chain
 * (profiles, SSO) in a local run or the admin command line (wiring/aws-clients.ts).
 */
import type * as Fs from 'node:fs';
import type * as Http from 'node:http';
import { get as httpsGet } from 'node:https';
import { createRequire } from 'node:module';
import type { AwsCredentials, CredentialProvider } from '#shared/aws/sigv4.ts';

// require(), not import: an ES import of node:http loads undici (see aws/transport.ts), one
// of node:fs its promises API (≈3 ms).
const nodeRequire = createRequire(import.meta.url);
const http = nodeRequire('node:http') as typeof Http;
const { readFileSync } = nodeRequire('node:fs') as typeof Fs;

/** The credentials in the environment, or undefined when it holds none. */
export function environmentCredentials(env: NodeJS.ProcessEnv = process.env): AwsCredentials | undefined {
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = env;
  if (!accessKeyId || !secretAccessKey) return undefined;
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

const REFRESH_BEFORE_MS = 5 * 60_000;

/** A provider that asks `source` once and again only when what it gave is about to expire. */
export function cachedProvider(source: CredentialProvider): CredentialProvider {
  let current: Promise<AwsCredentials> | undefined;
  return async () => {
    if (current) {
      const credentials = await current.catch(() => undefined);
      if (credentials && (!credentials.expiration || credentials.expiration.getTime() - Date.now() > REFRESH_BEFORE_MS)) return credentials;
    }
    current = source();
    return current;
  };
}

/** The environment's credentials when it has them, else `fallback` (cached). */
export function environmentThen(fallback: CredentialProvider): CredentialProvider {
  const cached = cachedProvider(fallback);
  return async () => environmentCredentials() ?? cached();
}

/**
 * The container credential endpoint (AWS_CONTAINER_CREDENTIALS_FULL_URI, or _RELATIVE_URI on
 * 169.254.170.2, with the token of AWS_CONTAINER_AUTHORIZATION_TOKEN or _FILE), for a runtime that
 * hands credentials that way rather than in the environment; undefined when none is configured.
 */
export async function containerCredentials(env: NodeJS.ProcessEnv = process.env): Promise<AwsCredentials | undefined> {
  const full = env.AWS_CONTAINER_CREDENTIALS_FULL_URI;
  const relative = env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI;
  if (!full && !relative) return undefined;
  const url = new URL(full ?? `http://169.254.170.2${relative}`);
  const tokenFile = env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE;
  const token = tokenFile ? readFileSync(tokenFile, 'utf8').trim() : env.AWS_CONTAINER_AUTHORIZATION_TOKEN;
  const body = await new Promise<string>((resolve, reject) => {
    const get = url.protocol === 'https:' ? httpsGet : http.get;
    const request = get(url, { headers: token ? { authorization: token } : {}, timeout: 1_000 }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('error', reject);
      response.on('end', () => (response.statusCode === 200 ? resolve(text) : reject(new Error(`the container credential endpoint answered ${response.statusCode}`))));
    });
    request.on('timeout', () => request.destroy(new Error('the container credential endpoint did not answer within 1000 ms')));
    request.on('error', reject);
  });
  const parsed = JSON.parse(body) as { AccessKeyId?: string; SecretAccessKey?: string; Token?: string; Expiration?: string };
  if (!parsed.AccessKeyId || !parsed.SecretAccessKey) throw new Error('the container credential endpoint answered without credentials');
  return {
    accessKeyId: parsed.AccessKeyId,
    secretAccessKey: parsed.SecretAccessKey,
    ...(parsed.Token ? { sessionToken: parsed.Token } : {}),
    ...(parsed.Expiration ? { expiration: new Date(parsed.Expiration) } : {}),
  };
}

/** What a deployed function falls back on without credentials in its environment. */
export const containerOnly: CredentialProvider = async () => {
  const credentials = await containerCredentials();
  if (!credentials) throw new Error('No AWS credentials: neither AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY nor a container credential endpoint is set.');
  return credentials;
};
