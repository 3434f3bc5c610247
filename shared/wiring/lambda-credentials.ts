/**
 * Replaces the SDK's default credential chain in deployed bundles: on Lambda it stops at the environment, and its other links
 * would inline their clients into every bundle. The container endpoint stays, for runtimes that use it (docs/dependencies.md).
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { fromHttp } from '@aws-sdk/credential-provider-http';

type Init = Parameters<typeof fromEnv>[0] & Parameters<typeof fromHttp>[0];
type Provider = ReturnType<typeof fromEnv>;

const CONTAINER_ENDPOINT = ['AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI'];

/** Shaped as `@aws-sdk/credential-provider-node` exports it. */
export const defaultProvider =
  (init: Init = {}): Provider =>
  async (properties) => {
    try {
      return await fromEnv(init)(properties);
    } catch (error) {
      if (!CONTAINER_ENDPOINT.some((name) => process.env[name])) throw error;
      return fromHttp(init)(properties);
    }
  };
