/**
 * The credential provider of the deployed functions: the bundler puts it in place of the SDK's
 * default chain (`@aws-sdk/credential-provider-node`, see infra/constructs/easel-function.ts);
 * the local runtime and the tests keep the default chain.
 *
 * Lambda hands a function its role's credentials in AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
 * AWS_SESSION_TOKEN, which the default chain reads first and where it therefore always stops on
 * Lambda. Its other links (SSO, shared config and credential files, credential processes, web
 * identity, instance metadata) are loaded with import(), which a bundle without code splitting
 * inlines: ~140 KB of every function, with the STS, SSO and sign-in clients they embed. Kept from
 * the chain besides the environment: the container credential endpoint
 * (AWS_CONTAINER_CREDENTIALS_FULL_URI or _RELATIVE_URI), for a runtime that hands credentials
 * that way instead.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { fromHttp } from '@aws-sdk/credential-provider-http';

type Init = Parameters<typeof fromEnv>[0] & Parameters<typeof fromHttp>[0];
type Provider = ReturnType<typeof fromEnv>;

const CONTAINER_ENDPOINT = ['AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI'];

/** The SDK clients' default credential provider, as `@aws-sdk/credential-provider-node` exports it. */
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
